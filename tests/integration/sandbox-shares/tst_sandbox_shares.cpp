// SPDX-License-Identifier: GPL-3.0-or-later
// Shared folders and variables, as the person who used to start agents with their own
// `docker run -v ~/.nuget:... -e PGHOST=postgres` uses them in Paddock: the real paddock and
// paddockd, bubblewrap, run as an ordinary user, in a home of the test's own.
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "Needs.h"

#include <QUuid>

#include <unistd.h>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestSandboxShares : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void foldersAndVariablesReachTheSandbox();
    void theyStayAcrossStopStartAndADaemonRestart();
    void sensitiveFoldersAreRefusedWithTheReason();
    void placesTheSandboxNeedsCannotBeCovered();
    void variablesPaddockSetsAndKeysAreRefused();
    void aStoredKeyAsAValueIsRefusedWithoutShowingIt();
    void aReadWriteProgramFolderIsSharedWithAWarning();
    void kitSharesApplyToNewSandboxesAndLeaveTheKitAlone();
    void aLinkPutInPlaceOfASharedFolderIsNotFollowed();

private:
    QString home(const QString &relative = {}) const
    {
        return m_fixture->path(QStringLiteral("home")) + (relative.isEmpty() ? QString() : QLatin1Char('/') + relative);
    }
    /** `paddock run` of the probe kit as @p name with @p options before the workspace. */
    Finished run(const QString &name, const QStringList &options, const QString &script)
    {
        return m_fixture->paddock(QStringList{QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                              QStringLiteral("--name"), name}
                                  << options << m_fixture->workspace() << QStringLiteral("--") << script);
    }
    /** Asserts that `run` with @p options is refused with @p reason, and makes no sandbox. */
    void expectRefused(const QStringList &options, const QString &reason);

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSandboxShares::initTestCase()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(), "bubblewrap");
    m_fixture = std::make_unique<SandboxFixture>();
    // A home of the test's own: what ~ means to the CLI and the daemon, with a ~/.ssh to protect.
    m_fixture->addEnvironment(QStringLiteral("HOME"), m_fixture->path(QStringLiteral("home")));
    m_fixture->addEnvironment(QStringLiteral("FROM_SHELL"), QStringLiteral("the shell's value"));
    for (const char *folder : {"home/.nuget", "home/.ssh", "home/.local/bin", "home/models"})
        QVERIFY(QDir().mkpath(m_fixture->path(QLatin1String(folder))));
    QVERIFY(paddock::test::writeFile(home(QStringLiteral("models/models.json")), "{\"models\": []}\n"));
    QVERIFY(paddock::test::writeFile(home(QStringLiteral(".ssh/id_ed25519")), "PRIVATE\n"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxShares::foldersAndVariablesReachTheSandbox()
{
    const Finished ran =
        run(QStringLiteral("shares"),
            {QStringLiteral("--mount"), QStringLiteral("~/.nuget:/home/agent/.nuget"), QStringLiteral("--mount"),
             home(QStringLiteral("models/models.json")) + QStringLiteral(":/home/agent/models.json:ro"),
             QStringLiteral("--env"), QStringLiteral("PGHOST=postgres"), QStringLiteral("--env"),
             QStringLiteral("FROM_SHELL")},
            QStringLiteral("echo \"PGHOST=$PGHOST\"; echo \"FROM_SHELL=$FROM_SHELL\"; "
                           "echo from-the-sandbox > /home/agent/.nuget/written; "
                           "cat /home/agent/models.json; "
                           "echo changed >> /home/agent/models.json || echo write-refused"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QVERIFY2(ran.out.contains(QStringLiteral("PGHOST=postgres\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QStringLiteral("FROM_SHELL=the shell's value\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QStringLiteral("{\"models\": []}\n")), qPrintable(ran.out));
    // A read-only file stays as it was: the write fails with EROFS.
    QVERIFY2(ran.out.contains(QStringLiteral("write-refused")), qPrintable(ran.out));
    QVERIFY2(ran.err.contains(QStringLiteral("Read-only file system")), qPrintable(ran.err));
    QCOMPARE(paddock::test::readFile(home(QStringLiteral("models/models.json"))), QByteArray("{\"models\": []}\n"));
    // What the sandbox wrote through the read-write folder is on the host, the user's own file.
    QCOMPARE(paddock::test::readFile(home(QStringLiteral(".nuget/written"))), QByteArray("from-the-sandbox\n"));
    QCOMPARE(QFileInfo(home(QStringLiteral(".nuget/written"))).ownerId(), ::getuid());
}

void TestSandboxShares::theyStayAcrossStopStartAndADaemonRestart()
{
    const QStringList shares{QStringLiteral("--mount"), QStringLiteral("~/.nuget:/home/agent/.nuget"),
                             QStringLiteral("--env"), QStringLiteral("NUGET_PACKAGES=/home/agent/.nuget/packages")};
    const Finished created =
        m_fixture->paddock(QStringList{QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                       QStringLiteral("--name"), QStringLiteral("kept")}
                           << shares << m_fixture->workspace());
    QVERIFY2(created.exitCode == 0, qPrintable(created.err));
    QVERIFY(m_fixture->paddock({QStringLiteral("start"), QStringLiteral("kept")}).exitCode == 0);
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("kept")}).exitCode == 0);
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());

    // A later run of the same sandbox, given nothing: it still has both.
    const Finished again = run(QStringLiteral("kept"), {},
                               QStringLiteral("echo \"NUGET_PACKAGES=$NUGET_PACKAGES\"; "
                                              "echo second > /home/agent/.nuget/second"));
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QVERIFY2(again.out.contains(QStringLiteral("NUGET_PACKAGES=/home/agent/.nuget/packages\n")), qPrintable(again.out));
    QCOMPARE(paddock::test::readFile(home(QStringLiteral(".nuget/second"))), QByteArray("second\n"));

    // `inspect` says what it shares; new options on an existing sandbox are not silently dropped.
    const Finished inspected = m_fixture->paddock({QStringLiteral("inspect"), QStringLiteral("kept")});
    const QJsonObject info = QJsonDocument::fromJson(inspected.out.toUtf8()).object();
    const QJsonObject mount = info.value(QLatin1String("mounts")).toArray().first().toObject();
    QCOMPARE(mount.value(QLatin1String("host")).toString(), home(QStringLiteral(".nuget")));
    QCOMPARE(mount.value(QLatin1String("inside")).toString(), QStringLiteral("/home/agent/.nuget"));
    QCOMPARE(mount.value(QLatin1String("mode")).toString(), QStringLiteral("rw"));
    QCOMPARE(info.value(QLatin1String("env")).toObject().value(QLatin1String("NUGET_PACKAGES")).toString(),
             QStringLiteral("/home/agent/.nuget/packages"));
    const Finished ignored =
        run(QStringLiteral("kept"), {QStringLiteral("--env"), QStringLiteral("X=1")}, QStringLiteral("echo \"X=$X\""));
    QVERIFY2(ignored.out.contains(QStringLiteral("X=\n")), qPrintable(ignored.out));
    QVERIFY2(ignored.err.contains(QStringLiteral("keeps the folders and variables it was created with")),
             qPrintable(ignored.err));
}

void TestSandboxShares::expectRefused(const QStringList &options, const QString &reason)
{
    const Finished ran = run(QStringLiteral("refused"), options, QStringLiteral("echo started"));
    QVERIFY2(ran.exitCode == 1 || ran.exitCode == 2,
             qPrintable(options.join(QLatin1Char(' ')) + QStringLiteral(": ") + ran.err));
    QVERIFY2(!ran.out.contains(QStringLiteral("started")), qPrintable(ran.out));
    QVERIFY2(ran.err.contains(reason), qPrintable(options.join(QLatin1Char(' ')) + QStringLiteral(": ") + ran.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("refused")));
}

void TestSandboxShares::sensitiveFoldersAreRefusedWithTheReason()
{
    const QString never = QStringLiteral("holds credentials or the sandbox's own boundary and is never shared");
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.ssh")}, QStringLiteral("~/.ssh ") + never);
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.ssh/id_ed25519:/home/agent/key:ro")},
                  QStringLiteral("~/.ssh/id_ed25519 is inside ~/.ssh, which ") + never);
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~:/home/agent/host-home:ro")},
                  QStringLiteral("holds your home folder, which cannot be shared"));
    expectRefused({QStringLiteral("--mount"), m_fixture->path(QString()) + QStringLiteral(":/mnt/all")},
                  QStringLiteral("holds your home folder, which cannot be shared"));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("/:/mnt/root:ro")}, QStringLiteral("/ cannot be shared"));
    expectRefused({QStringLiteral("--mount"),
                   m_fixture->path(QStringLiteral("config/paddock")) + QStringLiteral(":/home/agent/p")},
                  QStringLiteral("one of Paddock's own folders"));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("/proc:/mnt/proc:ro")}, never);
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/missing")}, QStringLiteral("does not exist"));
    // Through a link: what is checked is what the link leads to.
    QVERIFY(QFile::link(home(QStringLiteral(".ssh")), home(QStringLiteral("innocent"))));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/innocent:/home/agent/innocent")},
                  QStringLiteral("~/.ssh ") + never);
}

void TestSandboxShares::placesTheSandboxNeedsCannotBeCovered()
{
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.nuget:/")},
                  QStringLiteral("the sandbox needs its own system"));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.nuget:/run/paddock/endpoint")},
                  QStringLiteral("is the sandbox's own"));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.nuget:/home/agent")},
                  QStringLiteral("is the sandbox's home"));
    expectRefused(
        {QStringLiteral("--mount"), QStringLiteral("~/.nuget:") + m_fixture->workspace() + QStringLiteral("/nuget")},
        QStringLiteral("is in the workspace"));
    expectRefused({QStringLiteral("--mount"), QStringLiteral("~/.nuget:relative")}, QStringLiteral("must be absolute"));
}

void TestSandboxShares::variablesPaddockSetsAndKeysAreRefused()
{
    expectRefused({QStringLiteral("--env"), QStringLiteral("HTTPS_PROXY=http://elsewhere:3128")},
                  QStringLiteral("HTTPS_PROXY is set by Paddock itself"));
    expectRefused({QStringLiteral("--env"), QStringLiteral("SSL_CERT_FILE=/tmp/mine.pem")},
                  QStringLiteral("SSL_CERT_FILE is set by Paddock itself"));
    // The probe kit's credential keeps its placeholder in TEST_API_KEY.
    expectRefused({QStringLiteral("--env"), QStringLiteral("TEST_API_KEY=the-real-one")},
                  QStringLiteral("where the kit's credential keeps its placeholder"));
    expectRefused({QStringLiteral("--env"), QStringLiteral("TOKEN=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv")},
                  QStringLiteral("looks like an API key"));
    expectRefused({QStringLiteral("--env"), QStringLiteral("1BAD=x")}, QStringLiteral("is not NAME=VALUE or NAME"));
}

void TestSandboxShares::aStoredKeyAsAValueIsRefusedWithoutShowingIt()
{
    const QByteArray key = "corp-" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const Finished stored =
        m_fixture->paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("corp")}, key);
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));
    const Finished ran = run(QStringLiteral("refused"), {QStringLiteral("--env"), QStringLiteral("CORP_TOKEN=") + key},
                             QStringLiteral("echo started"));
    QCOMPARE(ran.exitCode, 1);
    QVERIFY2(ran.err.contains(QStringLiteral("the value of CORP_TOKEN is the key stored as secret 'corp'")),
             qPrintable(ran.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("refused")));
    // The key appears in what was printed only where the test itself put it: the command line.
    QVERIFY(!ran.out.contains(QString::fromUtf8(key)) && !ran.err.contains(QString::fromUtf8(key)));
    QVERIFY(!m_fixture->daemonLog().contains(QString::fromUtf8(key)));
    QVERIFY(m_fixture->paddock({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("corp")}).exitCode == 0);
}

void TestSandboxShares::aReadWriteProgramFolderIsSharedWithAWarning()
{
    const Finished ran =
        run(QStringLiteral("tools"), {QStringLiteral("--mount"), QStringLiteral("~/.local/bin:/opt/b")},
            QStringLiteral("printf '#!/bin/sh\\necho hi\\n' > /opt/b/tool"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QVERIFY2(ran.err.contains(QStringLiteral("~/.local/bin is shared read-write and this computer runs programs from "
                                             "~/.local/bin")),
             qPrintable(ran.err));
    QVERIFY(QFileInfo::exists(home(QStringLiteral(".local/bin/tool"))));
    // `paddock review` lists what the session put there.
    const Finished reviewed = m_fixture->paddock({QStringLiteral("review"), QStringLiteral("tools")});
    QVERIFY2(reviewed.exitCode == 0, qPrintable(reviewed.err));
    QVERIFY2(reviewed.out.contains(QStringLiteral("~/.local/bin/tool (a folder this computer runs programs from, "
                                                  "shared read-write)")),
             qPrintable(reviewed.out));
    // Read-only, no warning.
    const Finished readOnly =
        run(QStringLiteral("tools-ro"), {QStringLiteral("--mount"), QStringLiteral("~/.local/bin:/opt/b:ro")},
            QStringLiteral("ls /opt/b"));
    QVERIFY2(readOnly.exitCode == 0 && readOnly.out.contains(QStringLiteral("tool")), qPrintable(readOnly.err));
    QVERIFY2(!readOnly.err.contains(QStringLiteral("runs programs")), qPrintable(readOnly.err));
}

void TestSandboxShares::kitSharesApplyToNewSandboxesAndLeaveTheKitAlone()
{
    const QByteArray spec = paddock::test::readFile(m_fixture->kitDir() + QStringLiteral("/spec.yaml"));
    const Finished shared = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("share"), m_fixture->kitDir(), QStringLiteral("--mount"),
         QStringLiteral("~/models:/home/agent/models:ro"), QStringLiteral("--env"), QStringLiteral("PGHOST=db")});
    QVERIFY2(shared.exitCode == 0, qPrintable(shared.err));
    QVERIFY2(shared.out.contains(QStringLiteral("env   PGHOST=db")), qPrintable(shared.out));
    QCOMPARE(paddock::test::readFile(m_fixture->kitDir() + QStringLiteral("/spec.yaml")), spec);
    // The daemon checked and wrote them (one writer), and the very next create gets them.
    QVERIFY2(m_fixture->daemonLog().contains(QStringLiteral(" written: 1 folders, 1 variables")),
             qPrintable(m_fixture->daemonLog().right(2000)));

    const Finished ran = run(QStringLiteral("from-kit"), {QStringLiteral("--env"), QStringLiteral("EXTRA=1")},
                             QStringLiteral("echo \"PGHOST=$PGHOST EXTRA=$EXTRA\"; ls /home/agent/models"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QVERIFY2(ran.out.contains(QStringLiteral("PGHOST=db EXTRA=1\nmodels.json\n")), qPrintable(ran.out));
    // The run's own value wins over the kit's for the same name.
    const Finished own = run(QStringLiteral("from-kit-own"), {QStringLiteral("--env"), QStringLiteral("PGHOST=mine")},
                             QStringLiteral("echo \"PGHOST=$PGHOST\""));
    QVERIFY2(own.out.contains(QStringLiteral("PGHOST=mine\n")), qPrintable(own.out + own.err));

    const Finished refused = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("share"), m_fixture->kitDir(),
                                                 QStringLiteral("--mount"), QStringLiteral("~/.ssh")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("never shared")), qPrintable(refused.err));
    const Finished cleared = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("share"), m_fixture->kitDir(), QStringLiteral("--clear")});
    QVERIFY2(cleared.out.contains(QStringLiteral("share no folder or variable")), qPrintable(cleared.out));
}

void TestSandboxShares::aLinkPutInPlaceOfASharedFolderIsNotFollowed()
{
    // The hostile agent: a folder shared read-only lies in its writable workspace, so it puts a
    // link to ~/.ssh in its place, hoping the next start mounts what the link leads to.
    const QString cache = m_fixture->workspace() + QStringLiteral("/cache");
    QVERIFY(QDir().mkpath(cache));
    const Finished swapped =
        run(QStringLiteral("swap"), {QStringLiteral("--mount"), cache + QStringLiteral(":/opt/cache:ro")},
            QStringLiteral("rm -rf '%1' && ln -s '%2' '%1' && echo swapped").arg(cache, home(QStringLiteral(".ssh"))));
    QVERIFY2(swapped.out.contains(QStringLiteral("swapped")), qPrintable(swapped.out + swapped.err));
    QVERIFY(QFileInfo(cache).isSymLink());
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("swap")}).exitCode == 0);
    const Finished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("swap")});
    QCOMPARE(started.exitCode, 1);
    QVERIFY2(started.err.contains(QStringLiteral("sandbox swap is not started")) &&
                 started.err.contains(QStringLiteral("~/.ssh holds credentials")),
             qPrintable(started.err));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("swap")).value(QLatin1String("status")).toString(),
             QStringLiteral("stopped"));
    // A link to a folder that could be shared is not followed either: what was shared is what is.
    QVERIFY(QFile::remove(cache));
    QVERIFY(QFile::link(home(QStringLiteral("models")), cache));
    const Finished moved = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("swap")});
    QCOMPARE(moved.exitCode, 1);
    QVERIFY2(moved.err.contains(QStringLiteral("a link was put in its place, which is not followed")),
             qPrintable(moved.err));
    QFile::remove(cache);
}

QTEST_GUILESS_MAIN(TestSandboxShares)
#include "tst_sandbox_shares.moc"

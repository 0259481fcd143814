// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock shim`: the launcher it writes, what it refuses to touch, and a shim typed in a project
// folder running its command inside a real bubblewrap sandbox through the real daemon.
#include "ProcessRun.h"
#include "SandboxFixture.h"

#include <csignal>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestShimCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void installWritesAMarkedLauncher();
    void shimRunsTheCommandInASandboxOfTheProjectFolder();
    void shimRunsTheAgentWithExactlyTheUsersArguments();
    void shimsShareTheFoldersSandbox();
    void shimPassesInterruptAndStatus();
    void refusesToOverwriteAFileItDidNotWrite();
    void reinstallUpdatesItsOwnShim();
    void warnsWhenTheFolderIsNotOnPath();
    void lsListsOnlyShims();
    void rmRemovesOnlyShims();
    void refusesABadCommandName();

private:
    QString bin() const { return m_fixture->path(QStringLiteral("bin")); }
    Finished shim(const QStringList &arguments, const QString &path = {});
    /** A kit shaped like the Pi sample's (entrypoint [pi, -a]): its "pi" prints what it got. */
    QString piShapedKit();
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestShimCli::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

Finished TestShimCli::shim(const QStringList &arguments, const QString &path)
{
    // PATH is the fixture's unless a test gives one; the warning depends on it.
    if (path.isEmpty())
        return m_fixture->paddock(QStringList{QStringLiteral("shim")} + arguments);
    return m_fixture->run(
        QStringLiteral("env"),
        QStringList{QStringLiteral("PATH=") + path, QStringLiteral(PADDOCK_BIN), QStringLiteral("shim")} + arguments);
}

void TestShimCli::installWritesAMarkedLauncher()
{
    const Finished installed = shim({QStringLiteral("install"), QStringLiteral("agent-a"), QStringLiteral("--kit"),
                                     m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
    QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
    const QString path = bin() + QStringLiteral("/agent-a");
    QVERIFY(QFileInfo(path).isExecutable());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray script = file.readAll();
    QVERIFY2(script.startsWith("#!/bin/sh\n# paddock-shim"), script.constData());
    QVERIFY2(script.contains("run --new-session --kit '" + m_fixture->kitDir().toUtf8() + "' -- \"$@\""),
             script.constData());
}

QString TestShimCli::piShapedKit()
{
    const QString dir = m_fixture->path(QStringLiteral("pi-kit"));
    QDir().mkpath(dir);
    QFile spec(dir + QStringLiteral("/spec.yaml"));
    if (!spec.exists()) {
        // "pi" here is sh running a script with $0 = pi: "$@" is what the kit and the user passed.
        const QByteArray yaml = R"(schemaVersion: "2"
kind: sandbox
name: pishape
sandbox:
  image: pi-sandbox:1
  entrypoint:
    - sh
    - -c
    - |
      case "$2" in
        wait) sleep 2 ;;
        trap) trap 'echo got-int; exit 9' INT; echo ready; while :; do sleep 0.1; done ;;
      esac
      echo "argv: $0 $*"; echo "pwd: $PWD"; exit 3
    - pi
    - -a
)";
        if (!spec.open(QIODevice::WriteOnly) || spec.write(yaml) != yaml.size())
            return {};
    }
    return dir;
}

void TestShimCli::shimRunsTheAgentWithExactlyTheUsersArguments()
{
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("pi"), QStringLiteral("--kit"), piShapedKit(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    const Finished ran =
        m_fixture->run(bin() + QStringLiteral("/pi"), {QStringLiteral("hello"), QStringLiteral("two words")});
    QCOMPARE(ran.exitCode, 3);
    QCOMPARE(ran.out, QStringLiteral("argv: pi -a hello two words\npwd: %1\n").arg(m_fixture->workspace()));
    const Finished bare = m_fixture->run(bin() + QStringLiteral("/pi"), {});
    QCOMPARE(bare.out.section(QLatin1Char('\n'), 0, 0), QStringLiteral("argv: pi -a"));
}

void TestShimCli::shimsShareTheFoldersSandbox()
{
    // Two at once, then one more: one sandbox, still running, each call a session of its own.
    QProcess first;
    first.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    first.setWorkingDirectory(m_fixture->workspace());
    first.start(bin() + QStringLiteral("/pi"), {QStringLiteral("wait")});
    QVERIFY(first.waitForStarted());
    const Finished second = m_fixture->run(bin() + QStringLiteral("/pi"), {QStringLiteral("second")});
    QCOMPARE(second.exitCode, 3);
    QVERIFY(first.waitForFinished(30000));
    QCOMPARE(first.exitCode(), 3);
    QVERIFY(first.readAllStandardOutput().startsWith("argv: pi -a wait"));
    QCOMPARE(m_fixture->run(bin() + QStringLiteral("/pi"), {QStringLiteral("third")}).exitCode, 3);
    int sandboxes = 0;
    for (const QJsonObject &sandbox : m_fixture->listed()) {
        if (sandbox.value(QLatin1String("kit")).toString() == QLatin1String("pishape")) {
            ++sandboxes;
            QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
        }
    }
    QCOMPARE(sandboxes, 1);
}

void TestShimCli::shimPassesInterruptAndStatus()
{
    QProcess typed;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    typed.setProcessEnvironment(env);
    typed.setWorkingDirectory(m_fixture->workspace());
    typed.start(bin() + QStringLiteral("/pi"), {QStringLiteral("trap")});
    QVERIFY(typed.waitForStarted());
    QVERIFY(paddock::test::waitForOutput(typed, "ready", 20000));
    ::kill(pid_t(typed.processId()), SIGINT); // what Ctrl-C does to a program without a terminal
    QVERIFY(typed.waitForFinished(15000));
    QCOMPARE(typed.exitCode(), 9);
    QVERIFY(typed.readAllStandardOutput().contains("got-int"));
}

void TestShimCli::shimRunsTheCommandInASandboxOfTheProjectFolder()
{
    // The probe kit's agent is `sh -c`: a shim's arguments are the script, run where it was typed.
    const Finished installed = shim({QStringLiteral("install"), QStringLiteral("probe"), QStringLiteral("--kit"),
                                     m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
    QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
    const Finished where = m_fixture->run(bin() + QStringLiteral("/probe"), {QStringLiteral("pwd")});
    QVERIFY2(where.exitCode == 0, qPrintable(where.out + where.err));
    QCOMPARE(where.out.trimmed(), m_fixture->workspace());
    const Finished ran = m_fixture->run(bin() + QStringLiteral("/probe"), {QStringLiteral("env")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    const QStringList lines = ran.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.contains(QStringLiteral("TEST_API_KEY=proxy-managed")), qPrintable(ran.out));
    QVERIFY2(lines.contains(QStringLiteral("HTTP_PROXY=http://127.0.0.1:3128")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String(SandboxFixture::kMarker)), qPrintable(ran.out));
    // The sandbox is the kit's, named after the project folder.
    QVERIFY2(m_fixture->listed().contains(QStringLiteral("probe-workspace")), "no sandbox probe-workspace");
}

void TestShimCli::refusesToOverwriteAFileItDidNotWrite()
{
    QDir().mkpath(bin());
    const QString path = bin() + QStringLiteral("/mine");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\necho my own script\n");
    file.close();
    const Finished installed = shim({QStringLiteral("install"), QStringLiteral("mine"), QStringLiteral("--kit"),
                                     m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
    QCOMPARE(installed.exitCode, 1);
    QVERIFY2(installed.err.contains(QLatin1String("was not written by 'paddock shim install'")),
             qPrintable(installed.err));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("#!/bin/sh\necho my own script\n"));
}

void TestShimCli::reinstallUpdatesItsOwnShim()
{
    const QString otherKit = m_fixture->path(QStringLiteral("other-kit"));
    QDir().mkpath(otherKit);
    QFile spec(otherKit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write("schemaVersion: \"2\"\nkind: sandbox\nname: other\nsandbox:\n  image: other:1\n");
    spec.close();
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-b"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-b"), QStringLiteral("--kit"), otherKit,
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    const Finished listed = shim({QStringLiteral("ls"), QStringLiteral("--dir"), bin(), QStringLiteral("--json")});
    bool found = false;
    for (const QJsonValue &value : QJsonDocument::fromJson(listed.out.toUtf8()).array()) {
        if (value.toObject().value(QLatin1String("command")).toString() == QLatin1String("agent-b")) {
            QCOMPARE(value.toObject().value(QLatin1String("kit")).toString(), otherKit);
            found = true;
        }
    }
    QVERIFY2(found, qPrintable(listed.out));
}

void TestShimCli::warnsWhenTheFolderIsNotOnPath()
{
    const QString away = m_fixture->path(QStringLiteral("away-bin"));
    const Finished off = shim({QStringLiteral("install"), QStringLiteral("agent-c"), QStringLiteral("--kit"),
                               m_fixture->kitDir(), QStringLiteral("--dir"), away},
                              QStringLiteral("/usr/bin:/bin"));
    QCOMPARE(off.exitCode, 0);
    QVERIFY2(off.err.contains(away + QStringLiteral(" is not on your PATH")), qPrintable(off.err));
    const Finished on = shim({QStringLiteral("install"), QStringLiteral("agent-c"), QStringLiteral("--kit"),
                              m_fixture->kitDir(), QStringLiteral("--dir"), away},
                             away + QStringLiteral(":/usr/bin:/bin"));
    QCOMPARE(on.exitCode, 0);
    QVERIFY2(!on.err.contains(QLatin1String("not on your PATH")), qPrintable(on.err));
}

void TestShimCli::lsListsOnlyShims()
{
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-d"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    QFile other(bin() + QStringLiteral("/plain-tool"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("#!/bin/sh\n");
    other.close();
    const Finished listed = shim({QStringLiteral("ls"), QStringLiteral("--dir"), bin()});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains(QStringLiteral("agent-d")), qPrintable(listed.out));
    QVERIFY2(listed.out.contains(m_fixture->kitDir()), qPrintable(listed.out));
    QVERIFY2(!listed.out.contains(QLatin1String("plain-tool")), qPrintable(listed.out));
}

void TestShimCli::rmRemovesOnlyShims()
{
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-e"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    const Finished removed = shim({QStringLiteral("rm"), QStringLiteral("agent-e"), QStringLiteral("--dir"), bin()});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY(!QFileInfo::exists(bin() + QStringLiteral("/agent-e")));

    QFile foreign(bin() + QStringLiteral("/foreign"));
    QVERIFY(foreign.open(QIODevice::WriteOnly));
    foreign.write("#!/bin/sh\necho not a shim\n");
    foreign.close();
    const Finished refused = shim({QStringLiteral("rm"), QStringLiteral("foreign"), QStringLiteral("--dir"), bin()});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("was not written by 'paddock shim install'")), qPrintable(refused.err));
    QVERIFY(QFileInfo::exists(bin() + QStringLiteral("/foreign")));
    QCOMPARE(shim({QStringLiteral("rm"), QStringLiteral("missing"), QStringLiteral("--dir"), bin()}).exitCode, 1);
}

void TestShimCli::refusesABadCommandName()
{
    for (const QString &name : {QStringLiteral("../escape"), QStringLiteral("a/b"), QStringLiteral("paddock")}) {
        const Finished installed = shim({QStringLiteral("install"), name, QStringLiteral("--kit"), m_fixture->kitDir(),
                                         QStringLiteral("--dir"), bin()});
        QCOMPARE(installed.exitCode, 2);
    }
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("escape"))));
}

QTEST_GUILESS_MAIN(TestShimCli)
#include "tst_shim_cli.moc"

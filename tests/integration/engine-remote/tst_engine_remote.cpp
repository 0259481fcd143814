// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox on a container engine that shares nothing with this computer: a second Docker
// engine started by the test in a mount namespace of its own (LabEngine.h), reached over TLS on
// 127.0.0.1 and added with --remote. The workspace's committed files are copied in, with HEAD's
// commit; the sandbox's only way out is the daemon's stream to the engine, and it meets the
// desktop's policy, key injection and event log; the key never reaches the engine's disk; when
// the stream is cut, the sandbox's connections end and the event log says why. Commits made
// inside come back as branches paddock/NAME/<branch>, and a crafted bundle changes nothing;
// a published port answers on the desktop's 127.0.0.1, carried over the same stream.
// What a kit's setup.install writes to the system stays in the sandbox, as an image on that engine.
#include "../proxy-inject/InjectTestSupport.h"
#include "DockerSandboxFixture.h"
#include "KeyringSession.h"
#include "LabEngine.h"
#include "PortsTestSupport.h"

#include "Needs.h"
#include "policy/PolicyStore.h"
#include "runtime/docker/DockerRuntime.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QUuid>

#include <unistd.h>

using paddock::proxy::testing::bearerModelKey;
using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::test::readFile;
namespace docker = paddock::runtime::docker;

class TestEngineRemote : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theWorkspaceIsACopyOfItsCommits();
    void theNetworkIsTheDesktopsAndTheKeyStaysHere();
    void aNewDaemonAndARestartOpenTheWayAgain();
    void aCutStreamLeavesNoWayOutAndSaysSo();
    void framesBreakingTheRulesAreCutOff();
    void commitsComeBackAsBranches();
    void aCraftedBundleLeavesTheRepositoryAsItWas();
    void aPublishedPortAnswersOnTheDesktopsLoopback();
    void whatSetupInstallPutInTheSystemStaysOnTheEngine();

private:
    QString file(const QString &name) const { return m_lab.file(name); }
    /** git in the desktop's workspace; its output, or "failed: ..." */
    QString desktopGit(const QStringList &arguments)
    {
        const DockerFinished done = m_fixture->run(QStringLiteral("git"), arguments);
        return done.exitCode == 0 ? done.out.trimmed() : QStringLiteral("failed: ") + done.err;
    }
    /** Runs @p script with sh as root in the lab's container of sandbox @p name; its output. */
    QByteArray asRootInside(const QString &name, const QString &script)
    {
        docker::ExecSpec exec;
        exec.user = QStringLiteral("0:0");
        exec.cmd = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
        const docker::Result<docker::ExecResult> ran =
            docker::DockerClient(labEndpoint()).exec(paddock::runtime::DockerRuntime::containerName(name), exec);
        return ran ? ran.value().stdoutData + ran.value().stderrData : ran.errorMessage().toUtf8();
    }
    docker::Endpoint labEndpoint() const { return m_lab.endpoint(); }
    /** `paddock` run to its end while this thread's event loop serves the upstream. */
    DockerFinished paddockLive(const QStringList &arguments, const QByteArray &input = {})
    {
        paddock::test::ProcessOptions options;
        options.environment = m_fixture->environment();
        options.workingDirectory = m_fixture->workspace();
        options.input = input;
        options.serveEvents = true;
        options.timeoutMs = 300000;
        return paddock::test::runText(QStringLiteral(PADDOCK_BIN), arguments, options);
    }
    QStringList runOnLab(const QString &name, const QString &command) const
    {
        return {QStringLiteral("run"),
                QStringLiteral("--engine"),
                QStringLiteral("lab"),
                QStringLiteral("--approve-credentials"),
                QStringLiteral("--kit"),
                m_kit,
                QStringLiteral("--name"),
                name,
                m_fixture->workspace(),
                QStringLiteral("--"),
                command};
    }
    QString curl(const QString &host, const QString &extra = {}) const
    {
        return QStringLiteral("curl -sS %1 -o /dev/null -w 'status=%{http_code}\\n' https://%2:%3/remote")
            .arg(extra, host)
            .arg(m_upstream.serverPort());
    }

    paddock::test::LabEngine m_lab;
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QString m_kit;
    QByteArray m_key = "sk-remote-" + QUuid::createUuid().toByteArray(QUuid::Id128);
};

void TestEngineRemote::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("dockerd"), {QStringLiteral("/usr/sbin")}).isEmpty(),
                 "dockerd (docker.io)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty(), "openssl");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("unshare")).isEmpty(), "unshare (util-linux)");
    PADDOCK_NEED(::getuid() == 0, "root, to start a second Docker engine");
    const QString started = m_lab.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const docker::DockerClient lab(labEndpoint());

    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture, true, true);
    const QString archive = file(QStringLiteral("image.tar"));
    QVERIFY(m_fixture->client().saveImage(m_fixture->imageTag(), archive));
    QVERIFY(lab.loadImage(archive));
    QVERIFY(QFile::remove(archive));

    m_certificates = std::make_unique<CertificateFactory>(m_fixture->path(QStringLiteral("certs")));
    QVERIFY(QDir().mkpath(m_fixture->path(QStringLiteral("certs"))));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("ca"), QStringLiteral("Remote Relay Test CA")));
    QVERIFY(m_certificates->makeLeaf(QStringLiteral("leaf"), QStringLiteral("api.inject.test"), QStringLiteral("ca")));
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("leaf.pem")),
                             m_certificates->path(QStringLiteral("leaf.key"))));
    QCOMPARE(
        m_fixture
            ->paddock({QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("ca.pem"))})
            .exitCode,
        0);
    m_fixture->stopDaemon();
    paddock::policy::PolicyStore policy(m_fixture->environment().value(QStringLiteral("XDG_CONFIG_HOME")) +
                                        QStringLiteral("/paddock/policy.yaml"));
    policy.load();
    for (const char16_t *host : {u"api.inject.test", u"other.remote.test"})
        QVERIFY(policy.setResolveOverride(host, QHostAddress(QStringLiteral("127.0.0.1"))).ok());
    QVERIFY(m_fixture->startDaemon());

    m_kit = m_fixture->writeKit(
        QStringLiteral("kit"), QStringLiteral("remote"), m_fixture->imageTag(), QStringLiteral("true"),
        QStringLiteral(
            "environment:\n  variables:\n    LD_LIBRARY_PATH: /lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu\n"
            "credentials:\n%1permissions:\n  network:\n    allow: [api.inject.test:%2]\n")
            .arg(bearerModelKey())
            .arg(m_upstream.serverPort()));
    const DockerFinished added = m_fixture->paddock(m_lab.addArguments(QStringLiteral("lab")));
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QCOMPARE(paddockLive({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, m_key).exitCode, 0);

    // The workspace: one file committed, one not.
    const QString ws = m_fixture->workspace();
    QVERIFY(QDir().mkpath(ws));
    QFile committed(ws + QStringLiteral("/committed.txt"));
    QVERIFY(committed.open(QIODevice::WriteOnly) && committed.write("from-the-desktop\n") > 0);
    committed.close();
    for (const QStringList &git :
         {QStringList{QStringLiteral("init"), QStringLiteral("-q")},
          QStringList{QStringLiteral("add"), QStringLiteral("committed.txt")},
          QStringList{QStringLiteral("-c"), QStringLiteral("user.name=t"), QStringLiteral("-c"),
                      QStringLiteral("user.email=t@example.com"), QStringLiteral("commit"), QStringLiteral("-qm"),
                      QStringLiteral("first")}}) {
        QCOMPARE(m_fixture->run(QStringLiteral("git"), git).exitCode, 0);
    }
    QFile draft(ws + QStringLiteral("/draft.txt"));
    QVERIFY(draft.open(QIODevice::WriteOnly) && draft.write("not committed\n") > 0);
}

void TestEngineRemote::cleanupTestCase()
{
    m_fixture.reset(); // the lab engine stops with the test object
}

void TestEngineRemote::theWorkspaceIsACopyOfItsCommits()
{
    const DockerFinished ran = paddockLive(runOnLab(
        QStringLiteral("rr-files"), QStringLiteral("pwd; cat committed.txt; ls; touch made-inside && echo writable")));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QStringLiteral("from-the-desktop\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QStringLiteral("draft.txt")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QStringLiteral("writable\n")), qPrintable(ran.out + ran.err));
    // The container is the lab's, and nothing of it came back to the desktop's folder.
    QVERIFY(paddock::runtime::DockerRuntime(labEndpoint(), QStringLiteral("lab")).inspect(QStringLiteral("rr-files")));
    QVERIFY(!QFile::exists(m_fixture->workspace() + QStringLiteral("/made-inside")));
}

void TestEngineRemote::theNetworkIsTheDesktopsAndTheKeyStaysHere()
{
    const qsizetype before = m_upstream.requests.size();
    const DockerFinished ran =
        paddockLive(runOnLab(QStringLiteral("rr-net"), QStringLiteral("echo \"variable=$LLM_API_KEY\"; %1; %2; true")
                                                           .arg(curl(QStringLiteral("api.inject.test")),
                                                                curl(QStringLiteral("other.remote.test")))));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QStringLiteral("variable=proxy-managed\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QStringLiteral("status=200\n")), qPrintable(ran.out + ran.err));
    // Refused by the desktop's proxy, in the sandbox's own protocol.
    QVERIFY2(ran.err.contains(QStringLiteral("CONNECT tunnel failed, response 403")), qPrintable(ran.out + ran.err));
    QCOMPARE(m_upstream.requests.size(), before + 1);
    QVERIFY2(m_upstream.requests.last().head.contains("\r\nAuthorization: Bearer " + m_key + "\r\n"),
             m_upstream.requests.last().head.constData());
    const DockerFinished log = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log")});
    QVERIFY2(log.out.contains(QStringLiteral("other.remote.test")), qPrintable(log.out));
    // The key was injected on the desktop: the engine's disk never held it.
    const DockerFinished grep = m_fixture->run(
        QStringLiteral("grep"), {QStringLiteral("-rqaF"), QString::fromUtf8(m_key), file(QStringLiteral("data"))});
    QCOMPARE(grep.exitCode, 1);
}

void TestEngineRemote::aNewDaemonAndARestartOpenTheWayAgain()
{
    const QStringList curlInside{QStringLiteral("exec"), QStringLiteral("rr-net"), QStringLiteral("sh"),
                                 QStringLiteral("-c"), curl(QStringLiteral("api.inject.test"))};
    // A daemon started anew finds the running sandbox on the lab engine and runs its way out again.
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
    QCOMPARE(m_fixture->listed().value(QStringLiteral("rr-net"))[QLatin1String("status")].toString(),
             QStringLiteral("running"));
    DockerFinished inside = paddockLive(curlInside);
    QVERIFY2(inside.out.contains(QStringLiteral("status=200\n")), qPrintable(inside.out + inside.err));
    // Stopped and started again, it gets a way out of its own again.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rr-net")}).exitCode, 0);
    const DockerFinished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("rr-net")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    inside = paddockLive(curlInside);
    QVERIFY2(inside.out.contains(QStringLiteral("status=200\n")), qPrintable(inside.out + inside.err));
}

void TestEngineRemote::aCutStreamLeavesNoWayOutAndSaysSo()
{
    // An upload slow enough to be cut in the middle.
    std::unique_ptr<QProcess> run = m_fixture->startPaddock(runOnLab(
        QStringLiteral("rr-cut"),
        QStringLiteral("head -c 4000000 /dev/zero > /tmp/big; touch /tmp/started; %1; echo curl=$?")
            .arg(curl(QStringLiteral("api.inject.test"), QStringLiteral("--limit-rate 40k --data-binary @/tmp/big")))));
    const docker::DockerClient lab(labEndpoint());
    const QString container = paddock::runtime::DockerRuntime::containerName(QStringLiteral("rr-cut"));
    docker::ExecSpec started;
    started.cmd = QStringList{QStringLiteral("test"), QStringLiteral("-e"), QStringLiteral("/tmp/started")};
    const auto hasStarted = [&] {
        const docker::Result<docker::ExecResult> r = lab.exec(container, started);
        return r && r.value().exitCode == 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(run->state() == QProcess::NotRunning || hasStarted(), 120000);
    QVERIFY2(run->state() != QProcess::NotRunning, run->readAllStandardError().constData());
    QTest::qWait(2000); // the upload is under way
    docker::ExecSpec cut;
    // The exec of `paddock-init --proxy-mux`, found by its command line (this shell's own names it in two halves).
    cut.cmd = QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                          QStringLiteral("m=proxy; m=--$m-mux; for p in /proc/[0-9]*; do "
                                         "if tr '\\0' ' ' < $p/cmdline | grep -q -- \"$m\"; then kill ${p#/proc/} && "
                                         "echo killed; fi; done")};
    cut.user = QStringLiteral("0:0");
    const docker::Result<docker::ExecResult> killed = lab.exec(container, cut);
    QVERIFY2(killed && killed.value().stdoutData.contains("killed"),
             killed ? (killed.value().stdoutData + killed.value().stderrData).constData()
                    : qPrintable(killed.errorMessage()));
    QVERIFY(QTest::qWaitFor([&run] { return run->state() == QProcess::NotRunning; }, 300000));
    const QString out = QString::fromUtf8(run->readAllStandardOutput());
    QVERIFY2(out.contains(QStringLiteral("curl=")) && !out.contains(QStringLiteral("curl=0")), qPrintable(out));
    QVERIFY2(!out.contains(QStringLiteral("status=200")), qPrintable(out));
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log")})
                                 .out.contains(QStringLiteral("engine lab")),
                             20000);
    const DockerFinished log =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY2(log.out.contains(QStringLiteral("the way out through engine lab is down")), qPrintable(log.out));
}

void TestEngineRemote::framesBreakingTheRulesAreCutOff()
{
    // Root in the container puts its own program where paddock-init was, and ends the relay's
    // exec: the exec the daemon runs again speaks frames of its own, one of them for a stream
    // that was never opened. The daemon drops that stream, says why, and answers on.
    const docker::DockerClient lab(labEndpoint());
    const QString container = paddock::runtime::DockerRuntime::containerName(QStringLiteral("rr-net"));
    docker::ExecSpec replace;
    replace.user = QStringLiteral("0:0");
    replace.cmd = QStringList{
        QStringLiteral("sh"), QStringLiteral("-c"),
        QStringLiteral("rm /run/paddock/init && printf '#!/bin/sh\\nprintf "
                       "\"\\\\002\\\\000\\\\000\\\\000\\\\011\\\\000\\\\000\\\\000\\\\001x\"\\nsleep 30\\n' "
                       "> /run/paddock/init && chmod 755 /run/paddock/init && "
                       "m=proxy; m=--$m-mux; for p in /proc/[0-9]*; do "
                       "if tr '\\0' ' ' < $p/cmdline | grep -q -- \"$m\"; then kill ${p#/proc/}; fi; done; "
                       "cat /run/paddock/init")};
    const docker::Result<docker::ExecResult> replaced = lab.exec(container, replace);
    QVERIFY2(replaced && replaced.value().stdoutData.startsWith("#!/bin/sh\nprintf"),
             replaced ? (replaced.value().stdoutData + replaced.value().stderrData).constData()
                      : qPrintable(replaced.errorMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")})
            .out.contains(QStringLiteral("broke the rules of its stream")),
        30000);
    const DockerFinished listed = m_fixture->paddock({QStringLiteral("ls")});
    QVERIFY2(listed.exitCode == 0 && listed.out.contains(QStringLiteral("rr-net")), qPrintable(listed.err));
}

void TestEngineRemote::commitsComeBackAsBranches()
{
    const QString base = desktopGit({QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    const QString commit = QStringLiteral("git -c user.name=agent -c user.email=agent@example.com commit -qm");
    // Committed inside on a branch of its own; the run's end brings it back.
    const DockerFinished ran = paddockLive(runOnLab(
        QStringLiteral("rr-git"),
        QStringLiteral("git checkout -qb feature && echo inside > made-inside.txt && git add made-inside.txt && "
                       "%1 'made on the lab' && git log --format=%s -2")
            .arg(commit)));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    // The history inside continues the desktop's: HEAD's commit is there under its own id.
    QVERIFY2(ran.out.contains(QStringLiteral("made on the lab\nfirst\n")), qPrintable(ran.out + ran.err));
    QVERIFY2(ran.err.contains(QStringLiteral("paddock/rr-git/feature")), qPrintable(ran.err));
    QCOMPARE(desktopGit({QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s %P"),
                         QStringLiteral("paddock/rr-git/feature")}),
             QStringLiteral("made on the lab ") + base);
    QCOMPARE(desktopGit({QStringLiteral("show"), QStringLiteral("paddock/rr-git/feature:made-inside.txt")}),
             QStringLiteral("inside"));
    // The work tree is never touched: the file is in the branch, not in the folder.
    QVERIFY(!QFile::exists(m_fixture->workspace() + QStringLiteral("/made-inside.txt")));
    QCOMPARE(desktopGit({QStringLiteral("rev-parse"), QStringLiteral("HEAD")}), base);

    // A later commit comes back when the sandbox is stopped.
    const DockerFinished more = paddockLive({QStringLiteral("exec"), QStringLiteral("rr-git"), QStringLiteral("sh"),
                                             QStringLiteral("-c"), commit + QStringLiteral(" second --allow-empty")});
    QVERIFY2(more.exitCode == 0, qPrintable(more.out + more.err));
    const DockerFinished stopped = m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rr-git")});
    QVERIFY2(stopped.exitCode == 0, qPrintable(stopped.err));
    QVERIFY2(stopped.err.contains(QStringLiteral("paddock/rr-git/feature")), qPrintable(stopped.err));
    QCOMPARE(desktopGit({QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s"),
                         QStringLiteral("paddock/rr-git/feature")}),
             QStringLiteral("second"));
}

void TestEngineRemote::aCraftedBundleLeavesTheRepositoryAsItWas()
{
    const DockerFinished ran = paddockLive(runOnLab(QStringLiteral("rr-craft"), QStringLiteral("true")));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    const QStringList refs{QStringLiteral("for-each-ref"), QStringLiteral("--format=%(refname) %(objectname)")};
    const QString before = desktopGit(refs);
    // Root inside puts its own git in place: `git -C WS bundle create FILE ...` writes $5.
    const auto craft = [&](const QString &body) {
        return asRootInside(QStringLiteral("rr-craft"),
                            QStringLiteral("printf '#!/bin/sh\n%1\n' > /usr/bin/git && chmod 755 /usr/bin/git && "
                                           "echo replaced")
                                .arg(body));
    };
    QVERIFY(craft(QStringLiteral("printf \"# v2 git bundle\\\\n%1 refs/heads/../../escape\\\\n\\\\nPACK\" > \"$5\"")
                      .arg(QString(40, QLatin1Char('a'))))
                .contains("replaced"));
    DockerFinished stopped = m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rr-craft")});
    QVERIFY2(stopped.exitCode == 0, qPrintable(stopped.err));
    QVERIFY2(stopped.err.contains(QStringLiteral("names the branch '../../escape', which is not a plain branch name")),
             qPrintable(stopped.err));
    QVERIFY2(stopped.err.contains(QStringLiteral("your repository is as it was")), qPrintable(stopped.err));
    QCOMPARE(desktopGit(refs), before);

    // A bundle past the bound is cut off while it is read.
    QCOMPARE(m_fixture->paddock({QStringLiteral("start"), QStringLiteral("rr-craft")}).exitCode, 0);
    QVERIFY(craft(QStringLiteral("head -c 280000000 /dev/zero > \"$5\"")).contains("replaced"));
    stopped = m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rr-craft")});
    QVERIFY2(stopped.exitCode == 0, qPrintable(stopped.err));
    QVERIFY2(stopped.err.contains(QStringLiteral("the sandbox's commits pass 256 MiB")), qPrintable(stopped.err));
    QCOMPARE(desktopGit(refs), before);
}

void TestEngineRemote::aPublishedPortAnswersOnTheDesktopsLoopback()
{
    const QString kit = m_fixture->writeKit(
        QStringLiteral("web-kit"), QStringLiteral("remote-web"), m_fixture->imageTag(),
        QStringLiteral("mkdir -p /tmp/www && printf '%1' > /tmp/www/index.html && exec busybox httpd -f -p "
                       "127.0.0.1:8080 -h /tmp/www")
            .arg(QString::fromLatin1(paddock::test::kPage).replace(QLatin1Char('\n'), QStringLiteral("\\n"))),
        QStringLiteral("environment:\n  variables:\n    LD_LIBRARY_PATH: /lib/x86_64-linux-gnu\n") +
            paddock::test::portsBlock());
    const DockerFinished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--engine"), QStringLiteral("lab"), QStringLiteral("--detach"),
         QStringLiteral("--kit"), kit, QStringLiteral("--name"), QStringLiteral("rr-web"), m_fixture->workspace()});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    const QString address = paddock::test::hostAddressOf(m_fixture->listed().value(QStringLiteral("rr-web")), 8080);
    QVERIFY2(address.startsWith(QLatin1String("127.0.0.1:")), qPrintable(address));
    // The page comes from the lab's container, over the daemon's stream to the engine.
    QTRY_COMPARE_WITH_TIMEOUT(paddock::test::fetch(address).body, QByteArray(paddock::test::kPage), 30000);
    for (const paddock::test::Fetched &page : paddock::test::fetchAtOnce(address, 6))
        QCOMPARE(page.body, QByteArray(paddock::test::kPage));
    // Nothing listens on 9090 inside: the connection ends without a byte.
    QCOMPARE(
        paddock::test::fetch(paddock::test::hostAddressOf(m_fixture->listed().value(QStringLiteral("rr-web")), 9090))
            .exitCode,
        52);
    // The engine was asked to publish nothing on its own computer.
    const docker::Result<docker::ContainerInfo> container =
        docker::DockerClient(labEndpoint())
            .inspectContainer(paddock::runtime::DockerRuntime::containerName(QStringLiteral("rr-web")));
    QVERIFY(container);
    QVERIFY(container.value().portBindings.isEmpty());
    QVERIFY(container.value().publishedPorts.isEmpty());
}

void TestEngineRemote::whatSetupInstallPutInTheSystemStaysOnTheEngine()
{
    // The install container is the engine's, committed there as the sandbox's image.
    const QString kit = m_fixture->writeKit(
        QStringLiteral("install-kit"), QStringLiteral("remote-tooled"), m_fixture->imageTag(), QStringLiteral("true"),
        QStringLiteral("setup:\n  install:\n"
                       "    - command: 'mkdir -p /usr/local/bin && printf \"#!/bin/sh\\necho kit-tool ran\\n\" > "
                       "/usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool'\n"));
    QVERIFY(!kit.isEmpty());
    const DockerFinished ran =
        paddockLive({QStringLiteral("run"), QStringLiteral("--engine"), QStringLiteral("lab"), QStringLiteral("--kit"),
                     kit, QStringLiteral("--name"), QStringLiteral("rr-tool"), m_fixture->workspace(),
                     QStringLiteral("--"), QStringLiteral("kit-tool")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QCOMPARE(ran.out, QStringLiteral("kit-tool ran\n"));
    const docker::DockerClient lab(labEndpoint());
    const QStringList labels{QStringLiteral("paddock.installed-for=rr-tool"),
                             QStringLiteral("paddock.owner=") + paddock::runtime::DockerRuntime::owner()};
    const docker::Result<QList<docker::ImageInfo>> kept = lab.listImages(labels, true);
    QVERIFY2(kept, qPrintable(kept.errorMessage()));
    QCOMPARE(kept.value().size(), 1);
    // Removing the sandbox removes its image from the engine.
    const DockerFinished removed =
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("rr-tool")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    const docker::Result<QList<docker::ImageInfo>> left = lab.listImages(labels, true);
    QVERIFY2(left, qPrintable(left.errorMessage()));
    QCOMPARE(left.value().size(), 0);
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestEngineRemote, QCoreApplication)
#include "tst_engine_remote.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// What a program inside a Docker sandbox sees: exactly the spec's environment, only loopback,
// a way out through paddock-init to its proxy socket and nowhere else, the workspace shared
// with the host, no Docker socket, and the labels and confinement the engine reports.
#include "DockerRuntimeTestSupport.h"

#include <QtTest>

#include <unistd.h>

using namespace paddock::tests::docker;
using paddock::runtime::DockerRuntime;
using paddock::runtime::SandboxSpec;
using paddock::runtime::SandboxStatus;

class TestDockerRuntimeConfinement : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<DockerTestBed> m_bed;
    QString m_name;
    SandboxSpec m_spec;

    CommandRun run(const QString &script, const QMap<QString, QString> &env = {})
    {
        return m_bed->exec(m_name, {QStringLiteral("sh"), QStringLiteral("-c"), script}, env);
    }

private slots:
    void initTestCase()
    {
        PADDOCK_PREPARE_DOCKER_TEST_BED(m_bed);
        m_name = m_bed->newName(QStringLiteral("confined"));
        m_spec = m_bed->idleSpec(m_name);
        m_spec.environment.insert(QStringLiteral("PADDOCK_KIT_VALUE"), QStringLiteral("with spaces = and signs"));
        const auto created = m_bed->runtime().create(m_spec);
        QVERIFY2(created.ok, qPrintable(created.error));
        const auto started = m_bed->runtime().start(m_name);
        QVERIFY2(started.ok, qPrintable(started.error));
    }

    void cleanupTestCase() { m_bed.reset(); }

    void environmentIsExactlyTheSpecs()
    {
        // `env` itself, not through a shell, which would add PWD and SHLVL of its own.
        const CommandRun env = m_bed->exec(m_name, {QStringLiteral("env")});
        QVERIFY2(env.result.ok, qPrintable(env.result.error));
        QCOMPARE(env.result.exitCode, 0);
        QMap<QString, QString> seen;
        for (const QByteArray &line : env.out.split('\n')) {
            const qsizetype eq = line.indexOf('=');
            if (eq > 0)
                seen.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
        }
        // The engine always sets HOSTNAME (to the sandbox's name); nothing else is added
        // because the spec already names PATH and HOME, the only others it would fill in.
        QMap<QString, QString> expected = m_spec.environment;
        expected.insert(QStringLiteral("HOSTNAME"), m_name);
        QCOMPARE(seen, expected);
    }

    void proxyIsReachedThroughTheRelay()
    {
        const int before = m_bed->proxy().requests();
        const CommandRun wget = run(QStringLiteral("wget -S -O- http://example.test/"),
                                    {{QStringLiteral("http_proxy"), QStringLiteral("http://127.0.0.1:3128")}});
        QVERIFY2(wget.result.ok, qPrintable(wget.result.error));
        QVERIFY2(wget.result.exitCode != 0, "a 403 makes wget fail");
        QVERIFY2(wget.err.contains("Connecting to 127.0.0.1:3128"), wget.err.constData());
        QVERIFY2(wget.err.contains("HTTP/1.1 403 Forbidden"), wget.err.constData());
        // busybox wget stops at an error status before the headers: read them with nc.
        const CommandRun nc =
            run(QStringLiteral("printf 'GET http://example.test/ HTTP/1.1\\r\\nHost: example.test\\r\\n\\r\\n' "
                               "| nc 127.0.0.1 3128"));
        QCOMPARE(nc.result.exitCode, 0);
        QVERIFY2(nc.out.startsWith("HTTP/1.1 403 Forbidden\r\n"), nc.out.constData());
        QVERIFY2(nc.out.contains("\r\nX-Paddock-Reason: test\r\n"), nc.out.constData());
        QCOMPARE(m_bed->proxy().requests(), before + 2);
    }

    void directConnectionsReachOnlyTheProxy()
    {
        // Capture brings a connection to any address to the sandbox's proxy, saying where it was
        // going: the (stand-in) proxy answers it, nothing else does.
        const int before = m_bed->proxy().requests();
        const CommandRun nc = run(QStringLiteral("printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 3 10.0.0.1 80"));
        QVERIFY2(nc.result.ok, qPrintable(nc.result.error));
        QVERIFY2(nc.out.startsWith("HTTP/1.1 403 Forbidden\r\n"), nc.out.constData());
        // Another address and port, over IPv4: the same.
        const CommandRun other = run(QStringLiteral("printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 3 192.0.2.1 5432"));
        QVERIFY2(other.out.startsWith("HTTP/1.1 403 Forbidden\r\n"), other.out.constData());
        QCOMPARE(m_bed->proxy().requests(), before + 2);
        const QList<QByteArray> lines = m_bed->proxy().lines();
        QVERIFY2(lines.size() >= 2 && lines.at(lines.size() - 2).contains(" to=tcp:10.0.0.1:80 ") &&
                     lines.last().contains(" to=tcp:192.0.2.1:5432 "),
                 lines.join('\n').constData());
    }

    void onlyLoopbackExists()
    {
        const CommandRun ls = run(QStringLiteral("ls /sys/class/net"));
        QCOMPARE(ls.result.exitCode, 0);
        QCOMPARE(ls.out, QByteArray("lo\n"));
    }

    void workspaceIsSharedAtTheSamePath()
    {
        const QString path = m_bed->workspace() + QStringLiteral("/written-inside.txt");
        const CommandRun pwd = run(QStringLiteral("pwd"));
        QCOMPARE(pwd.out.trimmed(), m_bed->workspace().toUtf8());
        const CommandRun write = run(QStringLiteral("echo from-the-sandbox > '%1'").arg(path));
        QCOMPARE(write.result.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("from-the-sandbox\n"));
    }

    void nothingElseFromTheHost()
    {
        QCOMPARE(run(QStringLiteral("test -e /var/run/docker.sock")).result.exitCode, 1);
        QCOMPARE(run(QStringLiteral("test -e /run/docker.sock")).result.exitCode, 1);
        // The proxy socket alone, not the directory it lives in on the host.
        const CommandRun paddock = run(QStringLiteral("ls /run/paddock"));
        QCOMPARE(paddock.out, QByteArray("init\nproxy.sock\n"));
        // paddock-init cannot be replaced from inside.
        QVERIFY(run(QStringLiteral("echo x > /run/paddock/init")).result.exitCode != 0);
    }

    void dockerSocketOnlyWhenGranted()
    {
        // A stand-in for the engine's socket: what matters is where it appears, not what answers.
        const QString socket = m_bed->workspace() + QStringLiteral("/../granted-engine.sock");
        StandInProxy engine(QDir::cleanPath(socket));
        const QString name = m_bed->newName(QStringLiteral("granted"));
        SandboxSpec spec = m_bed->idleSpec(name);
        spec.grants.dockerSocket = QDir::cleanPath(socket);
        QVERIFY(m_bed->runtime().create(spec).ok);
        QVERIFY(m_bed->runtime().start(name).ok);
        const CommandRun test =
            m_bed->exec(name, {QStringLiteral("test"), QStringLiteral("-S"), QStringLiteral("/var/run/docker.sock")});
        QCOMPARE(test.result.exitCode, std::optional<int>(0));
        QVERIFY(m_bed->runtime().stop(name, std::chrono::seconds(0)).ok);
        QVERIFY(m_bed->runtime().remove(name, true).ok);
    }

    void programRunsWithoutCapabilities()
    {
        const CommandRun status = run(QStringLiteral("grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status"));
        QVERIFY2(status.out.contains("CapEff:\t0000000000000000"), status.out.constData());
        QVERIFY2(status.out.contains("CapBnd:\t0000000000000000"), status.out.constData());
        QVERIFY2(status.out.contains("NoNewPrivs:\t1"), status.out.constData());
        // The session token was wiped from paddock-init's command line before anything else ran.
        const CommandRun init = run(QStringLiteral("cat /proc/1/cmdline | tr '\\0' ' '"));
        // It captures every connection, then becomes the user it started for and gives up the
        // capabilities that took (DockerSandboxLayout.h).
        const QByteArray expected = "/run/paddock/init --relay 127.0.0.1:3128=/run/paddock/proxy.sock "
                                    "--relay-hand-over --capture --become " +
                                    QByteArray::number(::getuid()) + ':' + QByteArray::number(::getgid()) +
                                    " --session-listen paddock-session --session-token ";
        QVERIFY2(init.out.startsWith(expected), init.out.constData());
        const auto container = m_bed->runtime().client().inspectContainer(DockerRuntime::containerName(m_name));
        const QString token = container.value().labels.value(QStringLiteral("paddock.session-token"));
        QCOMPARE(token.size(), 64);
        QVERIFY2(!init.out.contains(token.toUtf8()), init.out.constData());
        QVERIFY(init.out.contains(" -- sh -c trap"));
    }

    void sessionChannelNeedsTheToken()
    {
        // A process inside reaches the session server as the host's relay does, but without the
        // token it is refused: a status request (type H, 20 bytes of fields) gets a Failure.
        const CommandRun status =
            run(QStringLiteral("(printf 'H\\000\\000\\000\\024op=status\\000version=1\\000'; sleep 3) | "
                               "/run/paddock/init --session-client paddock-session"));
        QVERIFY2(status.out.contains("this session channel needs the sandbox's token"), status.out.constData());
        QVERIFY2(!status.out.contains("agent="), status.out.constData());
    }

    void engineReportsLabelsAndConfinement()
    {
        const auto found = m_bed->runtime().client().listContainers({QStringLiteral("paddock.sandbox=") + m_name});
        QVERIFY(found.ok());
        QCOMPARE(found.value().size(), 1);
        const auto container = m_bed->runtime().client().inspectContainer(found.value().first().id);
        QVERIFY(container.ok());
        const auto &labels = container.value().labels;
        // Named and labelled after its owner: another user's Paddock on this engine never sees it.
        QCOMPARE(container.value().name, DockerRuntime::containerName(m_name));
        QVERIFY(
            container.value().name.startsWith(QStringLiteral("paddock-") + DockerRuntime::owner() + QLatin1Char('-')));
        QCOMPARE(labels.value(QStringLiteral("paddock.owner")), DockerRuntime::owner());
        QCOMPARE(labels.value(QStringLiteral("paddock.sandbox")), m_name);
        QCOMPARE(labels.value(QStringLiteral("paddock.kit")), QStringLiteral("test-kit"));
        QCOMPARE(labels.value(QStringLiteral("paddock.workspace")), m_bed->workspace());
        QCOMPARE(labels.value(QStringLiteral("paddock.runtime")), QStringLiteral("docker"));
        QCOMPARE(container.value().networkMode, QStringLiteral("none"));
        const QJsonObject host = container.value().raw.value(QStringLiteral("HostConfig")).toObject();
        QCOMPARE(host.value(QStringLiteral("CapDrop")).toArray(), QJsonArray{QStringLiteral("ALL")});
        QCOMPARE(host.value(QStringLiteral("SecurityOpt")).toArray(), QJsonArray{QStringLiteral("no-new-privileges")});
        QCOMPARE(host.value(QStringLiteral("Privileged")).toBool(), false);
    }

    void inspectDescribesTheRunningSandbox()
    {
        const auto info = m_bed->runtime().inspect(m_name);
        QVERIFY(info.has_value());
        QCOMPARE(info->status, SandboxStatus::Running);
        QCOMPARE(info->runtime, QStringLiteral("docker"));
        QVERIFY(info->pid > 0);
        QVERIFY(info->startedAt.isValid());
        QVERIFY(!info->exitCode.has_value());
        QCOMPARE(info->spec, m_spec);
    }
};

QTEST_GUILESS_MAIN(TestDockerRuntimeConfinement)
#include "tst_docker_runtime_confinement.moc"

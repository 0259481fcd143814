// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox container's life through the Engine API: created with Paddock's confinement
// (no network, a bound workspace, limits, labels), used with exec, logs and attach, then
// stopped, waited for and removed.
#include "DockerTestSupport.h"

#include "runtime/docker/StreamDemuxer.h"

#include <QtTest>

using namespace paddock::tests::docker;

class TestDockerContainer : public QObject
{
    Q_OBJECT

private:
    DockerClient m_client{testEndpoint()};
    QString m_image;
    QString m_sandbox;
    QString m_id;
    QTemporaryDir m_workspace;
    QStringList m_created;

    static constexpr qint64 kMemory = 96 * 1024 * 1024;
    static constexpr qint64 kNanoCpus = 500'000'000;

    ExecResult run(const QStringList &cmd, const QByteArray &input = {})
    {
        ExecSpec spec;
        spec.cmd = cmd;
        spec.stdinData = input;
        const Result<ExecResult> result = m_client.exec(m_id, spec);
        if (!result) {
            qWarning() << "exec" << cmd << "failed:" << result.errorMessage();
            return {};
        }
        return result.value();
    }

    QStringList containerIdsWithLabel()
    {
        QStringList ids;
        const auto list = m_client.listContainers({QStringLiteral("paddock.sandbox=") + m_sandbox});
        if (list)
            for (const ContainerSummary &container : list.value())
                ids.append(container.id);
        return ids;
    }

    /**
     * The confined container the tests look into, created and started once, whichever test
     * runs first: empty when it runs and has printed its lines (its trap is set), else why not.
     */
    QString ensureStarted()
    {
        if (!m_id.isEmpty())
            return {};
        ContainerSpec spec;
        spec.image = m_image;
        spec.name = m_sandbox;
        spec.hostname = QStringLiteral("sandbox-host");
        // sh is PID 1: its trap makes the stop's SIGTERM end it with a known code.
        spec.cmd = {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("trap 'exit 7' TERM; echo started; echo warning >&2; "
                                   "while true; do sleep 1; done")};
        spec.env = {{QStringLiteral("PADDOCK_TEST_VALUE"), QStringLiteral("hello world")}};
        spec.workingDir = m_workspace.path();
        spec.labels = {{QStringLiteral("paddock.sandbox"), m_sandbox}};
        spec.binds = {BindMount{m_workspace.path(), m_workspace.path(), false}};
        spec.tmpfs = {TmpfsMount{QStringLiteral("/scratch"), QStringLiteral("rw,size=16m")}};
        spec.memoryBytes = kMemory;
        spec.nanoCpus = kNanoCpus;
        spec.ports = {PortBinding{8080, QStringLiteral("tcp"), QStringLiteral("127.0.0.1"), 0}};
        const Result<QString> id = m_client.createContainer(spec);
        if (!id.ok())
            return id.errorMessage();
        m_id = id.value();
        m_created.append(m_id);
        const Status started = m_client.startContainer(m_id);
        if (!started.ok())
            return started.errorMessage();
        const bool printed = QTest::qWaitFor(
            [this] {
                const Result<ContainerLogs> logs = m_client.logs(m_id);
                return logs.ok() && logs.value().stderrData.contains("warning\n");
            },
            30000);
        return printed ? QString() : QStringLiteral("the container printed nothing within 30 s");
    }

private slots:
    void initTestCase()
    {
        PADDOCK_NEED_DOCKER();
        QTemporaryDir context;
        QVERIFY(writeBusyboxContext(context.path()));
        m_image = uniqueName(QStringLiteral("paddock-test-container")) + QStringLiteral(":1");
        const Result<QString> built = m_client.buildImage(ownImage(context.path(), m_image));
        QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
        m_sandbox = uniqueName(QStringLiteral("sandbox"));
    }

    void cleanupTestCase()
    {
        for (const QString &id : std::as_const(m_created))
            (void)m_client.removeContainer(id, true, true);
        if (!m_image.isEmpty())
            (void)m_client.removeImage(m_image, true);
    }

    void createsAndStartsAConfinedContainer()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
    }

    void execSeesTheContainersSetup()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        ExecResult result = run({QStringLiteral("cat"), QStringLiteral("/etc/hostname")});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.stdoutData, QByteArray("sandbox-host\n"));

        result = run({QStringLiteral("env")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.stdoutData.contains("PADDOCK_TEST_VALUE=hello world\n"), result.stdoutData.constData());

        result = run({QStringLiteral("pwd")});
        QCOMPARE(result.stdoutData.trimmed(), m_workspace.path().toUtf8());

        result = run({QStringLiteral("grep"), QStringLiteral(" /scratch "), QStringLiteral("/proc/mounts")});
        QVERIFY2(result.stdoutData.startsWith("tmpfs /scratch tmpfs"), result.stdoutData.constData());
    }

    void hasNoNetworkButLoopback()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const ExecResult result = run({QStringLiteral("cat"), QStringLiteral("/proc/net/dev")});
        QCOMPARE(result.exitCode, 0);
        QStringList interfaces;
        const QList<QByteArray> lines = result.stdoutData.split('\n');
        for (qsizetype i = 2; i < lines.size(); ++i) // two header lines
            if (lines.at(i).contains(':'))
                interfaces.append(QString::fromUtf8(lines.at(i).left(lines.at(i).indexOf(':')).trimmed()));
        QCOMPARE(interfaces, QStringList{QStringLiteral("lo")});
    }

    void writesInTheBoundDirectoryReachTheHost()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const QString path = m_workspace.filePath(QStringLiteral("written.txt"));
        const ExecResult result =
            run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo from-container > '%1'").arg(path)});
        QCOMPARE(result.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("from-container\n"));
    }

    void execSeparatesOutputAndKeepsTheExitCode()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const ExecResult result =
            run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; exit 5")});
        QCOMPARE(result.exitCode, 5);
        QCOMPARE(result.stdoutData, QByteArray("out\n"));
        QCOMPARE(result.stderrData, QByteArray("err\n"));
    }

    void execPassesInput()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const QByteArray input = QByteArray("line one\nline two\n").repeated(1000);
        const ExecResult result = run({QStringLiteral("cat")}, input);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.stdoutData, input);
    }

    void logsHoldWhatTheCommandPrinted()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const Result<ContainerLogs> logs = m_client.logs(m_id);
        QVERIFY2(logs.ok(), qPrintable(logs.errorMessage()));
        QCOMPARE(logs.value().stdoutData, QByteArray("started\n"));
        QCOMPARE(logs.value().stderrData, QByteArray("warning\n"));
    }

    void inspectShowsStateAndLimits()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const Result<ContainerInfo> info = m_client.inspectContainer(m_id);
        QVERIFY2(info.ok(), qPrintable(info.errorMessage()));
        QCOMPARE(info.value().id, m_id);
        QCOMPARE(info.value().name, m_sandbox);
        QCOMPARE(info.value().status, QStringLiteral("running"));
        QVERIFY(info.value().running);
        QVERIFY(info.value().pid > 0);
        QVERIFY(info.value().startedAt.isValid());
        QCOMPARE(info.value().memoryBytes, kMemory);
        QCOMPARE(info.value().nanoCpus, kNanoCpus);
        QCOMPARE(info.value().networkMode, QStringLiteral("none"));
        QCOMPARE(info.value().labels.value(QStringLiteral("paddock.sandbox")), m_sandbox);
        QCOMPARE(info.value().portBindings,
                 (QList<PortBinding>{PortBinding{8080, QStringLiteral("tcp"), QStringLiteral("127.0.0.1"), 0}}));
        const QJsonObject host = info.value().raw.value(QStringLiteral("HostConfig")).toObject();
        QCOMPARE(host.value(QStringLiteral("CapDrop")).toArray().first().toString(), QStringLiteral("ALL"));
        QCOMPARE(host.value(QStringLiteral("SecurityOpt")).toArray().first().toString(),
                 QStringLiteral("no-new-privileges"));
        QCOMPARE(host.value(QStringLiteral("Init")).toBool(true), false);
    }

    void listFindsItByLabel()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        QCOMPARE(containerIdsWithLabel(), QStringList{m_id});
        const auto other =
            m_client.listContainers({QStringLiteral("paddock.sandbox=") + m_sandbox + QStringLiteral("-other")});
        QVERIFY(other.ok());
        QVERIFY(other.value().isEmpty());
    }

    void attachCarriesInputAndOutput()
    {
        ContainerSpec spec;
        spec.image = m_image;
        spec.name = m_sandbox + QStringLiteral("-attach");
        spec.openStdin = true;
        spec.labels = {{QStringLiteral("paddock.sandbox"), m_sandbox + QStringLiteral("-attach")}};
        spec.cmd = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("read line; echo got:$line")};
        const Result<QString> id = m_client.createContainer(spec);
        QVERIFY2(id.ok(), qPrintable(id.errorMessage()));
        m_created.append(id.value());

        // Attached before start, so no output can be missed.
        auto connection = m_client.attach(id.value());
        QVERIFY2(connection.ok(), qPrintable(connection.errorMessage()));
        HijackedConnection &stream = *connection.value();
        QVERIFY(stream.socketDescriptor() >= 0);
        QVERIFY(m_client.startContainer(id.value()).ok());
        QVERIFY(stream.write("hello\n"));
        QByteArray output;
        QVERIFY(stream.readAll(&output, 60000));
        StreamDemuxer demuxer;
        QVERIFY(demuxer.feed(output));
        QCOMPARE(demuxer.stdoutData(), QByteArray("got:hello\n"));
        const Result<int> code = m_client.waitContainer(id.value());
        QVERIFY(code.ok());
        QCOMPARE(code.value(), 0);
    }

    void stopWaitAndRemove()
    {
        const QString notStarted = ensureStarted();
        QVERIFY2(notStarted.isEmpty(), qPrintable(notStarted));
        const Status stopped = m_client.stopContainer(m_id, 30);
        QVERIFY2(stopped.ok(), qPrintable(stopped.errorMessage()));
        const Result<int> code = m_client.waitContainer(m_id);
        QVERIFY2(code.ok(), qPrintable(code.errorMessage()));
        QCOMPARE(code.value(), 7);

        const Result<ContainerInfo> info = m_client.inspectContainer(m_id);
        QVERIFY(info.ok());
        QCOMPARE(info.value().status, QStringLiteral("exited"));
        QVERIFY(!info.value().running);
        QCOMPARE(info.value().exitCode, 7);
        QVERIFY(info.value().finishedAt.isValid());
        // Stopping again is not an error.
        QVERIFY(m_client.stopContainer(m_id, 1).ok());

        const Status removed = m_client.removeContainer(m_id, false, true);
        QVERIFY2(removed.ok(), qPrintable(removed.errorMessage()));
        QVERIFY(containerIdsWithLabel().isEmpty());
        const Result<ContainerInfo> gone = m_client.inspectContainer(m_id);
        QVERIFY(gone.is(Error::Kind::NotFound));
        QVERIFY2(gone.errorMessage().contains(m_id), qPrintable(gone.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestDockerContainer)
#include "tst_docker_container.moc"

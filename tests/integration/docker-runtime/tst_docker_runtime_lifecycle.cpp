// SPDX-License-Identifier: GPL-3.0-or-later
// A Docker sandbox's life through the Runtime interface: created, started detached or in the
// foreground, found again by a new runtime instance (as a restarted daemon would be), used
// with exec and logs, stopped with its exit code, removed; many at once; and the messages for
// a missing image and an unreachable engine.
#include "DockerRuntimeTestSupport.h"

#include <QtTest>

#include <functional>
#include <thread>
#include <vector>

using namespace paddock::tests::docker;
using paddock::runtime::DockerRuntime;
using paddock::runtime::DockerSandboxOptions;
using paddock::runtime::DockerVolume;
using paddock::runtime::LogPage;
using paddock::runtime::ProcessIo;
using paddock::runtime::RuntimeResult;
using paddock::runtime::SandboxSpec;
using paddock::runtime::SandboxStatus;

class TestDockerRuntimeLifecycle : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<DockerTestBed> m_bed;

    DockerRuntime &runtime() { return m_bed->runtime(); }

    bool listed(DockerRuntime &from, const QString &name, SandboxStatus status)
    {
        for (const auto &info : from.list())
            if (info.name == name)
                return info.status == status;
        return false;
    }

    /** Runs @p first and then @p second for every name in @p names at once; their errors. */
    QStringList onEachAtOnce(const QStringList &names, const std::function<RuntimeResult(const QString &)> &first,
                             const std::function<RuntimeResult(const QString &)> &second)
    {
        std::vector<std::thread> threads;
        std::vector<QString> errors(size_t(names.size()));
        for (qsizetype i = 0; i < names.size(); ++i) {
            threads.emplace_back([&, i] {
                auto result = first(names.at(i));
                if (result.ok)
                    result = second(names.at(i));
                errors[size_t(i)] = result.error;
            });
        }
        for (auto &thread : threads)
            thread.join();
        QStringList failed;
        for (const QString &error : errors)
            if (!error.isEmpty())
                failed << error;
        return failed;
    }

private slots:
    void initTestCase() { PADDOCK_PREPARE_DOCKER_TEST_BED(m_bed); }

    void cleanupTestCase() { m_bed.reset(); }

    void unreachableEngineIsSaid()
    {
        DockerRuntime nowhere(Endpoint::unixSocket(QStringLiteral("/nonexistent/docker.sock")));
        QString why;
        QVERIFY(!nowhere.isAvailable(&why));
        QVERIFY2(why.contains(QStringLiteral("cannot reach the Docker engine at unix:///nonexistent/docker.sock")),
                 qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("is dockerd running?")), qPrintable(why));
        QString here;
        QVERIFY2(runtime().isAvailable(&here), qPrintable(here));
    }

    void missingImageSaysHowToGetIt()
    {
        const QString name = m_bed->newName(QStringLiteral("noimage"));
        runtime().setSandboxOptions(
            name, DockerSandboxOptions{QStringLiteral("paddock-absent-image:nope"), 0, 0, {}, {}, {}, {}});
        const auto created = runtime().create(m_bed->idleSpec(name));
        QVERIFY(!created.ok);
        QVERIFY2(created.error.startsWith(QStringLiteral("image paddock-absent-image:nope is not present: build it")),
                 qPrintable(created.error));
        QVERIFY2(created.error.contains(QStringLiteral("`paddock template load FILE`")), qPrintable(created.error));
        QVERIFY(!runtime().inspect(name).has_value());
    }

    void detachedSandboxLivesAndEnds()
    {
        const QString name = m_bed->newName(QStringLiteral("life"));
        const SandboxSpec spec =
            m_bed->spec(name, QStringLiteral("echo hello from the log; echo second; echo to stderr >&2; "
                                             "trap 'exit 7' TERM; while true; do sleep 1; done"));
        QVERIFY(runtime().create(spec).ok);
        QCOMPARE(runtime().inspect(name)->status, SandboxStatus::Created);
        const auto again = runtime().create(spec);
        QVERIFY(!again.ok);
        QVERIFY2(again.error.contains(QStringLiteral("exists already")), qPrintable(again.error));

        const auto started = runtime().start(name);
        QVERIFY2(started.ok, qPrintable(started.error));
        QVERIFY(!started.exitCode.has_value());
        QVERIFY(!runtime().start(name).ok); // already running

        // A new instance knows nothing but what the engine holds, as after a daemon restart.
        DockerRuntime restarted(testEndpoint());
        QVERIFY(listed(restarted, name, SandboxStatus::Running));
        const auto found = restarted.inspect(name);
        QVERIFY(found.has_value());
        QCOMPARE(found->spec, spec);
        QCOMPARE(found->kitName, QStringLiteral("test-kit"));
        QCOMPARE(found->workspace, m_bed->workspace());

        const CommandRun code = m_bed->exec(
            name, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo $EXTRA; echo oops >&2; exit 5")},
            {{QStringLiteral("EXTRA"), QStringLiteral("added")}});
        QCOMPARE(code.result.exitCode, std::optional<int>(5));
        QCOMPARE(code.out, QByteArray("added\n"));
        QCOMPARE(code.err, QByteArray("oops\n"));

        QString error;
        QTRY_VERIFY(restarted.logs(name, 0, 1 << 20, &error).value_or(LogPage()).data.contains("to stderr"));
        // The agent's output (it has no terminal: the spec is not interactive), both streams,
        // each in its order; they are copied apart, so a line of one may come before, or between,
        // slightly earlier lines of the other.
        const QByteArray logs = restarted.logs(name, 0, 1 << 20, &error)->data;
        QCOMPARE(logs.size(), qsizetype(sizeof "hello from the log\nsecond\nto stderr\n" - 1));
        const qsizetype first = logs.indexOf("hello from the log\n");
        QVERIFY2(first >= 0 && logs.indexOf("second\n") > first && logs.contains("to stderr\n"), logs.constData());

        const auto busy = restarted.remove(name);
        QVERIFY(!busy.ok);
        QVERIFY2(busy.error.contains(QStringLiteral("stop it first")), qPrintable(busy.error));

        const auto stopped = restarted.stop(name, std::chrono::seconds(10));
        QVERIFY2(stopped.ok, qPrintable(stopped.error));
        const auto info = runtime().inspect(name);
        QCOMPARE(info->status, SandboxStatus::Stopped);
        QCOMPARE(info->exitCode, std::optional<int>(7));
        QVERIFY(info->finishedAt.isValid());
        QCOMPARE(info->pid, 0);
        QVERIFY(!m_bed->exec(name, {QStringLiteral("true")}).result.ok);

        QVERIFY(runtime().remove(name, true).ok);
        QVERIFY(!runtime().inspect(name).has_value());
        QVERIFY(!listed(runtime(), name, SandboxStatus::Stopped));
        QVERIFY(!runtime().start(name).ok);
    }

    void stopKillsAProgramThatIgnoresTerm()
    {
        const QString name = m_bed->newName(QStringLiteral("stubborn"));
        QVERIFY(runtime().create(m_bed->spec(name, QStringLiteral("trap '' TERM; while true; do sleep 1; done"))).ok);
        QVERIFY(runtime().start(name).ok);
        QVERIFY(runtime().stop(name, std::chrono::milliseconds(500)).ok);
        const auto info = runtime().inspect(name);
        QCOMPARE(info->status, SandboxStatus::Stopped);
        QCOMPARE(info->exitCode, std::optional<int>(137)); // 128 + SIGKILL
    }

    void foregroundSandboxReturnsItsStatusAndOutput()
    {
        const QString name = m_bed->newName(QStringLiteral("fore"));
        // Not interactive: no input at all, so a program that reads finds its end at once.
        SandboxSpec spec = m_bed->spec(name, QStringLiteral("read line || echo out; echo err >&2; exit 3"));
        spec.lifetime = SandboxSpec::Lifetime::Foreground;
        QVERIFY(runtime().create(spec).ok);
        const CommandRun run = m_bed->capture([&](const ProcessIo &io) { return runtime().start(name, io); });
        QVERIFY2(run.result.ok, qPrintable(run.result.error));
        QCOMPARE(run.result.exitCode, std::optional<int>(3));
        QCOMPARE(run.out, QByteArray("out\n"));
        QCOMPARE(run.err, QByteArray("err\n"));
        QCOMPARE(runtime().inspect(name)->exitCode, std::optional<int>(3));
        QCOMPARE(runtime().inspect(name)->status, SandboxStatus::Stopped);
    }

    void foregroundSandboxReadsItsInput()
    {
        const QString name = m_bed->newName(QStringLiteral("input"));
        SandboxSpec spec = m_bed->spec(name, QStringLiteral("read line; echo \"got $line\"; exit 6"));
        spec.lifetime = SandboxSpec::Lifetime::Foreground;
        spec.interactive = true;
        QVERIFY(runtime().create(spec).ok);
        const CommandRun run =
            m_bed->capture([&](const ProcessIo &io) { return runtime().start(name, io); }, "hello\n");
        QCOMPARE(run.result.exitCode, std::optional<int>(6));
        // A terminal of its own: it echoes the input and ends lines with CR LF.
        QVERIFY2(run.out.contains("got hello\r\n"), run.out.constData());
    }

    void interactiveExecRelaysInputAndStatus()
    {
        const QString name = m_bed->newName(QStringLiteral("interact"));
        QVERIFY(runtime().create(m_bed->idleSpec(name)).ok);
        QVERIFY(runtime().start(name).ok);
        paddock::runtime::ExecRequest request;
        request.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("cat; echo done >&2; exit 4")};
        request.interactive = true;
        const CommandRun run = m_bed->capture([&](const ProcessIo &io) { return runtime().exec(name, request, io); },
                                              "line one\nline two\n");
        QVERIFY2(run.result.ok, qPrintable(run.result.error));
        QCOMPARE(run.result.exitCode, std::optional<int>(4));
        QCOMPARE(run.out, QByteArray("line one\nline two\n"));
        QCOMPARE(run.err, QByteArray("done\n"));
        QVERIFY(runtime().stop(name, std::chrono::seconds(5)).ok);
    }

    void privateHomeAndVolumesLastUntilRemovedWithTheHome()
    {
        const QString name = m_bed->newName(QStringLiteral("home"));
        DockerSandboxOptions options{m_bed->image(), 0.5, 64 * 1024 * 1024, {}, {}, {}, {}};
        options.volumes = {DockerVolume{QStringLiteral("/cache"), false, {}, {}},
                           DockerVolume{QStringLiteral("/scratch"), true, QStringLiteral("8m"), QStringLiteral("700")}};
        runtime().setSandboxOptions(name, options);
        QVERIFY(runtime().create(m_bed->idleSpec(name)).ok);
        QVERIFY(runtime().start(name).ok);
        const CommandRun write =
            m_bed->exec(name, {QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("echo kept > $HOME/note && echo cached > /cache/item && "
                                              "grep ' /scratch ' /proc/mounts && stat -c %a /scratch")});
        QCOMPARE(write.result.exitCode, std::optional<int>(0));
        QVERIFY2(write.out.contains("tmpfs /scratch tmpfs rw") && write.out.contains("size=8192k") &&
                     write.out.endsWith("\n700\n"),
                 write.out.constData());
        const auto container = runtime().client().inspectContainer(DockerRuntime::containerName(name));
        QCOMPARE(container.value().memoryBytes, 64 * 1024 * 1024);
        QCOMPARE(container.value().nanoCpus, 500'000'000);

        // Removed without the home, a sandbox of the same name finds its files again.
        QVERIFY(runtime().stop(name, std::chrono::seconds(5)).ok);
        QVERIFY(runtime().remove(name, false).ok);
        QVERIFY(runtime().create(m_bed->idleSpec(name)).ok);
        QVERIFY(runtime().start(name).ok);
        const CommandRun read = m_bed->exec(
            name, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("cat $HOME/note /cache/item")});
        QCOMPARE(read.out, QByteArray("kept\ncached\n"));

        QVERIFY(runtime().stop(name, std::chrono::seconds(5)).ok);
        QVERIFY(runtime().remove(name, true).ok);
        for (const QString &volume :
             {DockerRuntime::homeVolumeName(name), DockerRuntime::volumeName(name, QStringLiteral("/cache"))}) {
            QProcess docker;
            docker.start(QStringLiteral("docker"), {QStringLiteral("volume"), QStringLiteral("inspect"), volume});
            QVERIFY(docker.waitForFinished(30000));
            QVERIFY2(docker.exitCode() != 0, qPrintable(volume + QStringLiteral(" is still there")));
        }
    }

    void tenSandboxesAtOnce()
    {
        QStringList names;
        for (int i = 0; i < 10; ++i)
            names.append(m_bed->newName(QStringLiteral("many")));
        const QStringList started = onEachAtOnce(
            names, [this](const QString &name) { return runtime().create(m_bed->idleSpec(name)); },
            [this](const QString &name) { return runtime().start(name); });
        QVERIFY2(started.isEmpty(), qPrintable(started.join(QLatin1Char('\n'))));
        for (const QString &name : std::as_const(names))
            QVERIFY2(listed(runtime(), name, SandboxStatus::Running), qPrintable(name));

        const QStringList removed = onEachAtOnce(
            names, [this](const QString &name) { return runtime().stop(name, std::chrono::seconds(10)); },
            [this](const QString &name) { return runtime().remove(name, true); });
        QVERIFY2(removed.isEmpty(), qPrintable(removed.join(QLatin1Char('\n'))));
        for (const QString &name : std::as_const(names))
            QVERIFY(!runtime().inspect(name).has_value());
    }
};

QTEST_GUILESS_MAIN(TestDockerRuntimeLifecycle)
#include "tst_docker_runtime_lifecycle.moc"

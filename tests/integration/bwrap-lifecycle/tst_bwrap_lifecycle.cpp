// SPDX-License-Identifier: GPL-3.0-or-later
// Detached sandboxes as `paddock ls/logs/stop/rm` see them: state survives the process that
// started them, a dead or reused pid never shows as running, many run side by side.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <csignal>

using paddock::runtime::BwrapRuntime;
using paddock::runtime::LogPage;
using paddock::runtime::SandboxSpec;
using paddock::runtime::SandboxStatus;
using paddock::testing::SandboxTestBed;

namespace {

// Says it started, and leaves with status 42 when asked to terminate.
const QString kService = QStringLiteral("echo started; trap 'echo got-term; exit 42' TERM; "
                                        "while :; do sleep 0.05; done");

SandboxStatus statusOf(const BwrapRuntime &runtime, const QString &name)
{
    const auto info = runtime.inspect(name);
    return info ? info->status : SandboxStatus::Created;
}

/** Rewrites the recorded first process of @p name, as a crash or a reboot would leave it. */
void recordPid(const BwrapRuntime &runtime, const QString &name, qint64 pid, const QString &startTime)
{
    QFile file(runtime.sandboxDir(name) + QStringLiteral("/state.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject state = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    state.insert(QStringLiteral("init"),
                 QJsonObject{{QStringLiteral("pid"), pid}, {QStringLiteral("startTime"), startTime}});
    state.remove(QStringLiteral("finishedAt"));
    state.remove(QStringLiteral("exitCode"));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(state).toJson());
}

} // namespace

class TestBwrapLifecycle : public QObject
{
    Q_OBJECT

private:
    static SandboxSpec detached(const SandboxTestBed &bed, const QString &name, const QString &script = kService)
    {
        SandboxSpec spec = bed.spec(name, script);
        spec.lifetime = SandboxSpec::Lifetime::Detached;
        return spec;
    }

private slots:
    void startListLogsStopRemove()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const QString name = QStringLiteral("service");
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QCOMPARE(statusOf(runtime, name), SandboxStatus::Created);
        QVERIFY(!runtime.create(detached(bed, name)).ok); // the name is taken

        const auto started = runtime.start(name);
        QVERIFY2(started.ok, qPrintable(started.error));
        QVERIFY(!started.exitCode);
        const auto listed = runtime.list();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed[0].name, name);
        QCOMPARE(listed[0].kitName, QStringLiteral("test-kit"));
        QCOMPARE(listed[0].status, SandboxStatus::Running);
        QVERIFY(listed[0].pid > 0);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(listed[0].pid)));
        QVERIFY(!runtime.start(name).ok);  // already running
        QVERIFY(!runtime.remove(name).ok); // running sandboxes are not removed

        QTRY_VERIFY_WITH_TIMEOUT(runtime.logs(name, 0, 1 << 20).value_or(LogPage()).data.contains("started\n"), 10000);

        const auto stopped = runtime.stop(name);
        QVERIFY2(stopped.ok, qPrintable(stopped.error));
        const auto info = runtime.inspect(name);
        QVERIFY(info);
        QCOMPARE(info->status, SandboxStatus::Stopped);
        QCOMPARE(info->exitCode, std::optional<int>(42));
        QVERIFY(info->finishedAt.isValid());
        QVERIFY(runtime.logs(name, 0, 1 << 20)->data.contains("got-term"));
        QVERIFY(!QFile::exists(QStringLiteral("/proc/%1").arg(listed[0].pid)));

        // Removing keeps the private home unless asked.
        QVERIFY(runtime.remove(name).ok);
        QVERIFY(!runtime.inspect(name));
        QVERIFY(runtime.list().isEmpty());
        QVERIFY(!runtime.logs(name, 0, 1 << 20));
        QVERIFY(QFileInfo(runtime.privateHome(name)).isDir());
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QVERIFY(runtime.start(name).ok);
        QVERIFY(runtime.stop(name).ok);
        QVERIFY(runtime.remove(name, true).ok);
        // The name is free at once; the root and the home, taken away, go in the background.
        QVERIFY(!QFileInfo::exists(runtime.sandboxDir(name)));
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QVERIFY(runtime.remove(name, true).ok);
        QTRY_VERIFY_WITH_TIMEOUT(
            QDir(runtime.trashDir()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), 10000);
    }

    void restartsAfterStop()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const QString name = QStringLiteral("again");
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QVERIFY(runtime.start(name).ok);
        QVERIFY(runtime.stop(name).ok);
        QVERIFY(runtime.start(name).ok);
        QCOMPARE(statusOf(runtime, name), SandboxStatus::Running);
        QVERIFY(!runtime.inspect(name)->exitCode);
        QVERIFY(runtime.stop(name).ok);
        QCOMPARE(statusOf(runtime, name), SandboxStatus::Stopped);
    }

    void stopKillsWhatIgnoresTermination()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const QString name = QStringLiteral("stubborn");
        QVERIFY(runtime
                    .create(detached(bed, name,
                                     QStringLiteral("trap '' TERM; touch ignoring-term; while :; do sleep 0.05; done")))
                    .ok);
        QVERIFY(runtime.start(name).ok);
        // Stop only once the trap is in place: a TERM that arrives before it ends the shell with 143.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(bed.workspace() + QStringLiteral("/ignoring-term")), 10000);
        QVERIFY(runtime.stop(name, std::chrono::milliseconds(300)).ok);
        const auto info = runtime.inspect(name);
        QCOMPARE(info->status, SandboxStatus::Stopped);
        QCOMPARE(info->exitCode, std::optional<int>(128 + SIGKILL));
    }

    void aKilledSandboxIsStopped()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const QString name = QStringLiteral("killed");
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QVERIFY(runtime.start(name).ok);
        const qint64 pid = runtime.inspect(name)->pid;
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(runtime, name), SandboxStatus::Stopped, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(runtime.inspect(name)->exitCode, std::optional<int>(128 + SIGKILL), 10000);
        QVERIFY(runtime.stop(name).ok); // stopping a dead sandbox just records it
        QVERIFY(runtime.remove(name).ok);
    }

    void aReusedOrDeadPidIsNotRunning()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const QString name = QStringLiteral("stale");
        QVERIFY(runtime.create(detached(bed, name)).ok);
        QVERIFY(runtime.start(name).ok);
        QVERIFY(runtime.stop(name).ok);

        // The pid now belongs to another live process (this test), started at another time.
        recordPid(runtime, name, ::getpid(), QStringLiteral("1"));
        QCOMPARE(statusOf(runtime, name), SandboxStatus::Stopped);
        QCOMPARE(runtime.list().value(0).status, SandboxStatus::Stopped);
        QVERIFY(runtime.stop(name).ok);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(::getpid()))); // and was not signalled

        // The pid belongs to nobody any more.
        QProcess gone;
        gone.start(QStringLiteral("true"));
        QVERIFY(gone.waitForFinished());
        recordPid(runtime, name, gone.processId(), QStringLiteral("12345"));
        QCOMPARE(statusOf(runtime, name), SandboxStatus::Stopped);

        // The file itself is the only trace: no sandbox of that name is running.
        QVERIFY(runtime.remove(name).ok);
    }

    void tenSandboxesAtOnce()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        QStringList names;
        for (int i = 0; i < 10; ++i)
            names << QStringLiteral("crowd-%1").arg(i);
        for (const QString &name : names) {
            QVERIFY(runtime.create(detached(bed, name)).ok);
            const auto started = runtime.start(name);
            QVERIFY2(started.ok, qPrintable(started.error));
        }
        const auto all = runtime.list();
        QCOMPARE(all.size(), 10);
        QSet<qint64> pids;
        for (const auto &info : all) {
            QCOMPARE(info.status, SandboxStatus::Running);
            pids.insert(info.pid);
        }
        QCOMPARE(pids.size(), 10);
        for (const QString &name : names)
            QVERIFY(runtime.stop(name).ok);
        for (const auto &info : runtime.list()) {
            QCOMPARE(info.status, SandboxStatus::Stopped);
            QCOMPARE(info.exitCode, std::optional<int>(42));
        }
    }

    void refusesBadNames()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        for (const QString &name :
             {QStringLiteral("../escape"), QStringLiteral("Upper"), QStringLiteral("-dash"), QString()})
            QVERIFY(!runtime.create(detached(bed, name)).ok);
        QVERIFY(!runtime.start(QStringLiteral("../escape")).ok);
        QVERIFY(!runtime.start(QStringLiteral("never-created")).ok);
    }
};

QTEST_GUILESS_MAIN(TestBwrapLifecycle)
#include "tst_bwrap_lifecycle.moc"

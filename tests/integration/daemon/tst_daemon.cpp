// SPDX-License-Identifier: GPL-3.0-or-later
// paddockd and `paddock daemon ...` as a user runs them: real binaries, private XDG dirs.
#include "DaemonFixture.h"

#include "api/DaemonClient.h"
#include "paddock/Version.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <cerrno>
#include <csignal>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

/** Gone, or a zombie nobody reaped yet: either way it no longer serves anything. */
bool processGone(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0)
        return errno == ESRCH;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) == "Z";
}

qint64 pidIn(const QString &text)
{
    const QRegularExpressionMatch match = QRegularExpression(QStringLiteral("\\(pid (\\d+)\\)")).match(text);
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

class TestDaemon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void versionAndHelp()
    {
        DaemonFixture fixture;
        const auto version = fixture.run(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.out.contains(QLatin1String(paddock::kVersion)), qPrintable(version.out));
        const auto help = fixture.run(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QLatin1String("--foreground")));

        for (const QStringList &arguments :
             {QStringList{QStringLiteral("daemon"), QStringLiteral("--help")},
              QStringList{QStringLiteral("daemon"), QStringLiteral("status"), QStringLiteral("--help")},
              QStringList{QStringLiteral("daemon"), QStringLiteral("start"), QStringLiteral("--help")},
              QStringList{QStringLiteral("daemon"), QStringLiteral("stop"), QStringLiteral("--help")},
              QStringList{QStringLiteral("daemon"), QStringLiteral("ping"), QStringLiteral("--help")}}) {
            const auto result = fixture.paddock(arguments);
            QVERIFY2(result.exitCode == 0 && result.out.startsWith(QLatin1String("Usage: paddock daemon")),
                     qPrintable(arguments.join(QLatin1Char(' ')) + QStringLiteral(": ") + result.out + result.err));
        }
        // Nothing of this started a daemon.
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
    }

    void runtimeDirectoryAndSocketAreOwnerOnly()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        QCOMPARE(DaemonFixture::mode(fixture.runtimeDir()), 0700u);
        QCOMPARE(DaemonFixture::mode(fixture.socketPath()), 0600u);
    }

    void logsToItsFileWithTimestamps()
    {
        DaemonFixture fixture;
        // Inherited from somewhere but not our stderr: must not be mistaken for the journal.
        fixture.environment().insert(QStringLiteral("JOURNAL_STREAM"), QStringLiteral("1:1"));
        QVERIFY(fixture.startDaemon());
        QVERIFY(QTest::qWaitFor([&] { return fixture.log().contains(QLatin1String("started")); }, 5000));
        QCOMPARE(DaemonFixture::mode(QFileInfo(fixture.logPath()).absolutePath()), 0700u);
        const QStringList lines = fixture.log().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        const QRegularExpression stamped(
            QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z paddockd\\[\\d+\\] "));
        for (const QString &line : lines)
            QVERIFY2(stamped.match(line).hasMatch(), qPrintable(line));
    }

    void coreDumpsAreOff()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        QFile limits(QStringLiteral("/proc/%1/limits").arg(fixture.daemon()->processId()));
        QVERIFY(limits.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(limits.readAll());
        const QRegularExpression core(QStringLiteral("Max core file size\\s+0\\s+0\\s"));
        QVERIFY2(core.match(text).hasMatch(), qPrintable(text));
    }

    void statusSaysNotRunningAndDoesNotStartIt()
    {
        DaemonFixture fixture;
        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        QCOMPARE(status.exitCode, 1);
        QVERIFY2(status.out.contains(QLatin1String("not running")), qPrintable(status.out + status.err));
        const auto json =
            fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 1);
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object().value(QLatin1String("running")).toBool(true),
                 false);
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
    }

    void statusShowsTheRunningDaemon()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        const qint64 pid = fixture.daemon()->processId();
        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        QCOMPARE(status.exitCode, 0);
        QVERIFY2(status.out.contains(QLatin1String(paddock::kVersion)), qPrintable(status.out));
        QVERIFY2(status.out.contains(QString::number(pid)), qPrintable(status.out));
        QVERIFY2(status.out.contains(fixture.socketPath()), qPrintable(status.out));

        const auto json =
            fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(object.value(QLatin1String("running")).toBool(), true);
        QCOMPARE(object.value(QLatin1String("pid")).toInteger(), pid);
        QCOMPARE(object.value(QLatin1String("version")).toString(), QLatin1String(paddock::kVersion));
        QCOMPARE(object.value(QLatin1String("socket")).toString(), fixture.socketPath());
        QVERIFY(object.value(QLatin1String("uptimeMs")).toInteger(-1) >= 0);

        const auto ping = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("ping")});
        QCOMPARE(ping.exitCode, 0);
        QVERIFY2(ping.out.contains(QStringLiteral("pid %1").arg(pid)), qPrintable(ping.out));
    }

    void startStartsItOnDemandAndStopStopsIt()
    {
        DaemonFixture fixture;
        const auto start = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("start")});
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        QVERIFY2(start.out.startsWith(QLatin1String("started paddockd")), qPrintable(start.out));
        const qint64 pid = pidIn(start.out);
        QVERIFY(pid > 0);
        QVERIFY(QFileInfo::exists(fixture.socketPath()));
        QCOMPARE(fixture.lockedPid(), pid);

        const auto again = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("start")});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains(QLatin1String("already running")), qPrintable(again.out));
        QCOMPARE(pidIn(again.out), pid);

        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        QCOMPARE(status.exitCode, 0);

        const auto stop = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
        QVERIFY(QTest::qWaitFor([pid] { return processGone(pid); }, 10000));
        QVERIFY(fixture.log().contains(QLatin1String("shutdown requested")));
    }

    void asyncClientStartsTheDaemonOnDemand()
    {
        // What the GUI does: no blocking call, paddockd started when nothing answers.
        DaemonFixture fixture;
        const QProcessEnvironment environment = fixture.environment();
        const QStringList names{QStringLiteral("XDG_CONFIG_HOME"), QStringLiteral("XDG_STATE_HOME"),
                                QStringLiteral("XDG_DATA_HOME"), QStringLiteral("XDG_RUNTIME_DIR"),
                                QStringLiteral("PADDOCKD")};
        QHash<QString, QByteArray> saved;
        for (const QString &name : names) {
            saved.insert(name, qgetenv(name.toLatin1().constData()));
            qputenv(name.toLatin1().constData(), environment.value(name).toUtf8());
        }
        const auto restore = qScopeGuard([&] {
            for (const QString &name : names) {
                if (saved.value(name).isEmpty())
                    qunsetenv(name.toLatin1().constData());
                else
                    qputenv(name.toLatin1().constData(), saved.value(name));
            }
        });

        paddock::api::DaemonClient client;
        QCOMPARE(client.socketPath(), fixture.socketPath());
        client.setStartOnDemand(true);
        QSignalSpy connected(&client, &paddock::api::DaemonClient::connected);
        QSignalSpy failed(&client, &paddock::api::DaemonClient::connectionFailed);
        QSignalSpy disconnected(&client, &paddock::api::DaemonClient::disconnected);
        client.connectToDaemon();
        QVERIFY(QTest::qWaitFor([&] { return !connected.isEmpty() || !failed.isEmpty(); }, 10000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
        QVERIFY(client.server().pid > 0);
        QCOMPARE(client.server().pid, fixture.lockedPid());

        std::optional<paddock::api::Reply> stopping;
        client.call(QStringLiteral("shutdown"), {},
                    [&stopping](const paddock::api::Reply &reply) { stopping = reply; });
        QVERIFY(QTest::qWaitFor([&] { return stopping.has_value(); }, 10000));
        QVERIFY(!stopping->isError());
        QVERIFY(disconnected.count() == 1 || disconnected.wait(10000));
        QVERIFY(QTest::qWaitFor([&] { return !QFileInfo::exists(fixture.socketPath()); }, 10000));
    }

    void startFindsTheDaemonBesideItself()
    {
        // As built and as installed, paddockd sits next to paddock: no variable, no PATH entry.
        DaemonFixture fixture;
        fixture.environment().remove(QStringLiteral("PADDOCKD"));
        fixture.environment().insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        QCOMPARE(QFileInfo(QStringLiteral(PADDOCK_BIN)).absolutePath(),
                 QFileInfo(QStringLiteral(PADDOCKD_BIN)).absolutePath());
        const auto start = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("start")});
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        const auto stop = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
        QCOMPARE(stop.exitCode, 0);
    }

    void startExplainsWhenTheDaemonCannotBeFound()
    {
        DaemonFixture fixture;
        fixture.environment().insert(QStringLiteral("PADDOCKD"), fixture.path(QStringLiteral("missing/paddockd")));
        const auto start = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("start")});
        QCOMPARE(start.exitCode, 1);
        QVERIFY2(start.err.startsWith(QLatin1String("paddock: cannot start paddockd: ")), qPrintable(start.err));
        QCOMPARE(start.err.count(QLatin1Char('\n')), 1);
    }

    void stopWhenNotRunningSucceeds()
    {
        DaemonFixture fixture;
        const auto stop = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
        QCOMPARE(stop.exitCode, 0);
        QVERIFY2(stop.out.contains(QLatin1String("not running")), qPrintable(stop.out));
    }

    void stopRemovesTheSocketAndTheProcessExits()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        const auto stop = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.out + stop.err));
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
        QVERIFY(fixture.daemon()->waitForFinished(10000));
        QCOMPARE(fixture.daemon()->exitStatus(), QProcess::NormalExit);
        QCOMPARE(fixture.daemon()->exitCode(), 0);
    }

    void secondDaemonIsRefused()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        const qint64 pid = fixture.daemon()->processId();
        const auto second = fixture.run(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains(QStringLiteral("paddockd is already running (pid %1)").arg(pid)),
                 qPrintable(second.err));
        // The first one is unharmed.
        QVERIFY(QFileInfo::exists(fixture.socketPath()));
        QCOMPARE(fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")}).exitCode, 0);
    }

    void staleSocketIsReplaced()
    {
        DaemonFixture fixture;
        // What a killed daemon leaves behind: a socket file nobody listens on.
        QVERIFY(QDir().mkpath(fixture.runtimeDir()));
        QVERIFY(::chmod(QFile::encodeName(fixture.runtimeDir()).constData(), 0700) == 0);
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray path = QFile::encodeName(fixture.socketPath());
        QVERIFY(size_t(path.size()) < sizeof(address.sun_path));
        std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
        ::close(fd);
        QVERIFY(QFileInfo::exists(fixture.socketPath()));
        QCOMPARE(fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")}).exitCode, 1);

        QVERIFY(fixture.startDaemon());
        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        QVERIFY2(status.exitCode == 0, qPrintable(status.out + status.err));
        QVERIFY(status.out.contains(QString::number(fixture.daemon()->processId())));
        QVERIFY2(fixture.log().contains(QLatin1String("stale socket")), qPrintable(fixture.log()));
    }

    void sigtermRemovesTheSocket()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        fixture.daemon()->terminate();
        QVERIFY(fixture.daemon()->waitForFinished(10000));
        QCOMPARE(fixture.daemon()->exitStatus(), QProcess::NormalExit);
        QCOMPARE(fixture.daemon()->exitCode(), 0);
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
        QVERIFY2(fixture.log().contains(QLatin1String("received SIGTERM")), qPrintable(fixture.log()));
    }

    void sigintRemovesTheSocket()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        QCOMPARE(::kill(pid_t(fixture.daemon()->processId()), SIGINT), 0);
        QVERIFY(fixture.daemon()->waitForFinished(10000));
        QCOMPARE(fixture.daemon()->exitCode(), 0);
        QVERIFY(!QFileInfo::exists(fixture.socketPath()));
    }
};

QTEST_GUILESS_MAIN(TestDaemon)
#include "tst_daemon.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <csignal>
#include <sys/stat.h>

/**
 * @brief Private XDG directories and helpers to run the real paddock and paddockd in them.
 */
class DaemonFixture
{
public:
    DaemonFixture() : m_dir(std::make_unique<QTemporaryDir>())
    {
        for (const char *sub : {"config", "state", "data", "run"})
            QDir(m_dir->path()).mkpath(QLatin1String(sub));
        m_environment = QProcessEnvironment::systemEnvironment();
        m_environment.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
        m_environment.insert(QStringLiteral("XDG_STATE_HOME"), path(QStringLiteral("state")));
        m_environment.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("data")));
        m_environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("run")));
        m_environment.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
        m_environment.remove(QStringLiteral("JOURNAL_STREAM"));
    }

    ~DaemonFixture()
    {
        // A daemon started on demand is not our child: stop it through its lock file's pid.
        const qint64 pid = lockedPid();
        if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
            m_daemon->terminate();
            m_daemon->waitForFinished(5000);
        }
        if (pid > 0 && ::kill(pid_t(pid), 0) == 0 && QFileInfo::exists(socketPath()))
            ::kill(pid_t(pid), SIGTERM);
    }

    QString path(const QString &relative) const { return m_dir->path() + QLatin1Char('/') + relative; }
    QString runtimeDir() const { return path(QStringLiteral("run/paddock")); }
    QString socketPath() const { return runtimeDir() + QStringLiteral("/paddockd.sock"); }
    QString logPath() const { return path(QStringLiteral("state/paddock/paddockd.log")); }
    QProcessEnvironment &environment() { return m_environment; }

    /** Starts paddockd as our child and waits (bounded) until it accepts connections. */
    bool startDaemon()
    {
        m_daemon = std::make_unique<QProcess>();
        m_daemon->setProcessEnvironment(m_environment);
        m_daemon->setProcessChannelMode(QProcess::ForwardedChannels);
        m_daemon->start(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
        if (!m_daemon->waitForStarted(5000))
            return false;
        // A socket file alone proves nothing: it may be a stale one the daemon is about to replace.
        return QTest::qWaitFor([this] { return accepts() || m_daemon->state() == QProcess::NotRunning; }, 10000) &&
               m_daemon->state() == QProcess::Running;
    }

    /** True when something listens on the daemon socket. */
    bool accepts() const
    {
        QLocalSocket probe;
        probe.connectToServer(socketPath());
        return probe.waitForConnected(100);
    }

    QProcess *daemon() { return m_daemon.get(); }

    struct Result
    {
        int exitCode = -1;
        QString out;
        QString err;
    };

    /** Runs a program with the fixture's environment and waits for it. */
    Result run(const QString &program, const QStringList &arguments)
    {
        QProcess process;
        process.setProcessEnvironment(m_environment);
        process.start(program, arguments);
        if (!process.waitForFinished(30000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    Result paddock(const QStringList &arguments) { return run(QStringLiteral(PADDOCK_BIN), arguments); }

    qint64 lockedPid() const
    {
        QFile lock(runtimeDir() + QStringLiteral("/paddockd.lock"));
        if (!lock.open(QIODevice::ReadOnly))
            return -1;
        bool ok = false;
        const qint64 pid = lock.readLine().trimmed().toLongLong(&ok);
        return ok ? pid : -1;
    }

    QString log() const
    {
        QFile file(logPath());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

    static uint mode(const QString &file)
    {
        struct stat st
        {
        };
        if (::lstat(QFile::encodeName(file).constData(), &st) != 0)
            return 0xFFFF;
        return st.st_mode & 07777;
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment m_environment;
    std::unique_ptr<QProcess> m_daemon;
};

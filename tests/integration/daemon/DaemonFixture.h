// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonProcess.h"
#include "IsolatedHome.h"
#include "ProcessRun.h"
#include "TestFiles.h"

#include <QFile>
#include <QFileInfo>
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
        using namespace paddock::test;
        m_environment = isolatedEnvironment(m_dir->path(), XdgFolders::shortNames());
        m_environment.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
        m_environment.remove(QStringLiteral("JOURNAL_STREAM"));
    }

    ~DaemonFixture()
    {
        // A daemon started on demand is not our child: stop it through its lock file's pid.
        const qint64 pid = lockedPid();
        m_daemon.stop();
        if (pid > 0 && ::kill(pid_t(pid), 0) == 0 && QFileInfo::exists(socketPath()))
            ::kill(pid_t(pid), SIGTERM);
    }

    QString path(const QString &relative) const { return m_dir->path() + QLatin1Char('/') + relative; }
    QString runtimeDir() const { return path(QStringLiteral("run/paddock")); }
    QString socketPath() const { return runtimeDir() + QStringLiteral("/paddockd.sock"); }
    QString logPath() const { return path(QStringLiteral("state/paddock/paddockd.log")); }
    QProcessEnvironment &environment() { return m_environment; }

    /** Starts paddockd as our child, its output on ours, and waits (bounded) until it accepts connections. */
    bool startDaemon() { return m_daemon.start(m_environment, socketPath()); }

    /** True when something listens on the daemon socket. */
    bool accepts() const { return paddock::test::DaemonProcess::accepts(socketPath()); }

    QProcess *daemon() { return m_daemon.process(); }

    using Result = paddock::test::Finished;

    /** Runs a program with the fixture's environment and waits for it. */
    Result run(const QString &program, const QStringList &arguments)
    {
        paddock::test::ProcessOptions options;
        options.environment = m_environment;
        options.timeoutMs = 30000;
        return paddock::test::runText(program, arguments, options);
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

    QString log() const { return QString::fromUtf8(paddock::test::readFile(logPath())); }

    static uint mode(const QString &file)
    {
        struct stat st
        {};
        if (::lstat(QFile::encodeName(file).constData(), &st) != 0)
            return 0xFFFF;
        return st.st_mode & 07777;
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcessEnvironment m_environment;
    paddock::test::DaemonProcess m_daemon;
};

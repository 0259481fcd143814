// SPDX-License-Identifier: GPL-3.0-or-later
#include "DaemonProcess.h"

#include <QLocalSocket>
#include <QTest>

#include <csignal>

namespace paddock::test {

bool DaemonProcess::start(const QProcessEnvironment &environment, const QString &socketPath, const QString &logFile)
{
    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(environment);
    if (logFile.isEmpty()) {
        m_process->setProcessChannelMode(QProcess::ForwardedChannels);
    } else {
        m_process->setStandardOutputFile(logFile, QIODevice::Append);
        m_process->setStandardErrorFile(logFile, QIODevice::Append);
    }
    m_process->start(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
    if (!m_process->waitForStarted(5000))
        return false;
    // A stale socket file may still be there for the daemon to replace: wait for an answer.
    return QTest::qWaitFor([&] { return accepts(socketPath) || m_process->state() == QProcess::NotRunning; }, 20000) &&
           m_process->state() == QProcess::Running;
}

void DaemonProcess::stop()
{
    if (!isRunning())
        return;
    m_process->terminate();
    if (!m_process->waitForFinished(10000))
        kill();
}

void DaemonProcess::kill()
{
    // Never pid 0: that would be the test's own process group.
    if (!m_process || m_process->processId() <= 0)
        return;
    ::kill(pid_t(m_process->processId()), SIGKILL);
    m_process->waitForFinished(10000);
}

bool DaemonProcess::accepts(const QString &socketPath)
{
    QLocalSocket probe;
    probe.connectToServer(socketPath);
    return probe.waitForConnected(100);
}

} // namespace paddock::test

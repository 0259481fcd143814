// SPDX-License-Identifier: GPL-3.0-or-later
// The real paddockd as a child of the test: started in the test's environment, waited for
// until it accepts connections on its socket, and stopped again.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>

#include <memory>

namespace paddock::test {

/** @brief paddockd running in the foreground as the test's child. */
class DaemonProcess
{
public:
    DaemonProcess() = default;
    ~DaemonProcess() { stop(); }
    DaemonProcess(const DaemonProcess &) = delete;
    DaemonProcess &operator=(const DaemonProcess &) = delete;

    /**
     * Starts `paddockd --foreground` with @p environment and waits (bounded) until it accepts
     * connections on @p socketPath; false when it did not start or ended first. Its output is
     * appended to @p logFile, or goes to the test's own when that is empty.
     */
    bool start(const QProcessEnvironment &environment, const QString &socketPath, const QString &logFile = {});
    /** SIGTERM, then SIGKILL when it has not ended within ten seconds. */
    void stop();
    /** SIGKILL: the daemon gets no chance to clean up. */
    void kill();

    bool isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }
    /** The daemon's process, once started. */
    QProcess *process() const { return m_process.get(); }

    /** True when something accepts connections on @p socketPath. A socket file alone proves nothing. */
    static bool accepts(const QString &socketPath);

private:
    std::unique_ptr<QProcess> m_process;
};

} // namespace paddock::test

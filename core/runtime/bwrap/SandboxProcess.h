// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QString>
#include <QStringList>
#include <QThread>

namespace paddock::runtime::bwrap {

/** @brief How a launcher child is wired: its command and the descriptors it gets. */
struct ChildSetup
{
    QStringList argv;    ///< absolute program path first; started with an empty environment
    int in = 0;          ///< becomes the child's fd 0 (unless terminal)
    int out = 1;         ///< fd 1, and where terminal output is copied to
    int err = 2;         ///< fd 2 (unless terminal)
    QList<int> extraFds; ///< become the child's fds 3, 4, ... in this order
    /** Give the child a pseudo-terminal of its own (as controlling terminal of its new
     *  session) and copy between it and in/out, instead of passing in/out/err through. */
    bool terminal = false;
};

/**
 * Starts @p setup in a session of its own, re-parented away from this process so it survives
 * it and never becomes its zombie. Returns the child's pid, or 0 with @p error set.
 */
qint64 spawnDetached(const ChildSetup &setup, QString *error);

/** Polls @p done every millisecond until it holds or @p timeoutMs passes. */
template<typename Predicate>
bool waitUntil(Predicate done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QThread::usleep(1000);
    }
    return true;
}

/**
 * @brief A child that runs in its own session while this process waits for it and, for a
 * terminal, relays keystrokes and output.
 */
class AttachedChild
{
public:
    AttachedChild() = default;
    ~AttachedChild();
    AttachedChild(const AttachedChild &) = delete;
    AttachedChild &operator=(const AttachedChild &) = delete;

    bool start(const ChildSetup &setup, QString *error);
    qint64 pid() const { return m_pid; }
    /** Whether it has already ended (collecting its status if so). */
    bool hasExited();
    /** Waits for the end (relaying the terminal meanwhile); the status as a shell reports it. */
    int wait();

private:
    void relayTerminal();

    ChildSetup m_setup;
    qint64 m_pid = 0;
    int m_master = -1;
    bool m_exited = false;
    int m_status = 0;
};

} // namespace paddock::runtime::bwrap

// SPDX-License-Identifier: GPL-3.0-or-later
// The real paddock CLI on a real pseudo-terminal, for the tests that attach to a sandbox's
// agent as a person would (any backend). A test using it links `util` (forkpty).
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <vector>

#include <csignal>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paddock::test {

/** @brief `paddock ARGS` on a real pseudo-terminal, driven like a person at a keyboard. */
class Terminal
{
public:
    Terminal(const QStringList &arguments, const QProcessEnvironment &env, const QString &cwd, int rows = 40,
             int cols = 100, const QByteArray &program = QByteArrayLiteral(PADDOCK_BIN))
    {
        winsize size{};
        size.ws_row = (unsigned short)rows;
        size.ws_col = (unsigned short)cols;
        std::vector<QByteArray> storage{program};
        for (const QString &arg : arguments)
            storage.push_back(arg.toLocal8Bit());
        std::vector<QByteArray> envStorage;
        for (const QString &entry : env.toStringList())
            envStorage.push_back(entry.toLocal8Bit());
        std::vector<char *> argv, envp;
        for (QByteArray &item : storage)
            argv.push_back(item.data());
        argv.push_back(nullptr);
        for (QByteArray &item : envStorage)
            envp.push_back(item.data());
        envp.push_back(nullptr);
        const QByteArray dir = cwd.toLocal8Bit();
        m_pid = ::forkpty(&m_master, nullptr, nullptr, &size);
        if (m_pid == 0) {
            if (::chdir(dir.constData()) != 0)
                _exit(126);
            ::execve(argv[0], argv.data(), envp.data());
            _exit(127);
        }
        ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
    }
    ~Terminal()
    {
        if (m_pid > 0 && !m_exited) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_master >= 0)
            ::close(m_master);
    }

    /** Closes the terminal as a closed window does: everything on it sees a hang-up. */
    void hangUp()
    {
        ::close(m_master);
        m_master = -1;
    }
    void type(const QByteArray &keys)
    {
        QVERIFY(::write(m_master, keys.constData(), size_t(keys.size())) == keys.size());
    }
    void resize(int rows, int cols)
    {
        winsize size{};
        size.ws_row = (unsigned short)rows;
        size.ws_col = (unsigned short)cols;
        ::ioctl(m_master, TIOCSWINSZ, &size);
    }
    /** Reads until @p text has appeared (or the timeout passes); whether it did. */
    bool waitFor(const QByteArray &text, int timeoutMs = 15000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_screen.contains(text) && timer.elapsed() < timeoutMs) {
            pollfd fd{m_master, POLLIN, 0};
            if (::poll(&fd, 1, 100) > 0) {
                char buffer[4096];
                const ssize_t n = ::read(m_master, buffer, sizeof buffer);
                if (n > 0)
                    m_screen.append(buffer, n);
            }
        }
        return m_screen.contains(text);
    }
    /** Waits for the program to end; its exit status, or -1. */
    int wait(int timeoutMs = 15000)
    {
        QElapsedTimer timer;
        timer.start();
        int status = 0;
        while (timer.elapsed() < timeoutMs) {
            waitFor(QByteArray("\x01never"), 50);
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_exited = true;
                waitFor(QByteArray("\x01never"), 100);
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
        }
        return -1;
    }
    const QByteArray &screen() const { return m_screen; }
    void forget() { m_screen.clear(); }

private:
    int m_master = -1;
    pid_t m_pid = -1;
    bool m_exited = false;
    QByteArray m_screen;
};

} // namespace paddock::test

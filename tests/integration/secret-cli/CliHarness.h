// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the real `paddock` binary for the secret, binding and ca command tests: with its own
// XDG directories, through pipes or on a pseudo-terminal (for the prompts that must read from
// a terminal), and searches files for bytes that must never be written.

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cerrno>
#include <csignal>
#include <string>
#include <vector>

#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace paddock::test {

struct CliRun
{
    int exitCode = -1; ///< -1 when the process crashed or did not finish
    QByteArray out;
    QByteArray err;
    QString outText() const { return QString::fromUtf8(out); }
    QString errText() const { return QString::fromUtf8(err); }
    QByteArray all() const { return out + err; }
    int signal = 0;                   ///< runOnTerminal(): the signal that ended the process, if one did
    bool terminalEchoesAfter = false; ///< runOnTerminal(): whether echo was on once the process ended
};

/** One exchange on the terminal: wait until @c expect has been printed, then type @c type. */
struct TerminalStep
{
    QByteArray expect;
    QByteArray type;
};

/** @brief A throwaway home (XDG directories) and a way to run `paddock` in it. */
class CliHome
{
public:
    CliHome()
    {
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
            const QString path = m_dir.filePath(QLatin1String(name));
            QDir().mkpath(path);
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            m_env.insert(QLatin1String(name), path);
        }
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    }

    bool isValid() const { return m_dir.isValid(); }
    QString root() const { return m_dir.path(); }
    QString configDir() const { return m_env.value(QStringLiteral("XDG_CONFIG_HOME")) + QStringLiteral("/paddock"); }
    QProcessEnvironment &environment() { return m_env; }

    /** Every byte any command run here printed, to check that a key never appeared. */
    const QByteArray &transcript() const { return m_transcript; }

    CliRun run(const QStringList &arguments, const QByteArray &input = QByteArray())
    {
        QProcess process;
        process.setProcessEnvironment(m_env);
        process.start(QStringLiteral(PADDOCK_BIN), arguments);
        CliRun result;
        if (!process.waitForStarted(30000))
            return result;
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
        } else if (process.exitStatus() == QProcess::NormalExit) {
            result.exitCode = process.exitCode();
        }
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        m_transcript += result.out + result.err;
        return result;
    }

    /**
     * Runs paddock with a pseudo-terminal as its stdin, stdout and stderr (and controlling
     * terminal), playing @p steps. Everything the terminal showed ends up in CliRun::out,
     * echo included. The waits are bounded only so that a hang fails instead of blocking.
     */
    CliRun runOnTerminal(const QStringList &arguments, const QList<TerminalStep> &steps)
    {
        CliRun result;
        int master = -1;
        int slave = -1;
        if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0)
            return result;

        std::vector<std::string> args{PADDOCK_BIN};
        for (const QString &a : arguments)
            args.push_back(a.toStdString());
        std::vector<std::string> env;
        for (const QString &entry : m_env.toStringList())
            env.push_back(entry.toStdString());
        std::vector<char *> argv, envp;
        for (std::string &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        for (std::string &e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);

        const pid_t child = ::fork();
        if (child == 0) {
            ::setsid();
            ::ioctl(slave, TIOCSCTTY, 0);
            ::dup2(slave, 0);
            ::dup2(slave, 1);
            ::dup2(slave, 2);
            ::close(master);
            if (slave > 2)
                ::close(slave);
            ::execve(argv[0], argv.data(), envp.data());
            ::_exit(127);
        }
        ::close(slave);

        QByteArray shown;
        qsizetype searchFrom = 0;
        bool ok = true;
        for (const TerminalStep &step : steps) {
            qsizetype at = -1;
            while ((at = shown.indexOf(step.expect, searchFrom)) < 0) {
                if (!readSome(master, shown)) {
                    ok = false;
                    break;
                }
            }
            if (!ok)
                break;
            searchFrom = at + step.expect.size();
            if (::write(master, step.type.constData(), size_t(step.type.size())) != step.type.size()) {
                ok = false;
                break;
            }
        }
        while (ok && readSome(master, shown)) {
        }
        int status = 0;
        if (!ok)
            ::kill(child, SIGKILL);
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        // The settings belong to the terminal, not the process: what it left is still there.
        struct termios settings;
        result.terminalEchoesAfter = ::tcgetattr(master, &settings) == 0 && (settings.c_lflag & ECHO);
        ::close(master);
        result.exitCode = ok && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        result.signal = ok && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        result.out = shown;
        m_transcript += shown;
        return result;
    }

private:
    /** Appends what the terminal shows next; false at its end (EIO once the child is gone). */
    static bool readSome(int master, QByteArray &shown)
    {
        pollfd fd{master, POLLIN, 0};
        for (;;) {
            const int ready = ::poll(&fd, 1, 60000);
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready <= 0)
                return false;
            char buffer[4096];
            const ssize_t got = ::read(master, buffer, sizeof buffer);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return false;
            shown.append(buffer, got);
            return true;
        }
    }

    QTemporaryDir m_dir;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
    QByteArray m_transcript;
};

/** Every file under @p root whose bytes contain @p needle. */
inline QStringList filesContaining(const QString &root, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found << path;
    }
    return found;
}

/** Copies the files of a kit directory (no subdirectories needed here) into @p target. */
inline bool copyKit(const QString &source, const QString &target)
{
    if (!QDir().mkpath(target))
        return false;
    const QDir from(source);
    for (const QString &name : from.entryList(QDir::Files))
        if (!QFile::copy(from.filePath(name), target + QLatin1Char('/') + name))
            return false;
    return true;
}

} // namespace paddock::test

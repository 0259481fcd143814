// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliHome.h"

#include <QFileInfo>

#include "IsolatedHome.h"

#include <QRegularExpression>

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

namespace {

/** Appends what the terminal shows next; false at its end (EIO once the child is gone). */
bool readSome(int master, QByteArray &shown)
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

/** Starts paddock with @p slave as its controlling terminal and standard streams. */
pid_t spawnOnTerminal(const QStringList &arguments, const QProcessEnvironment &environment, int master, int slave)
{
    std::vector<std::string> args{PADDOCK_BIN};
    for (const QString &a : arguments)
        args.push_back(a.toStdString());
    std::vector<std::string> env;
    for (const QString &entry : environment.toStringList())
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
    return child;
}

/** Plays @p steps on the terminal, then reads it to its end; false when an expected text never came. */
bool playSteps(int master, const QList<TerminalStep> &steps, QByteArray &shown)
{
    qsizetype searchFrom = 0;
    for (const TerminalStep &step : steps) {
        qsizetype at = -1;
        while ((at = shown.indexOf(step.expect, searchFrom)) < 0) {
            if (!readSome(master, shown))
                return false;
        }
        searchFrom = at + step.expect.size();
        if (::write(master, step.type.constData(), size_t(step.type.size())) != step.type.size())
            return false;
    }
    while (readSome(master, shown)) {
    }
    return true;
}

} // namespace

CliHome::~CliHome()
{
    // Commands that go through paddockd start it in this home when none answers (DaemonLauncher).
    if (QFileInfo::exists(m_env.value(QStringLiteral("XDG_RUNTIME_DIR")) + QStringLiteral("/paddock/paddockd.sock")))
        run({QStringLiteral("daemon"), QStringLiteral("stop")});
}

CliHome::CliHome()
{
    m_env = isolatedEnvironment(m_dir.path(), XdgFolders::variableNames(), FolderAccess::OwnerOnly);
    m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    removeProxySettings(m_env);
}

CliRun CliHome::run(const QStringList &arguments, const QByteArray &input)
{
    ProcessOptions options;
    options.environment = m_env;
    options.workingDirectory = m_workingDirectory;
    options.input = input;
    const ProcessOutput output = runProcess(QStringLiteral(PADDOCK_BIN), arguments, options);
    CliRun result;
    result.exitCode = output.exitCode;
    result.out = output.out;
    result.err = output.err;
    m_transcript += result.out + result.err;
    return result;
}

Finished CliHome::paddock(const QStringList &arguments)
{
    const CliRun result = run(arguments);
    return {result.exitCode, result.outText(), result.errText()};
}

Finished CliHome::runProgram(const QString &program, const QStringList &arguments, int timeoutMs) const
{
    ProcessOptions options;
    options.environment = m_env;
    options.timeoutMs = timeoutMs;
    return runText(program, arguments, options);
}

CliRun CliHome::runOnTerminal(const QStringList &arguments, const QList<TerminalStep> &steps)
{
    CliRun result;
    int master = -1;
    int slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0)
        return result;
    const pid_t child = spawnOnTerminal(arguments, m_env, master, slave);
    ::close(slave);

    QByteArray shown;
    const bool ok = playSteps(master, steps, shown);
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

Finished CliHome::curlVia(const QString &proxy, const QString &url, const QStringList &extra) const
{
    return runProgram(QStringLiteral("curl"),
                      QStringList{QStringLiteral("-s"), QStringLiteral("-i"), QStringLiteral("--max-time"),
                                  QStringLiteral("20"), QStringLiteral("-x"), QStringLiteral("http://") + proxy} +
                          extra + QStringList{url});
}

QString CliHome::startServe(QProcess &process, const QStringList &arguments) const
{
    process.setProcessEnvironment(m_env);
    process.start(QStringLiteral(PADDOCK_BIN), QStringList{QStringLiteral("proxy"), QStringLiteral("serve"),
                                                           QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} +
                                                   arguments);
    if (!process.waitForStarted(10000))
        return {};
    static const QRegularExpression listening(QStringLiteral("listening on (\\S+)"));
    QByteArray seen;
    while (process.state() == QProcess::Running && process.waitForReadyRead(30000)) {
        seen += process.readAllStandardOutput();
        const QRegularExpressionMatch match = listening.match(QString::fromUtf8(seen));
        if (match.hasMatch())
            return match.captured(1);
    }
    return {};
}

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SecretCliSupport.h"

#include <QLoggingCategory>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iterator>

#include <termios.h>
#include <unistd.h>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcSecretCliSupport, "paddock.cli.secretsupport", QtWarningMsg)

namespace {

// The terminal's settings while echo is off, for the signal handler to put back: a Ctrl-C at
// the prompt must not leave the user's shell without echo.
struct termios g_savedTerminal;
volatile sig_atomic_t g_terminalFd = -1;

constexpr int kRestoredSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void restoreTerminalAndDie(int signalNumber)
{
    if (g_terminalFd >= 0)
        ::tcsetattr(g_terminalFd, TCSAFLUSH, &g_savedTerminal);
    ::signal(signalNumber, SIG_DFL);
    ::raise(signalNumber);
}

/** Reads into @p buffer (sized kMaxSecretBytes + 1, zero-filled) until @p stopAtNewline or the end. */
qsizetype readInto(int fd, QByteArray &buffer, bool stopAtNewline, QString *error)
{
    qsizetype length = 0;
    char *data = buffer.data();
    const qsizetype capacity = buffer.size();
    while (length < capacity) {
        // One byte at a time on a terminal so nothing after the newline is consumed.
        const size_t want = stopAtNewline ? 1 : size_t(capacity - length);
        const ssize_t got = ::read(fd, data + length, want);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            *error = QStringLiteral("cannot read the value: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return -1;
        }
        if (got == 0)
            break;
        if (stopAtNewline && data[length] == '\n') {
            data[length] = '\0';
            break;
        }
        length += got;
    }
    if (length >= capacity) {
        *error = QStringLiteral("the value is longer than %1 bytes: nothing was stored").arg(kMaxSecretBytes);
        return -1;
    }
    return length;
}

SecretReadResult finish(QByteArray buffer, qsizetype length, const QString &error)
{
    SecretReadResult result;
    if (length < 0) {
        buffer.fill('\0');
        result.error = error;
        return result;
    }
    // Shrinking keeps the allocation, so no copy of the value is left behind in freed memory;
    // the bytes past the end were never written.
    buffer.truncate(length);
    result.value = std::move(buffer);
    return result;
}

} // namespace

void quietSecretsLogging()
{
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.secrets.*.debug=false\n"
                                                    "paddock.secrets.*.info=false"));
}

void runQuietly(Command &group)
{
    for (Command &sub : group.subcommands)
        runQuietly(sub);
    if (!group.run)
        return;
    group.run = [run = std::move(group.run)](const Invocation &call) {
        quietSecretsLogging();
        return run(call);
    };
}

bool isTerminal(int fd)
{
    return ::isatty(fd) == 1;
}

SecretReadResult readHiddenLine(int fd, const QString &prompt)
{
    struct termios hidden;
    if (::tcgetattr(fd, &g_savedTerminal) != 0)
        return {QByteArray(), QStringLiteral("cannot set up the terminal to read the value without echo")};
    hidden = g_savedTerminal;
    hidden.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK | ECHONL);
    hidden.c_lflag |= ICANON;

    struct sigaction handler;
    std::memset(&handler, 0, sizeof handler);
    handler.sa_handler = restoreTerminalAndDie;
    sigemptyset(&handler.sa_mask);
    struct sigaction previous[std::size(kRestoredSignals)];
    for (size_t i = 0; i < std::size(kRestoredSignals); ++i)
        ::sigaction(kRestoredSignals[i], &handler, &previous[i]);
    g_terminalFd = fd;

    // Echo goes off before the prompt appears, and what was typed ahead (already echoed) is
    // discarded, so whatever follows the prompt is never shown.
    if (::tcsetattr(fd, TCSAFLUSH, &hidden) != 0) {
        g_terminalFd = -1;
        for (size_t i = 0; i < std::size(kRestoredSignals); ++i)
            ::sigaction(kRestoredSignals[i], &previous[i], nullptr);
        return {QByteArray(), QStringLiteral("cannot turn off the terminal's echo to read the value")};
    }
    const QByteArray promptBytes = prompt.toUtf8();
    if (::write(STDERR_FILENO, promptBytes.constData(), size_t(promptBytes.size())) < 0)
        qCDebug(lcSecretCliSupport) << "could not show the prompt";

    QByteArray buffer(kMaxSecretBytes + 1, '\0');
    QString error;
    const qsizetype length = readInto(fd, buffer, true, &error);

    ::tcsetattr(fd, TCSAFLUSH, &g_savedTerminal);
    g_terminalFd = -1;
    for (size_t i = 0; i < std::size(kRestoredSignals); ++i)
        ::sigaction(kRestoredSignals[i], &previous[i], nullptr);
    // The newline the user typed was not echoed either.
    if (::write(STDERR_FILENO, "\n", 1) < 0)
        qCDebug(lcSecretCliSupport) << "could not end the prompt line";
    return finish(std::move(buffer), length, error);
}

SecretReadResult readAllInput(int fd)
{
    QByteArray buffer(kMaxSecretBytes + 1, '\0');
    QString error;
    qsizetype length = readInto(fd, buffer, false, &error);
    if (length > 0 && buffer.at(length - 1) == '\n') {
        buffer[--length] = '\0';
        if (length > 0 && buffer.at(length - 1) == '\r')
            buffer[--length] = '\0';
    }
    return finish(std::move(buffer), length, error);
}

} // namespace paddock::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "DaemonLog.h"

#include "common/Paths.h"

#include <QByteArray>
#include <QDateTime>
#include <QFile>
#include <QLoggingCategory>
#include <QString>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::daemon {
namespace {

// Past this size at start the previous log is kept as paddockd.log.1 and a new one begins.
constexpr qint64 kRotateBytes = 4 * 1024 * 1024;

int g_logFd = -1;
bool g_journal = false;
bool g_echo = false;

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "info";
}

// sd-daemon(3) priority prefixes, which journald turns into the entry's priority.
const char *journalPrefix(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "<7>";
    case QtInfoMsg:
        return "<6>";
    case QtWarningMsg:
        return "<4>";
    case QtCriticalMsg:
        return "<3>";
    case QtFatalMsg:
        return "<2>";
    }
    return "<6>";
}

void writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (written <= 0)
            return; // a log that cannot be written must not stop the daemon
        done += written;
    }
}

void handleMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray category = context.category ? QByteArray(context.category) : QByteArrayLiteral("default");
    const QList<QByteArray> lines = message.toUtf8().split('\n');
    if (g_journal) {
        QByteArray text;
        for (const QByteArray &line : lines)
            text += journalPrefix(type) + category + ": " + line + '\n';
        writeAll(STDERR_FILENO, text);
        return;
    }
    const QByteArray stamp = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8();
    QByteArray text;
    for (const QByteArray &line : lines) {
        text += stamp + " paddockd[" + QByteArray::number(::getpid()) + "] " + levelName(type) + ' ' + category + ": " +
                line + '\n';
    }
    if (g_logFd >= 0)
        writeAll(g_logFd, text);
    if (g_logFd < 0 || g_echo)
        writeAll(STDERR_FILENO, text);
}

int openLogFile(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st
    {};
    if (::stat(native.constData(), &st) == 0 && st.st_size > kRotateBytes)
        ::rename(native.constData(), (native + ".1").constData());
    return ::open(native.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

} // namespace

bool stderrIsJournal()
{
    // systemd sets JOURNAL_STREAM to "device:inode" of the stream it connected; a child
    // that inherited the variable but not the stream must not believe it.
    const QByteArray value = qgetenv("JOURNAL_STREAM");
    const qsizetype colon = value.indexOf(':');
    if (colon <= 0)
        return false;
    bool deviceOk = false;
    bool inodeOk = false;
    const qulonglong device = value.left(colon).toULongLong(&deviceOk);
    const qulonglong inode = value.mid(colon + 1).toULongLong(&inodeOk);
    struct stat st
    {};
    if (!deviceOk || !inodeOk || ::fstat(STDERR_FILENO, &st) != 0)
        return false;
    return qulonglong(st.st_dev) == device && qulonglong(st.st_ino) == inode;
}

LogTarget installLogHandler(bool verbose, bool echoToTerminal, QString *logFile)
{
    QLoggingCategory::setFilterRules(verbose ? QStringLiteral("paddock.*.debug=true")
                                             : QStringLiteral("*.debug=false"));
    LogTarget target = LogTarget::Stderr;
    if (stderrIsJournal()) {
        g_journal = true;
        target = LogTarget::Journal;
    } else {
        const QString directory = paths::stateDir();
        const QString path = directory + QStringLiteral("/paddockd.log");
        if (paths::ensurePrivateDir(directory))
            g_logFd = openLogFile(path);
        if (g_logFd >= 0) {
            target = LogTarget::File;
            g_echo = echoToTerminal && ::isatty(STDERR_FILENO);
            if (logFile)
                *logFile = path;
        }
    }
    qInstallMessageHandler(handleMessage);
    return target;
}

} // namespace paddock::daemon

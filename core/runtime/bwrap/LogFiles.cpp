// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/LogFiles.h"

#include "common/UniqueFd.h"
#include "runtime/SandboxLog.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::runtime::bwrap {
namespace {

UniqueFd openRead(const QString &path)
{
    return UniqueFd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
}

qint64 sizeOf(const UniqueFd &fd)
{
    struct stat info = {};
    return fd.get() >= 0 && ::fstat(fd.get(), &info) == 0 ? qint64(info.st_size) : 0;
}

/** @brief The two files of a log, opened together with the offset the older one starts at. */
struct OpenedLog
{
    UniqueFd rotated;
    UniqueFd current;
    qint64 start = 0;
};

OpenedLog openLog(const QString &path)
{
    OpenedLog log;
    // The writer rotates under an exclusive lock on the start file: under a shared one, the
    // two files and the number belong together.
    const UniqueFd startFile = openRead(path + QLatin1String(sandboxlog::kStartSuffix));
    if (startFile.get() >= 0) {
        ::flock(startFile.get(), LOCK_SH);
        char text[sandboxlog::kStartWidth + 1] = {};
        if (::pread(startFile.get(), text, sandboxlog::kStartWidth, 0) > 0)
            log.start = std::max<qint64>(0, std::strtoll(text, nullptr, 10));
    }
    log.rotated = openRead(path + QLatin1String(sandboxlog::kRotatedSuffix));
    log.current = openRead(path);
    if (startFile.get() >= 0)
        ::flock(startFile.get(), LOCK_UN);
    return log;
}

/** Appends up to @p count bytes of @p fd from @p from to @p out; false on a read error. */
bool readRange(const UniqueFd &fd, qint64 from, qint64 count, QByteArray &out)
{
    const qsizetype begin = out.size();
    out.resize(begin + count);
    qint64 done = 0;
    while (done < count) {
        const ssize_t n = ::pread(fd.get(), out.data() + begin + done, size_t(count - done), off_t(from + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        done += n;
    }
    out.resize(begin + done);
    return true;
}

} // namespace

std::optional<LogPage> readLogPage(const QString &path, qint64 offset, qint64 maxBytes, QString *error)
{
    const OpenedLog log = openLog(path);
    const qint64 rotatedSize = sizeOf(log.rotated);
    const qint64 currentSize = sizeOf(log.current);
    LogPage page;
    page.start = log.start;
    page.end = log.start + rotatedSize + currentSize;
    page.offset = std::clamp(offset, page.start, page.end);
    const qint64 wanted = std::min(std::max<qint64>(0, maxBytes), page.end - page.offset);
    // The part in the rotated file, then the part in the current one.
    const qint64 inRotated = page.offset - page.start;
    const qint64 fromRotated = std::clamp<qint64>(rotatedSize - inRotated, 0, wanted);
    bool ok = fromRotated == 0 || readRange(log.rotated, inRotated, fromRotated, page.data);
    const qint64 inCurrent = std::max<qint64>(0, inRotated - rotatedSize);
    if (ok && wanted > fromRotated)
        ok = readRange(log.current, inCurrent, wanted - fromRotated, page.data);
    if (!ok) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return std::nullopt;
    }
    return page;
}

qint64 logEnd(const QString &path)
{
    const OpenedLog log = openLog(path);
    return log.start + sizeOf(log.rotated) + sizeOf(log.current);
}

void removeLog(const QString &path)
{
    for (const char *suffix : {"", sandboxlog::kRotatedSuffix, sandboxlog::kStartSuffix})
        QFile::remove(path + QLatin1String(suffix));
}

} // namespace paddock::runtime::bwrap

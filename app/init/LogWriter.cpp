// SPDX-License-Identifier: GPL-3.0-or-later
#include "LogWriter.h"

#include "runtime/SandboxLog.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::init {
namespace {

namespace sandboxlog = paddock::runtime::sandboxlog;

/** @brief The log file being appended to, its size, and the number in its `.start` file. */
class RotatingLog
{
public:
    RotatingLog(std::string path, std::int64_t limit) : m_path(std::move(path)), m_limit(limit) {}
    ~RotatingLog()
    {
        if (m_file >= 0)
            close(m_file);
        if (m_startFile >= 0)
            close(m_startFile);
    }

    bool open()
    {
        const std::string start = m_path + sandboxlog::kStartSuffix;
        m_startFile = ::open(start.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (m_startFile < 0)
            return fail(start);
        char text[sandboxlog::kStartWidth + 1] = {};
        if (pread(m_startFile, text, sandboxlog::kStartWidth, 0) > 0)
            m_start = std::strtoll(text, nullptr, 10);
        return openFile(O_APPEND);
    }

    /** Appends @p size bytes, rotating as often as the limit asks; false when writing fails. */
    bool append(const char *data, size_t size)
    {
        while (size > 0) {
            if (m_size >= m_limit && !rotate())
                return false;
            const size_t room = size_t(std::min<std::int64_t>(m_limit - m_size, std::int64_t(size)));
            const ssize_t n = write(m_file, data, room);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return fail(m_path);
            m_size += n;
            data += n;
            size -= size_t(n);
        }
        return true;
    }

private:
    bool openFile(int extraFlags)
    {
        m_file = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | extraFlags, 0600);
        struct stat info = {};
        if (m_file < 0 || fstat(m_file, &info) != 0)
            return fail(m_path);
        m_size = info.st_size;
        return true;
    }

    /** PATH becomes PATH.1 (the older PATH.1 is dropped); readers wait on the lock meanwhile. */
    bool rotate()
    {
        const std::string rotated = m_path + sandboxlog::kRotatedSuffix;
        flock(m_startFile, LOCK_EX);
        struct stat older = {};
        if (stat(rotated.c_str(), &older) == 0)
            m_start += older.st_size;
        const bool renamed = rename(m_path.c_str(), rotated.c_str()) == 0;
        char text[sandboxlog::kStartWidth + 1];
        std::snprintf(text, sizeof text, "%0*" PRId64, sandboxlog::kStartWidth, m_start);
        const bool recorded = pwrite(m_startFile, text, sandboxlog::kStartWidth, 0) == sandboxlog::kStartWidth;
        close(m_file);
        const bool reopened = openFile(O_TRUNC);
        flock(m_startFile, LOCK_UN);
        return (renamed && recorded && reopened) || fail(m_path);
    }

    bool fail(const std::string &what)
    {
        std::fprintf(stderr, "paddock-init: cannot write the log %s: %s\n", what.c_str(), std::strerror(errno));
        return false;
    }

    std::string m_path;
    std::int64_t m_limit;
    int m_file = -1;
    int m_startFile = -1;
    std::int64_t m_size = 0;
    std::int64_t m_start = 0;
};

} // namespace

int writeLog(const std::string &path, std::int64_t limit)
{
    RotatingLog log(path, limit > 0 ? limit : sandboxlog::kFileLimit);
    if (!log.open())
        return 1;
    bool writing = true;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        // A disk that is full loses output, but the pipe is still drained: the sandbox never
        // blocks on a log nobody can write.
        if (writing)
            writing = log.append(buffer, size_t(n));
    }
}

} // namespace paddock::init

// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/HomeFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::runtime {
namespace {

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

class TreeCopy
{
public:
    HomeCopyResult result;

    bool copyDirectory(const QString &from, const QString &to, const QString &relative)
    {
        const QStringList names =
            QDir(from).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : names) {
            const QString rel = relative.isEmpty() ? name : relative + QLatin1Char('/') + name;
            if (!copyEntry(from + QLatin1Char('/') + name, to + QLatin1Char('/') + name, rel))
                return false;
        }
        return true;
    }

private:
    bool fail(const QString &message)
    {
        result.error = message;
        return false;
    }

    bool copyEntry(const QString &from, const QString &to, const QString &rel)
    {
        const QByteArray src = QFile::encodeName(from);
        const QByteArray dst = QFile::encodeName(to);
        struct stat st
        {};
        if (::lstat(src.constData(), &st) != 0)
            return fail(QStringLiteral("cannot read %1: %2").arg(from, systemError()));
        if (S_ISLNK(st.st_mode))
            return copyLink(src, dst, rel);
        if (S_ISDIR(st.st_mode)) {
            struct stat existing
            {};
            if (::lstat(dst.constData(), &existing) == 0 && !S_ISDIR(existing.st_mode) &&
                ::unlink(dst.constData()) != 0)
                return fail(QStringLiteral("cannot replace %1: %2").arg(to, systemError()));
            if (::mkdir(dst.constData(), 0700) != 0 && errno != EEXIST)
                return fail(QStringLiteral("cannot create %1: %2").arg(to, systemError()));
            if (!copyDirectory(from, to, rel))
                return false;
            ::chmod(dst.constData(), st.st_mode & 0777);
            return true;
        }
        if (S_ISREG(st.st_mode))
            return copyFile(src, dst, st.st_mode & 0777, from, to);
        result.skipped << rel; // sockets, devices, fifos have no place in a home template
        return true;
    }

    bool copyLink(const QByteArray &src, const QByteArray &dst, const QString &rel)
    {
        char target[PATH_MAX];
        const ssize_t length = ::readlink(src.constData(), target, sizeof target - 1);
        if (length < 0)
            return fail(QStringLiteral("cannot read the link %1: %2").arg(QFile::decodeName(src), systemError()));
        const QString text = QFile::decodeName(QByteArray(target, int(length)));
        // Resolved from the link's own directory, within the tree: anything absolute, or
        // climbing above the tree's root, would lead outside it.
        const qsizetype slash = rel.lastIndexOf(QLatin1Char('/'));
        const QString resolved = QDir::cleanPath((slash < 0 ? QString() : rel.left(slash + 1)) + text);
        if (QDir::isAbsolutePath(text) || resolved == QLatin1String("..") ||
            resolved.startsWith(QLatin1String("../"))) {
            result.skipped << rel;
            return true;
        }
        struct stat existing
        {};
        if (::lstat(dst.constData(), &existing) == 0 && !S_ISDIR(existing.st_mode))
            ::unlink(dst.constData());
        if (::symlink(target, dst.constData()) != 0 && errno != EEXIST)
            return fail(QStringLiteral("cannot create the link %1: %2").arg(QFile::decodeName(dst), systemError()));
        return true;
    }

    bool copyFile(const QByteArray &src, const QByteArray &dst, mode_t mode, const QString &from, const QString &to)
    {
        const int in = ::open(src.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (in < 0)
            return fail(QStringLiteral("cannot read %1: %2").arg(from, systemError()));
        // Replace rather than truncate: whatever sat at the destination (a link included) is
        // removed, and O_EXCL|O_NOFOLLOW guarantee the new file is the one written.
        struct stat existing
        {};
        if (::lstat(dst.constData(), &existing) == 0 && !S_ISDIR(existing.st_mode))
            ::unlink(dst.constData());
        const int out = ::open(dst.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (out < 0) {
            ::close(in);
            return fail(QStringLiteral("cannot write %1: %2").arg(to, systemError()));
        }
        char buffer[65536];
        bool ok = true;
        for (;;) {
            const ssize_t n = ::read(in, buffer, sizeof buffer);
            if (n == 0)
                break;
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                ok = false;
                break;
            }
            for (ssize_t done = 0; done < n;) {
                const ssize_t w = ::write(out, buffer + done, size_t(n - done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    ok = false;
                    break;
                }
                done += w;
            }
            if (!ok)
                break;
        }
        ::fchmod(out, mode);
        ::close(in);
        if (::close(out) != 0 || !ok)
            return fail(QStringLiteral("cannot copy %1 to %2: %3").arg(from, to, systemError()));
        return true;
    }
};

} // namespace

HomeCopyResult copyHomeTree(const QString &source, const QString &home)
{
    TreeCopy copy;
    struct stat st
    {};
    if (::lstat(QFile::encodeName(home).constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        copy.result.error = QStringLiteral("%1 is not a directory").arg(home);
        return copy.result;
    }
    if (!QFileInfo(source).isDir()) {
        copy.result.error = QStringLiteral("%1 is not a directory").arg(source);
        return copy.result;
    }
    copy.result.ok = copy.copyDirectory(QDir::cleanPath(source), QDir::cleanPath(home), QString());
    return copy.result;
}

} // namespace paddock::runtime

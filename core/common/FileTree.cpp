// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/FileTree.h"

#include "common/UniqueFd.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSet>
#include <QThreadPool>

#include <cerrno>
#include <cstring>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::filetree {
namespace {

/** Deeper than any real tree; a bound on the descriptors one walk holds open. */
constexpr int kMaxDepth = 256;

using Inode = std::pair<dev_t, ino_t>;

qint64 usageBelow(int dirFd, int depth, QSet<Inode> &linked)
{
    if (depth > kMaxDepth)
        return 0;
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        return 0;
    }
    qint64 total = 0;
    while (const dirent *entry = ::readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        struct stat st
        {};
        if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
            const Inode inode{st.st_dev, st.st_ino};
            if (linked.contains(inode))
                continue;
            linked.insert(inode);
        }
        total += qint64(st.st_blocks) * 512;
        if (S_ISDIR(st.st_mode)) {
            const int child = ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child >= 0)
                total += usageBelow(child, depth + 1, linked);
        }
    }
    ::closedir(dir);
    return total;
}

/** Empties the directory @p dirFd (taken over), opening up what needs to be; false at the first failure. */
bool emptyDirectory(int dirFd, int depth, const QString &where, QString *error)
{
    DIR *dir = ::fdopendir(dirFd);
    if (!dir) {
        ::close(dirFd);
        *error = QStringLiteral("cannot read %1: %2").arg(where, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    bool ok = depth <= kMaxDepth;
    while (ok) {
        errno = 0;
        const dirent *entry = ::readdir(dir);
        if (!entry)
            break;
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        const int parent = ::dirfd(dir);
        const QString path = where + QLatin1Char('/') + QFile::decodeName(entry->d_name);
        struct stat st
        {};
        if (::fstatat(parent, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            // A directory (never a link: checked just above) needs read, write and search to be emptied.
            (void)!::fchmodat(parent, entry->d_name, 0700, 0);
            const int child = ::openat(parent, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            ok = child >= 0 && emptyDirectory(child, depth + 1, path, error);
            if (child < 0)
                *error = QStringLiteral("cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            if (ok && ::unlinkat(parent, entry->d_name, AT_REMOVEDIR) != 0) {
                *error = QStringLiteral("cannot remove %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
                ok = false;
            }
        } else if (::unlinkat(parent, entry->d_name, 0) != 0) {
            *error = QStringLiteral("cannot remove %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            ok = false;
        }
    }
    if (depth > kMaxDepth)
        *error = QStringLiteral("%1 is nested too deeply to remove").arg(where);
    ::closedir(dir);
    return ok;
}

} // namespace

qint64 diskUsage(const QString &path)
{
    const QByteArray encoded = QFile::encodeName(path);
    struct stat st
    {};
    if (::lstat(encoded.constData(), &st) != 0)
        return 0;
    qint64 total = qint64(st.st_blocks) * 512;
    if (!S_ISDIR(st.st_mode))
        return total;
    const int dir = ::open(encoded.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    QSet<Inode> linked;
    return dir < 0 ? total : total + usageBelow(dir, 0, linked);
}

bool removeTree(const QString &path, QString *error)
{
    QString problem;
    const QByteArray encoded = QFile::encodeName(path);
    struct stat st
    {};
    bool ok = true;
    if (::lstat(encoded.constData(), &st) != 0) {
        ok = errno == ENOENT;
        if (!ok)
            problem = QStringLiteral("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    } else if (!S_ISDIR(st.st_mode)) {
        ok = ::unlink(encoded.constData()) == 0;
    } else {
        (void)!::chmod(encoded.constData(), 0700);
        const int dir = ::open(encoded.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ok = dir >= 0 && emptyDirectory(dir, 0, path, &problem) && ::rmdir(encoded.constData()) == 0;
    }
    if (!ok && problem.isEmpty())
        problem = QStringLiteral("cannot remove %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    if (!ok && error)
        *error = problem;
    return ok;
}

namespace {

void removeInBackground(const QString &path)
{
    QThreadPool::globalInstance()->start([path] { (void)removeTree(path); });
}

} // namespace

bool removeTreeLater(const QString &path, const QString &trash, QString *error)
{
    const QByteArray encoded = QFile::encodeName(path);
    struct stat st
    {};
    if (::lstat(encoded.constData(), &st) != 0 && errno == ENOENT)
        return true;
    if (QDir().mkpath(trash))
        (void)!::chmod(QFile::encodeName(trash).constData(), 0700);
    const QString away = QStringLiteral("%1/%2.%3")
                             .arg(trash, QFileInfo(path).fileName())
                             .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    if (::rename(encoded.constData(), QFile::encodeName(away).constData()) != 0)
        return removeTree(path, error);
    removeInBackground(away);
    return true;
}

void emptyTrashLater(const QString &trash)
{
    const QStringList left =
        QDir(trash).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &entry : left)
        removeInBackground(trash + QLatin1Char('/') + entry);
}

} // namespace paddock::filetree

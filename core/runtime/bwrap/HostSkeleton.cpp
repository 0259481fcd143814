// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/HostSkeleton.h"

#include "common/FileTree.h"
#include "common/Paths.h"
#include "common/UniqueFd.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <mutex>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::runtime::bwrap {
namespace {

constexpr int kMaxFolders = 200000;
constexpr int kMaxDepth = 64;
constexpr qint64 kOldSkeletonSeconds = 24 * 3600;

/** What says the host's system changed: the package manager's database, beside the folders. */
const char *const kPackageDatabase = "/var/lib/dpkg";

void addStat(QCryptographicHash &hash, const QByteArray &path)
{
    struct stat st
    {};
    if (::lstat(path.constData(), &st) != 0)
        return hash.addData(path + "\n-");
    hash.addData(path + '\n' + QByteArray::number(qulonglong(st.st_dev)) + ' ' +
                 QByteArray::number(qulonglong(st.st_ino)) + ' ' + QByteArray::number(qlonglong(st.st_mtim.tv_sec)) +
                 '.' + QByteArray::number(qlonglong(st.st_mtim.tv_nsec)) + ' ' + QByteArray::number(st.st_mode));
}

/** The key of the host's system as it is now: the folders, their immediate subfolders, dpkg's state. */
QString skeletonKey(const QStringList &directories)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &directory : directories) {
        const QByteArray path = QFile::encodeName(directory);
        addStat(hash, path);
        DIR *dir = ::opendir(path.constData());
        if (!dir)
            continue;
        while (const dirent *entry = ::readdir(dir)) {
            if (entry->d_type == DT_DIR && std::strcmp(entry->d_name, ".") != 0 &&
                std::strcmp(entry->d_name, "..") != 0)
                addStat(hash, path + '/' + entry->d_name);
        }
        ::closedir(dir);
    }
    addStat(hash, kPackageDatabase);
    return QString::fromLatin1(hash.result().toHex().left(16));
}

/** Recreates the folders under @p from (open) in @p to (open), with their modes; false past the bounds. */
bool copyFolders(int from, int to, dev_t device, int depth, int *count)
{
    DIR *dir = ::fdopendir(::dup(from));
    if (!dir)
        return true; // unreadable: it stays the host's
    bool ok = true;
    while (const dirent *entry = ::readdir(dir)) {
        const char *name = entry->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0 ||
            (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN))
            continue;
        struct stat st
        {};
        // Another file system under it is not seen through the overlay anyway.
        if (::fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) || st.st_dev != device)
            continue;
        if (++*count > kMaxFolders || depth >= kMaxDepth || (::mkdirat(to, name, 0700) != 0 && errno != EEXIST)) {
            ok = false;
            break;
        }
        const UniqueFd source(::openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        const UniqueFd target(::openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!target.valid() || (source.valid() && !copyFolders(source.get(), target.get(), device, depth + 1, count))) {
            ok = false;
            break;
        }
        // Set last: a folder of mode 0555 is filled first. No set-id bits: the user owns it.
        ::fchmod(target.get(), st.st_mode & 01777);
    }
    ::closedir(dir);
    return ok;
}

bool build(const QStringList &directories, const QString &folder, QString *error)
{
    int count = 0;
    for (const QString &directory : directories) {
        struct stat st
        {};
        const UniqueFd source(::open(QFile::encodeName(directory).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!source.valid() || ::fstat(source.get(), &st) != 0)
            continue; // absent here: nothing to lay over
        const QString target = folder + directory;
        if (!QDir().mkpath(target)) {
            *error = QStringLiteral("cannot create %1").arg(target);
            return false;
        }
        const UniqueFd to(::open(QFile::encodeName(target).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!to.valid() || !copyFolders(source.get(), to.get(), st.st_dev, 0, &count)) {
            *error = count > kMaxFolders ? QStringLiteral("the host's system has more than %1 folders").arg(kMaxFolders)
                                         : QStringLiteral("cannot copy the folders of %1 into %2: %3")
                                               .arg(directory, folder, QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        ::fchmod(to.get(), st.st_mode & 01777);
    }
    return true;
}

/** Removes the skeletons of other keys made more than a day ago. */
void removeOld(const QString &parent, const QString &current)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const QFileInfo &entry : QDir(parent).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        if (entry.fileName() != current && entry.lastModified().secsTo(now) > kOldSkeletonSeconds)
            filetree::removeTree(entry.filePath());
    }
}

} // namespace

QString hostSkeleton(const QStringList &directories, QString *error)
{
    if (::geteuid() == 0)
        return {};
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    const QString parent = paths::dataDir() + QStringLiteral("/host-skeleton");
    const QString key = skeletonKey(directories);
    const QString folder = parent + QLatin1Char('/') + key;
    if (QFileInfo(folder).isDir())
        return folder;
    if (!paths::ensurePrivateDir(parent, error))
        return {};
    const QString building = parent + QStringLiteral("/.building-") + key;
    filetree::removeTree(building);
    if (!QDir().mkdir(building) || !build(directories, building, error) ||
        ::rename(QFile::encodeName(building).constData(), QFile::encodeName(folder).constData()) != 0) {
        if (error->isEmpty())
            *error = QStringLiteral("cannot make the host's skeleton in %1").arg(parent);
        filetree::removeTree(building);
        return {};
    }
    removeOld(parent, key);
    return folder;
}

} // namespace paddock::runtime::bwrap

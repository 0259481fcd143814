// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/AtomicFile.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock {
namespace {

bool fail(QString *error, const QString &what)
{
    if (error)
        *error = what + QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(errno));
    return false;
}

} // namespace

bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error, int newFileMode,
                         Durability durability)
{
    const QFileInfo info(path);
    const QByteArray dir = QFile::encodeName(info.absolutePath());
    const QByteArray target = QFile::encodeName(info.absoluteFilePath());
    QByteArray temp = dir + "/." + QFile::encodeName(info.fileName()) + ".XXXXXX";

    int mode = newFileMode;
    struct stat st
    {};
    if (::stat(target.constData(), &st) == 0)
        mode = st.st_mode & 07777;

    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return fail(error, QStringLiteral("cannot create a temporary file beside %1").arg(path));

    auto abandon = [&](const QString &what) {
        const bool result = fail(error, what);
        ::close(fd);
        ::unlink(temp.constData());
        return result;
    };

    qsizetype written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.constData() + written, size_t(contents.size() - written));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return abandon(QStringLiteral("cannot write %1").arg(path));
        }
        written += n;
    }
    if (::fchmod(fd, mode_t(mode)) != 0)
        return abandon(QStringLiteral("cannot set the mode of %1").arg(path));
    if (durability == Durability::Synced && ::fsync(fd) != 0)
        return abandon(QStringLiteral("cannot flush %1 to disk").arg(path));
    if (::close(fd) != 0) {
        ::unlink(temp.constData());
        return fail(error, QStringLiteral("cannot close %1").arg(path));
    }
    if (::rename(temp.constData(), target.constData()) != 0) {
        const bool result = fail(error, QStringLiteral("cannot replace %1").arg(path));
        ::unlink(temp.constData());
        return result;
    }
    if (durability == Durability::Unsynced)
        return true;
    // The rename is durable only once the directory entry is on disk.
    const int dirFd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return true;
}

bool writeFileIfChanged(const QString &path, const QByteArray &contents, QString *error, int newFileMode,
                        Durability durability)
{
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.size() == contents.size() && existing.readAll() == contents)
        return true;
    return writeFileAtomically(path, contents, error, newFileMode, durability);
}

} // namespace paddock

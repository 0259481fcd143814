// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/ConfinedFile.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::agentperms {
namespace {

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool validComponent(const QString &part)
{
    return !part.isEmpty() && part != QLatin1String(".") && part != QLatin1String("..");
}

} // namespace

UniqueFd openConfinedParent(const QString &root, const QString &relative, bool create, QString *error)
{
    UniqueFd dir(::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) {
        *error = QStringLiteral("cannot open %1: %2").arg(root, errnoText());
        return {};
    }
    const QStringList parts = relative.split(QLatin1Char('/'));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const QString &part = parts.at(i);
        if (!validComponent(part)) {
            *error = QStringLiteral("'%1' is not a plain relative path").arg(relative);
            return {};
        }
        const QByteArray name = QFile::encodeName(part);
        if (create && ::mkdirat(dir.get(), name.constData(), 0755) != 0 && errno != EEXIST) {
            *error = QStringLiteral("cannot create %1 in %2: %3").arg(part, root, errnoText());
            return {};
        }
        UniqueFd next(::openat(dir.get(), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next) {
            *error = errno == ELOOP || errno == ENOTDIR
                         ? QStringLiteral("%1 under %2 is a link or not a folder; it is not followed").arg(part, root)
                         : QStringLiteral("cannot open %1 under %2: %3").arg(part, root, errnoText());
            return {};
        }
        dir = std::move(next);
    }
    if (!validComponent(parts.last())) {
        *error = QStringLiteral("'%1' is not a plain relative path").arg(relative);
        return {};
    }
    return dir;
}

std::optional<QByteArray> readConfined(const QString &root, const QString &relative, qint64 maxBytes, bool *missing,
                                       QString *error)
{
    *missing = false;
    UniqueFd dir = openConfinedParent(root, relative, false, error);
    if (!dir) {
        *missing = !QFileInfo::exists(root + QLatin1Char('/') + relative) && !error->contains(QLatin1String("link"));
        return std::nullopt;
    }
    const QByteArray name = QFile::encodeName(relative.section(QLatin1Char('/'), -1));
    UniqueFd fd(::openat(dir.get(), name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) {
        *missing = errno == ENOENT;
        *error = QStringLiteral("cannot open %1/%2: %3").arg(root, relative, errnoText());
        return std::nullopt;
    }
    struct stat st
    {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = QStringLiteral("%1/%2 is not a regular file").arg(root, relative);
        return std::nullopt;
    }
    if (st.st_size > maxBytes) {
        *error = QStringLiteral("%1/%2 is larger than %3 KiB").arg(root, relative).arg(maxBytes / 1024);
        return std::nullopt;
    }
    QByteArray data(qsizetype(st.st_size), Qt::Uninitialized);
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t got = ::read(fd.get(), data.data() + done, size_t(data.size() - done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        done += got;
    }
    data.truncate(done);
    return data;
}

bool writeConfined(const QString &root, const QString &relative, const QByteArray &contents, QString *error)
{
    UniqueFd dir = openConfinedParent(root, relative, true, error);
    if (!dir)
        return false;
    const QByteArray name = QFile::encodeName(relative.section(QLatin1Char('/'), -1));
    mode_t mode = 0644;
    struct stat st
    {};
    if (::fstatat(dir.get(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (!S_ISREG(st.st_mode)) {
            *error = QStringLiteral("%1/%2 is not a regular file; it is not replaced").arg(root, relative);
            return false;
        }
        mode = st.st_mode & 07777;
    }
    const QByteArray temporary =
        name + ".paddock-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16) + ".tmp";
    UniqueFd out(
        ::openat(dir.get(), temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!out) {
        *error = QStringLiteral("cannot write in the folder of %1/%2: %3").arg(root, relative, errnoText());
        return false;
    }
    ::fchmod(out.get(), mode);
    qsizetype done = 0;
    while (done < contents.size()) {
        const ssize_t wrote = ::write(out.get(), contents.constData() + done, size_t(contents.size() - done));
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0)
            break;
        done += wrote;
    }
    const bool written = done == contents.size() && ::fsync(out.get()) == 0;
    out.reset();
    if (!written || ::renameat(dir.get(), temporary.constData(), dir.get(), name.constData()) != 0) {
        *error = QStringLiteral("cannot replace %1/%2: %3").arg(root, relative, errnoText());
        ::unlinkat(dir.get(), temporary.constData(), 0);
        return false;
    }
    ::fsync(dir.get());
    return true;
}

} // namespace paddock::agentperms

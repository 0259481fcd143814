// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/LayerUnpacker.h"

#include "common/UniqueFd.h"

#include <QList>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace paddock::image {
namespace {

const QByteArray kWhiteout = ".wh.";
const QByteArray kOpaque = ".wh..wh..opq";

/** Quoted for a message: the path as far as it can be shown safely. */
QString quoted(const QByteArray &path)
{
    QString shown;
    for (const QChar c : QString::fromUtf8(path.left(200)))
        shown += c.isPrint() ? c : QChar(u'?');
    return u'\'' + shown + (path.size() > 200 ? QStringLiteral("...'") : QStringLiteral("'"));
}

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

class Unpacker
{
public:
    Unpacker(TarReader &reader, int root, const ImageLimits &limits) : m_reader(reader), m_root(root), m_limits(limits)
    {}

    UnpackResult run()
    {
        int entries = 0;
        while (const std::optional<TarMember> member = m_reader.next()) {
            if (++entries > m_limits.maxEntries)
                return failed(QStringLiteral("the layer holds more than %1 members").arg(m_limits.maxEntries));
            if (!unpack(*member))
                return m_result;
        }
        if (!m_reader.error().isEmpty())
            return failed(m_reader.error());
        // Folders get their modes last: one made read-only must still have taken its members.
        std::sort(m_folders.begin(), m_folders.end(),
                  [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
        for (const auto &[parts, mode] : std::as_const(m_folders)) {
            QString why;
            const UniqueFd dir = openChain(parts, false, &why);
            if (dir.get() >= 0 && ::fchmod(dir.get(), mode) != 0)
                return failed(
                    QStringLiteral("cannot set the mode of %1: %2").arg(quoted(parts.join('/')), systemError()));
        }
        noteDevices();
        m_result.ok = true;
        return m_result;
    }

private:
    /**
     * Device nodes are never made (a sandbox has its own /dev). The ones every base image ships
     * under dev/ go without a word; any other is named, all in one note.
     */
    void noteDevices()
    {
        static const QStringList standard{QStringLiteral("null"),    QStringLiteral("zero"),    QStringLiteral("full"),
                                          QStringLiteral("random"),  QStringLiteral("urandom"), QStringLiteral("tty"),
                                          QStringLiteral("console"), QStringLiteral("ptmx"),    QStringLiteral("kmsg")};
        QStringList unusual;
        for (const QString &path : std::as_const(m_devices)) {
            QString bare = path;
            bare.remove(QLatin1Char('\''));
            while (bare.startsWith(QLatin1String("./")))
                bare.remove(0, 2);
            if (!(bare.startsWith(QLatin1String("dev/")) && standard.contains(bare.mid(4))))
                unusual << path;
        }
        if (!unusual.isEmpty())
            m_result.notes << QStringLiteral("%1 device node(s) left out, as a sandbox has its own /dev: %2")
                                  .arg(unusual.size())
                                  .arg(unusual.join(QStringLiteral(", ")));
    }

    UnpackResult failed(const QString &error)
    {
        m_result.ok = false;
        m_result.error = error;
        return m_result;
    }

    /** The path's components, or nullopt with @p why when it could leave the layer. */
    std::optional<QList<QByteArray>> componentsOf(QByteArray path, QString *why) const
    {
        while (path.startsWith("./"))
            path.remove(0, 2);
        if (path == "." || path.isEmpty())
            return QList<QByteArray>();
        if (path.startsWith('/')) {
            *why = QStringLiteral("has an absolute path");
            return std::nullopt;
        }
        if (path.size() > m_limits.maxPathBytes || path.contains('\0')) {
            *why = QStringLiteral("has a path too long or malformed");
            return std::nullopt;
        }
        QList<QByteArray> parts;
        for (const QByteArray &part : path.split('/')) {
            if (part == "..") {
                *why = QStringLiteral("leads outside the layer ('..')");
                return std::nullopt;
            }
            if (!part.isEmpty() && part != ".")
                parts << part;
        }
        if (parts.size() > m_limits.maxDepth) {
            *why = QStringLiteral("is nested deeper than %1 levels").arg(m_limits.maxDepth);
            return std::nullopt;
        }
        return parts;
    }

    /**
     * Opens the folder @p parts below the layer, never through a link; missing folders are
     * made (mode 0755, as tar does) when @p create.
     */
    UniqueFd openChain(const QList<QByteArray> &parts, bool create, QString *why) const
    {
        UniqueFd dir(::fcntl(m_root, F_DUPFD_CLOEXEC, 3));
        QByteArray where;
        for (const QByteArray &part : parts) {
            where += (where.isEmpty() ? "" : "/") + part;
            if (create && ::mkdirat(dir.get(), part.constData(), 0755) != 0 && errno != EEXIST) {
                *why = QStringLiteral("cannot create %1: %2").arg(quoted(where), systemError());
                return {};
            }
            const int next = ::openat(dir.get(), part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (next < 0) {
                *why =
                    errno == ENOENT
                        ? QStringLiteral("%1 is not in the layer").arg(quoted(where))
                        : QStringLiteral("lies under %1, which is a link or a file, not a folder").arg(quoted(where));
                return {};
            }
            dir.reset(next);
        }
        return dir;
    }

    /** Makes room for a member that is not a folder: what is there goes, unless it is a folder. */
    bool makeRoom(int parent, const QByteArray &name, const QByteArray &path)
    {
        struct stat st
        {};
        if (::fstatat(parent, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return true;
        if (S_ISDIR(st.st_mode)) {
            m_result.error = QStringLiteral("member %1 would replace a folder").arg(quoted(path));
            return false;
        }
        if (::unlinkat(parent, name.constData(), 0) != 0) {
            m_result.error = QStringLiteral("cannot replace %1: %2").arg(quoted(path), systemError());
            return false;
        }
        return true;
    }

    bool unpack(const TarMember &member)
    {
        QString why;
        const std::optional<QList<QByteArray>> parts = componentsOf(member.path, &why);
        if (!parts)
            return failed(QStringLiteral("member %1 %2").arg(quoted(member.path), why)).ok;
        if (parts->isEmpty())
            return true; // the layer's own root
        if (member.size > m_limits.maxEntryBytes)
            return failed(QStringLiteral("member %1 is too large (%2 bytes; at most %3)")
                              .arg(quoted(member.path))
                              .arg(member.size)
                              .arg(m_limits.maxEntryBytes))
                .ok;
        const QByteArray name = parts->last();
        const QList<QByteArray> parentParts = parts->mid(0, parts->size() - 1);
        const UniqueFd parent = openChain(parentParts, true, &why);
        if (parent.get() < 0)
            return failed(QStringLiteral("member %1 %2").arg(quoted(member.path), why)).ok;
        if (name.startsWith(kWhiteout))
            return whiteout(parent.get(), name, member.path);
        switch (member.type) {
        case TarMember::Type::Directory:
            return folder(parent.get(), *parts, member);
        case TarMember::Type::File:
            return file(parent.get(), name, member);
        case TarMember::Type::SymLink:
            if (member.linkPath.isEmpty() || member.linkPath.contains('\0'))
                return failed(QStringLiteral("link %1 has no target").arg(quoted(member.path))).ok;
            if (!makeRoom(parent.get(), name, member.path))
                return false;
            if (::symlinkat(member.linkPath.constData(), parent.get(), name.constData()) != 0)
                return failed(QStringLiteral("cannot create the link %1: %2").arg(quoted(member.path), systemError()))
                    .ok;
            return true;
        case TarMember::Type::HardLink:
            return hardLink(parent.get(), name, member);
        case TarMember::Type::Fifo:
            if (!makeRoom(parent.get(), name, member.path))
                return false;
            if (::mkfifoat(parent.get(), name.constData(), member.mode & 0777) != 0)
                return failed(QStringLiteral("cannot create %1: %2").arg(quoted(member.path), systemError())).ok;
            return true;
        case TarMember::Type::CharDevice:
        case TarMember::Type::BlockDevice:
            m_devices << quoted(member.path);
            return true;
        case TarMember::Type::Other:
            break;
        }
        return failed(QStringLiteral("member %1 is of a type an image layer does not hold").arg(quoted(member.path)))
            .ok;
    }

    bool whiteout(int parent, const QByteArray &name, const QByteArray &path)
    {
        if (name == kOpaque) {
            if (::fsetxattr(parent, "user.overlay.opaque", "y", 1, 0) != 0)
                return failed(QStringLiteral("cannot mark the folder of %1 opaque: %2 (the data folder's file "
                                             "system must keep user extended attributes)")
                                  .arg(quoted(path), systemError()))
                    .ok;
            return true;
        }
        const QByteArray hidden = name.mid(kWhiteout.size());
        if (hidden.startsWith(kWhiteout))
            return true; // aufs' own bookkeeping (.wh..wh.plnk, ...): nothing for overlayfs
        if (hidden.isEmpty() || hidden == "." || hidden == "..")
            return failed(QStringLiteral("whiteout %1 names nothing").arg(quoted(path))).ok;
        if (!makeRoom(parent, hidden, path))
            return false;
        // overlayfs' whiteout: a character device 0/0, which Linux lets anyone make.
        if (::mknodat(parent, hidden.constData(), S_IFCHR | 0600, makedev(0, 0)) != 0)
            return failed(QStringLiteral("cannot record the whiteout %1: %2").arg(quoted(path), systemError())).ok;
        return true;
    }

    bool folder(int parent, const QList<QByteArray> &parts, const TarMember &member)
    {
        const QByteArray &name = parts.last();
        if (::mkdirat(parent, name.constData(), 0700) != 0) {
            struct stat st
            {};
            if (errno != EEXIST || ::fstatat(parent, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
                return failed(QStringLiteral("cannot create %1: %2").arg(quoted(member.path), systemError())).ok;
            if (!S_ISDIR(st.st_mode) &&
                (!makeRoom(parent, name, member.path) || ::mkdirat(parent, name.constData(), 0700) != 0))
                return failed(QStringLiteral("cannot create %1: %2").arg(quoted(member.path), systemError())).ok;
        }
        // No setgid across: the sticky bit stays (/tmp).
        m_folders.append({parts, mode_t(member.mode & 01777) | S_IRWXU});
        return true;
    }

    bool file(int parent, const QByteArray &name, const TarMember &member)
    {
        if (!makeRoom(parent, name, member.path))
            return false;
        const UniqueFd out(
            ::openat(parent, name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (out.get() < 0)
            return failed(QStringLiteral("cannot create %1: %2").arg(quoted(member.path), systemError())).ok;
        char buffer[128 * 1024];
        for (;;) {
            const qint64 n = m_reader.readData(buffer, sizeof buffer);
            if (n < 0)
                return failed(m_reader.error()).ok;
            if (n == 0)
                break;
            for (qint64 done = 0; done < n;) {
                const ssize_t written = ::write(out.get(), buffer + done, size_t(n - done));
                if (written < 0 && errno == EINTR)
                    continue;
                if (written <= 0)
                    return failed(QStringLiteral("cannot write %1: %2").arg(quoted(member.path), systemError())).ok;
                done += written;
            }
        }
        m_result.bytes += member.size;
        // setuid and setgid bits stay out: they would mean nothing but trouble in a user's files.
        const timespec times[2] = {{member.mtime, 0}, {member.mtime, 0}};
        if (::fchmod(out.get(), member.mode & 0777) != 0 || ::futimens(out.get(), times) != 0)
            return failed(QStringLiteral("cannot finish %1: %2").arg(quoted(member.path), systemError())).ok;
        return true;
    }

    bool hardLink(int parent, const QByteArray &name, const TarMember &member)
    {
        QString why;
        const std::optional<QList<QByteArray>> target = componentsOf(member.linkPath, &why);
        if (!target || target->isEmpty())
            return failed(QStringLiteral("hard link %1 points outside the layer (%2)")
                              .arg(quoted(member.path), quoted(member.linkPath)))
                .ok;
        const UniqueFd targetParent = openChain(target->mid(0, target->size() - 1), false, &why);
        struct stat st
        {};
        if (targetParent.get() < 0 ||
            ::fstatat(targetParent.get(), target->last().constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            S_ISDIR(st.st_mode))
            return failed(QStringLiteral("hard link %1 points to %2, which is not a file the layer holds")
                              .arg(quoted(member.path), quoted(member.linkPath)))
                .ok;
        if (!makeRoom(parent, name, member.path))
            return false;
        if (::linkat(targetParent.get(), target->last().constData(), parent, name.constData(), 0) != 0)
            return failed(QStringLiteral("cannot create the hard link %1: %2").arg(quoted(member.path), systemError()))
                .ok;
        return true;
    }

    TarReader &m_reader;
    int m_root;
    const ImageLimits &m_limits;
    UnpackResult m_result;
    QStringList m_devices; ///< device nodes met, quoted, for noteDevices()
    QList<std::pair<QList<QByteArray>, mode_t>> m_folders;
};

} // namespace

UnpackResult unpackLayer(TarReader &reader, int dirFd, const ImageLimits &limits)
{
    return Unpacker(reader, dirFd, limits).run();
}

} // namespace paddock::image

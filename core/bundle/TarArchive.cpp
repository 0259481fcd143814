// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/TarArchive.h"

#include <QSet>
#include <QStringList>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace paddock::bundle {

namespace {

constexpr qsizetype kBlock = 512;

QString describeType(archive_entry *header)
{
    if (archive_entry_hardlink(header))
        return QStringLiteral("a hard link");
    if (archive_entry_sparse_count(header) > 0)
        return QStringLiteral("a sparse file");
    switch (archive_entry_filetype(header)) {
    case AE_IFLNK:
        return QStringLiteral("a symbolic link");
    case AE_IFCHR:
        return QStringLiteral("a character device");
    case AE_IFBLK:
        return QStringLiteral("a block device");
    case AE_IFIFO:
        return QStringLiteral("a FIFO");
    default:
        return QStringLiteral("an entry of another type");
    }
}

/** Quoted for a message: the path as far as it can be shown safely. */
QString quoted(const QString &path)
{
    QString shown;
    for (const QChar c : path)
        shown += c.isPrint() ? c : QChar(u'?');
    if (shown.size() > 200)
        shown = shown.left(200) + QStringLiteral("...");
    return u'\'' + shown + u'\'';
}

/** The paths read so far: no entry may replace another, sit under a file, or be a file where a folder is. */
class EntryTree
{
public:
    /** Adds @p path; an error sentence when it clashes with what is there. */
    QString add(const QString &path, bool isDirectory)
    {
        if (m_files.contains(path) || (!isDirectory && m_directories.contains(path)))
            return QStringLiteral("entry %1 appears twice").arg(quoted(path));
        for (qsizetype slash = path.indexOf(QLatin1Char('/')); slash > 0;
             slash = path.indexOf(QLatin1Char('/'), slash + 1)) {
            const QString parent = path.left(slash);
            if (m_files.contains(parent))
                return QStringLiteral("entry %1 lies under the file %2").arg(quoted(path), quoted(parent));
            m_directories.insert(parent);
        }
        (isDirectory ? m_directories : m_files).insert(path);
        return {};
    }

private:
    QSet<QString> m_files;
    QSet<QString> m_directories;
};

/**
 * @brief One archive in memory read through libarchive's tar reader, every member checked
 * against the limits before a byte of its data is copied.
 */
class ArchiveReader
{
public:
    ArchiveReader(const QByteArray &archive, const TarLimits &limits) : m_archive(archive), m_limits(limits)
    {
        // The tar format alone and no decompressor: a bundle is a plain tar.
        m_opened = m_handle && archive_read_support_format_tar(m_handle.get()) == ARCHIVE_OK &&
                   archive_read_open_memory(m_handle.get(), archive.constData(), size_t(archive.size())) == ARCHIVE_OK;
    }

    TarReadResult run()
    {
        if (m_archive.size() < kBlock)
            return fail(QStringLiteral("the file is empty or too short to be an archive"));
        for (;;) {
            const qint64 position = archive_filter_bytes(m_handle.get(), 0);
            archive_entry *header = nullptr;
            const int status = m_opened ? archive_read_next_header(m_handle.get(), &header) : ARCHIVE_FATAL;
            if (status == ARCHIVE_EOF) {
                // libarchive takes an archive that stops after a member as complete; a bundle is not.
                if (archive_filter_bytes(m_handle.get(), 0) == position)
                    return fail(QStringLiteral("the archive is truncated: it ends without an end-of-archive marker"));
                return m_result;
            }
            // ARCHIVE_WARN too: a malformed pax record or an unreadable name is not what it claims.
            if (status != ARCHIVE_OK)
                return fail(!isTar() ? QStringLiteral("not a Paddock bundle: the file is not a tar (ustar) archive")
                                     : QStringLiteral("the archive is damaged at byte %1 (%2)")
                                           .arg(position)
                                           .arg(libarchiveError()));
            if (!readMember(header, position))
                return m_result;
        }
    }

private:
    TarReadResult fail(const QString &message)
    {
        m_result.entries.clear();
        m_result.error = message;
        return m_result;
    }

    /** Whether libarchive took the bytes for a tar archive. */
    bool isTar() const
    {
        return m_opened && (archive_format(m_handle.get()) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR;
    }

    QString libarchiveError() const
    {
        const char *reason = archive_error_string(m_handle.get());
        return QString::fromUtf8(reason ? reason : "unknown error");
    }

    /** The checks of one member's header: its name, type, path, size and place among the others. */
    QString checkHeader(archive_entry *header, qint64 position, QString *path, bool *isDirectory)
    {
        const QByteArray rawName = archive_entry_pathname(header) ? archive_entry_pathname(header) : "";
        *path = QString::fromUtf8(rawName);
        if (path->toUtf8() != rawName)
            return QStringLiteral("an entry's name is not valid UTF-8 (header at byte %1)").arg(position);
        const bool plain = !archive_entry_hardlink(header) && archive_entry_sparse_count(header) == 0;
        *isDirectory = plain && archive_entry_filetype(header) == AE_IFDIR;
        if (*isDirectory && path->endsWith(QLatin1Char('/')))
            path->chop(1);
        if (!*isDirectory && !(plain && archive_entry_filetype(header) == AE_IFREG))
            return QStringLiteral("entry %1 is %2; a bundle holds only files and folders")
                .arg(quoted(*path), describeType(header));
        if (const QString problem = checkEntryPath(*path, m_limits.maxDepth); !problem.isEmpty())
            return problem;
        const qint64 size = archive_entry_size(header);
        if (*isDirectory && size != 0)
            return QStringLiteral("folder entry %1 has a size").arg(quoted(*path));
        if (size > m_limits.maxEntrySize)
            return QStringLiteral("entry %1 is too large (%2 bytes; at most %3)")
                .arg(quoted(*path))
                .arg(size)
                .arg(m_limits.maxEntrySize);
        m_total += size;
        if (m_total > m_limits.maxTotalSize)
            return QStringLiteral("the archive holds more than %1 bytes (at entry %2)")
                .arg(m_limits.maxTotalSize)
                .arg(quoted(*path));
        if (m_result.entries.size() >= m_limits.maxEntries)
            return QStringLiteral("the archive holds more than %1 entries").arg(m_limits.maxEntries);
        return m_tree.add(*path, *isDirectory);
    }

    bool readMember(archive_entry *header, qint64 position)
    {
        TarEntry entry;
        bool isDirectory = false;
        if (const QString problem = checkHeader(header, position, &entry.path, &isDirectory); !problem.isEmpty()) {
            fail(problem);
            return false;
        }
        entry.type = isDirectory ? TarEntry::Type::Directory : TarEntry::Type::File;
        entry.executable = !isDirectory && (archive_entry_perm(header) & 0100);
        const qint64 size = isDirectory ? 0 : archive_entry_size(header);
        // Data that is not in the archive is never set aside: the size is checked against what is left.
        const bool present = size <= m_archive.size() - archive_filter_bytes(m_handle.get(), 0);
        if (present && size > 0) {
            entry.data.resize(size);
            if (archive_read_data(m_handle.get(), entry.data.data(), size_t(size)) != size)
                entry.data.clear();
        }
        // Then past its padding, so that the next header's position is where it starts.
        if (!present || entry.data.size() != size || archive_read_data_skip(m_handle.get()) != ARCHIVE_OK) {
            fail(QStringLiteral("the archive is truncated inside entry %1").arg(quoted(entry.path)));
            return false;
        }
        m_result.entries.append(std::move(entry));
        return true;
    }

    const QByteArray &m_archive;
    const TarLimits &m_limits;
    std::unique_ptr<archive, decltype(&archive_read_free)> m_handle{archive_read_new(), &archive_read_free};
    bool m_opened = false;
    TarReadResult m_result;
    EntryTree m_tree;
    qint64 m_total = 0;
};

la_ssize_t appendTo(archive *, void *output, const void *buffer, size_t length)
{
    static_cast<QByteArray *>(output)->append(static_cast<const char *>(buffer), qsizetype(length));
    return la_ssize_t(length);
}

/** Writes one member's header and data: zero time, root's, 0644 or 0755. */
bool writeMember(archive *writer, const TarEntry &entry, QString *error)
{
    const bool isDirectory = entry.type == TarEntry::Type::Directory;
    const std::unique_ptr<archive_entry, decltype(&archive_entry_free)> header(archive_entry_new(),
                                                                               &archive_entry_free);
    archive_entry_copy_pathname(header.get(), entry.path.toUtf8().constData());
    archive_entry_set_filetype(header.get(), isDirectory ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(header.get(), isDirectory || entry.executable ? 0755 : 0644);
    archive_entry_set_size(header.get(), isDirectory ? 0 : entry.data.size());
    archive_entry_set_uid(header.get(), 0);
    archive_entry_set_gid(header.get(), 0);
    archive_entry_copy_uname(header.get(), "root");
    archive_entry_copy_gname(header.get(), "root");
    archive_entry_set_mtime(header.get(), 0, 0);
    if (archive_write_header(writer, header.get()) != ARCHIVE_OK) {
        // The fields are all small numbers: what ustar cannot hold is the path.
        const char *reason = archive_error_string(writer);
        *error = QStringLiteral("the path %1 is too long for a bundle (%2)")
                     .arg(quoted(entry.path), QString::fromUtf8(reason ? reason : "unknown error"));
        return false;
    }
    if (!isDirectory && !entry.data.isEmpty() &&
        archive_write_data(writer, entry.data.constData(), size_t(entry.data.size())) != entry.data.size()) {
        *error = QStringLiteral("cannot write entry %1 into the bundle").arg(quoted(entry.path));
        return false;
    }
    return true;
}

} // namespace

QString checkEntryPath(const QString &path, int maxDepth)
{
    if (path.isEmpty())
        return QStringLiteral("an entry has an empty name");
    if (path.startsWith(QLatin1Char('/')))
        return QStringLiteral("entry %1 has an absolute path").arg(quoted(path));
    for (const QChar c : path) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("entry %1 has a control character in its name").arg(quoted(path));
    }
    const QStringList parts = path.split(QLatin1Char('/'));
    if (parts.size() > maxDepth)
        return QStringLiteral("entry %1 is nested deeper than %2 levels").arg(quoted(path)).arg(maxDepth);
    for (const QString &part : parts) {
        if (part == QLatin1String(".."))
            return QStringLiteral("entry %1 leads outside the archive's folder ('..')").arg(quoted(path));
        if (part.isEmpty() || part == QLatin1String("."))
            return QStringLiteral("entry %1 has an empty or '.' component").arg(quoted(path));
    }
    return {};
}

TarReadResult readTar(const QByteArray &archive, const TarLimits &limits)
{
    return ArchiveReader(archive, limits).run();
}

QByteArray writeTar(const QList<TarEntry> &entries, QString *error)
{
    QByteArray output;
    const std::unique_ptr<archive, decltype(&archive_write_free)> writer(archive_write_new(), &archive_write_free);
    // ustar, unpadded past the end marker: the archive is its members and two zero blocks.
    if (!writer || archive_write_set_format_ustar(writer.get()) != ARCHIVE_OK ||
        archive_write_add_filter_none(writer.get()) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(writer.get(), 1) != ARCHIVE_OK ||
        archive_write_open(writer.get(), &output, nullptr, &appendTo, nullptr) != ARCHIVE_OK) {
        *error = QStringLiteral("cannot start writing the bundle");
        return {};
    }
    EntryTree tree;
    for (const TarEntry &entry : entries) {
        const bool isDirectory = entry.type == TarEntry::Type::Directory;
        QString problem = checkEntryPath(entry.path, TarLimits().maxDepth);
        if (problem.isEmpty())
            problem = tree.add(entry.path, isDirectory);
        if (!problem.isEmpty()) {
            *error = problem;
            return {};
        }
        if (!writeMember(writer.get(), entry, error))
            return {};
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK) {
        *error = QStringLiteral("cannot finish writing the bundle");
        return {};
    }
    return output;
}

} // namespace paddock::bundle

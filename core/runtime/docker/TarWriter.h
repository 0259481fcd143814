// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <archive.h>
#include <archive_entry.h>

namespace paddock::runtime::docker {

/** @brief A tar made in memory, every entry owned as the caller says. */
class TarWriter
{
public:
    TarWriter() : m_archive(archive_write_new())
    {
        archive_write_set_format_pax_restricted(m_archive);
        archive_write_open(m_archive, this, nullptr, &TarWriter::append, nullptr);
    }
    ~TarWriter() { archive_write_free(m_archive); }
    TarWriter(const TarWriter &) = delete;
    TarWriter &operator=(const TarWriter &) = delete;

    bool add(const QString &path, mode_t type, int mode, const QByteArray &data, qint64 uid, qint64 gid,
             const QByteArray &link = {})
    {
        archive_entry *entry = archive_entry_new();
        archive_entry_set_pathname(entry, path.toUtf8().constData());
        archive_entry_set_filetype(entry, type);
        archive_entry_set_perm(entry, mode_t(mode));
        archive_entry_set_uid(entry, uid);
        archive_entry_set_gid(entry, gid);
        archive_entry_set_size(entry, type == AE_IFREG ? data.size() : 0);
        if (type == AE_IFLNK)
            archive_entry_set_symlink(entry, link.constData());
        bool ok = archive_write_header(m_archive, entry) == ARCHIVE_OK;
        if (ok && type == AE_IFREG && !data.isEmpty())
            ok = archive_write_data(m_archive, data.constData(), size_t(data.size())) == data.size();
        archive_entry_free(entry);
        return ok;
    }
    QByteArray finish()
    {
        archive_write_close(m_archive);
        return m_bytes;
    }

private:
    static la_ssize_t append(archive *, void *self, const void *data, size_t size)
    {
        static_cast<TarWriter *>(self)->m_bytes.append(static_cast<const char *>(data), qsizetype(size));
        return la_ssize_t(size);
    }

    archive *m_archive;
    QByteArray m_bytes;
};

} // namespace paddock::runtime::docker

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace paddock::bundle {

/** @brief One member of a tar archive: a regular file or a directory, nothing else. */
struct TarEntry
{
    enum class Type {
        File,
        Directory
    };

    QString path; ///< relative, '/'-separated, no `.` or `..` component, no trailing '/'
    Type type = Type::File;
    bool executable = false; ///< a file's mode is 0755 when set, 0644 otherwise
    QByteArray data;         ///< empty for a directory
};

/** @brief How much an archive may hold before it is refused. */
struct TarLimits
{
    int maxEntries = 4096;
    qint64 maxEntrySize = qint64(64) * 1024 * 1024;
    qint64 maxTotalSize = qint64(128) * 1024 * 1024; ///< the sum of the entries' sizes
    int maxDepth = 32;                               ///< path components
};

/** @brief The outcome of reading an archive: every entry, or the first problem. */
struct TarReadResult
{
    QList<TarEntry> entries;
    QString error; ///< one sentence naming the entry at fault; empty when the archive is fine

    bool ok() const { return error.isEmpty(); }
};

/**
 * Reads a tar archive from memory with libarchive (ustar, and pax or GNU headers for long names),
 * treating it as hostile.
 *
 * Only regular files and directories are accepted. Links (symbolic or hard), devices, FIFOs
 * and sparse files are refused, as are absolute paths, `..` components, control characters,
 * duplicate paths, a damaged header, data cut short and a missing end-of-archive marker. The
 * limits bound the work whatever the input. Permissions are reduced to "executable or not";
 * owners and times are ignored.
 */
TarReadResult readTar(const QByteArray &archive, const TarLimits &limits = {});

/**
 * Writes @p entries as a ustar archive, every time stamp zero and every owner root, so the
 * same content gives the same bytes. A path longer than ustar can hold (100 bytes, or 155 +
 * 100 split at a '/') is an error, as is any path or duplicate readTar() would refuse.
 */
QByteArray writeTar(const QList<TarEntry> &entries, QString *error);

/** Checks one member path against the rules readTar() applies; empty when acceptable. */
QString checkEntryPath(const QString &path, int maxDepth);

} // namespace paddock::bundle

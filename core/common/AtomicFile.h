// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace paddock {

/** Whether writeFileAtomically() waits for the new contents to reach the disk. */
enum class Durability {
    Synced,  ///< fsync of the file and its folder: a power loss leaves the old file or the new one
    Unsynced ///< the rename alone: readers never see a mix, a crash may lose the change (a disposable sandbox's files)
};

/**
 * @brief Replaces @p path with @p contents atomically: write to a temporary file in the
 * same directory, fsync it, rename it over the target, fsync the directory.
 *
 * A crash or kill at any point leaves either the old file or the new one, never a mix.
 * An existing file keeps its permissions; a new one gets @p newFileMode.
 */
bool writeFileAtomically(const QString &path, const QByteArray &contents, QString *error = nullptr,
                         int newFileMode = 0644, Durability durability = Durability::Synced);

/**
 * @brief writeFileAtomically() unless @p path holds @p contents already: files made again on
 * every start (a sandbox's hosts, the certificate bundles) cost a read instead of a write and
 * two fsyncs when nothing changed.
 */
bool writeFileIfChanged(const QString &path, const QByteArray &contents, QString *error = nullptr,
                        int newFileMode = 0644, Durability durability = Durability::Synced);

} // namespace paddock

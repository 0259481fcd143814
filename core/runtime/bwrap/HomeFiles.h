// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace paddock::runtime {

/** @brief What copying a kit's `files/home` tree did. */
struct HomeCopyResult
{
    bool ok = false;
    QString error;       ///< the first failure, when !ok
    QStringList skipped; ///< entries left out (relative to the tree): links leading outside, special files
};

/**
 * Copies the tree @p source into the sandbox home @p home, keeping permissions and the
 * layout; existing files are replaced.
 *
 * Nothing is ever followed out of either tree: a symbolic link in @p source is recreated as a
 * link only when its target stays inside the tree, otherwise it is skipped; a link already in
 * @p home is replaced, never written through.
 */
HomeCopyResult copyHomeTree(const QString &source, const QString &home);

} // namespace paddock::runtime

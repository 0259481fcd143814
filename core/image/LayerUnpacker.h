// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "image/TarStream.h"

#include <QString>
#include <QStringList>

namespace paddock::image {

/** @brief How much an image may hold before it is refused. */
struct ImageLimits
{
    qint64 maxLayerBytes = qint64(16) << 30; ///< one layer's tar stream, unpacked
    qint64 maxImageBytes = qint64(64) << 30; ///< every layer together
    qint64 maxEntryBytes = qint64(8) << 30;  ///< one file
    int maxEntries = 1000000;                ///< members of one layer
    int maxLayers = 127;
    int maxDepth = 128; ///< path components
    int maxPathBytes = 4096;
    qint64 maxJsonBytes = 8 << 20; ///< a manifest, an index or a configuration
};

/** @brief What unpacking one layer did. */
struct UnpackResult
{
    bool ok = false;
    QString error;     ///< one sentence naming the member at fault
    QStringList notes; ///< what was left out (device nodes), for the user
    qint64 bytes = 0;  ///< the files' sizes together
};

/**
 * Unpacks the layer tar read by @p reader into the empty folder @p dirFd (not owned), as
 * overlayfs stacks it: a whiteout `.wh.NAME` becomes a character device 0/0 named NAME, an
 * opaque marker `.wh..wh..opq` the attribute `user.overlay.opaque=y` on its folder (read with
 * overlayfs' `userxattr`).
 *
 * The layer is hostile: a path with `..` or an absolute one is refused, so is a member under a
 * symbolic link (nothing is ever written through one), a hard link to anything but an earlier
 * member of the layer, a member replacing a folder, and anything beyond @p limits. Everything
 * belongs to the user who unpacks (root inside the sandbox); setuid and setgid bits are
 * dropped; device nodes are left out with a note; extended attributes are ignored.
 */
UnpackResult unpackLayer(TarReader &reader, int dirFd, const ImageLimits &limits);

} // namespace paddock::image

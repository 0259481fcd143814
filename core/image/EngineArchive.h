// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::image {

/**
 * Writes at @p target a `docker save` archive (manifest.json, the configuration, the layers) of
 * the image of archive @p source (an OCI layout or a `docker save` tar) whose configuration's
 * SHA-256 is @p imageId (hex), tagged @p tag: what a container engine's image load takes, also
 * an engine that reads no OCI layout. The configuration and each layer are copied byte for
 * byte, compressed or not, so the engine checks them against the configuration's `diff_ids`
 * and names the image by the same id. False with @p error when the archive holds no such image
 * or cannot be read, or @p target cannot be written (nothing is left there then).
 */
bool writeEngineArchive(const QString &source, const QString &imageId, const QString &tag, const QString &target,
                        QString *error);

} // namespace paddock::image

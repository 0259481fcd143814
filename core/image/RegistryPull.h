// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "image/ImageStore.h"
#include "image/RegistryClient.h"

#include <QString>

#include <functional>
#include <optional>

namespace paddock::image {

/** @brief Where a pull is: blob @c index of @c count, @c received of its @c size bytes. */
struct PullProgress
{
    int index = 0; ///< from 1
    int count = 0;
    QString digest;
    qint64 received = 0;
    qint64 size = 0;
};

/** @brief What a pull fetched. */
struct PullResult
{
    bool ok = false;
    QString error;
    QString name;   ///< the reference as the store names it (storedName())
    QString digest; ///< of the manifest or index the reference named
    qint64 bytes = 0;
    int blobs = 0;
};

using PullProgressFn = std::function<void(const PullProgress &)>;

/**
 * Pulls @p reference into the OCI layout archive @p archivePath (a tar: oci-layout, index.json
 * naming the reference, blobs/sha256/...), which ImageStore::load() and loadKitArchive() read as
 * any archive. From an index, every manifest for linux on this machine's architecture is
 * pulled (with its configuration and layers); the index itself is kept, so its annotations stay.
 * Every blob is checked against its digest and size as it is written; on failure nothing is
 * left at @p archivePath.
 */
PullResult pullToArchive(const QString &reference, const QString &archivePath, const RegistryOptions &options,
                         const PullProgressFn &progress = {});

/** The configuration of the image @p reference names on its registry (manifests and configuration only). */
std::optional<ImageConfig> fetchImageConfig(const QString &reference, const RegistryOptions &options, QString *error);

/** pullToArchive() into a file under @p store's root, then ImageStore::load() of it; the file is removed. */
LoadResult pullIntoStore(ImageStore &store, const QString &reference, const RegistryOptions &options,
                         const PullProgressFn &progress = {}, PullResult *pulled = nullptr);

} // namespace paddock::image

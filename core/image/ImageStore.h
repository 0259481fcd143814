// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "image/ImageArchive.h"
#include "image/LayerUnpacker.h"

#include <QDateTime>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace paddock::image {

/** @brief An image in the store: what it is called, its layers and what it asks of a process. */
struct StoredImage
{
    QString id;             ///< the SHA-256 of its configuration, as Docker names it (hex)
    QStringList references; ///< "name:tag", as loaded
    QStringList layers;     ///< layer folder names (the hex of each layer's digest), bottom first
    ImageConfig config;
    qint64 bytes = 0; ///< its files' sizes together
    QDateTime loadedAt;

    /** The layer folders, top-most first, as overlayfs stacks them. */
    QStringList layersTopFirst() const;
};

/** @brief What loading an archive did. */
struct LoadResult
{
    bool ok = false;
    QString error;
    QList<StoredImage> images;
    QStringList notes;
    int layersUnpacked = 0; ///< the others were in the store already
};

/**
 * @brief Images for runtimes that run no image themselves (bubblewrap): each layer unpacked
 * once, named by its digest, and shared between images and sandboxes.
 *
 * Under `root` (by default `dataDir()/images`): `layers/HEX/` (a layer, as unpackLayer() left
 * it), `images/ID.json` (an image: references, layers, configuration). A layer is unpacked into
 * a folder of its own and renamed into place only once its content matches the digest the
 * image's configuration names, so a layer's name always says what it holds.
 */
class ImageStore
{
public:
    using Progress = std::function<void(int percent, const QString &message)>;

    ImageStore();
    explicit ImageStore(const QString &root, const ImageLimits &limits = {});

    QString root() const { return m_root; }
    QString layersDir() const { return m_root + QStringLiteral("/layers"); }

    /**
     * Loads every image of the archive at @p path (`docker save`, or an OCI layout); an image's
     * references move to it from any image that had them. @p cancel is checked between layers
     * and members.
     */
    LoadResult load(const QString &path, const Progress &progress = {}, const std::atomic_bool *cancel = nullptr);
    /** The image @p reference names: "name[:tag]" (":latest" when none), its id or an id prefix of 12 digits or more.
     */
    std::optional<StoredImage> find(const QString &reference) const;
    QList<StoredImage> list() const;
    /**
     * Forgets image @p reference, then removes every layer that no image and none of
     * @p inUse (layer folders of sandboxes) uses. Returns the layers removed, or nullopt with
     * @p error.
     */
    std::optional<QStringList> remove(const QString &reference, const QSet<QString> &inUse, QString *error);
    /** Removes every layer that no image and none of @p inUse uses; the layers removed, or nullopt with @p error. */
    std::optional<QStringList> collectUnused(const QSet<QString> &inUse, QString *error);
    /**
     * The uid and gid image @p image names in @p user: "UID[:GID]", or a name looked up in its
     * /etc/passwd (and a group in /etc/group). nullopt when it names none or one that is not there.
     */
    std::optional<std::pair<int, int>> resolveUser(const StoredImage &image, const QString &user) const;

    /** "debian" → "debian:latest", "docker.io/library/debian:12" → "debian:12", as Docker names them. */
    static QString normalizedReference(const QString &reference);

private:
    bool unpackInto(const ImageArchive &archive, const QByteArray &member, const QString &hex, int number,
                    LoadResult *result, const std::atomic_bool *cancel);
    bool writeRecord(const StoredImage &image, QString *error) const;
    std::optional<QByteArray> readLayerFile(const QString &layer, const QStringList &parts, bool *hidden) const;

    QString m_root;
    ImageLimits m_limits;
};

} // namespace paddock::image

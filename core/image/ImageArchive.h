// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/UniqueFd.h"
#include "image/LayerUnpacker.h"

#include <QByteArray>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::image {

/** @brief What an image asks of the process it runs, as `docker run` applies it. */
struct ImageConfig
{
    QStringList env; ///< "NAME=value" each
    QStringList entrypoint;
    QStringList cmd;
    QString workingDir;
    QString user;

    /** The "config" object of an image configuration (or of `docker image inspect`'s "Config"). */
    static ImageConfig fromJson(const QJsonObject &config);
    QJsonObject toJson() const;
    bool operator==(const ImageConfig &) const = default;
};

/** @brief One image an archive holds: its tags, its configuration, and where its layers are. */
struct ArchivedImage
{
    QStringList tags;
    QByteArray configBytes;
    QList<QByteArray> layerMembers; ///< archive members, bottom layer first
    /// An OCI layout's annotations: the image manifest's, overridden by those of the index
    /// entries that lead to it (empty for a `docker save` manifest.json).
    QJsonObject annotations;
    QString digest; ///< the digest index.json names it by (an image index's, for a multi-platform image)
};

/**
 * @brief An image archive on disk, as `docker save` writes it (manifest.json, each layer a
 * member) or as an OCI image layout (index.json and blobs/sha256/...), possibly both at once.
 *
 * Hostile like a bundle: the archive is indexed once without extracting anything; members are
 * looked up by name in that index (a link between members is followed inside the archive, never
 * on disk); manifests, indexes and configurations are bounded; digests must look like digests.
 */
class ImageArchive
{
public:
    bool open(const QString &path, const ImageLimits &limits, QString *error);
    /**
     * The images it holds, with their configurations read. An archive with both manifest.json and
     * index.json (as recent `docker save` writes) is read by its manifest.json unless @p preferOci.
     */
    std::optional<QList<ArchivedImage>> images(QString *error, bool preferOci = false) const;
    /** The data of member @p name (links followed): its offset in the file and its size. */
    std::optional<std::pair<qint64, qint64>> locate(const QByteArray &name, QString *error) const;
    int fd() const { return m_fd.get(); }

private:
    struct Member
    {
        qint64 offset = 0;
        qint64 size = 0;
        bool file = false;
        QByteArray link; ///< a symbolic or hard link's target
        bool symbolic = false;
    };
    std::optional<QByteArray> read(const QByteArray &name, QString *error) const;
    std::optional<QJsonDocument> readJson(const QByteArray &name, QString *error) const;
    std::optional<QList<ArchivedImage>> dockerImages(QString *error) const;
    std::optional<QList<ArchivedImage>> ociImages(QString *error) const;
    /** @p seen: the image so far (tags, annotations of the indexes above, digest in index.json). */
    bool addOciDescriptor(const QJsonObject &descriptor, const ArchivedImage &seen, int depth,
                          QList<ArchivedImage> *images, QString *error) const;

    UniqueFd m_fd;
    ImageLimits m_limits;
    QHash<QByteArray, Member> m_members;
};

/** "sha256:HEX" → HEX when it is exactly that; empty otherwise. */
QString digestHex(const QString &digest);

} // namespace paddock::image

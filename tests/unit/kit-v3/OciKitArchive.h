// SPDX-License-Identifier: GPL-3.0-or-later
// OCI layout archives of a kit image, written by hand: the descriptor annotation on the
// manifest, on the index, or on neither.
#pragma once

#include "../image-store/ArchiveBuilder.h"

namespace paddock::test {

/** @brief The parts of a kit image's OCI layout. */
struct OciKit
{
    QList<QByteArray> layers;
    QJsonObject config; ///< the image's "config": Entrypoint, Cmd, Env, User, WorkingDir
    QJsonObject manifestAnnotations;
    QJsonObject indexAnnotations; ///< on the index.json entry (and, with nestedIndex, on the image index)
    QString refName = QStringLiteral("registry.example/kits/shell:1.0");
    bool nestedIndex = false; ///< a multi-platform image index with a foreign platform beside linux/amd64
};

inline QByteArray blobDescriptor(const char *mediaType, const QByteArray &blob)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("mediaType"), QLatin1String(mediaType)},
                                     {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256(blob)},
                                     {QStringLiteral("size"), blob.size()}})
        .toJson(QJsonDocument::Compact);
}

inline QJsonObject descriptorOf(const char *mediaType, const QByteArray &blob)
{
    return QJsonDocument::fromJson(blobDescriptor(mediaType, blob)).object();
}

/** The archive; @p manifestDigest receives the digest index.json names the kit by. */
inline QByteArray ociKitArchive(const OciKit &kit, QString *manifestDigest = nullptr)
{
    const QByteArray config = configOf(kit.layers, kit.config);
    QList<RawMember> blobs{folder("blobs"), folder("blobs/sha256")};
    const auto addBlob = [&blobs](const QByteArray &blob) {
        blobs << file("blobs/sha256/" + sha256(blob).toLatin1(), blob);
    };
    addBlob(config);
    QJsonArray layerDescriptors;
    for (const QByteArray &layer : kit.layers) {
        addBlob(layer);
        layerDescriptors.append(descriptorOf("application/vnd.oci.image.layer.v1.tar", layer));
    }
    QJsonObject manifest{{QStringLiteral("schemaVersion"), 2},
                         {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
                         {QStringLiteral("config"), descriptorOf("application/vnd.oci.image.config.v1+json", config)},
                         {QStringLiteral("layers"), layerDescriptors}};
    if (!kit.manifestAnnotations.isEmpty())
        manifest.insert(QStringLiteral("annotations"), kit.manifestAnnotations);
    const QByteArray manifestBytes = QJsonDocument(manifest).toJson(QJsonDocument::Compact);
    addBlob(manifestBytes);
    QJsonObject top = descriptorOf("application/vnd.oci.image.manifest.v1+json", manifestBytes);
    if (kit.nestedIndex) {
        QJsonObject amd64 = top;
        amd64.insert(QStringLiteral("platform"),
                     QJsonObject{{QStringLiteral("os"), QStringLiteral("linux")},
                                 {QStringLiteral("architecture"), QStringLiteral("amd64")}});
        // A foreign platform's manifest, never read: its blob is not even in the archive.
        const QJsonObject other{
            {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
            {QStringLiteral("digest"), QStringLiteral("sha256:") + QString(64, QLatin1Char('e'))},
            {QStringLiteral("size"), 10},
            {QStringLiteral("platform"), QJsonObject{{QStringLiteral("os"), QStringLiteral("linux")},
                                                     {QStringLiteral("architecture"), QStringLiteral("s390x")}}}};
        QJsonObject imageIndex{{QStringLiteral("schemaVersion"), 2},
                               {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.index.v1+json")},
                               {QStringLiteral("manifests"), QJsonArray{other, amd64}}};
        if (!kit.indexAnnotations.isEmpty())
            imageIndex.insert(QStringLiteral("annotations"), kit.indexAnnotations);
        const QByteArray indexBytes = QJsonDocument(imageIndex).toJson(QJsonDocument::Compact);
        addBlob(indexBytes);
        top = descriptorOf("application/vnd.oci.image.index.v1+json", indexBytes);
    }
    QJsonObject topAnnotations = kit.nestedIndex ? QJsonObject{} : kit.indexAnnotations;
    topAnnotations.insert(QStringLiteral("org.opencontainers.image.ref.name"), kit.refName);
    top.insert(QStringLiteral("annotations"), topAnnotations);
    if (manifestDigest)
        *manifestDigest = top.value(QLatin1String("digest")).toString();
    const QJsonObject index{{QStringLiteral("schemaVersion"), 2}, {QStringLiteral("manifests"), QJsonArray{top}}};
    blobs << file("oci-layout", R"({"imageLayoutVersion":"1.0.0"})")
          << file("index.json", QJsonDocument(index).toJson(QJsonDocument::Compact));
    return tarOf(blobs);
}

/** The annotations of a published kit carrying @p descriptor (compact JSON or YAML). */
inline QJsonObject kitAnnotations(const QByteArray &descriptor)
{
    return QJsonObject{{QStringLiteral("vnd.docker.sandbox.kit.descriptor"), QString::fromUtf8(descriptor)},
                       {QStringLiteral("vnd.docker.sandbox.kit.schema-version"), QStringLiteral("3")}};
}

} // namespace paddock::test

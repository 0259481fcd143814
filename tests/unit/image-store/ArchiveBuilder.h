// SPDX-License-Identifier: GPL-3.0-or-later
// Tar members and image archives made in memory, including what a hostile archive holds.
#pragma once

#include <QByteArray>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>

#include <cstring>

namespace paddock::test {

/** @brief One raw member: any name, type and size field, as a hostile archive may write them. */
struct RawMember
{
    QByteArray name;
    char type = '0';
    QByteArray data;
    QByteArray link;
    int mode = 0644;
    qint64 sizeField = -1; ///< the header's size when it should lie about the data
};

inline RawMember file(const QByteArray &name, const QByteArray &data, int mode = 0644)
{
    return {name, '0', data, {}, mode};
}
inline RawMember folder(const QByteArray &name, int mode = 0755)
{
    return {name, '5', {}, {}, mode};
}
inline RawMember softLink(const QByteArray &name, const QByteArray &target)
{
    return {name, '2', {}, target, 0777};
}
inline RawMember hardlink(const QByteArray &name, const QByteArray &target)
{
    return {name, '1', {}, target, 0644};
}

inline RawMember device(const QByteArray &name)
{
    return {name, '3', {}, {}, 0600};
}

/** A pax extended header giving the next member the path @p path, which ustar could not hold. */
inline RawMember paxPath(const QByteArray &path)
{
    // "LENGTH path=VALUE\n", where LENGTH counts its own digits too.
    const QByteArray rest = " path=" + path + "\n";
    QByteArray length = QByteArray::number(rest.size() + 1);
    while (QByteArray::number(rest.size() + length.size()) != length)
        length = QByteArray::number(rest.size() + length.size());
    return {"PaxHeaders/long", 'x', length + rest, {}, 0644};
}

/** A GNU long-name header ('L') giving the next member the name @p path. */
inline RawMember gnuLongName(const QByteArray &path)
{
    return {"././@LongLink", 'L', path + '\0', {}, 0644};
}

inline QByteArray tarOf(const QList<RawMember> &members)
{
    QByteArray out;
    for (const RawMember &member : members) {
        char header[512];
        std::memset(header, 0, sizeof header);
        std::memcpy(header, member.name.constData(), size_t(std::min<qsizetype>(member.name.size(), 100)));
        const auto octal = [&header](int offset, int width, qint64 value) {
            const QByteArray text = QByteArray::number(value, 8).rightJustified(width - 1, '0');
            std::memcpy(header + offset, text.constData(), size_t(width - 1));
        };
        octal(100, 8, member.mode);
        octal(108, 8, 0);
        octal(116, 8, 0);
        const qint64 size = member.sizeField >= 0 ? member.sizeField : member.data.size();
        if (size < (qint64(1) << 33)) {
            octal(124, 12, size);
        } else { // GNU's base-256 form, for sizes octal cannot write
            header[124] = char(0x80);
            for (int i = 0; i < 8; ++i)
                header[135 - i] = char((size >> (8 * i)) & 0xff);
        }
        octal(136, 12, 0);
        header[156] = member.type;
        std::memcpy(header + 157, member.link.constData(), size_t(std::min<qsizetype>(member.link.size(), 100)));
        std::memcpy(header + 257,
                    "ustar\0"
                    "00",
                    8);
        std::memset(header + 148, ' ', 8);
        qint64 sum = 0;
        for (unsigned char c : header)
            sum += c;
        const QByteArray checksum = QByteArray::number(sum, 8).rightJustified(6, '0');
        std::memcpy(header + 148, checksum.constData(), 6);
        header[154] = '\0';
        out.append(header, 512);
        out.append(member.data);
        out.append(QByteArray((512 - member.data.size() % 512) % 512, '\0'));
    }
    out.append(QByteArray(1024, '\0'));
    return out;
}

inline QString sha256(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

inline QByteArray configOf(const QList<QByteArray> &layers, const QJsonObject &config = {})
{
    QJsonArray diffIds;
    for (const QByteArray &layer : layers)
        diffIds.append(QStringLiteral("sha256:") + sha256(layer));
    return QJsonDocument(
               QJsonObject{{QStringLiteral("architecture"), QStringLiteral("amd64")},
                           {QStringLiteral("os"), QStringLiteral("linux")},
                           {QStringLiteral("config"), config},
                           {QStringLiteral("rootfs"), QJsonObject{{QStringLiteral("type"), QStringLiteral("layers")},
                                                                  {QStringLiteral("diff_ids"), diffIds}}}})
        .toJson(QJsonDocument::Compact);
}

/** A `docker save` archive of one image; @p config overrides the configuration made from the layers. */
inline QByteArray dockerArchive(const QList<QByteArray> &layers, const QStringList &tags,
                                const QJsonObject &settings = {}, const QByteArray &config = {})
{
    const QByteArray configBytes = config.isEmpty() ? configOf(layers, settings) : config;
    QList<RawMember> members;
    QJsonArray layerNames;
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const QByteArray name = "layer" + QByteArray::number(i);
        members << folder(name) << file(name + "/layer.tar", layers.at(i));
        layerNames.append(QString::fromLatin1(name + "/layer.tar"));
    }
    members << file(sha256(configBytes).toLatin1() + ".json", configBytes);
    const QJsonArray manifest{QJsonObject{{QStringLiteral("Config"), sha256(configBytes) + QStringLiteral(".json")},
                                          {QStringLiteral("RepoTags"), QJsonArray::fromStringList(tags)},
                                          {QStringLiteral("Layers"), layerNames}}};
    members << file("manifest.json", QJsonDocument(manifest).toJson(QJsonDocument::Compact));
    return tarOf(members);
}

/** @p data through `TOOL -c` (gzip, zstd, xz), as the tool writes it. */
inline QByteArray compressed(const QByteArray &data, const QString &tool = QStringLiteral("gzip"))
{
    QProcess compressor;
    compressor.start(tool, {QStringLiteral("-c")});
    compressor.write(data);
    compressor.closeWriteChannel();
    compressor.waitForFinished(60000);
    return compressor.readAllStandardOutput();
}

/** An OCI image layout of one image with its layers compressed by @p tool, tagged through its annotation. */
inline QByteArray ociArchive(const QList<QByteArray> &layers, const QString &reference,
                             const QString &tool = QStringLiteral("gzip"))
{
    const QByteArray config = configOf(layers);
    QList<RawMember> members{folder("blobs"), folder("blobs/sha256")};
    QJsonArray layerDescriptors;
    for (const QByteArray &layer : layers) {
        const QByteArray blob = compressed(layer, tool);
        members << file("blobs/sha256/" + sha256(blob).toLatin1(), blob);
        layerDescriptors.append(
            QJsonObject{{QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.layer.v1.tar+") + tool},
                        {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256(blob)},
                        {QStringLiteral("size"), blob.size()}});
    }
    members << file("blobs/sha256/" + sha256(config).toLatin1(), config);
    const QByteArray manifest =
        QJsonDocument(
            QJsonObject{{QStringLiteral("schemaVersion"), 2},
                        {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
                        {QStringLiteral("config"),
                         QJsonObject{{QStringLiteral("digest"), QStringLiteral("sha256:") + sha256(config)}}},
                        {QStringLiteral("layers"), layerDescriptors}})
            .toJson(QJsonDocument::Compact);
    members << file("blobs/sha256/" + sha256(manifest).toLatin1(), manifest);
    const QByteArray index =
        QJsonDocument(QJsonObject{{QStringLiteral("schemaVersion"), 2},
                                  {QStringLiteral("manifests"),
                                   QJsonArray{QJsonObject{
                                       {QStringLiteral("mediaType"),
                                        QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
                                       {QStringLiteral("digest"), QStringLiteral("sha256:") + sha256(manifest)},
                                       {QStringLiteral("annotations"),
                                        QJsonObject{{QStringLiteral("io.containerd.image.name"), reference}}}}}}})
            .toJson(QJsonDocument::Compact);
    members << file("index.json", index) << file("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}");
    return tarOf(members);
}

} // namespace paddock::test

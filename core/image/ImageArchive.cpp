// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/ImageArchive.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>

#include <fcntl.h>
#include <sys/stat.h>

namespace paddock::image {
namespace {

/** Members of the outer archive: manifests, configurations and layers, never this many. */
constexpr int kMaxMembers = 100000;
constexpr int kMaxLinkHops = 8;

QByteArray cleanMemberName(QByteArray name)
{
    while (name.startsWith("./"))
        name.remove(0, 2);
    return QDir::cleanPath(QString::fromUtf8(name)).toUtf8();
}

QStringList stringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

bool isIndex(const QString &mediaType)
{
    return mediaType == QLatin1String("application/vnd.oci.image.index.v1+json") ||
           mediaType == QLatin1String("application/vnd.docker.distribution.manifest.list.v2+json");
}

/** Whether an index entry is for this machine (or says nothing about its platform). */
bool forThisMachine(const QJsonObject &descriptor)
{
    const QJsonObject platform = descriptor.value(QLatin1String("platform")).toObject();
    if (platform.isEmpty())
        return true;
#if defined(__aarch64__)
    const QString arch = QStringLiteral("arm64");
#else
    const QString arch = QStringLiteral("amd64");
#endif
    return platform.value(QLatin1String("os")).toString() == QLatin1String("linux") &&
           platform.value(QLatin1String("architecture")).toString() == arch;
}

} // namespace

QString digestHex(const QString &digest)
{
    static const QRegularExpression pattern(QStringLiteral("^sha256:([0-9a-f]{64})$"));
    const QRegularExpressionMatch match = pattern.match(digest);
    return match.hasMatch() ? match.captured(1) : QString();
}

ImageConfig ImageConfig::fromJson(const QJsonObject &config)
{
    ImageConfig result;
    result.env = stringList(config.value(QLatin1String("Env")));
    result.entrypoint = stringList(config.value(QLatin1String("Entrypoint")));
    result.cmd = stringList(config.value(QLatin1String("Cmd")));
    result.workingDir = config.value(QLatin1String("WorkingDir")).toString();
    result.user = config.value(QLatin1String("User")).toString();
    return result;
}

QJsonObject ImageConfig::toJson() const
{
    return {{QStringLiteral("Env"), QJsonArray::fromStringList(env)},
            {QStringLiteral("Entrypoint"), QJsonArray::fromStringList(entrypoint)},
            {QStringLiteral("Cmd"), QJsonArray::fromStringList(cmd)},
            {QStringLiteral("WorkingDir"), workingDir},
            {QStringLiteral("User"), user}};
}

bool ImageArchive::open(const QString &path, const ImageLimits &limits, QString *error)
{
    m_limits = limits;
    m_fd.reset(::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC));
    struct stat st
    {};
    if (m_fd.get() < 0 || ::fstat(m_fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return false;
    }
    const std::unique_ptr<ByteSource> source = fileRange(m_fd.get(), 0, st.st_size);
    TarReader reader(*source);
    while (const std::optional<TarMember> member = reader.next()) {
        if (m_members.size() >= kMaxMembers) {
            *error = QStringLiteral("the archive holds more than %1 members").arg(kMaxMembers);
            return false;
        }
        Member entry;
        entry.offset = reader.dataOffset();
        entry.size = member->size;
        entry.file = member->type == TarMember::Type::File;
        if (member->type == TarMember::Type::SymLink || member->type == TarMember::Type::HardLink) {
            entry.link = member->linkPath;
            entry.symbolic = member->type == TarMember::Type::SymLink;
        }
        m_members.insert(cleanMemberName(member->path), entry);
    }
    if (!reader.error().isEmpty()) {
        *error = QStringLiteral("%1 is not an image archive: %2").arg(path, reader.error());
        return false;
    }
    return true;
}

std::optional<std::pair<qint64, qint64>> ImageArchive::locate(const QByteArray &name, QString *error) const
{
    QByteArray current = cleanMemberName(name);
    for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
        const auto it = m_members.constFind(current);
        if (it == m_members.cend())
            break;
        if (it->file)
            return std::make_pair(it->offset, it->size);
        if (it->link.isEmpty())
            break;
        // A link between members (docker save shares a layer that way), resolved in the archive.
        const QByteArray base = it->symbolic && current.contains('/') ? current.left(current.lastIndexOf('/') + 1) : "";
        current = cleanMemberName(it->link.startsWith('/') ? it->link.mid(1) : base + it->link);
        if (current.startsWith("../") || current == "..")
            break;
    }
    *error = QStringLiteral("the archive has no member '%1'").arg(QString::fromUtf8(name.left(200)));
    return std::nullopt;
}

std::optional<QByteArray> ImageArchive::read(const QByteArray &name, QString *error) const
{
    const auto where = locate(name, error);
    if (!where)
        return std::nullopt;
    if (where->second > m_limits.maxJsonBytes) {
        *error = QStringLiteral("member '%1' is %2 bytes, too large for what it should hold")
                     .arg(QString::fromUtf8(name))
                     .arg(where->second);
        return std::nullopt;
    }
    QByteArray data(where->second, Qt::Uninitialized);
    const auto source = fileRange(m_fd.get(), where->first, where->second);
    for (qint64 done = 0; done < data.size();) {
        const qint64 n = source->read(data.data() + done, data.size() - done);
        if (n <= 0) {
            *error = QStringLiteral("cannot read member '%1'").arg(QString::fromUtf8(name));
            return std::nullopt;
        }
        done += n;
    }
    return data;
}

std::optional<QJsonDocument> ImageArchive::readJson(const QByteArray &name, QString *error) const
{
    const std::optional<QByteArray> data = read(name, error);
    if (!data)
        return std::nullopt;
    QJsonParseError parse{};
    QJsonDocument document = QJsonDocument::fromJson(*data, &parse);
    if (document.isNull()) {
        *error = QStringLiteral("member '%1' is not JSON: %2").arg(QString::fromUtf8(name), parse.errorString());
        return std::nullopt;
    }
    return document;
}

std::optional<QList<ArchivedImage>> ImageArchive::images(QString *error, bool preferOci) const
{
    if (preferOci && m_members.contains("index.json"))
        return ociImages(error);
    if (m_members.contains("manifest.json"))
        return dockerImages(error);
    if (m_members.contains("index.json"))
        return ociImages(error);
    *error = QStringLiteral("the archive is not an image: it has neither manifest.json (docker save) nor "
                            "index.json (an OCI layout)");
    return std::nullopt;
}

std::optional<QList<ArchivedImage>> ImageArchive::dockerImages(QString *error) const
{
    const std::optional<QJsonDocument> manifest = readJson("manifest.json", error);
    if (!manifest)
        return std::nullopt;
    QList<ArchivedImage> images;
    for (const QJsonValue &value : manifest->array()) {
        const QJsonObject entry = value.toObject();
        ArchivedImage image;
        image.tags = stringList(entry.value(QLatin1String("RepoTags")));
        const std::optional<QByteArray> config = read(entry.value(QLatin1String("Config")).toString().toUtf8(), error);
        if (!config)
            return std::nullopt;
        image.configBytes = *config;
        for (const QString &layer : stringList(entry.value(QLatin1String("Layers"))))
            image.layerMembers << layer.toUtf8();
        images << image;
    }
    if (images.isEmpty()) {
        *error = QStringLiteral("manifest.json of the archive lists no image");
        return std::nullopt;
    }
    return images;
}

bool ImageArchive::addOciDescriptor(const QJsonObject &descriptor, const ArchivedImage &seen, int depth,
                                    QList<ArchivedImage> *images, QString *error) const
{
    const QString hex = digestHex(descriptor.value(QLatin1String("digest")).toString());
    if (hex.isEmpty() || depth > 4) {
        *error = QStringLiteral("the archive's index names a blob by something that is not a sha256 digest");
        return false;
    }
    const std::optional<QJsonDocument> document = readJson("blobs/sha256/" + hex.toLatin1(), error);
    if (!document)
        return false;
    const QJsonObject object = document->object();
    const QString mediaType =
        object.value(QLatin1String("mediaType")).toString(descriptor.value(QLatin1String("mediaType")).toString());
    // Index annotations come first; a manifest's fill in what the indexes above did not say.
    ArchivedImage image = seen;
    const QJsonObject own = object.value(QLatin1String("annotations")).toObject();
    for (auto it = own.begin(); it != own.end(); ++it)
        if (!image.annotations.contains(it.key()))
            image.annotations.insert(it.key(), it.value());
    if (isIndex(mediaType) || object.contains(QLatin1String("manifests"))) {
        for (const QJsonValue &child : object.value(QLatin1String("manifests")).toArray()) {
            if (forThisMachine(child.toObject()) &&
                !addOciDescriptor(child.toObject(), image, depth + 1, images, error))
                return false;
        }
        return true;
    }
    const QString configHex =
        digestHex(object.value(QLatin1String("config")).toObject().value(QLatin1String("digest")).toString());
    const std::optional<QByteArray> config =
        configHex.isEmpty() ? std::nullopt : read("blobs/sha256/" + configHex.toLatin1(), error);
    if (!config) {
        if (configHex.isEmpty())
            *error = QStringLiteral("an image manifest of the archive names no configuration");
        return false;
    }
    image.configBytes = *config;
    for (const QJsonValue &layer : object.value(QLatin1String("layers")).toArray()) {
        const QString layerHex = digestHex(layer.toObject().value(QLatin1String("digest")).toString());
        if (layerHex.isEmpty()) {
            *error = QStringLiteral("an image manifest of the archive names a layer by something that is not a digest");
            return false;
        }
        image.layerMembers << "blobs/sha256/" + layerHex.toLatin1();
    }
    images->append(image);
    return true;
}

std::optional<QList<ArchivedImage>> ImageArchive::ociImages(QString *error) const
{
    const std::optional<QJsonDocument> index = readJson("index.json", error);
    if (!index)
        return std::nullopt;
    QList<ArchivedImage> images;
    for (const QJsonValue &value : index->object().value(QLatin1String("manifests")).toArray()) {
        const QJsonObject descriptor = value.toObject();
        const QJsonObject annotations = descriptor.value(QLatin1String("annotations")).toObject();
        QStringList tags;
        const QString name = annotations.value(QLatin1String("io.containerd.image.name")).toString();
        const QString ref = annotations.value(QLatin1String("org.opencontainers.image.ref.name")).toString();
        if (!name.isEmpty())
            tags << name;
        else if (ref.contains(QLatin1Char(':')) || ref.contains(QLatin1Char('/')))
            tags << ref;
        ArchivedImage seen;
        seen.tags = tags;
        seen.annotations = annotations;
        seen.digest = descriptor.value(QLatin1String("digest")).toString();
        if (!addOciDescriptor(descriptor, seen, 0, &images, error))
            return std::nullopt;
    }
    if (images.isEmpty()) {
        *error = QStringLiteral("index.json of the archive lists no image for this machine");
        return std::nullopt;
    }
    return images;
}

} // namespace paddock::image

// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/ImageStore.h"

#include "common/AtomicFile.h"
#include "common/FileTree.h"
#include "common/Paths.h"
#include "common/UniqueFd.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcImageStore, "paddock.image.store", QtInfoMsg)

namespace paddock::image {
namespace {

constexpr int kMaxImagesPerArchive = 16;
constexpr qint64 kMaxAccountFile = 1 << 20;

QJsonObject toJson(const StoredImage &image)
{
    return {{QStringLiteral("id"), image.id},
            {QStringLiteral("references"), QJsonArray::fromStringList(image.references)},
            {QStringLiteral("layers"), QJsonArray::fromStringList(image.layers)},
            {QStringLiteral("config"), image.config.toJson()},
            {QStringLiteral("bytes"), image.bytes},
            {QStringLiteral("loadedAt"), image.loadedAt.toUTC().toString(Qt::ISODate)}};
}

std::optional<StoredImage> fromJson(const QJsonObject &object)
{
    StoredImage image;
    image.id = object.value(QLatin1String("id")).toString();
    for (const QJsonValue &value : object.value(QLatin1String("references")).toArray())
        image.references << value.toString();
    for (const QJsonValue &value : object.value(QLatin1String("layers")).toArray()) {
        // Names of folders under layers/: digests, nothing that could lead elsewhere.
        if (digestHex(QStringLiteral("sha256:") + value.toString()).isEmpty())
            return std::nullopt;
        image.layers << value.toString();
    }
    image.config = ImageConfig::fromJson(object.value(QLatin1String("config")).toObject());
    image.bytes = object.value(QLatin1String("bytes")).toInteger();
    image.loadedAt = QDateTime::fromString(object.value(QLatin1String("loadedAt")).toString(), Qt::ISODate);
    if (digestHex(QStringLiteral("sha256:") + image.id).isEmpty())
        return std::nullopt;
    return image;
}

/** A passwd or group line's fields for @p key (a name or a number), or empty. */
QStringList accountFields(const QByteArray &file, const QString &key)
{
    for (const QByteArray &line : file.split('\n')) {
        const QStringList fields = QString::fromUtf8(line).split(QLatin1Char(':'));
        if (fields.size() >= 4 && (fields.at(0) == key || fields.at(2) == key))
            return fields;
    }
    return {};
}

std::optional<int> idNumber(const QString &text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok && value >= 0 && value <= 65534 ? std::optional<int>(value) : std::nullopt;
}

} // namespace

QStringList StoredImage::layersTopFirst() const
{
    QStringList top = layers;
    std::reverse(top.begin(), top.end());
    return top;
}

ImageStore::ImageStore() : ImageStore(paths::dataDir() + QStringLiteral("/images")) {}

ImageStore::ImageStore(const QString &root, const ImageLimits &limits) : m_root(root), m_limits(limits) {}

QString ImageStore::normalizedReference(const QString &reference)
{
    QString name = reference.trimmed();
    for (const char *prefix : {"docker.io/library/", "index.docker.io/library/", "docker.io/", "index.docker.io/"}) {
        if (name.startsWith(QLatin1String(prefix))) {
            name = name.mid(int(qstrlen(prefix)));
            break;
        }
    }
    const QString last = name.section(QLatin1Char('/'), -1);
    if (!name.isEmpty() && !last.contains(QLatin1Char(':')) && !name.contains(QLatin1Char('@')))
        name += QStringLiteral(":latest");
    return name;
}

QList<StoredImage> ImageStore::list() const
{
    QList<StoredImage> images;
    const QDir dir(m_root + QStringLiteral("/images"));
    for (const QString &file : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile record(dir.filePath(file));
        if (!record.open(QIODevice::ReadOnly) || record.size() > m_limits.maxJsonBytes)
            continue;
        if (std::optional<StoredImage> image = fromJson(QJsonDocument::fromJson(record.readAll()).object()))
            images << *image;
    }
    std::sort(images.begin(), images.end(),
              [](const StoredImage &a, const StoredImage &b) { return a.loadedAt > b.loadedAt; });
    return images;
}

std::optional<StoredImage> ImageStore::find(const QString &reference) const
{
    if (reference.trimmed().isEmpty())
        return std::nullopt;
    const QString wanted = normalizedReference(reference);
    QString id = reference.trimmed();
    if (id.startsWith(QLatin1String("sha256:")))
        id = id.mid(7);
    const bool byId = id.size() >= 12 && id.size() <= 64 && std::all_of(id.cbegin(), id.cend(), [](QChar c) {
                          return c.isDigit() || (c >= u'a' && c <= u'f');
                      });
    for (const StoredImage &image : list()) {
        if (image.references.contains(wanted) || (byId && image.id.startsWith(id)))
            return image;
    }
    return std::nullopt;
}

bool ImageStore::writeRecord(const StoredImage &image, QString *error) const
{
    return writeFileAtomically(m_root + QStringLiteral("/images/") + image.id + QStringLiteral(".json"),
                               QJsonDocument(toJson(image)).toJson(QJsonDocument::Indented), error, 0600);
}

bool ImageStore::unpackInto(const ImageArchive &archive, const QByteArray &member, const QString &hex, int number,
                            LoadResult *result, const std::atomic_bool *cancel)
{
    if (cancel && cancel->load()) {
        result->error = QStringLiteral("cancelled");
        return false;
    }
    QByteArray staging = QFile::encodeName(layersDir() + QStringLiteral("/.unpacking-XXXXXX"));
    if (!::mkdtemp(staging.data())) {
        result->error = QStringLiteral("cannot make a folder in %1: %2")
                            .arg(layersDir(), QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    const QString stagingPath = QFile::decodeName(staging);
    const auto fail = [&](const QString &message) {
        filetree::removeTree(stagingPath);
        result->error = QStringLiteral("layer %1 of the image (%2): %3")
                            .arg(number)
                            .arg(QString::fromUtf8(member.left(120)), message);
        return false;
    };
    const std::optional<std::pair<qint64, qint64>> where = archive.locate(member, &result->error);
    if (!where)
        return fail(result->error);
    const UniqueFd dir(::open(staging.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    LayerStream stream(fileRange(archive.fd(), where->first, where->second), m_limits.maxLayerBytes);
    TarReader reader(stream);
    const UnpackResult unpacked = unpackLayer(reader, dir.get(), m_limits);
    if (!unpacked.ok)
        return fail(unpacked.error);
    // The digest covers the whole stream, the padding after the end marker too.
    char buffer[64 * 1024];
    qint64 n = 0;
    while ((n = stream.read(buffer, sizeof buffer)) > 0) {
    }
    if (n < 0)
        return fail(stream.error());
    if (stream.digest() != hex)
        return fail(QStringLiteral("its content does not match the digest its image names (sha256:%1)").arg(hex));
    result->notes << unpacked.notes;
    const QByteArray target = QFile::encodeName(layersDir() + QLatin1Char('/') + hex);
    if (::fchmod(dir.get(), 0755) != 0 || ::rename(staging.constData(), target.constData()) != 0) {
        // Another load may have put the same layer in place meanwhile: the same bytes.
        if (errno == EEXIST || errno == ENOTEMPTY) {
            filetree::removeTree(stagingPath);
            return true;
        }
        return fail(QStringLiteral("cannot keep it: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    ++result->layersUnpacked;
    return true;
}

LoadResult ImageStore::load(const QString &path, const Progress &progress, const std::atomic_bool *cancel)
{
    LoadResult result;
    if (!paths::ensurePrivateDir(layersDir(), &result.error) ||
        !paths::ensurePrivateDir(m_root + QStringLiteral("/images"), &result.error))
        return result;
    ImageArchive archive;
    std::optional<QList<ArchivedImage>> archived;
    if (!archive.open(path, m_limits, &result.error) || !(archived = archive.images(&result.error)))
        return result;
    if (archived->size() > kMaxImagesPerArchive) {
        result.error = QStringLiteral("the archive holds more than %1 images").arg(kMaxImagesPerArchive);
        return result;
    }
    for (const ArchivedImage &entry : std::as_const(*archived)) {
        const QJsonObject configuration = QJsonDocument::fromJson(entry.configBytes).object();
        QStringList diffIds;
        for (const QJsonValue &value :
             configuration.value(QLatin1String("rootfs")).toObject().value(QLatin1String("diff_ids")).toArray())
            diffIds << digestHex(value.toString());
        if (configuration.isEmpty() || diffIds.size() != entry.layerMembers.size() || diffIds.contains(QString())) {
            result.error =
                QStringLiteral("the image's configuration does not name a sha256 digest for each of its layers");
            return result;
        }
        if (diffIds.size() > m_limits.maxLayers) {
            result.error =
                QStringLiteral("the image has %1 layers; at most %2").arg(diffIds.size()).arg(m_limits.maxLayers);
            return result;
        }
        StoredImage image;
        image.id = QString::fromLatin1(QCryptographicHash::hash(entry.configBytes, QCryptographicHash::Sha256).toHex());
        for (const QString &tag : entry.tags)
            image.references << normalizedReference(tag);
        image.config = ImageConfig::fromJson(configuration.value(QLatin1String("config")).toObject());
        image.loadedAt = QDateTime::currentDateTimeUtc();
        for (qsizetype i = 0; i < diffIds.size(); ++i) {
            if (progress)
                progress(int(i * 100 / diffIds.size()),
                         QStringLiteral("unpacking layer %1 of %2").arg(i + 1).arg(diffIds.size()));
            if (!QFileInfo(layersDir() + QLatin1Char('/') + diffIds.at(i)).isDir() &&
                !unpackInto(archive, entry.layerMembers.at(i), diffIds.at(i), int(i + 1), &result, cancel))
                return result;
            image.layers << diffIds.at(i);
            image.bytes += filetree::diskUsage(layersDir() + QLatin1Char('/') + diffIds.at(i));
        }
        if (image.bytes > m_limits.maxImageBytes) {
            result.error = QStringLiteral("the image takes more than %1 bytes").arg(m_limits.maxImageBytes);
            return result;
        }
        // The same image loaded under another name keeps its names; a reference names one
        // image, the one loaded last.
        if (const std::optional<StoredImage> known = find(image.id)) {
            for (const QString &reference : known->references) {
                if (!image.references.contains(reference))
                    image.references << reference;
            }
        }
        for (StoredImage other : list()) {
            const qsizetype before = other.references.size();
            for (const QString &reference : std::as_const(image.references))
                other.references.removeAll(reference);
            if (other.id != image.id && other.references.size() != before && !writeRecord(other, &result.error))
                return result;
        }
        if (!writeRecord(image, &result.error))
            return result;
        qCInfo(lcImageStore).noquote() << "loaded image" << image.id.left(12)
                                       << image.references.join(QStringLiteral(", "));
        result.images << image;
    }
    result.ok = true;
    return result;
}

std::optional<QStringList> ImageStore::remove(const QString &reference, const QSet<QString> &inUse, QString *error)
{
    const std::optional<StoredImage> image = find(reference);
    if (!image) {
        *error = QStringLiteral("no image named %1 in Paddock's store").arg(reference);
        return std::nullopt;
    }
    if (!QFile::remove(m_root + QStringLiteral("/images/") + image->id + QStringLiteral(".json"))) {
        *error = QStringLiteral("cannot forget image %1").arg(reference);
        return std::nullopt;
    }
    return collectUnused(inUse, error);
}

std::optional<QStringList> ImageStore::collectUnused(const QSet<QString> &inUse, QString *error)
{
    QSet<QString> kept;
    for (const StoredImage &other : list()) {
        for (const QString &layer : other.layers)
            kept.insert(layer);
    }
    QStringList removed;
    const QDir dir(layersDir());
    for (const QString &layer : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        const QString path = dir.filePath(layer);
        const bool staleStaging = layer.startsWith(QLatin1String(".unpacking-")) &&
                                  QFileInfo(path).lastModified().secsTo(QDateTime::currentDateTime()) > 24 * 3600;
        if ((layer.startsWith(QLatin1Char('.')) && !staleStaging) || kept.contains(layer) || inUse.contains(path))
            continue;
        if (!filetree::removeTree(path, error))
            return std::nullopt;
        removed << layer;
    }
    return removed;
}

std::optional<QByteArray> ImageStore::readLayerFile(const QString &layer, const QStringList &parts, bool *hidden) const
{
    UniqueFd dir(::open(QFile::encodeName(layersDir() + QLatin1Char('/') + layer).constData(),
                        O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    for (qsizetype i = 0; dir.get() >= 0 && i < parts.size(); ++i) {
        const QByteArray name = QFile::encodeName(parts.at(i));
        struct stat st
        {};
        if (::fstatat(dir.get(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            char value = 0;
            *hidden = ::fgetxattr(dir.get(), "user.overlay.opaque", &value, 1) == 1 && value == 'y';
            return std::nullopt;
        }
        if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0)) {
            *hidden = true; // a whiteout: what lower layers hold is gone
            return std::nullopt;
        }
        const bool last = i + 1 == parts.size();
        const int next =
            ::openat(dir.get(), name.constData(), (last ? O_RDONLY : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0 || (last && !S_ISREG(st.st_mode))) {
            if (next >= 0)
                ::close(next);
            *hidden = true; // a link or something else: not followed
            return std::nullopt;
        }
        dir.reset(next);
    }
    if (dir.get() < 0)
        return std::nullopt;
    QFile file;
    if (!file.open(dir.get(), QIODevice::ReadOnly))
        return std::nullopt;
    return file.read(kMaxAccountFile);
}

std::optional<std::pair<int, int>> ImageStore::resolveUser(const StoredImage &image, const QString &user) const
{
    if (user.trimmed().isEmpty())
        return std::nullopt;
    const auto fileOf = [&](const QString &name) {
        for (const QString &layer : image.layersTopFirst()) {
            bool hidden = false;
            if (const std::optional<QByteArray> data = readLayerFile(layer, {QStringLiteral("etc"), name}, &hidden))
                return *data;
            if (hidden)
                break;
        }
        return QByteArray();
    };
    const QString userPart = user.section(QLatin1Char(':'), 0, 0);
    const QString groupPart = user.contains(QLatin1Char(':')) ? user.section(QLatin1Char(':'), 1) : QString();
    const QStringList account = accountFields(fileOf(QStringLiteral("passwd")), userPart);
    const std::optional<int> uid = idNumber(userPart) ? idNumber(userPart) : idNumber(account.value(2));
    if (!uid)
        return std::nullopt;
    std::optional<int> gid = idNumber(account.value(3)).value_or(*uid);
    if (!groupPart.isEmpty())
        gid = idNumber(groupPart) ? idNumber(groupPart)
                                  : idNumber(accountFields(fileOf(QStringLiteral("group")), groupPart).value(2));
    if (!gid)
        return std::nullopt;
    return std::make_pair(*uid, *gid);
}

} // namespace paddock::image

// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/RegistryPull.h"

#include "common/Paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUuid>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace paddock::image {

namespace {

constexpr int kMaxManifests = 8;

bool isIndexDocument(const QString &mediaType, const QJsonObject &object)
{
    return mediaType == QLatin1String("application/vnd.oci.image.index.v1+json") ||
           mediaType == QLatin1String("application/vnd.docker.distribution.manifest.list.v2+json") ||
           object.contains(QLatin1String("manifests"));
}

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

/** @brief A blob to fetch: its digest and size as a manifest names it. */
struct Blob
{
    QString digest;
    qint64 size = 0;
};

/** @brief The documents of a pull: manifests and indexes (fetched), then the blobs they name. */
struct Plan
{
    RegistryDocument top;
    QList<RegistryDocument> documents; ///< every manifest and index, the top one first
    QList<Blob> configs;
    QList<Blob> layers;
};

Blob blobOf(const QJsonObject &descriptor)
{
    return {descriptor.value(QLatin1String("digest")).toString(),
            descriptor.value(QLatin1String("size")).toInteger(-1)};
}

/** Adds @p document and what it leads to (for this machine) to @p plan. */
bool follow(RegistryClient &client, const RegistryDocument &document, int depth, Plan *plan, QString *error)
{
    plan->documents << document;
    const QJsonObject object = QJsonDocument::fromJson(document.body).object();
    if (object.isEmpty() || depth > 2 || plan->documents.size() > kMaxManifests) {
        *error = QStringLiteral("the registry %1 sent a manifest Paddock cannot read").arg(client.reference().registry);
        return false;
    }
    if (isIndexDocument(document.mediaType, object)) {
        const qsizetype before = plan->configs.size();
        for (const QJsonValue &value : object.value(QLatin1String("manifests")).toArray()) {
            const QJsonObject entry = value.toObject();
            if (!forThisMachine(entry))
                continue;
            const QString digest = entry.value(QLatin1String("digest")).toString();
            if (digestHex(digest).isEmpty()) {
                *error = QStringLiteral("an index of %1 names a manifest by something that is not a digest")
                             .arg(client.reference().registry);
                return false;
            }
            const std::optional<RegistryDocument> child = client.manifest(digest, error);
            if (!child || !follow(client, *child, depth + 1, plan, error))
                return false;
        }
        if (depth == 0 && plan->configs.size() == before) {
            *error = QStringLiteral("%1 has no image for linux on this machine's architecture")
                         .arg(client.reference().fullName());
            return false;
        }
        return true;
    }
    if (object.value(QLatin1String("schemaVersion")).toInt() != 2 ||
        !object.value(QLatin1String("config")).isObject()) {
        *error = QStringLiteral("%1 has a manifest of schema 1 or of no known kind; Paddock reads OCI and Docker "
                                "schema 2 images")
                     .arg(client.reference().fullName());
        return false;
    }
    const QJsonArray layers = object.value(QLatin1String("layers")).toArray();
    if (layers.size() > ImageLimits{}.maxLayers) {
        *error = QStringLiteral("%1 has %2 layers, more than the %3 an image may have")
                     .arg(client.reference().fullName())
                     .arg(layers.size())
                     .arg(ImageLimits{}.maxLayers);
        return false;
    }
    plan->configs << blobOf(object.value(QLatin1String("config")).toObject());
    for (const QJsonValue &layer : layers)
        plan->layers << blobOf(layer.toObject());
    return true;
}

std::optional<Plan> resolve(RegistryClient &client, QString *error)
{
    const std::optional<RegistryDocument> top = client.manifest(client.reference().manifestReference(), error);
    if (!top)
        return std::nullopt;
    Plan plan;
    plan.top = *top;
    if (!follow(client, *top, 0, &plan, error))
        return std::nullopt;
    return plan;
}

/** @brief The archive being written: a pax tar through libarchive. */
class LayoutWriter
{
public:
    bool open(const QString &path)
    {
        m_archive.reset(archive_write_new());
        return m_archive && archive_write_set_format_pax_restricted(m_archive.get()) == ARCHIVE_OK &&
               archive_write_open_filename(m_archive.get(), QFile::encodeName(path).constData()) == ARCHIVE_OK;
    }
    bool begin(const QString &name, qint64 size)
    {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
        archive_entry_set_pathname(entry.get(), name.toUtf8().constData());
        archive_entry_set_size(entry.get(), size);
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), 0644);
        return archive_write_header(m_archive.get(), entry.get()) == ARCHIVE_OK;
    }
    bool write(const char *data, size_t size)
    {
        return archive_write_data(m_archive.get(), data, size) == la_ssize_t(size);
    }
    bool add(const QString &name, const QByteArray &bytes)
    {
        return begin(name, bytes.size()) && write(bytes.constData(), size_t(bytes.size()));
    }
    bool close() { return archive_write_close(m_archive.get()) == ARCHIVE_OK; }
    QString problem() const { return QString::fromUtf8(archive_error_string(m_archive.get())); }

private:
    std::unique_ptr<archive, decltype(&archive_write_free)> m_archive{nullptr, archive_write_free};
};

QString blobName(const QString &digest)
{
    return QStringLiteral("blobs/sha256/") + digestHex(digest);
}

QByteArray indexJson(const RegistryDocument &top, const RegistryReference &reference)
{
    QJsonObject annotations{{QStringLiteral("io.containerd.image.name"), storedName(reference)}};
    if (!reference.tag.isEmpty())
        annotations.insert(QStringLiteral("org.opencontainers.image.ref.name"), reference.tag);
    const QJsonObject descriptor{{QStringLiteral("mediaType"), top.mediaType},
                                 {QStringLiteral("digest"), top.digest},
                                 {QStringLiteral("size"), top.body.size()},
                                 {QStringLiteral("annotations"), annotations}};
    return QJsonDocument(
               QJsonObject{{QStringLiteral("schemaVersion"), 2}, {QStringLiteral("manifests"), QJsonArray{descriptor}}})
        .toJson(QJsonDocument::Compact);
}

/** Streams every configuration and layer of @p plan into @p writer, each once. */
bool writeBlobs(RegistryClient &client, const Plan &plan, LayoutWriter &writer, const PullProgressFn &progress,
                PullResult *result)
{
    QSet<QString> written;
    const QList<Blob> blobs = plan.configs + plan.layers;
    int index = 0;
    for (const Blob &blob : blobs) {
        ++index;
        if (written.contains(blob.digest))
            continue;
        written.insert(blob.digest);
        if (digestHex(blob.digest).isEmpty() || blob.size < 0 || !writer.begin(blobName(blob.digest), blob.size)) {
            result->error =
                QStringLiteral("the blob %1 cannot be written: %2").arg(blob.digest.left(80), writer.problem());
            return false;
        }
        PullProgress at{index, int(blobs.size()), blob.digest, 0, blob.size};
        const auto sink = [&writer](const char *data, size_t size) { return writer.write(data, size); };
        const auto moved = [&](qint64 received) {
            at.received = received;
            if (progress)
                progress(at);
        };
        if (!client.blob(blob.digest, blob.size, sink, moved, &result->error))
            return false;
        result->bytes += blob.size;
        ++result->blobs;
    }
    return true;
}

} // namespace

PullResult pullToArchive(const QString &reference, const QString &archivePath, const RegistryOptions &options,
                         const PullProgressFn &progress)
{
    PullResult result;
    const std::optional<RegistryReference> parsed = RegistryReference::parse(reference, &result.error);
    if (!parsed)
        return result;
    RegistryClient client(*parsed, options);
    const std::optional<Plan> plan = resolve(client, &result.error);
    if (!plan)
        return result;
    result.name = storedName(*parsed);
    result.digest = plan->top.digest;
    LayoutWriter writer;
    bool ok = writer.open(archivePath);
    if (!ok)
        result.error = QStringLiteral("%1 cannot be written: %2").arg(archivePath, writer.problem());
    for (const RegistryDocument &document : plan->documents) {
        ok = ok && writer.add(blobName(document.digest), document.body);
    }
    ok = ok && writeBlobs(client, *plan, writer, progress, &result) &&
         writer.add(QStringLiteral("oci-layout"), R"({"imageLayoutVersion":"1.0.0"})") &&
         writer.add(QStringLiteral("index.json"), indexJson(plan->top, *parsed)) && writer.close();
    if (!ok) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("%1 cannot be written: %2").arg(archivePath, writer.problem());
        QFile::remove(archivePath);
        return result;
    }
    result.ok = true;
    return result;
}

std::optional<ImageConfig> fetchImageConfig(const QString &reference, const RegistryOptions &options, QString *error)
{
    const std::optional<RegistryReference> parsed = RegistryReference::parse(reference, error);
    if (!parsed)
        return std::nullopt;
    RegistryClient client(*parsed, options);
    const std::optional<Plan> plan = resolve(client, error);
    if (!plan)
        return std::nullopt;
    const Blob &config = plan->configs.constFirst();
    const std::optional<QByteArray> bytes = client.smallBlob(config.digest, config.size, error);
    if (!bytes)
        return std::nullopt;
    return ImageConfig::fromJson(QJsonDocument::fromJson(*bytes).object().value(QLatin1String("config")).toObject());
}

LoadResult pullIntoStore(ImageStore &store, const QString &reference, const RegistryOptions &options,
                         const PullProgressFn &progress, PullResult *pulled)
{
    LoadResult loaded;
    if (!paths::ensurePrivateDir(store.root(), &loaded.error))
        return loaded;
    const QString archive =
        store.root() + QStringLiteral("/pull-%1.tar").arg(QUuid::createUuid().toString(QUuid::Id128));
    const PullResult result = pullToArchive(reference, archive, options, progress);
    if (pulled)
        *pulled = result;
    if (!result.ok) {
        loaded.error = result.error;
        return loaded;
    }
    loaded = store.load(archive, {}, options.cancel);
    QFile::remove(archive);
    return loaded;
}

} // namespace paddock::image

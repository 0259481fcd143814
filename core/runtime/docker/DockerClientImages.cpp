// SPDX-License-Identifier: GPL-3.0-or-later
// DockerClient: images (inspect, list, save, load, build, commit, remove), and what a container
// added to its files (listed, or put there) before a commit.
#include "runtime/docker/DockerClient.h"

#include "runtime/docker/BuildContext.h"
#include "runtime/docker/DockerClientInternal.h"

#include <QFile>
#include <QUrl>

namespace paddock::runtime::docker {

using namespace detail;

Result<ImageInfo> DockerClient::inspectImage(const QString &reference) const
{
    HttpRequest request;
    request.path = QStringLiteral("/images/%1/json").arg(reference);
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return ImageInfo::fromJson(jsonObject(response.value().body));
}

Result<bool> DockerClient::imageExists(const QString &reference) const
{
    const Result<ImageInfo> info = inspectImage(reference);
    if (info)
        return true;
    if (info.is(Error::Kind::NotFound))
        return false;
    return info.error();
}

Result<QList<ImageInfo>> DockerClient::listImages(const QStringList &labels, bool intermediate) const
{
    HttpRequest request;
    request.path = QStringLiteral("/images/json");
    if (!labels.isEmpty()) {
        const QJsonObject filters{{QStringLiteral("label"), QJsonArray::fromStringList(labels)}};
        request.query = {{QStringLiteral("filters"), QString::fromUtf8(compactJson(filters))}};
    }
    if (intermediate)
        request.query.append({QStringLiteral("all"), boolParam(true)});
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    // The listing's form differs from an inspection's: Created is in seconds since the epoch,
    // and an untagged image has no RepoTags (or only "<none>:<none>").
    QList<ImageInfo> images;
    for (const QJsonValue &entry : QJsonDocument::fromJson(response.value().body).array()) {
        const QJsonObject json = entry.toObject();
        ImageInfo image;
        image.raw = json;
        image.id = json.value(QStringLiteral("Id")).toString();
        for (const QJsonValue &tag : json.value(QStringLiteral("RepoTags")).toArray()) {
            if (tag.toString() != QLatin1String("<none>:<none>"))
                image.repoTags.append(tag.toString());
        }
        image.size = json.value(QStringLiteral("Size")).toInteger();
        image.created = QDateTime::fromSecsSinceEpoch(json.value(QStringLiteral("Created")).toInteger(), Qt::UTC);
        const QJsonObject imageLabels = json.value(QStringLiteral("Labels")).toObject();
        for (auto it = imageLabels.begin(); it != imageLabels.end(); ++it)
            image.labels.insert(it.key(), it.value().toString());
        images.append(image);
    }
    return images;
}

Status DockerClient::saveImage(const QString &reference, const QString &toFile, const std::atomic_bool *cancel) const
{
    QFile file(toFile);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return Error{Error::Kind::Local, 0, QStringLiteral("cannot write %1: %2").arg(toFile, file.errorString())};
    HttpRequest request;
    request.path = QStringLiteral("/images/%1/get").arg(reference);
    request.cancel = cancel;
    request.onData = [&file](const char *data, size_t size) { return file.write(data, qint64(size)) == qint64(size); };
    const Result<HttpResponse> response = call(request);
    if (!response || !file.flush()) {
        file.remove();
        return response ? Error{Error::Kind::Local, 0, QStringLiteral("cannot write %1").arg(toFile)}
                        : response.error();
    }
    return {};
}

Result<QStringList> DockerClient::loadImage(const QString &tarPath, const std::atomic_bool *cancel,
                                            const std::function<void(qint64 sent, qint64 total)> &onUpload) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/images/load");
    request.query = {{QStringLiteral("quiet"), QStringLiteral("1")}};
    request.contentType = "application/x-tar";
    request.uploadFile = tarPath;
    request.cancel = cancel;
    request.onUpload = onUpload;
    const Result<HttpResponse> response = call(request);
    if (!response) {
        if (response.is(Error::Kind::Cancelled))
            return Error{Error::Kind::Cancelled, 0, QStringLiteral("loading %1 was cancelled").arg(tarPath)};
        return response.error();
    }
    // A JSON message per line: {"stream": "Loaded image: NAME\n"} or an error.
    QStringList loaded;
    for (const QByteArray &line : response.value().body.split('\n')) {
        const QJsonObject message = jsonObject(line);
        const QString error = message.value(QStringLiteral("error")).toString();
        if (!error.isEmpty())
            return Error{Error::Kind::Engine, 0, QStringLiteral("cannot load %1: %2").arg(tarPath, error)};
        const QString text = message.value(QStringLiteral("stream")).toString().trimmed();
        for (const QLatin1String prefix : {QLatin1String("Loaded image: "), QLatin1String("Loaded image ID: ")}) {
            if (text.startsWith(prefix))
                loaded.append(text.mid(prefix.size()));
        }
    }
    return loaded;
}

Result<QString> DockerClient::buildImage(const BuildOptions &options) const
{
    const QString what = options.tag.isEmpty() ? options.contextDir : options.tag;
    BuildContextOptions contextOptions;
    contextOptions.dockerfile = options.dockerfile;
    contextOptions.dockerfileText = options.dockerfileText;
    contextOptions.maxBytes = options.maxContextBytes;
    contextOptions.confined = options.confinedContext;
    Result<QByteArray> context =
        options.contextTar.isEmpty() ? makeBuildContext(options.contextDir, contextOptions) : QByteArray();
    if (!context)
        return context.error();

    auto toJsonMap = [](const QMap<QString, QString> &map) {
        QJsonObject object;
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            object.insert(it.key(), it.value());
        return QString::fromUtf8(compactJson(object));
    };
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/build");
    request.query = {{QStringLiteral("dockerfile"), options.dockerfile},
                     {QStringLiteral("rm"), QStringLiteral("1")},
                     {QStringLiteral("forcerm"), QStringLiteral("1")}};
    if (!options.tag.isEmpty())
        request.query.append({QStringLiteral("t"), options.tag});
    if (!options.target.isEmpty())
        request.query.append({QStringLiteral("target"), options.target});
    if (!options.buildArgs.isEmpty())
        request.query.append({QStringLiteral("buildargs"), toJsonMap(options.buildArgs)});
    if (!options.labels.isEmpty())
        request.query.append({QStringLiteral("labels"), toJsonMap(options.labels)});
    if (options.noCache)
        request.query.append({QStringLiteral("nocache"), QStringLiteral("1")});
    if (!options.networkMode.isEmpty())
        request.query.append({QStringLiteral("networkmode"), options.networkMode});
    request.contentType = "application/x-tar";
    request.body = std::move(context.value());
    request.uploadFile = options.contextTar;
    request.cancel = options.cancel;

    BuildProgressParser parser(options.onProgress);
    request.onData = [&parser, &options](const char *data, size_t size) {
        parser.feed(data, size);
        return !(options.cancel && options.cancel->load());
    };
    const Result<HttpResponse> response = call(request);
    if (!response) {
        if (response.is(Error::Kind::Cancelled))
            return Error{Error::Kind::Cancelled, 0, QStringLiteral("the build of %1 was cancelled").arg(what)};
        return response.error();
    }
    parser.finish();
    if (parser.failed()) {
        const BuildProgress &at = parser.progress();
        QString where;
        if (at.step > 0)
            where = QStringLiteral(" at step %1/%2 (%3)").arg(at.step).arg(at.totalSteps).arg(at.instruction);
        return Error{Error::Kind::Engine, 0,
                     QStringLiteral("the build of %1 failed%2: %3").arg(what, where, parser.error())};
    }
    if (!parser.imageId().isEmpty())
        return parser.imageId();
    if (!options.tag.isEmpty()) {
        const Result<ImageInfo> image = inspectImage(options.tag);
        if (image)
            return image.value().id;
    }
    return protocolError(QStringLiteral("the build of %1 ended without naming an image").arg(what));
}

Result<QString> DockerClient::commitContainer(const QString &containerId, const QString &repository, const QString &tag,
                                              const QJsonObject &config) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/commit");
    // The container has ended: pausing it would only fail on an engine without the freezer.
    request.query = {{QStringLiteral("container"), containerId},
                     {QStringLiteral("repo"), repository},
                     {QStringLiteral("tag"), tag},
                     {QStringLiteral("pause"), boolParam(false)}};
    request.contentType = "application/json";
    request.body = compactJson(config);
    // The engine packs every file the container wrote: a large install takes a while.
    request.timeoutSeconds = kCommitTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    const QString id = jsonObject(response.value().body).value(QStringLiteral("Id")).toString();
    if (id.isEmpty())
        return protocolError(QStringLiteral("the engine committed container %1 without giving the image's id")
                                 .arg(containerId.left(12)));
    return id;
}

Result<QStringList> DockerClient::addedPaths(const QString &containerId) const
{
    HttpRequest request;
    request.path = containerPath(containerId, QStringLiteral("/changes"));
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    // Kind 0 is a changed path, 1 an added one, 2 a deleted one; no change at all is null.
    constexpr int kAdded = 1;
    QStringList paths;
    const QJsonArray changes = QJsonDocument::fromJson(response.value().body).array();
    for (const QJsonValue &change : changes) {
        if (change.toObject().value(QLatin1String("Kind")).toInt(-1) == kAdded)
            paths << change.toObject().value(QLatin1String("Path")).toString();
    }
    return paths;
}

Status DockerClient::putArchive(const QString &containerId, const QString &path, const QByteArray &tar) const
{
    HttpRequest request;
    request.method = "PUT";
    request.path = containerPath(containerId, QStringLiteral("/archive"));
    request.query = {{QStringLiteral("path"), path}};
    request.contentType = "application/x-tar";
    request.body = tar;
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return {};
}

Status DockerClient::removeImage(const QString &reference, bool force, bool withParents) const
{
    HttpRequest request;
    request.method = "DELETE";
    request.path = QStringLiteral("/images/%1").arg(reference);
    // Untagged parents stay unless asked: with the classic builder they are the build cache, and
    // another build running at the same moment may be about to use one as its next step's parent.
    request.query = {{QStringLiteral("force"), boolParam(force)}, {QStringLiteral("noprune"), boolParam(!withParents)}};
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return {};
}

// --- containers --------------------------------------------------------------------------

} // namespace paddock::runtime::docker

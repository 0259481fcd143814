// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/ImageService.h"

#include "api/Server.h"
#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "image/ImageStore.h"
#include "kit/KitLoader.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerClient.h"
#include "sandbox/SandboxService.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>

#include <algorithm>
#include <thread>

Q_LOGGING_CATEGORY(lcImages, "paddock.sandbox.images", QtInfoMsg)

namespace paddock::sandbox {
namespace {

using runtime::docker::DockerClient;
using runtime::docker::Result;

/** The label Paddock's builds carry, also on its containers: the kit's name. */
const QString kKitLabel = QStringLiteral("paddock.kit");
/**
 * The label of the image a Docker sandbox's setup.install left (runtime::docker::InstalledImage),
 * which also carries the install container's labels, kKitLabel among them: not a build.
 */
const QString kInstalledForLabel = QStringLiteral("paddock.installed-for");
/** Finished jobs remembered for `image.job`, beyond the running ones. */
constexpr qsizetype kFinishedJobsKept = 32;
/** The text of one build message, at most, in an event. */
constexpr qsizetype kMaxOutputChars = 16 * 1024;

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

QString loadedImagesFile()
{
    return paths::dataDir() + QStringLiteral("/images.json");
}

QStringList readLoadedImages()
{
    QFile file(loadedImagesFile());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList references;
    for (const QJsonValue &value :
         QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("loaded")).toArray())
        references << value.toString();
    return references;
}

QJsonObject failedEvent(const QString &error, bool cancelled)
{
    return {{QStringLiteral("state"), QStringLiteral("failed")},
            {QStringLiteral("error"), error},
            {QStringLiteral("message"), error},
            {QStringLiteral("cancelled"), cancelled}};
}

image::LoadResult loadIntoStore(const QString &file, const std::atomic_bool *cancel,
                                const std::function<void(QJsonObject)> &progress)
{
    return image::ImageStore().load(
        file,
        [&progress](int percent, const QString &message) {
            progress({{QStringLiteral("step"), 1},
                      {QStringLiteral("totalSteps"), 2},
                      {QStringLiteral("percent"), std::min(percent, 99)},
                      {QStringLiteral("message"), message}});
        },
        cancel);
}

Result<QStringList> loadIntoEngine(const DockerClient &client, const QString &file, const std::atomic_bool *cancel,
                                   const std::function<void(QJsonObject)> &progress)
{
    int reported = -1;
    const auto onUpload = [&progress, &reported, &file](qint64 sent, qint64 total) {
        // The engine reads the archive as it arrives; what is sent is what is loaded, short of
        // the last step, which 100% marks once the engine says what it loaded.
        const int percent = int(std::min<qint64>(99, sent * 100 / std::max<qint64>(total, 1)));
        if (percent == reported)
            return;
        reported = percent;
        progress({{QStringLiteral("step"), 2},
                  {QStringLiteral("totalSteps"), 2},
                  {QStringLiteral("percent"), percent},
                  {QStringLiteral("message"),
                   QStringLiteral("loading %1 into the Docker engine").arg(QFileInfo(file).fileName())}});
    };
    return client.loadImage(file, cancel, onUpload);
}

/** "sha256:abc..." → the 12 hex digits people know an image by. */
QString shortId(const QString &id)
{
    return id.section(QLatin1Char(':'), -1).left(12);
}

} // namespace

paddock::Result<KitImageBuild> ImageService::buildOf(const kit::Kit &kit, const QString &kitDir, const QString &tag)
{
    KitImageBuild build;
    const QDir kitRoot(kitDir);
    if (kit.sandbox && kit.sandbox->build) {
        const kit::BuildConfig &config = *kit.sandbox->build;
        build.contextDir =
            QDir::cleanPath(kitRoot.absoluteFilePath(config.context.isEmpty() ? QStringLiteral(".") : config.context));
        build.dockerfile = config.dockerfile.isEmpty() ? QStringLiteral("Dockerfile") : config.dockerfile;
        for (const auto &[name, value] : config.args)
            build.buildArgs.insert(name, value);
        build.target = config.target;
        if (!QFileInfo(build.contextDir).isDir())
            return paddock::fail(
                QStringLiteral("the build context %1 of kit %2 is not a directory").arg(build.contextDir, kit.name));
        if (!QFileInfo(QDir(build.contextDir).filePath(build.dockerfile)).isFile())
            return paddock::fail(QStringLiteral("kit %1 names the Dockerfile %2, which is not in its build context %3")
                                     .arg(kit.name, build.dockerfile, build.contextDir));
    } else if (QFileInfo(kitRoot.filePath(QStringLiteral("Dockerfile"))).isFile()) {
        build.contextDir = QDir::cleanPath(kitRoot.absolutePath());
        build.dockerfile = QStringLiteral("Dockerfile");
    } else {
        return paddock::fail(
            QStringLiteral("kit %1 has nothing to build: it has no `sandbox.build` and no Dockerfile beside "
                           "its spec.yaml in %2")
                .arg(kit.name, kitDir));
    }
    build.tag = tag;
    if (build.tag.isEmpty() && kit.sandbox)
        build.tag = kit.sandbox->image;
    if (build.tag.isEmpty())
        build.tag = QStringLiteral("paddock/kit-%1:latest").arg(kit.name);
    return build;
}

QString ImageService::missingImageHint(const kit::Kit &kit, const QString &kitDir)
{
    const QString image = kit.sandbox ? kit.sandbox->image : QString();
    if (buildOf(kit, kitDir, image).ok())
        return QStringLiteral("build it from its kit with `paddock template build --kit %1`").arg(kitDir);
    return QStringLiteral("pull it with `paddock image pull %1`, or load it with `paddock template load FILE` (an "
                          "archive made by `docker save %1`)")
        .arg(image);
}

ImageService::ImageService(api::Server &server, QObject *parent)
    : QObject(parent),
      m_server(server),
      m_client(std::make_shared<DockerClient>(runtime::docker::Endpoint::environmentOrDefault())),
      m_alive(std::make_shared<int>(0))
{}

ImageService::~ImageService()
{
    // Running jobs end with the daemon: the engine stops a build whose client has gone.
    for (const Job &job : std::as_const(m_jobs))
        job.cancel->store(true);
}

void ImageService::start()
{
    m_server.registerTopic(topic());
    m_server.registerMethod(QStringLiteral("image.build"),
                            [this](const QJsonObject &params, const api::CallContext &) { return startBuild(params); });
    m_server.registerMethod(QStringLiteral("image.load"),
                            [this](const QJsonObject &params, const api::CallContext &) { return startLoad(params); });
    m_server.registerMethod(QStringLiteral("image.pull"),
                            [this](const QJsonObject &params, const api::CallContext &) { return startPull(params); });
    m_server.registerMethod(QStringLiteral("image.cancel"),
                            [this](const QJsonObject &params, const api::CallContext &) { return cancel(params); });
    m_server.registerMethod(QStringLiteral("image.job"), [this](const QJsonObject &params, const api::CallContext &) {
        const auto it = m_jobs.constFind(params.value(QLatin1String("job")).toString());
        if (it == m_jobs.cend())
            return api::Reply::failure(QLatin1String(api::errors::kNoSuchJob),
                                       QStringLiteral("no image job with that id"));
        return api::Reply::success({{QStringLiteral("job"), it->last}});
    });
    m_server.registerMethod(
        QStringLiteral("image.inspect"), [this](const QJsonObject &params, const api::CallContext &) {
            const QString tag = params.value(QLatin1String("tag")).toString();
            if (tag.isEmpty())
                return invalid(QStringLiteral("image.inspect needs the image's tag"));
            const Result<runtime::docker::ImageInfo> image = m_client->inspectImage(tag);
            if (image)
                return api::Reply::success({{QStringLiteral("tag"), tag},
                                            {QStringLiteral("present"), true},
                                            {QStringLiteral("id"), image.value().id}});
            if (image.is(runtime::docker::Error::Kind::NotFound))
                return api::Reply::success({{QStringLiteral("tag"), tag}, {QStringLiteral("present"), false}});
            return api::Reply::failure(QLatin1String(api::errors::kEngineUnavailable), image.errorMessage());
        });
    m_server.registerMethod(QStringLiteral("image.list"), [this](const QJsonObject &, const api::CallContext &) {
        const paddock::Result<QJsonObject> listed = m_client->ping() ? listImages() : QJsonObject();
        if (!listed)
            return api::Reply::failure(QLatin1String(api::errors::kEngineUnavailable), listed.error().text());
        QJsonObject result = *listed;
        QJsonArray images = result.value(QLatin1String("images")).toArray();
        for (const QJsonValue &stored : storedImages())
            images.append(stored);
        result.insert(QStringLiteral("images"), images);
        return api::Reply::success(result);
    });
    m_server.registerMethod(QStringLiteral("image.base"), [this](const QJsonObject &params, const api::CallContext &) {
        const QString reference = params.value(QLatin1String("image")).toString();
        if (!reference.isEmpty() && image::ImageStore().find(reference))
            return api::Reply::success({{QStringLiteral("base"), QStringLiteral("image")},
                                        {QStringLiteral("source"), QStringLiteral("store")}});
        if (!reference.isEmpty() && m_client->ping() && m_client->inspectImage(reference))
            return api::Reply::success({{QStringLiteral("base"), QStringLiteral("image")},
                                        {QStringLiteral("source"), QStringLiteral("engine")}});
        const QString problem = runtime::BwrapRuntime::hostRootProblem(SandboxService::findInitProgram());
        if (!problem.isEmpty())
            return api::Reply::success(
                {{QStringLiteral("base"), QStringLiteral("read-only")}, {QStringLiteral("problem"), problem}});
        return api::Reply::success({{QStringLiteral("base"), QStringLiteral("host")}});
    });
    m_server.registerMethod(QStringLiteral("image.remove"), [](const QJsonObject &params, const api::CallContext &) {
        return removeStored(params.value(QLatin1String("image")).toString());
    });
}

ImageService::Job &ImageService::newJob(const QString &kind)
{
    // Forget the oldest finished jobs; running ones stay whatever their number.
    qsizetype finished = 0;
    for (const QString &id : std::as_const(m_order))
        finished += m_jobs.value(id).finished ? 1 : 0;
    for (qsizetype i = 0; i < m_order.size() && finished > kFinishedJobsKept;) {
        if (m_jobs.value(m_order.at(i)).finished) {
            m_jobs.remove(m_order.takeAt(i));
            --finished;
        } else {
            ++i;
        }
    }
    Job job;
    job.id = QStringLiteral("%1-%2").arg(kind).arg(++m_nextJob);
    job.kind = kind;
    job.cancel = std::make_shared<std::atomic_bool>(false);
    job.last = {{QStringLiteral("job"), job.id},
                {QStringLiteral("kind"), kind},
                {QStringLiteral("state"), QStringLiteral("running")},
                {QStringLiteral("step"), 0},
                {QStringLiteral("totalSteps"), 0},
                {QStringLiteral("percent"), 0},
                {QStringLiteral("message"), QString()}};
    m_order.append(job.id);
    return *m_jobs.insert(job.id, job);
}

void ImageService::report(const QString &jobId, QJsonObject event)
{
    const auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || it->finished)
        return;
    event.insert(QStringLiteral("job"), jobId);
    event.insert(QStringLiteral("kind"), it->kind);
    if (!event.contains(QLatin1String("state")))
        event.insert(QStringLiteral("state"), QStringLiteral("running"));
    it->finished = event.value(QLatin1String("state")).toString() != QLatin1String("running");
    // What a late reader needs is where the job stands, not the text of one message.
    QJsonObject last = event;
    last.remove(QStringLiteral("output"));
    it->last = last;
    m_server.publish(topic(), event);
}

void ImageService::runJob(const QString &jobId,
                          std::function<QJsonObject(const std::function<void(QJsonObject)> &progress)> work)
{
    std::weak_ptr<int> alive = m_alive;
    auto post = [this, alive, jobId](QJsonObject event) {
        if (alive.expired())
            return;
        QMetaObject::invokeMethod(
            this,
            [this, alive, jobId, event] {
                if (!alive.expired())
                    report(jobId, event);
            },
            Qt::QueuedConnection);
    };
    // Detached: the engine answers a cancelled or orphaned build soon, and the daemon must
    // not wait for one to exit.
    std::thread([work = std::move(work), post] { post(work(post)); }).detach();
}

api::Reply ImageService::startBuild(const QJsonObject &params)
{
    const QString kitDir = QDir::cleanPath(params.value(QLatin1String("kit")).toString());
    if (kitDir.isEmpty() || !QDir::isAbsolutePath(kitDir))
        return invalid(QStringLiteral("image.build needs the kit as an absolute directory path"));
    kit::KitLoadOptions options;
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        options.args.insert(it.key(), it.value().toString());
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, options);
    if (!loaded.ok()) {
        QStringList problems;
        for (const kit::Diagnostic &diagnostic : loaded.diagnostics)
            problems << diagnostic.toString();
        return api::Reply::failure(
            QLatin1String(api::errors::kInvalidKit),
            QStringLiteral("the kit in %1 cannot be used:\n%2").arg(kitDir, problems.join(QLatin1Char('\n'))));
    }
    const paddock::Result<KitImageBuild> plan =
        buildOf(*loaded.kit, kitDir, params.value(QLatin1String("tag")).toString());
    if (!plan)
        return api::Reply::failure(QLatin1String(api::errors::kNothingToBuild), plan.error().text());
    if (const runtime::docker::Status ping = m_client->ping(); !ping)
        return api::Reply::failure(QLatin1String(api::errors::kEngineUnavailable), ping.errorMessage());

    Job &job = newJob(QStringLiteral("build"));
    runtime::docker::BuildOptions build;
    build.contextDir = plan->contextDir;
    build.dockerfile = plan->dockerfile;
    build.tag = plan->tag;
    build.target = plan->target;
    build.buildArgs = plan->buildArgs;
    if (m_buildArguments) {
        const QMap<QString, QString> extra = m_buildArguments();
        for (auto it = extra.cbegin(); it != extra.cend(); ++it)
            if (!build.buildArgs.contains(it.key()))
                build.buildArgs.insert(it.key(), it.value());
    }
    build.labels = {{kKitLabel, loaded.kit->name}};
    build.noCache = params.value(QLatin1String("noCache")).toBool();
    qCInfo(lcImages) << "job" << job.id << "builds" << plan->tag << "from" << plan->contextDir;
    runJob(job.id, [client = m_client, build, cancel = job.cancel](const std::function<void(QJsonObject)> &progress) {
        runtime::docker::BuildOptions request = build;
        request.cancel = cancel.get();
        request.onProgress = [&progress](const runtime::docker::BuildProgress &at) {
            QJsonObject event{{QStringLiteral("step"), at.step},
                              {QStringLiteral("totalSteps"), at.totalSteps},
                              {QStringLiteral("percent"), at.percent},
                              {QStringLiteral("message"), at.instruction}};
            if (!at.output.isEmpty())
                event.insert(QStringLiteral("output"), at.output.right(kMaxOutputChars));
            progress(event);
        };
        const Result<QString> built = client->buildImage(request);
        if (!built)
            return QJsonObject{{QStringLiteral("state"), QStringLiteral("failed")},
                               {QStringLiteral("error"), built.errorMessage()},
                               {QStringLiteral("message"), built.errorMessage()},
                               {QStringLiteral("cancelled"), built.is(runtime::docker::Error::Kind::Cancelled)}};
        return QJsonObject{
            {QStringLiteral("state"), QStringLiteral("done")},
            {QStringLiteral("percent"), 100},
            {QStringLiteral("image"), built.value()},
            {QStringLiteral("tags"), QJsonArray{build.tag}},
            {QStringLiteral("message"), QStringLiteral("built %1 (%2)").arg(build.tag, shortId(built.value()))}};
    });
    return api::Reply::success({{QStringLiteral("job"), job.id}, {QStringLiteral("tag"), plan->tag}});
}

api::Reply ImageService::startLoad(const QJsonObject &params)
{
    const QString file = params.value(QLatin1String("file")).toString();
    if (file.isEmpty() || !QDir::isAbsolutePath(file))
        return invalid(QStringLiteral("image.load needs the archive as an absolute file path"));
    if (!QFileInfo(file).isFile())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchFile),
                                   QStringLiteral("%1 is not a file").arg(file));
    if (!QFileInfo(file).isReadable())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchFile),
                                   QStringLiteral("%1 cannot be read").arg(file));

    Job &job = newJob(QStringLiteral("load"));
    qCInfo(lcImages) << "job" << job.id << "loads" << file;
    std::weak_ptr<int> alive = m_alive;
    runJob(job.id, [this, alive, client = m_client, file,
                    cancel = job.cancel](const std::function<void(QJsonObject)> &progress) {
        // Into Paddock's own store first: bubblewrap sandboxes run from there.
        const image::LoadResult stored = loadIntoStore(file, cancel.get(), progress);
        if (!stored.ok)
            return failedEvent(stored.error, cancel->load());
        QStringList references;
        for (const image::StoredImage &image : stored.images)
            references << (image.references.isEmpty() ? image.id.left(12)
                                                      : image.references.join(QStringLiteral(", ")));
        QString message = QStringLiteral("loaded %1 into Paddock's store (%2 layers unpacked)")
                              .arg(references.join(QStringLiteral(", ")))
                              .arg(stored.layersUnpacked);
        // Then into the Docker engine when one answers, for Docker sandboxes.
        if (client->ping()) {
            const Result<QStringList> loaded = loadIntoEngine(*client, file, cancel.get(), progress);
            if (!loaded)
                return failedEvent(loaded.errorMessage(), loaded.is(runtime::docker::Error::Kind::Cancelled));
            const QStringList engineReferences = loaded.value();
            QMetaObject::invokeMethod(
                this,
                [this, alive, engineReferences] {
                    if (!alive.expired())
                        rememberLoaded(engineReferences);
                },
                Qt::QueuedConnection);
            message += QStringLiteral(" and into the Docker engine");
        }
        QJsonArray tags;
        for (const image::StoredImage &image : stored.images) {
            for (const QString &reference : image.references)
                tags.append(reference);
        }
        return QJsonObject{{QStringLiteral("state"), QStringLiteral("done")},
                           {QStringLiteral("step"), 2},
                           {QStringLiteral("totalSteps"), 2},
                           {QStringLiteral("percent"), 100},
                           {QStringLiteral("image"), QStringLiteral("sha256:") + stored.images.value(0).id},
                           {QStringLiteral("tags"), tags},
                           {QStringLiteral("notes"), QJsonArray::fromStringList(stored.notes)},
                           {QStringLiteral("message"), message}};
    });
    return api::Reply::success({{QStringLiteral("job"), job.id}});
}

api::Reply ImageService::cancel(const QJsonObject &params)
{
    const QString id = params.value(QLatin1String("job")).toString();
    const auto it = m_jobs.constFind(id);
    if (it == m_jobs.cend())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchJob),
                                   QStringLiteral("no image job named '%1'").arg(id));
    if (it->finished)
        return api::Reply::failure(QLatin1String(api::errors::kFinished),
                                   QStringLiteral("job %1 has already ended").arg(id));
    it->cancel->store(true);
    qCInfo(lcImages) << "job" << id << "cancelled";
    return api::Reply::success({{QStringLiteral("job"), id}, {QStringLiteral("cancelling"), true}});
}

void ImageService::rememberLoaded(const QStringList &references)
{
    QStringList loaded = readLoadedImages();
    for (const QString &reference : references) {
        if (!loaded.contains(reference))
            loaded << reference;
    }
    QString error;
    if (!paths::ensurePrivateDir(paths::dataDir(), &error) ||
        !writeFileAtomically(loadedImagesFile(),
                             QJsonDocument(QJsonObject{{QStringLiteral("loaded"), QJsonArray::fromStringList(loaded)}})
                                 .toJson(QJsonDocument::Indented),
                             &error))
        qCWarning(lcImages).noquote() << "cannot remember the loaded images:" << error;
}

QJsonArray ImageService::storedImages()
{
    QJsonArray result;
    for (const image::StoredImage &image : image::ImageStore().list()) {
        const QStringList tags = image.references.isEmpty() ? QStringList{QStringLiteral("<none>")} : image.references;
        for (const QString &tag : tags)
            result.append(QJsonObject{{QStringLiteral("tag"), tag},
                                      {QStringLiteral("id"), QStringLiteral("sha256:") + image.id},
                                      {QStringLiteral("size"), image.bytes},
                                      {QStringLiteral("created"), image.loadedAt.toUTC().toString(Qt::ISODate)},
                                      {QStringLiteral("layers"), qint64(image.layers.size())},
                                      {QStringLiteral("source"), QStringLiteral("store")}});
    }
    return result;
}

api::Reply ImageService::removeStored(const QString &reference)
{
    if (reference.isEmpty())
        return invalid(QStringLiteral("image.remove needs the image's name or id"));
    image::ImageStore store;
    const std::optional<image::StoredImage> image = store.find(reference);
    if (!image)
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchImage),
                                   QStringLiteral("no image %1 in Paddock's store").arg(reference));
    // Sandboxes made from it keep their layers: only what nothing uses goes.
    QString error;
    const std::optional<QStringList> removed = store.remove(reference, runtime::BwrapRuntime().layersInUse(), &error);
    if (!removed)
        return api::Reply::failure(QLatin1String(api::errors::kInternal), error);
    qCInfo(lcImages) << "removed image" << reference << "and" << removed->size() << "layers";
    return api::Reply::success({{QStringLiteral("image"), QStringLiteral("sha256:") + image->id},
                                {QStringLiteral("layersRemoved"), qint64(removed->size())}});
}

paddock::Result<QJsonObject> ImageService::listImages() const
{
    const Result<QList<runtime::docker::ImageInfo>> images = m_client->listImages();
    if (!images)
        return paddock::fail(images.errorMessage());
    const QStringList loaded = readLoadedImages();
    // The images Paddock's own containers were made from, by name and by id.
    QSet<QString> used;
    if (const auto containers = m_client->listContainers({QStringLiteral("paddock.sandbox")})) {
        for (const runtime::docker::ContainerSummary &container : containers.value())
            used.insert(container.image);
    }
    QList<runtime::docker::ImageInfo> sorted = images.value();
    std::sort(
        sorted.begin(), sorted.end(),
        [](const runtime::docker::ImageInfo &a, const runtime::docker::ImageInfo &b) { return a.created > b.created; });
    QJsonArray result;
    for (const runtime::docker::ImageInfo &image : std::as_const(sorted)) {
        const QStringList tags = image.repoTags.isEmpty() ? QStringList{QStringLiteral("<none>")} : image.repoTags;
        QString source;
        if (image.labels.contains(kInstalledForLabel))
            source = QStringLiteral("sandbox");
        else if (image.labels.contains(kKitLabel))
            source = QStringLiteral("built");
        else if (loaded.contains(image.id) || std::any_of(tags.cbegin(), tags.cend(), [&loaded](const QString &tag) {
                     return loaded.contains(tag);
                 }))
            source = QStringLiteral("loaded");
        else if (used.contains(image.id) ||
                 std::any_of(tags.cbegin(), tags.cend(), [&used](const QString &tag) { return used.contains(tag); }))
            source = QStringLiteral("sandbox");
        if (source.isEmpty())
            continue;
        for (const QString &tag : tags) {
            QJsonObject entry{{QStringLiteral("tag"), tag},
                              {QStringLiteral("id"), image.id},
                              {QStringLiteral("size"), image.size},
                              {QStringLiteral("created"), image.created.toUTC().toString(Qt::ISODate)},
                              {QStringLiteral("source"), source}};
            if (image.labels.contains(kKitLabel))
                entry.insert(QStringLiteral("kit"), image.labels.value(kKitLabel));
            result.append(entry);
        }
    }
    return QJsonObject{{QStringLiteral("images"), result}};
}

} // namespace paddock::sandbox

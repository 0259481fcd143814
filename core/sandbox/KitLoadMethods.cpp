// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitLoadMethods.h"

#include "api/Server.h"
#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "image/ImageStore.h"
#include "image/RegistryPull.h"
#include "kit/KitArchive.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"
#include "kit/KitRules.h"
#include "kit/KitV3Authored.h"
#include "runtime/docker/DockerClient.h"
#include "sandbox/Engines.h"
#include "sandbox/ImageService.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QUuid>

#include <thread>
#include <variant>

Q_LOGGING_CATEGORY(lcKitLoads, "paddock.sandbox.kitload", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** The most an authored kit's folder may hold to be sent to the engine as a build context. */
constexpr qint64 kKitBuildContextMaxBytes = qint64(1) << 30;
/** The name an inline `build:` recipe has in the build context. */
const QString kInlineRecipeName = QStringLiteral(".paddock-kit-build.dockerfile");

QJsonObject kitJson(const kit::Kit &kit)
{
    QJsonArray capabilities;
    for (const kit::CapabilityOutcome &outcome : kit.capabilities)
        capabilities << QJsonObject{{QStringLiteral("status"), kit::outcomeName(outcome.status)},
                                    {QStringLiteral("type"), outcome.type},
                                    {QStringLiteral("label"), outcome.label},
                                    {QStringLiteral("what"), outcome.what}};
    return {{QStringLiteral("name"), kit.name},
            {QStringLiteral("kind"), kit.isSandbox() ? QStringLiteral("workload") : QStringLiteral("mixin")},
            {QStringLiteral("schemaVersion"), kit.schemaVersion},
            {QStringLiteral("reference"), kit.reference},
            {QStringLiteral("digest"), kit.digest},
            {QStringLiteral("directory"), kit.directory},
            {QStringLiteral("provides"), QJsonArray::fromStringList(kit.provides)},
            {QStringLiteral("capabilities"), capabilities}};
}

QJsonObject loadJson(const kit::KitArchiveResult &result, bool approved)
{
    QJsonArray diagnostics;
    for (const kit::Diagnostic &diagnostic : result.diagnostics)
        diagnostics << QJsonObject{{QStringLiteral("text"), diagnostic.toString()},
                                   {QStringLiteral("error"), diagnostic.isError()}};
    QJsonObject answer{{QStringLiteral("loaded"), result.ok()},
                       {QStringLiteral("diagnostics"), diagnostics},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(result.notes)},
                       {QStringLiteral("widenings"), QJsonArray::fromStringList(result.widenings)},
                       {QStringLiteral("needsApproval"), !result.widenings.isEmpty() && !approved},
                       // Declined on purpose (KitArchiveResult::refused()), not broken: `kit load` exits 3.
                       {QStringLiteral("refused"), result.refused()}};
    if (result.ok())
        answer.insert(QStringLiteral("kit"), kitJson(*result.kit));
    return answer;
}

/** Runs @p work on a thread of its own and completes @p reply with its answer on the main thread. */
void offThread(const api::PendingReply &reply, std::function<api::Reply()> work)
{
    // Detached: a load holds no lock the daemon waits on, and the application outlives it.
    std::thread([reply, work = std::move(work)] {
        const api::Reply answer = work();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [reply, answer] { reply.complete(answer); }, Qt::QueuedConnection);
    }).detach();
}

kit::KitArchiveOptions optionsOf(const QJsonObject &params)
{
    kit::KitArchiveOptions options;
    options.name = params.value(QLatin1String("name")).toString();
    options.approveWidening = params.value(QLatin1String("approve")).toBool();
    return options;
}

api::Reply loaded(const QString &source, const kit::KitArchiveResult &result, bool approved)
{
    if (result.ok())
        qCInfo(lcKitLoads).noquote() << "loaded kit" << result.kit->name << "from" << source;
    else
        qCInfo(lcKitLoads).noquote() << "did not load a kit from" << source
                                     << (result.widenings.isEmpty() ? "" : "(an update that needs approval)");
    return api::Reply::success(loadJson(result, approved));
}

void load(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString file = params.value(QLatin1String("file")).toString();
    if (file.isEmpty() || !QDir::isAbsolutePath(file))
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("kit.load needs the archive as an absolute file path"));
    if (!QFileInfo(file).isFile() || !QFileInfo(file).isReadable())
        return reply.fail(QLatin1String(api::errors::kNoSuchFile),
                          QStringLiteral("%1 is not a file that can be read").arg(file));
    const kit::KitArchiveOptions options = optionsOf(params);
    offThread(reply,
              [file, options] { return loaded(file, kit::loadKitArchive(file, options), options.approveWidening); });
}

void pull(const UpstreamProxyGetter &upstream, const QJsonObject &params, const api::PendingReply &reply)
{
    const QString reference = params.value(QLatin1String("reference")).toString().trimmed();
    if (reference.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), QStringLiteral("kit.pull needs a reference"));
    const image::ImageStore store;
    QString error;
    if (!paths::ensurePrivateDir(store.root(), &error))
        return reply.fail(QLatin1String(api::errors::kKitFailed), error);
    const std::shared_ptr<const proxy::UpstreamProxy> through = upstream ? upstream() : nullptr;
    const image::RegistryOptions registry = ImageService::registryOptions(through.get());
    kit::KitArchiveOptions options = optionsOf(params);
    const QString archive =
        store.root() + QStringLiteral("/kit-pull-%1.tar").arg(QUuid::createUuid().toString(QUuid::Id128));
    offThread(reply, [reference, archive, registry, options]() mutable {
        const image::PullResult pulled = image::pullToArchive(reference, archive, registry);
        if (!pulled.ok)
            return api::Reply::failure(QLatin1String(api::errors::kKitFailed), pulled.error);
        options.source = pulled.name;
        const kit::KitArchiveResult result = kit::loadKitArchive(archive, options);
        QFile::remove(archive);
        return loaded(reference, result, options.approveWidening);
    });
}

/** Tells a build's steps, on this thread, to whoever follows the `image` topic; for one run's client. */
using BuildSteps = std::function<void(const runtime::docker::BuildProgress &)>;

/**
 * Over the image @p built that @p authored's recipe made, what publishing stages: the published
 * descriptor and the recipe at /usr/share/sandbox/kit/STEM/kit.yaml and kit.dockerfile (a kit
 * describes itself inside every sandbox that composes it), and the agent-context@1 bodies where
 * the published descriptor names them. Built from a context of its own holding only those
 * files; @p build gives the tag, labels and bounds. The new image's id.
 */
runtime::docker::Result<QString> stageSources(const runtime::docker::DockerClient &client,
                                              const kit::AuthoredKit &authored, const QString &built,
                                              runtime::docker::BuildOptions build)
{
    const auto localError = [](const QString &message) {
        return runtime::docker::Error{runtime::docker::Error::Kind::Local, 0, message};
    };
    QTemporaryDir stage;
    QByteArray recipe = authored.recipe;
    if (recipe.isEmpty()) {
        QFile file(QDir(authored.folder).filePath(authored.dockerfile));
        if (!file.open(QIODevice::ReadOnly))
            return localError(QStringLiteral("cannot read %1 again to stage it").arg(file.fileName()));
        recipe = file.read(kKitBuildContextMaxBytes);
    }
    const QString home = QStringLiteral("/usr/share/sandbox/kit/") + authored.stem + QLatin1Char('/');
    QByteArray dockerfile = "FROM " + built.toUtf8() + '\n';
    const auto copy = [&dockerfile](const QString &from, const QString &to) {
        dockerfile += "COPY " + QJsonDocument(QJsonArray{from, to}).toJson(QJsonDocument::Compact) + '\n';
    };
    QString problem;
    if (!stage.isValid() ||
        !writeFileAtomically(stage.filePath(QStringLiteral("kit.yaml")), authored.published, &problem) ||
        !writeFileAtomically(stage.filePath(QStringLiteral("kit.dockerfile")), recipe, &problem))
        return localError(QStringLiteral("cannot stage the kit's sources: %1").arg(problem));
    copy(QStringLiteral("kit.yaml"), home + QStringLiteral("kit.yaml"));
    copy(QStringLiteral("kit.dockerfile"), home + QStringLiteral("kit.dockerfile"));
    // The agent's bodies go where the published descriptor says (paths checked inside the folder).
    int body = 0;
    for (auto it = authored.staged.cbegin(); it != authored.staged.cend(); ++it) {
        const QString name = QStringLiteral("body-%1").arg(++body);
        if (!QFile::copy(QDir(authored.folder).filePath(it.key()), stage.filePath(name)))
            return localError(QStringLiteral("cannot stage %1").arg(it.key()));
        copy(name, it.value());
    }
    build.contextDir = stage.path();
    build.dockerfile = kInlineRecipeName;
    build.dockerfileText = dockerfile;
    build.buildArgs.clear();
    return client.buildImage(build);
}

/** Builds @p authored's recipe through the engine into @p tag; the image's id, or a failed reply. */
std::variant<QString, api::Reply> buildImage(const runtime::docker::DockerClient &client,
                                             const kit::AuthoredKit &authored, const QString &name, const QString &tag,
                                             const BuildSteps &steps)
{
    runtime::docker::BuildOptions build;
    build.contextDir = authored.folder;
    build.dockerfile = authored.recipe.isEmpty() ? authored.dockerfile : kInlineRecipeName;
    build.dockerfileText = authored.recipe;
    build.tag = tag;
    build.buildArgs = authored.buildArgs;
    build.labels = {{QStringLiteral("paddock.kit"), name}};
    build.maxContextBytes = kKitBuildContextMaxBytes;
    build.confinedContext = true;
    build.onProgress = steps;
    runtime::docker::Result<QString> built = client.buildImage(build);
    if (built)
        built = stageSources(client, authored, built.value(), build);
    if (!built)
        return api::Reply::failure(
            QLatin1String(api::errors::kKitFailed),
            QStringLiteral("the image of %1 was not built: %2").arg(authored.descriptorFile, built.errorMessage()));
    return built.value();
}

/**
 * kit.build: the authored kit read and published, its recipe built by the engine, the image saved
 * from it and loaded as `kit load` loads an archive, with the published descriptor beside it.
 */
api::Reply buildAuthored(const QString &path, const QString &tagAsked, kit::KitArchiveOptions options,
                         const QMap<QString, QString> &args, const BuildSteps &steps)
{
    const kit::AuthoredKitResult read = kit::readAuthoredKit(path, args);
    if (!read.kit) {
        kit::KitArchiveResult refused;
        refused.diagnostics = read.diagnostics;
        return loaded(path, refused, false);
    }
    const kit::AuthoredKit &authored = *read.kit;
    if (options.name.isEmpty())
        options.name = kit::KitLibrary::nameFromFolder(authored.stem);
    if (!kit::rules::isValidKitName(options.name))
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                   QStringLiteral("'%1' is not a kit name (lower-case letters, digits and '-'); give "
                                                  "one with --name")
                                       .arg(options.name));
    options.source = authored.descriptorFile;
    // A kit Paddock would refuse (a required capability it does not implement) is not built first.
    const kit::KitLoadResult preview = kit::KitLoader::loadText(authored.published, authored.descriptorFile);
    if (!preview.ok()) {
        kit::KitArchiveResult refused;
        refused.diagnostics = preview.diagnostics;
        refused.refusedCapabilities = preview.refusedCapabilities;
        return loaded(path, refused, false);
    }
    if (!authored.hasRecipe()) // a declaration-only mixin: nothing to build
        return loaded(path, kit::storeDeclaredKit(authored.published, authored.folder, options),
                      options.approveWidening);

    // The engine `paddock engine use` chose, as a sandbox's on Docker; the image comes back
    // from it into Paddock's store either way.
    const EngineList engines = EngineList::read();
    const std::optional<Engine> engine = engines.find(engines.use);
    const runtime::docker::Result<runtime::docker::Endpoint> endpoint =
        engine ? engine->endpoint() : runtime::docker::Endpoint::environmentOrDefault();
    if (!endpoint)
        return api::Reply::failure(QLatin1String(api::errors::kEngineUnavailable),
                                   QStringLiteral("the engine %1 cannot be used: %2 (paddock engine use local goes "
                                                  "back to this computer's)")
                                       .arg(engines.use, endpoint.errorMessage()));
    const runtime::docker::DockerClient client(endpoint.value());
    if (const runtime::docker::Status ping = client.ping(); !ping)
        return api::Reply::failure(QLatin1String(api::errors::kEngineUnavailable),
                                   QStringLiteral("%1\nA kit's image is built by the Docker engine in use (%2): start "
                                                  "it (sudo systemctl start docker), or choose another with paddock "
                                                  "engine use NAME.")
                                       .arg(ping.errorMessage(), engines.use));
    const QString tag = tagAsked.isEmpty() ? QStringLiteral("paddock/kit-%1:latest").arg(options.name) : tagAsked;
    qCInfo(lcKitLoads).noquote() << "building kit" << options.name << "from" << authored.descriptorFile << "as" << tag;
    const std::variant<QString, api::Reply> built = buildImage(client, authored, options.name, tag, steps);
    if (const auto *failed = std::get_if<api::Reply>(&built))
        return *failed;

    // Out of the engine into an archive, then into the store as any kit image.
    const image::ImageStore store;
    QString error;
    if (!paths::ensurePrivateDir(store.root(), &error))
        return api::Reply::failure(QLatin1String(api::errors::kKitFailed), error);
    const QString archive =
        store.root() + QStringLiteral("/kit-build-%1.tar").arg(QUuid::createUuid().toString(QUuid::Id128));
    if (const runtime::docker::Status saved = client.saveImage(std::get<QString>(built), archive); !saved) {
        QFile::remove(archive);
        return api::Reply::failure(
            QLatin1String(api::errors::kKitFailed),
            QStringLiteral("the built image %1 could not be taken from the engine: %2").arg(tag, saved.errorMessage()));
    }
    options.descriptor = authored.published;
    options.reference = tag;
    options.builtFrom = authored.folder;
    const kit::KitArchiveResult result = kit::loadKitArchive(archive, options);
    QFile::remove(archive);
    return loaded(path, result, options.approveWidening);
}

void build(api::Server *server, const QJsonObject &params, const api::PendingReply &reply)
{
    const QString path = params.value(QLatin1String("path")).toString();
    if (path.isEmpty() || !QDir::isAbsolutePath(path))
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("kit.build needs the kit's folder or descriptor as an absolute path"));
    if (!QFileInfo::exists(path))
        return reply.fail(QLatin1String(api::errors::kNoSuchFile), QStringLiteral("there is no %1").arg(path));
    QMap<QString, QString> args;
    const QJsonObject given = params.value(QLatin1String("args")).toObject();
    for (auto it = given.begin(); it != given.end(); ++it)
        args.insert(it.key(), it.value().toString());
    const QString tag = params.value(QLatin1String("tag")).toString();
    const kit::KitArchiveOptions options = optionsOf(params);
    // Each step goes out as an event of the image topic, marked with the client's run token.
    const QString run = params.value(QLatin1String("run")).toString();
    const BuildSteps steps = [server, run](const runtime::docker::BuildProgress &at) {
        if (run.isEmpty() || at.step == 0)
            return;
        const QJsonObject event{{QStringLiteral("kind"), QStringLiteral("kit-build")},
                                {QStringLiteral("run"), run},
                                {QStringLiteral("step"), at.step},
                                {QStringLiteral("totalSteps"), at.totalSteps},
                                {QStringLiteral("percent"), at.percent},
                                {QStringLiteral("message"), at.instruction}};
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [server, event] { server->publish(ImageService::topic(), event); },
            Qt::QueuedConnection);
    };
    offThread(reply, [path, tag, options, args, steps] { return buildAuthored(path, tag, options, args, steps); });
}

} // namespace

void registerKitLoadMethods(api::Server &server, UpstreamProxyGetter upstream)
{
    server.registerAsyncMethod(QStringLiteral("kit.load"), [](const QJsonObject &params, const api::CallContext &,
                                                              const api::PendingReply &reply) { load(params, reply); });
    server.registerAsyncMethod(
        QStringLiteral("kit.pull"),
        [upstream = std::move(upstream)](const QJsonObject &params, const api::CallContext &,
                                         const api::PendingReply &reply) { pull(upstream, params, reply); });
    server.registerAsyncMethod(QStringLiteral("kit.build"),
                               [server = &server](const QJsonObject &params, const api::CallContext &,
                                                  const api::PendingReply &reply) { build(server, params, reply); });
}

} // namespace paddock::sandbox

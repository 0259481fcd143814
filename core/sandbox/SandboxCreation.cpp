// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SandboxCreation.h"
#include "sandbox/AgentContext.h"
#include "sandbox/ComposedImage.h"
#include "sandbox/ComposedSandbox.h"

#include "common/Paths.h"
#include "image/EngineArchive.h"
#include "image/RegistryPull.h"
#include "kit/KitArchive.h"
#include "kit/KitLoader.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/DockerEndpoint.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/CreateRequest.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/GitIdentity.h"
#include "sandbox/ImageService.h"
#include "sandbox/PortForwarder.h"
#include "sandbox/SandboxService.h"
#include "sandbox/SandboxVolumes.h"
#include "sandbox/SharedFolders.h"
#include "sandbox/SshAgents.h"
#include "secrets/CustomSecrets.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QTemporaryFile>

#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcCreation, "paddock.sandbox.creation", QtInfoMsg)

namespace paddock::sandbox {
namespace {

using runtime::RuntimeResult;

/** Where a sandbox's endpoint directory appears inside it (see endpointBind()). */
const QString kEndpointDirInside = QStringLiteral("/run/paddock/endpoint");

api::Reply refuse(const char *code, const QString &message)
{
    return api::Reply::failure(QLatin1String(code), message);
}

/**
 * Makes the endpoint reachable through its directory rather than the socket file alone: a
 * bind of the file pins the socket of the daemon that created it, so after a daemon restart
 * a running sandbox would keep dialling a dead socket. Through the directory it finds the
 * socket the new daemon listens on at the same path. The directory holds nothing but this
 * sandbox's socket.
 */
void endpointBind(runtime::SandboxSpec &spec, const QString &endpoint)
{
    spec.proxySocket = endpoint;
    spec.sandboxProxySocket = kEndpointDirInside + QStringLiteral("/proxy.sock");
    spec.readOnlyBinds.append({QFileInfo(endpoint).absolutePath(), kEndpointDirInside});
}

/**
 * The request's shared folders and variables, checked (sharedFolderProblem(), variableProblem())
 * into @p choices; a read-write folder the host runs programs from adds a warning to @p notes.
 */
bool addShares(const kit::Kit &kit, const CreateRequest &request, SandboxChoices &choices, QStringList *notes,
               api::Reply *refusal)
{
    const QString sandboxHome = runtime::SandboxSpec().sandboxHome;
    for (SharedFolder folder : request.sharedFolders) {
        QString warning;
        if (const std::optional<QString> problem =
                sharedFolderProblem(&folder, request.workspace, sandboxHome, &warning)) {
            *refusal =
                refuse(api::errors::kInvalidParams, QStringLiteral("--mount %1: %2").arg(folder.toString(), *problem));
            return false;
        }
        if (!warning.isEmpty())
            notes->append(warning);
        choices.sharedMounts.append({folder.hostPath, folder.insidePath, folder.writable});
    }
    const QStringList kitVariables = credentialVariables(kit);
    for (auto it = request.variables.cbegin(); it != request.variables.cend(); ++it) {
        if (const std::optional<QString> problem = variableProblem(it.key(), it.value(), kitVariables)) {
            *refusal = refuse(api::errors::kInvalidParams, QStringLiteral("--env %1: %2").arg(it.key(), *problem));
            return false;
        }
    }
    choices.variables = request.variables;
    return true;
}

/**
 * The placeholders of the custom secrets that apply to @p spec's sandbox, in their variables
 * (a variable the person set with --env keeps its value). The values stay on the host.
 */
void addCustomPlaceholders(runtime::SandboxSpec &spec, const QMap<QString, QString> &personal)
{
    QString error;
    const std::optional<QList<secrets::CustomSecret>> custom = secrets::CustomSecrets().read(&error);
    if (!custom)
        qCWarning(lcCreation).noquote() << "sandbox" << spec.name << "gets no custom secret:" << error;
    for (const secrets::CustomSecret &secret : custom.value_or(QList<secrets::CustomSecret>())) {
        if (secret.appliesTo(spec.name) && !personal.contains(secret.variable))
            spec.environment.insert(secret.variable, secret.placeholder);
    }
}

/** The spec @p kit gives for @p request on @p runtime (see applyKit()), with a valid name. */
std::optional<runtime::SandboxSpec> specFor(const kit::Kit &kit, const CreateRequest &request,
                                            const runtime::Runtime &runtime,
                                            const std::optional<image::ImageConfig> &image, QStringList *notes,
                                            api::Reply *refusal)
{
    SandboxChoices choices;
    if (!addShares(kit, request, choices, notes, refusal))
        return std::nullopt;
    choices.image = image;
    choices.name = request.name;
    choices.workspace = request.workspace;
    choices.extraPaths = request.extraPaths;
    choices.commandArgs = request.commandArgs;
    choices.interactive = request.interactive;
    choices.lifetime = runtime::SandboxSpec::Lifetime::Detached;
    choices.initPath = SandboxService::findInitProgram();
    choices.caBundle = CredentialInjection::bundlePath();
    choices.startupUsersByNamespace = runtime.id() == QLatin1String("bwrap");
    if (request.cloneWorkspace && runtime.id() != QLatin1String("bwrap")) {
        *refusal =
            refuse(api::errors::kInvalidParams, QStringLiteral("a clone workspace needs the bwrap backend for now"));
        return std::nullopt;
    }
    if (choices.initPath.isEmpty()) {
        *refusal =
            refuse(api::errors::kInternal,
                   QStringLiteral("paddock-init is not installed next to paddockd (set PADDOCK_INIT to its path)"));
        return std::nullopt;
    }
    const Result<runtime::SandboxSpec> applied = applyKit(kit, choices);
    if (!applied) {
        *refusal = refuse(api::errors::kInvalidKit, applied.error().text());
        return std::nullopt;
    }
    if (!runtime::BwrapRuntime::isValidName(applied->name)) {
        *refusal = refuse(
            api::errors::kInvalidParams,
            QStringLiteral("'%1' is not a valid sandbox name (lower-case letters, digits and '-')").arg(applied->name));
        return std::nullopt;
    }
    std::optional<runtime::SandboxSpec> spec = applied.toOptional();
    spec->protectHostFiles = request.protectHostFiles;
    spec->disposable = request.disposable;
    addCustomPlaceholders(*spec, request.variables);
    return spec;
}

/**
 * The local engine's client, one for the daemon's life: it keeps the API version it agreed on,
 * which a new client would ask for again on every create (`/version`, the engine's slowest answer).
 */
const runtime::docker::DockerClient &engineClient()
{
    static const runtime::docker::DockerClient client(runtime::docker::Endpoint::environmentOrDefault());
    return client;
}

/** How long a registry that did not give an image's configuration is not asked again for it. */
constexpr int kRegistryRetryMs = 2 * 60 * 1000;

/**
 * The images whose registry failed lately, with why: a kit naming an image nobody can pull (the
 * shell kit's, built locally for Docker) would otherwise make every create under bubblewrap wait
 * for the registry, a round trip to the internet. `paddock image pull` asks at once regardless.
 */
class RegistryFailures
{
public:
    static RegistryFailures &instance()
    {
        static RegistryFailures failures;
        return failures;
    }
    /** Why @p reference failed within the last kRegistryRetryMs, or empty. */
    QString recent(const QString &reference)
    {
        const QMutexLocker lock(&m_mutex);
        const auto found = m_failures.constFind(reference);
        if (found == m_failures.cend() || found->until.hasExpired())
            return {};
        return found->why;
    }
    void remember(const QString &reference, const QString &why)
    {
        const QMutexLocker lock(&m_mutex);
        m_failures.insert(reference, {why, QDeadlineTimer(kRegistryRetryMs)});
    }

private:
    struct Failure
    {
        QString why;
        QDeadlineTimer until;
    };
    QMutex m_mutex;
    QHash<QString, Failure> m_failures;
};

/**
 * Where the kit's image comes from for a runtime that runs none itself: Paddock's store, else a
 * local Docker engine (exported at creation), else its registry (its configuration read now,
 * its layers pulled at creation). Without any, the host's system is the base, and a note says
 * so and why the pull failed.
 */
void locateImage(CreationPlan &plan, const runtime::Runtime &runtime)
{
    const QString reference = plan.kit.sandbox ? plan.kit.sandbox->image : QString();
    if (runtime.id() != QLatin1String("bwrap") || reference.isEmpty())
        return;
    if ((plan.image = image::ImageStore().find(reference))) {
        plan.imageConfig = plan.image->config;
        return;
    }
    // One request: an engine that is not there fails it as fast as it would a ping.
    if (const auto info = engineClient().inspectImage(reference)) {
        plan.imageToExport = reference;
        plan.imageConfig = image::ImageConfig::fromJson(info.value().raw.value(QLatin1String("Config")).toObject());
        return;
    }
    QString why = RegistryFailures::instance().recent(reference);
    if (!why.isEmpty()) {
        why += QStringLiteral("; asked again in two minutes, or now by `paddock image pull %1`").arg(reference);
    } else if (const auto config = image::fetchImageConfig(reference, plan.registry, &why)) {
        plan.imageToPull = reference;
        plan.imageConfig = *config;
        return;
    } else {
        RegistryFailures::instance().remember(reference, why);
    }
    plan.notes << QStringLiteral("kit %1 names the image %2, which is not loaded and could not be pulled (%3): the "
                                 "sandbox's root is the host's system (load the image with `paddock template load "
                                 "FILE`)")
                      .arg(plan.kit.name, reference, why);
}

/**
 * A kit loaded from an image (schemaVersion "3") on a container engine: its image's entrypoint,
 * command, environment and working folder apply as under bubblewrap, read from Paddock's store,
 * where `kit load` put the image; the engine is given it at creation (imageIntoEngine()), and runs
 * it by its id, or a composition's made from it (stackMixins()).
 */
bool locateEngineImage(CreationPlan &plan, const runtime::Runtime &runtime, api::Reply *refusal)
{
    if (runtime.id() == QLatin1String("bwrap") || plan.kit.digest.isEmpty() || !plan.kit.sandbox)
        return true;
    const QString id = plan.kit.sandbox->image;
    const std::optional<image::StoredImage> stored = id.isEmpty() ? std::nullopt : image::ImageStore().find(id);
    if (!stored) {
        *refusal = refuse(api::errors::kInvalidKit,
                          QStringLiteral("kit %1's image %2 is no longer in Paddock's image store: load the kit again "
                                         "(paddock kit load FILE, or paddock kit pull %3)")
                              .arg(plan.kit.name, id.left(12), plan.kit.reference));
        return false;
    }
    plan.imageConfig = stored->config;
    plan.engineImage = stored->id;
    plan.kit.sandbox->image = QStringLiteral("sha256:") + stored->id;
    return true;
}

/** What @p kit asks of a runtime beyond the spec; each runtime takes what it can use. */
runtime::SandboxOptions sandboxOptions(const CreationPlan &plan)
{
    const kit::Kit &kit = plan.kit;
    const QString &kitDir = plan.kitDirectory;
    runtime::SandboxOptions options;
    options.isolation = plan.isolation;
    if (kit.sandbox) {
        options.image = kit.sandbox->image;
        if (kit.sandbox->resources) {
            options.cpus = kit.sandbox->resources->cpu.value_or(0);
            options.memoryBytes = kit.sandbox->resources->memoryBytes.value_or(0);
        }
    }
    options.volumes = volumeRequests(kit);
    for (const kit::Port &port : kit.ports)
        options.ports.append({quint16(port.container), port.protocol});
    options.imageHint = ImageService::missingImageHint(kit, kitDir);
    options.hostHome = plan.home;
    // A root of its own, so that what setup.install writes into the system stays.
    options.writableRoot = true;
    return options;
}

} // namespace

std::optional<CreationPlan> planCreation(const CreateRequest &request, const runtime::Runtime &runtime,
                                         const image::RegistryOptions &registry, api::Reply *refusal)
{
    CreationPlan plan;
    std::optional<kit::Kit> kit = loadCreationKit(request, &plan.composition, refusal);
    if (!kit)
        return std::nullopt;
    plan.kit = std::move(*kit);
    plan.registry = registry;
    locateImage(plan, runtime);
    if (!locateEngineImage(plan, runtime, refusal) || !stackMixins(plan, runtime.id(), refusal))
        return std::nullopt;
    const bool fromImage =
        plan.image || !plan.imageToExport.isEmpty() || !plan.imageToPull.isEmpty() || !plan.engineImage.isEmpty();
    QStringList shareNotes;
    std::optional<runtime::SandboxSpec> spec = specFor(
        plan.kit, request, runtime, fromImage ? std::optional(plan.imageConfig) : std::nullopt, &shareNotes, refusal);
    if (!spec)
        return std::nullopt;
    for (const kit::Volume &volume : plan.kit.volumes) {
        if (const std::optional<QString> problem =
                volumeInsideProblem(volume.path, spec->workspace, spec->sandboxHome)) {
            *refusal = refuse(api::errors::kInvalidKit, QStringLiteral("kit %1: %2").arg(plan.kit.name, *problem));
            return std::nullopt;
        }
    }
    plan.kitDirectory = request.kitDirectory;
    plan.spec = std::move(*spec);
    plan.agentVerbs = agentVerbsOf(plan.kit, fromImage ? std::optional(plan.imageConfig) : std::nullopt);
    addGitIdentity(plan.kit, plan.spec, &plan.notes);
    plan.sshAgents = planSshAgent(plan.kit, request, runtime, plan.spec, &plan.notes);
    if (plan.sshAgents.refusal || plan.sshAgents.problem) {
        *refusal = plan.sshAgents.problem ? refuse(api::errors::kInvalidParams, *plan.sshAgents.problem)
                                          : refuse(api::errors::kCapabilityRefused, *plan.sshAgents.refusal);
        return std::nullopt;
    }
    plan.cloneWorkspace = request.cloneWorkspace;
    plan.isolation = request.isolation;
    plan.secretGuard = request.secretGuard;
    endpointBind(plan.spec, SandboxService::endpointPath(plan.spec.name));
    plan.notes += PortForwarder::publishInto(plan.spec, plan.kit.ports) + shareNotes;
    if (!plan.spec.protectHostFiles && !plan.cloneWorkspace)
        plan.notes << QStringLiteral("the sandbox may change .git/hooks, .git/config, .envrc and .vscode/ in %1, "
                                     "which your tools run later; 'paddock review %2' lists what it changed")
                          .arg(request.workspace, plan.spec.name);
    plan.home = SandboxService::homeOf(plan.spec.name);
    return plan;
}

bool prepareRuntime(CreationPlan &plan, runtime::Runtime &runtime, api::Reply *refusal)
{
    QString error;
    runtime::SandboxOptions options = sandboxOptions(plan);
    if (plan.image) {
        options.imageId = plan.image->id;
        options.imageLayersDir = image::ImageStore().layersDir();
        options.imageLayers = stackedLayers(plan.mixinLayers, plan.image->layersTopFirst());
    } else if (runtime.id() == QLatin1String("bwrap") && plan.imageToExport.isEmpty() && plan.imageToPull.isEmpty()) {
        if (const QString problem = runtime::BwrapRuntime::hostRootProblem(plan.spec.initPath); !problem.isEmpty()) {
            // What setup.install writes into the system would fail on a read-only root, late
            // and with "Read-only file system": refused now, saying what to install or change.
            if (!plan.kit.setup.install.isEmpty()) {
                *refusal = refuse(api::errors::kBackendUnavailable,
                                  QStringLiteral("the kit's setup.install needs a writable root, which bubblewrap "
                                                 "cannot give here: %1")
                                      .arg(problem));
                return false;
            }
            plan.notes << QStringLiteral("the sandbox's root is the host's system, read-only: %1").arg(problem);
        }
    }
    if (!runtime.prepareSandbox(plan.spec, options, &error)) {
        *refusal = refuse(api::errors::kInternal, error);
        return false;
    }
    if (runtime.choosesUserPerLaunch()) {
        const Result<QList<InstallRun>> runs = installRuns(plan.kit);
        if (!runs) {
            *refusal = refuse(api::errors::kInvalidKit, runs.error().text());
            return false;
        }
        plan.install = *runs;
    } else if (!plan.kit.setup.install.isEmpty()) {
        // One run, whatever users the commands name: a container runs them as its image's user.
        plan.install.append({0, installArgv(plan.kit)});
    }
    return true;
}

SandboxCreation::SandboxCreation(std::shared_ptr<runtime::Runtime> runtime, CreationPlan plan)
    : m_runtime(std::move(runtime)), m_plan(std::move(plan)), m_notes(m_plan.notes)
{}

RuntimeResult SandboxCreation::run()
{
    Result<void> ready = openClone();
    if (ready)
        ready = exportImage();
    if (ready)
        ready = pullImage();
    if (ready)
        ready = imageIntoEngine();
    if (!ready)
        return RuntimeResult::failure(ready.error().text());
    // The image's User runs the program, as under Docker; root stays for setup.install.
    if (m_plan.image && m_runtime->id() == QLatin1String("bwrap")) {
        const auto user = image::ImageStore().resolveUser(*m_plan.image, m_plan.image->config.user);
        if (user && user->first > 0)
            m_regularUid = user->first;
    }
    launchAs(std::nullopt);
    if (m_plan.install.isEmpty())
        return createAndFillHome(m_plan.spec);
    for (qsizetype i = 0; i < m_plan.install.size(); ++i) {
        if (const RuntimeResult installed = install(i); !installed.ok)
            return installed;
    }
    launchAs(std::nullopt);
    const RuntimeResult created = m_runtime->create(m_plan.spec);
    return created.ok ? created : failed(created);
}

Result<void> SandboxCreation::exportImage()
{
    if (m_plan.imageToExport.isEmpty())
        return {};
    QElapsedTimer timer;
    timer.start();
    image::ImageStore store;
    if (QString problem; !paths::ensurePrivateDir(store.root(), &problem))
        return fail(problem);
    const QString archive = store.root() + QStringLiteral("/export-%1.tar").arg(m_plan.spec.name);
    QFile::remove(archive);
    const runtime::docker::Status saved = engineClient().saveImage(m_plan.imageToExport, archive);
    const image::LoadResult loaded = saved ? store.load(archive) : image::LoadResult{};
    QFile::remove(archive);
    if (!saved || !loaded.ok)
        return fail(QStringLiteral("the image %1 could not be taken from the Docker engine: %2")
                        .arg(m_plan.imageToExport, saved ? loaded.error : saved.errorMessage()));
    if (const Result<void> used = useStoredImage(store, loaded, m_plan.imageToExport); !used)
        return used;
    m_notes << loaded.notes
            << QStringLiteral("took the image %1 from the Docker engine into Paddock's store (%2 s)")
                   .arg(m_plan.imageToExport)
                   .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 1);
    return {};
}

Result<void> SandboxCreation::imageIntoEngine()
{
    if (m_plan.engineImage.isEmpty())
        return {};
    auto *engine = dynamic_cast<runtime::DockerRuntime *>(m_runtime.get());
    if (!engine)
        return fail(QStringLiteral("the %1 runtime cannot run kit %2's image").arg(m_runtime->id(), m_plan.kit.name));
    const runtime::docker::DockerClient &client = engine->client();
    const QString id = QStringLiteral("sha256:") + m_plan.engineImage;
    const runtime::docker::Result<bool> present = client.imageExists(id);
    if (!present)
        return fail(present.errorMessage());
    if (present.value())
        return composedImageIntoEngine(client, m_plan, &m_notes);
    const QString source = kit::loadedArchiveOf(m_plan.kit.directory);
    if (const QString built = kit::builtFolderOf(m_plan.kit.directory); source.isEmpty() && !built.isEmpty())
        return fail(QStringLiteral("kit %1's image (%2) is no longer in the Docker engine it was built by")
                        .arg(m_plan.kit.name, id.left(19)),
                    QStringLiteral("build the kit again: paddock kit build %1").arg(built));
    if (source.isEmpty() || !QFileInfo(source).isFile())
        return fail(
            QStringLiteral("kit %1's image (%2) is not in the Docker engine, and the file it was loaded from is not "
                           "there to give it one")
                .arg(m_plan.kit.name, id.left(19)),
            source.isEmpty() ? QStringLiteral("give the engine the same image with `docker pull %1@%2`, or load "
                                              "the kit from a file (paddock kit load FILE)")
                                   .arg(m_plan.kit.reference.section(QLatin1Char('@'), 0, 0), m_plan.kit.digest)
                             : QStringLiteral("load the kit again from its file (paddock kit load FILE)"));
    QElapsedTimer timer;
    timer.start();
    image::ImageStore store;
    if (QString problem; !paths::ensurePrivateDir(store.root(), &problem))
        return fail(problem);
    const QString archive = store.root() + QStringLiteral("/engine-%1.tar").arg(m_plan.spec.name);
    QString error;
    const QString workload = m_plan.kit.name.section(QLatin1Char('+'), 0, 0); // a composition's is first
    const QString tag = QStringLiteral("paddock/kit-%1:%2").arg(workload, m_plan.engineImage.left(12));
    if (!image::writeEngineArchive(source, m_plan.engineImage, tag, archive, &error))
        return fail(QStringLiteral("kit %1's image could not be made ready for the Docker engine: %2")
                        .arg(m_plan.kit.name, error));
    const runtime::docker::Result<QStringList> loaded = client.loadImage(archive);
    QFile::remove(archive);
    if (!loaded)
        return fail(QStringLiteral("the Docker engine did not load kit %1's image: %2")
                        .arg(m_plan.kit.name, loaded.errorMessage()));
    const runtime::docker::Result<bool> there = client.imageExists(id);
    if (!there || !there.value())
        return fail(QStringLiteral("the Docker engine loaded %1 but holds no image %2 after it")
                        .arg(loaded.value().join(QStringLiteral(", ")), id.left(19)));
    m_notes << QStringLiteral("gave the Docker engine kit %1's image as %2 (%3 s)")
                   .arg(workload, tag)
                   .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 1);
    return composedImageIntoEngine(client, m_plan, &m_notes);
}

Result<void> SandboxCreation::useStoredImage(const image::ImageStore &store, const image::LoadResult &loaded,
                                             const QString &reference)
{
    m_plan.image = store.find(reference);
    if (!m_plan.image)
        m_plan.image = loaded.images.value(0);
    runtime::SandboxOptions options = sandboxOptions(m_plan);
    options.imageId = m_plan.image->id;
    options.imageLayersDir = store.layersDir();
    options.imageLayers = m_plan.image->layersTopFirst();
    if (QString error; !m_runtime->prepareSandbox(m_plan.spec, options, &error))
        return fail(error);
    return {};
}

Result<void> SandboxCreation::pullImage()
{
    if (m_plan.imageToPull.isEmpty())
        return {};
    QElapsedTimer timer;
    timer.start();
    image::ImageStore store;
    image::PullResult pulled;
    const image::LoadResult loaded = image::pullIntoStore(store, m_plan.imageToPull, m_plan.registry, {}, &pulled);
    if (!loaded.ok)
        return fail(QStringLiteral("the image %1 could not be pulled: %2").arg(m_plan.imageToPull, loaded.error));
    if (const Result<void> used = useStoredImage(store, loaded, m_plan.imageToPull); !used)
        return used;
    m_notes << loaded.notes
            << QStringLiteral("pulled the image %1 from its registry into Paddock's store (%2 MiB, %3 s)")
                   .arg(pulled.name)
                   .arg(double(pulled.bytes) / double(1 << 20), 0, 'f', 1)
                   .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 1);
    return {};
}

/**
 * Finds the sandbox's clone workspace, or makes it when one is wanted for a new sandbox (here,
 * on the worker: cloning a large repository takes a while), and shows it where the folder was.
 */
Result<void> SandboxCreation::openClone()
{
    runtime::SandboxSpec &spec = m_plan.spec;
    m_clone = CloneWorkspace::read(spec.name);
    if (!m_clone && m_plan.cloneWorkspace) {
        Result<CloneWorkspace> created = CloneWorkspace::create(spec.name, spec.workspace);
        if (!created)
            return created.error();
        m_clone = std::move(created).value();
    }
    if (m_clone) {
        // The kit's files go into the clone on the host; inside, the clone is where the folder was.
        spec.workspace = m_clone->folderInClone();
        spec.workingDir = m_clone->folder();
        m_launch.workspaceSource = m_clone->path();
        m_launch.workspaceTarget = m_clone->repository();
    }
    return {};
}

/** The next create() launches as @p uid (nullopt: the regular user), where the runtime chooses. */
void SandboxCreation::launchAs(std::optional<int> uid)
{
    m_launch.uid = uid ? uid : m_regularUid;
    m_runtime->setLaunchOptions(m_plan.spec.name, m_launch);
}

/** Creates the sandbox as @p launched, then fills its home and writes its setup files. */
RuntimeResult SandboxCreation::createAndFillHome(const runtime::SandboxSpec &launched)
{
    const RuntimeResult created = m_runtime->create(launched);
    if (!created.ok)
        return failed(created);
    Result<void> filled = prepareHome(m_plan.kit, m_plan.spec, m_plan.home, &m_notes);
    if (filled)
        filled = writeSetupFiles(m_plan.kit.setup.files, m_plan.spec, m_plan.home, &m_notes);
    if (filled)
        filled = writeAgentContext(m_plan.kit, m_plan.spec, m_plan.home, &m_notes);
    if (!filled) {
        discard();
        return failed(RuntimeResult::failure(filled.error().text()));
    }
    return RuntimeResult::success();
}

/** Runs the @p index-th run of `setup.install`: the sandbox launched in the foreground as its user. */
RuntimeResult SandboxCreation::install(qsizetype index)
{
    const InstallRun &run = m_plan.install.at(index);
    runtime::SandboxSpec launched = m_plan.spec;
    launched.argv = run.argv;
    // Each phase's SSH agent is its own: setup.install reaches the install grant's alone.
    launched.grants.sshAgentSocket =
        m_plan.sshAgents.install ? SshAgents::socketPath(launched.name, QStringLiteral("install")) : QString();
    launched.lifetime = runtime::SandboxSpec::Lifetime::Foreground;
    launched.interactive = false;
    // The kit's "agent" user is the sandbox's regular user, whatever uid a runtime gives it.
    launchAs(run.uid == kRegularUid ? std::nullopt : std::optional<int>(run.uid));
    if (index == 0) {
        if (const RuntimeResult created = createAndFillHome(launched); !created.ok)
            return created;
    } else if (const RuntimeResult created = m_runtime->create(launched); !created.ok) {
        return failed(created);
    }
    return runInstallLaunch();
}

/** Starts the created install launch, waits for its commands, keeps their writes to the system, forgets it. */
RuntimeResult SandboxCreation::runInstallLaunch()
{
    const QString &name = m_plan.spec.name;
    QTemporaryFile output;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!output.open() || devNull < 0) {
        if (devNull >= 0)
            ::close(devNull);
        discard();
        return failed(RuntimeResult::failure(QStringLiteral("cannot capture the output of setup.install")));
    }
    const RuntimeResult installed = m_runtime->start(name, {devNull, int(output.handle()), int(output.handle())});
    ::close(devNull);
    const bool succeeded = installed.ok && installed.exitCode.value_or(1) == 0;
    // What it wrote to the system stays the sandbox's, also where the launch's root goes with it.
    const RuntimeResult kept = succeeded ? m_runtime->keepLaunchedRoot(name) : RuntimeResult::success();
    m_runtime->remove(name, false);
    if (succeeded && kept.ok)
        return installed;
    if (!kept.ok) {
        discard();
        return failed(kept);
    }
    output.seek(0);
    const QString tail = QString::fromUtf8(output.readAll().right(4096)).trimmed();
    discard();
    return failed(RuntimeResult::failure(
        installed.ok
            ? QStringLiteral("setup.install failed with status %1:\n%2").arg(installed.exitCode.value_or(-1)).arg(tail)
            : installed.error));
}

void SandboxCreation::discard()
{
    if (m_plan.recreating)
        m_runtime->removeKeepingVolumes(m_plan.spec.name);
    else
        m_runtime->remove(m_plan.spec.name, true);
}

/** @p result, after discarding a clone made for a sandbox that did not come to be. */
RuntimeResult SandboxCreation::failed(const RuntimeResult &result)
{
    if (m_clone && !m_plan.recreating && !m_runtime->inspect(m_plan.spec.name))
        m_clone->discard();
    return result;
}

} // namespace paddock::sandbox

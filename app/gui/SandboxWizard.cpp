// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxWizard.h"

#include "WizardReview.h"

#include "kit/KitComposition.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>

#include <optional>

Q_LOGGING_CATEGORY(lcWizard, "paddock.gui.wizard", QtWarningMsg)

namespace paddock::gui {
namespace {

void wipe(QString &value)
{
    value.fill(QLatin1Char('\0'));
    value.clear();
}

} // namespace

SandboxWizard::SandboxWizard(QObject *parent) : DaemonBound(parent), m_shares(new WizardShares(this))
{
    // The shared folders are checked through the wizard's daemon.
    m_shares->followDaemonOf(this);
    reloadKits();
}

void SandboxWizard::reloadKits()
{
    // The kits Paddock knows: the folders added on the Kits page, then the samples it ships.
    kit::KitLibrary library;
    QString problem;
    if (!library.reload(&problem))
        qCWarning(lcWizard).noquote() << "the kit library lists samples only:" << problem;
    QVariantList kits;
    m_mixinChoices.clear();
    for (const kit::KitEntry &entry : library.entries()) {
        const bool mixin = entry.kind == QLatin1String("mixin") && entry.schemaVersion == QLatin1String("3");
        if (!entry.valid() || (entry.kind != QLatin1String("sandbox") && !mixin))
            continue;
        (mixin ? m_mixinChoices : kits) << QVariantMap{
            {QStringLiteral("name"), entry.name},
            {QStringLiteral("displayName"), entry.displayName.isEmpty() ? entry.name : entry.displayName},
            {QStringLiteral("description"), entry.description},
            {QStringLiteral("directory"), QDir::cleanPath(entry.directory)},
            {QStringLiteral("source"), kit::sourceName(entry.source)}};
    }
    m_kits = kits;
    Q_EMIT kitsChanged();
}

void SandboxWizard::setFolder(const QString &folder)
{
    const QString cleaned = folder.trimmed().isEmpty() ? QString() : QDir::cleanPath(folder.trimmed());
    if (m_folder == cleaned)
        return;
    m_folder = cleaned;
    Q_EMIT folderChanged();
    updateWarnings();
    m_shares->setContext(m_kitDirectory, m_folder);
}

void SandboxWizard::setFolderUrl(const QUrl &url)
{
    setFolder(url.isLocalFile() ? url.toLocalFile() : url.toString());
}

void SandboxWizard::setKitUrl(const QUrl &url)
{
    setKitDirectory(url.isLocalFile() ? url.toLocalFile() : url.toString());
}

QUrl SandboxWizard::homeUrl() const
{
    return QUrl::fromLocalFile(QDir::homePath());
}

QUrl SandboxWizard::folderToOpen(const QString &path) const
{
    const QString trimmed = path.trimmed();
    if (!trimmed.isEmpty() && QDir::isAbsolutePath(trimmed) && QFileInfo(trimmed).isDir())
        return QUrl::fromLocalFile(QDir::cleanPath(trimmed));
    return homeUrl();
}

bool SandboxWizard::folderValid() const
{
    return !m_folder.isEmpty() && QDir::isAbsolutePath(m_folder) && QFileInfo(m_folder).isDir();
}

void SandboxWizard::setKitDirectory(const QString &directory)
{
    const QString cleaned = directory.trimmed().isEmpty() ? QString() : QDir::cleanPath(directory.trimmed());
    if (m_kitDirectory == cleaned)
        return;
    m_kitDirectory = cleaned;
    m_mixins.clear(); // mixins were chosen for the kit before
    loadKit();
}

void SandboxWizard::setBackend(const QString &backend)
{
    if (m_backend == backend)
        return;
    m_backend = backend;
    setError(QString()); // an error of the other backend no longer holds
    // gVisor is the engine's: bubblewrap means namespaces over this computer's kernel.
    if (backend != QLatin1String("docker"))
        m_isolation = QStringLiteral("container");
    Q_EMIT optionsChanged();
    checkRoot();
}

void SandboxWizard::setIsolation(const QString &isolation)
{
    if (m_isolation == isolation)
        return;
    m_isolation = isolation;
    if (isolation == QLatin1String("gvisor"))
        m_backend = QStringLiteral("docker");
    Q_EMIT optionsChanged();
}

void SandboxWizard::setEngine(const QString &engine)
{
    if (m_engine == engine)
        return;
    m_engine = engine;
    setError(QString()); // a refusal of the other engine no longer holds
    Q_EMIT optionsChanged();
}

void SandboxWizard::checkIsolations()
{
    request(QStringLiteral("sandbox.isolations"), {}, [this](const api::Reply &reply) { applyIsolations(reply); });
}

void SandboxWizard::applyIsolations(const api::Reply &reply)
{
    m_gvisorAvailable = false;
    m_gvisorProblem = reply.isError() ? reply.errorMessage() : QString();
    for (const QJsonValue &level : reply.result().value(QLatin1String("isolations")).toArray()) {
        if (level[QLatin1String("id")].toString() != QLatin1String("gvisor"))
            continue;
        m_gvisorAvailable = level[QLatin1String("available")].toBool();
        m_gvisorProblem = level[QLatin1String("problem")].toString();
    }
    for (const QJsonValue &backend : reply.result().value(QLatin1String("backends")).toArray()) {
        if (backend[QLatin1String("id")].toString() != QLatin1String("docker"))
            continue;
        m_dockerAvailable = backend[QLatin1String("available")].toBool();
        m_dockerProblem = backend[QLatin1String("problem")].toString();
    }
    // A choice that cannot be made any more is not left standing.
    if (!m_dockerAvailable && m_backend == QLatin1String("docker"))
        setBackend(QStringLiteral("bwrap"));
    Q_EMIT isolationsChanged();
}

void SandboxWizard::setWorkspaceMode(const QString &mode)
{
    if (m_workspaceMode == mode)
        return;
    m_workspaceMode = mode;
    Q_EMIT optionsChanged();
    updateWarnings();
}

void SandboxWizard::setSandboxName(const QString &name)
{
    if (m_sandboxName == name.trimmed())
        return;
    m_sandboxName = name.trimmed();
    Q_EMIT optionsChanged();
}

void SandboxWizard::loadKit()
{
    m_kitValid = false;
    m_kitError.clear();
    m_review.clear();
    m_hostWarnings.clear();
    m_hostGrants.clear();
    m_hostGrantsAllowed = false;
    m_hostGrantsPending = false;
    m_credentials.clear();
    m_credentialsChecked = false;
    m_approvalGiven = false;
    m_composable = false;
    ++m_checkGeneration;

    if (m_kitDirectory.isEmpty()) {
        m_kitError = tr("Choose a kit.");
    } else {
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(m_kitDirectory);
        if (!loaded.ok()) {
            QString first;
            for (const kit::Diagnostic &diagnostic : loaded.diagnostics) {
                if (diagnostic.isError()) {
                    first = diagnostic.toString();
                    break;
                }
            }
            m_kitError = first.isEmpty() ? tr("There is no spec.yaml in %1.").arg(m_kitDirectory)
                                         : tr("This kit cannot be used: %1").arg(first);
        } else if (!loaded.kit->isSandbox()) {
            m_kitError = tr("%1 is a mixin, not a sandbox kit: choose a kit of kind sandbox.").arg(loaded.kit->name);
        } else {
            m_composable = loaded.kit->schemaVersion == QLatin1String("3");
            useKit(*loaded.kit);
        }
    }
    qCDebug(lcWizard) << "kit" << m_kitDirectory << (m_kitValid ? "usable" : qPrintable(m_kitError));
    Q_EMIT kitChanged();
    Q_EMIT hostGrantsChanged();
    Q_EMIT credentialsChanged();
    updateWarnings();
    checkRoot();
    m_shares->setContext(m_kitValid ? m_kitDirectory : QString(), m_folder);
}

void SandboxWizard::useKit(const kit::Kit &workload)
{
    QStringList parts;
    std::optional<kit::Kit> merged;
    if (composed()) {
        const Result<kit::Composition> composition =
            kit::loadComposition(QStringList{m_kitDirectory} + m_mixins, kit::KitLoadOptions{});
        if (!composition.ok()) {
            m_kitError = tr("These kits do not go together: %1").arg(composition.errorText());
            return;
        }
        for (const kit::ComposedKit &part : composition->parts)
            parts << part.name;
        merged = composition->kit;
    }
    const KitReview reviewed = reviewOfKit(merged ? *merged : workload, parts);
    m_kitValid = true;
    m_review = reviewed.review;
    m_hostWarnings = reviewed.hostWarnings;
    m_hostGrants = reviewed.hostGrants;
    m_hostGrantsPending = reviewed.hostGrantsPending;
}

void SandboxWizard::chooseMixin(const QString &directory, bool chosen)
{
    if (m_mixins.contains(directory) == chosen)
        return;
    if (chosen)
        m_mixins << directory;
    else
        m_mixins.removeAll(directory);
    loadKit();
}

void SandboxWizard::checkRoot()
{
    const quint64 generation = ++m_rootGeneration;
    if (!m_rootNote.isEmpty()) {
        m_rootNote.clear();
        Q_EMIT rootNoteChanged();
    }
    // A container's root is its image, or it does not start: nothing to say.
    if (!m_kitValid || m_backend != QLatin1String("bwrap"))
        return;
    const QString image = m_review.value(QStringLiteral("image")).toString();
    request(QStringLiteral("image.base"), {{QStringLiteral("image"), image}},
            [this, generation, image](const api::Reply &reply) {
                if (generation != m_rootGeneration || reply.isError())
                    return;
                const QString base = reply.result().value(QLatin1String("base")).toString();
                // A v3 kit's image is named by the reference it was loaded from, not its id in the store.
                const QString reference = m_review.value(QStringLiteral("reference")).toString();
                if (base == QLatin1String("image"))
                    m_rootNote = tr("The sandbox's root is the image %1, under a layer of its own.")
                                     .arg(reference.isEmpty() ? image : reference);
                else if (base == QLatin1String("host"))
                    m_rootNote = image.isEmpty()
                                     ? tr("The sandbox's root is your system, under a layer of its own.")
                                     : tr("The image %1 is not loaded: it is pulled from its registry when the "
                                          "sandbox is made; if that fails, the sandbox's root is your system, under "
                                          "a layer of its own.")
                                           .arg(image);
                else
                    m_rootNote = tr("The sandbox's root is your system, read-only: %1")
                                     .arg(reply.result().value(QLatin1String("problem")).toString());
                if (base != QLatin1String("image"))
                    m_rootNote += missingProgramNote(m_review);
                Q_EMIT rootNoteChanged();
            });
}

void SandboxWizard::setHostGrantsAllowed(bool allowed)
{
    if (m_hostGrantsAllowed == allowed)
        return;
    m_hostGrantsAllowed = allowed;
    Q_EMIT hostGrantsChanged();
}

void SandboxWizard::updateWarnings()
{
    QVariantList warnings;
    if (m_kitValid) {
        if (m_workspaceMode == QLatin1String("clone"))
            warnings << tr("The agent works on a clone of the repository in %1; your folder changes only when you "
                           "fetch from the clone.")
                            .arg(m_folder);
        else
            warnings << tr("The agent can read, change and delete every file in %1.").arg(m_folder);
    }
    for (const QString &warning : std::as_const(m_hostWarnings))
        warnings << warning;
    m_warnings = warnings;
    Q_EMIT warningsChanged();
}

QStringList SandboxWizard::missingKeys() const
{
    QStringList missing;
    for (const QVariant &entry : m_credentials) {
        const QVariantMap credential = entry.toMap();
        if (credential.value(QStringLiteral("kind")).toString() == QLatin1String("apiKey") &&
            !credential.value(QStringLiteral("secret")).toBool())
            missing << credential.value(QStringLiteral("service")).toString();
    }
    return missing;
}

QVariantList SandboxWizard::pendingApprovals() const
{
    QVariantList pending;
    for (const QVariant &entry : m_credentials) {
        if (!entry.toMap().value(QStringLiteral("approved")).toBool())
            pending << entry;
    }
    return pending;
}

bool SandboxWizard::needsCredentialStep() const
{
    return !missingKeys().isEmpty() || !pendingApprovals().isEmpty() || !m_keychainAvailable;
}

bool SandboxWizard::credentialsReady() const
{
    if (!m_credentialsChecked)
        return false;
    for (const QVariant &entry : m_credentials) {
        const QVariantMap credential = entry.toMap();
        if (!credential.value(QStringLiteral("required")).toBool())
            continue;
        const bool approved = credential.value(QStringLiteral("approved")).toBool();
        const bool keyed = credential.value(QStringLiteral("kind")).toString() != QLatin1String("apiKey") ||
                           credential.value(QStringLiteral("secret")).toBool();
        if (!approved || !keyed)
            return false;
    }
    return true;
}

void SandboxWizard::setPhase(const QString &phase)
{
    if (m_phase == phase)
        return;
    m_phase = phase;
    Q_EMIT busyChanged();
}

void SandboxWizard::checkCredentials()
{
    if (!m_kitValid)
        return;
    setPhase(QStringLiteral("checking"));
    const quint64 generation = ++m_checkGeneration;
    QJsonObject params{{QStringLiteral("kit"), m_kitDirectory}};
    if (composed())
        params.insert(QStringLiteral("mixins"), QJsonArray::fromStringList(m_mixins));
    act(QStringLiteral("binding.check"), params, [this, generation](const api::Reply &reply) {
        if (generation != m_checkGeneration)
            return;
        setPhase(QString());
        if (reply.isError())
            return setError(reply.errorMessage());
        setError(QString());
        QVariantList credentials;
        for (const QJsonValue &value : reply.result().value(QLatin1String("credentials")).toArray())
            credentials << value.toObject().toVariantMap();
        m_credentials = credentials;
        m_keychainAvailable = reply.result().value(QLatin1String("keychain")).toBool(true);
        m_credentialsChecked = true;
        Q_EMIT credentialsChanged();
    });
}

void SandboxWizard::storeKey(const QString &service, QString value)
{
    if (value.isEmpty())
        return setError(tr("The key is empty: nothing was stored."));
    const QJsonObject params{{QStringLiteral("service"), service}, {QStringLiteral("value"), value}};
    wipe(value);
    setPhase(QStringLiteral("storing"));
    act(QStringLiteral("secret.set"), params, [this, service](const api::Reply &reply) {
        setPhase(QString());
        if (reply.isError())
            return setError(reply.errorMessage());
        setError(QString());
        Q_EMIT keyStored(service);
        checkCredentials();
    });
}

void SandboxWizard::markApproved()
{
    m_approvalGiven = true;
    Q_EMIT credentialsChanged();
    checkCredentials();
}

void SandboxWizard::create()
{
    if (!folderValid())
        return setError(tr("Choose an existing project folder."));
    if (!m_kitValid)
        return setError(m_kitError);
    if (!hostGrantsReady())
        return setError(tr("Allow the kit to reach this computer and its networks in the review, or choose "
                           "another kit."));
    QJsonObject params{{QStringLiteral("kit"), m_kitDirectory},
                       {QStringLiteral("workspace"), m_folder},
                       {QStringLiteral("backend"), m_backend},
                       {QStringLiteral("workspaceMode"), m_workspaceMode}};
    if (composed())
        params.insert(QStringLiteral("mixins"), QJsonArray::fromStringList(m_mixins));
    if (!m_sandboxName.isEmpty())
        params.insert(QStringLiteral("name"), m_sandboxName);
    if (m_backend == QLatin1String("docker") && !m_engine.isEmpty())
        params.insert(QStringLiteral("engine"), m_engine);
    // Named only when chosen: otherwise the kit's own least isolation (KitSettings) applies.
    if (m_isolation == QLatin1String("gvisor"))
        params.insert(QStringLiteral("isolation"), m_isolation);
    if (m_approvalGiven)
        params.insert(QStringLiteral("approveCredentials"), true);
    // The list started from the kit's own shares and was edited here: it is the whole of them.
    params.insert(QStringLiteral("mounts"), m_shares->mountsJson());
    params.insert(QStringLiteral("env"), m_shares->envJson());
    params.insert(QStringLiteral("kitShares"), false);
    if (m_hostGrantsPending)
        params.insert(QStringLiteral("approveHostGrants"), true);
    setError(QString());
    setPhase(QStringLiteral("creating"));
    // The daemon checks and keeps the kit's shares first, when asked to remember them.
    const std::optional<QJsonObject> kitShares = m_shares->kitSharesParams();
    if (!kitShares)
        return createWith(params);
    act(QStringLiteral("kit.shares.set"), *kitShares, [this, params](const api::Reply &reply) {
        if (!reply.isError())
            return createWith(params);
        setPhase(QString());
        setError(tr("The kit's shared folders were not kept: %1").arg(reply.errorMessage()));
    });
}

void SandboxWizard::createWith(QJsonObject params)
{
    // A kit's ssh-agent@1 relays to the agent of the person's session.
    params.insert(QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK"));
    act(QStringLiteral("sandbox.create"), params, [this](const api::Reply &reply) {
        if (reply.isError()) {
            setPhase(QString());
            setError(reply.errorMessage());
            return Q_EMIT failed(reply.errorMessage());
        }
        const QString name =
            reply.result().value(QLatin1String("sandbox")).toObject().value(QLatin1String("name")).toString();
        m_createdName = name;
        Q_EMIT createdNameChanged();
        startCreated(name);
    });
}

void SandboxWizard::startCreated(const QString &name)
{
    setPhase(QStringLiteral("starting"));
    const QJsonObject params{{QStringLiteral("name"), name},
                             {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")}};
    act(QStringLiteral("sandbox.start"), params, [this, name](const api::Reply &reply) {
        setPhase(QString());
        if (reply.isError()) {
            const QString message = tr("%1 was created but did not start: %2").arg(name, reply.errorMessage());
            setError(message);
            return Q_EMIT failed(message);
        }
        Q_EMIT created(name);
    });
}

void SandboxWizard::reset()
{
    m_kitDirectory.clear();
    m_mixins.clear();
    m_sandboxName.clear();
    m_backend = QStringLiteral("bwrap");
    m_isolation = QStringLiteral("container");
    m_engine.clear();
    m_workspaceMode = QStringLiteral("direct");
    m_createdName.clear();
    m_keychainAvailable = true;
    m_shares->clear();
    setError(QString());
    setPhase(QString());
    loadKit();
    Q_EMIT optionsChanged();
    Q_EMIT createdNameChanged();
}

} // namespace paddock::gui

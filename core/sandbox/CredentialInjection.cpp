// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CredentialInjection.h"

#include "api/Server.h"
#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "kit/KitComposition.h"
#include "kit/KitLoader.h"
#include "sandbox/HostGrantAdmission.h"
#include "sandbox/KitApplication.h"
#include "sandbox/SecretGuardSetup.h"
#include "sandbox/SharedFolders.h"
#include "secrets/CredentialBindings.h"
#include "secrets/KeyCache.h"
#include "secrets/Masking.h"
#include "secrets/SecretIndex.h"
#include "secrets/SecretSources.h"
#include "secrets/SecretStore.h"
#include "secrets/SourceCache.h"
#include "secrets/ca/LocalAuthority.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QThread>

#include <chrono>
#include <future>

Q_LOGGING_CATEGORY(lcInjection, "paddock.sandbox.injection", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** How long a request waits for the keychain (an unlock prompt may be showing). */
constexpr std::chrono::seconds kKeychainWait{30};

/** Runs @p work on @p context's thread and waits for the value it hands to its promise. */
template<typename T>
std::optional<T> waitOnThreadOf(QObject *context, std::function<void(std::shared_ptr<std::promise<T>>)> work)
{
    auto promise = std::make_shared<std::promise<T>>();
    std::future<T> future = promise->get_future();
    QMetaObject::invokeMethod(
        context, [promise, work = std::move(work)] { work(promise); }, Qt::QueuedConnection);
    if (future.wait_for(kKeychainWait) != std::future_status::ready)
        return std::nullopt;
    return future.get();
}

} // namespace

CredentialInjection::CredentialInjection(QObject *parent)
    : QObject(parent),
      m_store(std::make_unique<secrets::SecretStore>()),
      m_keys(std::make_unique<secrets::KeyCache>()),
      m_sourceValues(std::make_unique<secrets::SourceCache>()),
      m_authority(std::make_unique<secrets::ca::LocalAuthority>(m_store.get()))
{
    m_keys->watchKeychain();
    // A new authority (made on first use, or replacing a broken one) must reach the bundle
    // before any sandbox is given a certificate it signed.
    connect(m_authority.get(), &secrets::ca::LocalAuthority::authorityChanged, this, [this] {
        if (const Result<void> written = writeBundles(); !written)
            qCWarning(lcInjection).noquote() << "cannot write the certificate bundle:" << written.error().text();
    });
    // Approvals and keys change while sandboxes run (`binding revoke`, `secret rm`, an edit by
    // hand): bursts of events become one signal.
    m_settle.setSingleShot(true);
    m_settle.setInterval(100);
    connect(&m_settle, &QTimer::timeout, this, [this] {
        // The folder holds other files too (policy.yaml): only a change of these two counts.
        if (watchFiles()) {
            m_keys->clear();
            m_sourceValues->clear();
            Q_EMIT credentialsChanged();
        }
    });
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, &m_settle, qOverload<>(&QTimer::start));
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, &m_settle, qOverload<>(&QTimer::start));
    watchFiles();
}

void CredentialInjection::reloadNow()
{
    m_settle.stop();
    if (watchFiles()) {
        m_keys->clear();
        m_sourceValues->clear();
        Q_EMIT credentialsChanged();
    }
}

bool CredentialInjection::watchFiles()
{
    // An atomic rename replaces a file's inode, which drops it from the watcher: the folder is
    // watched too, and the files are added again whenever they exist.
    QByteArray contents;
    for (const QString &file : {secrets::CredentialBindings::defaultPath(), secrets::SecretIndex::defaultPath(),
                                secrets::SecretSources::defaultPath(), secrets::CustomSecrets::defaultPath()}) {
        const QString dir = QFileInfo(file).absolutePath();
        if (QFileInfo::exists(dir) && !m_watcher.directories().contains(dir))
            m_watcher.addPath(dir);
        if (QFileInfo::exists(file) && !m_watcher.files().contains(file))
            m_watcher.addPath(file);
        QFile read(file);
        contents += read.open(QIODevice::ReadOnly) ? read.readAll() : QByteArray();
        contents += '\0';
    }
    const bool changed = contents != m_credentialFiles;
    m_credentialFiles = contents;
    if (changed || !m_snapshot) {
        // Read here, not by every request: a request only looks the secret up in memory.
        auto snapshot = std::make_shared<SourceSnapshot>();
        snapshot->stored = m_store->list();
        snapshot->sources = secrets::SecretSources().read().value_or(decltype(snapshot->sources)());
        QString customError;
        snapshot->custom = secrets::CustomSecrets().read(&customError).value_or(QList<secrets::CustomSecret>());
        if (!customError.isEmpty())
            qCWarning(lcInjection).noquote() << "no custom secret is used:" << customError;
        const std::lock_guard<std::mutex> lock(m_snapshotMutex);
        m_snapshot = std::move(snapshot);
    }
    return changed;
}

CredentialInjection::~CredentialInjection() = default;

QString CredentialInjection::bundlePath()
{
    return secrets::ca::TrustStore::defaultSandboxBundlePath();
}

QString CredentialInjection::upstreamBundlePath()
{
    return paths::runtimeDir() + QStringLiteral("/upstream-ca-bundle.pem");
}

QString CredentialInjection::recordPath(const QString &sandbox)
{
    return paths::dataDir() + QStringLiteral("/sandbox-credentials/") + sandbox + QStringLiteral(".json");
}

Result<void> CredentialInjection::remember(const QString &sandbox, const QList<kit::Credential> &credentials,
                                           Durability durability)
{
    const QString path = recordPath(sandbox);
    QString error;
    if (!paths::ensurePrivateDir(QFileInfo(path).absolutePath(), &error))
        return fail(error);
    const QJsonObject record{{QStringLiteral("sandbox"), sandbox},
                             {QStringLiteral("credentials"), credentialsToJson(credentials)}};
    if (!writeFileAtomically(path, QJsonDocument(record).toJson(QJsonDocument::Indented), &error, 0600, durability))
        return fail(error);
    return {};
}

QList<kit::Credential> CredentialInjection::remembered(const QString &sandbox)
{
    QFile file(recordPath(sandbox));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return credentialsFromJson(
        QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("credentials")).toArray());
}

void CredentialInjection::forget(const QString &sandbox)
{
    QFile::remove(recordPath(sandbox));
}

Result<CredentialCheck> CredentialInjection::check(const QList<kit::Credential> &credentials,
                                                   const QString &sandbox) const
{
    secrets::CredentialBindings bindings;
    if (const std::optional<secrets::BindingsError> problem = bindings.load())
        return fail(problem->toString());
    QString indexError;
    const QList<secrets::SecretId> stored = m_store->list(&indexError);
    if (!indexError.isEmpty())
        return fail(indexError);
    return checkCredentials(credentials, sandbox, bindings, stored);
}

std::optional<kit::Kit> CredentialInjection::kitOf(const QJsonObject &params, QString *sandbox)
{
    const QString kitDir = params.value(QLatin1String("kit")).toString();
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        options.args.insert(it.key(), it.value().toString());
    std::optional<kit::Kit> loaded;
    if (params.contains(QLatin1String("mixins"))) {
        // A composition: its permission surface is every kit's, merged as the sandbox applies it.
        QStringList kits{kitDir};
        for (const QJsonValue &mixin : params.value(QLatin1String("mixins")).toArray())
            kits << mixin.toString();
        const bool absolute =
            std::all_of(kits.cbegin(), kits.cend(), [](const QString &k) { return QDir::isAbsolutePath(k); });
        if (const Result<kit::Composition> composed = kit::loadComposition(kits, options); absolute && composed)
            loaded = composed->kit;
    } else if (QDir::isAbsolutePath(kitDir)) {
        const kit::KitLoadResult read = kit::KitLoader::loadDirectory(kitDir, options);
        if (read.ok())
            loaded = read.kit;
    }
    if (!loaded)
        return std::nullopt;
    *sandbox = params.value(QLatin1String("name")).toString();
    if (sandbox->isEmpty())
        *sandbox =
            defaultSandboxName(loaded->name, QDir::cleanPath(params.value(QLatin1String("workspace")).toString()));
    return loaded;
}

api::Reply CredentialInjection::describe(const QJsonObject &params) const
{
    QString name;
    const std::optional<kit::Kit> kit = kitOf(params, &name);
    if (!kit)
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                   QStringLiteral("the kit in %1 cannot be used; `paddock kit validate %1` says why")
                                       .arg(params.value(QLatin1String("kit")).toString()));
    const Result<CredentialCheck> checked = check(kit->credentials, name);
    if (!checked)
        return api::Reply::failure(QLatin1String(api::errors::kBindingsError), checked.error().text());
    const QStringList kitDir = kitDirectoriesOf(params);
    QJsonObject result = checked->toJson();
    result.insert(QStringLiteral("sandbox"), name);
    result.insert(QStringLiteral("kit"), kit->name);
    result.insert(QStringLiteral("blocked"), checked->blocksStart());
    result.insert(QStringLiteral("messages"), QJsonArray::fromStringList(checked->blockingMessages(kitDir)));
    result.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(checked->warnings(kitDir)));
    return api::Reply::success(result);
}

void CredentialInjection::admit(const QJsonObject &params, const api::PendingReply &reply,
                                std::function<void()> proceed)
{
    QString name;
    const std::optional<kit::Kit> loaded = kitOf(params, &name);
    if (!loaded)
        return proceed();
    const kit::Kit &kit = *loaded;
    const QStringList kitDir = kitDirectoriesOf(params);

    Result<CredentialCheck> checked = check(kit.credentials, name);
    if (!checked)
        return reply.fail(QLatin1String(api::errors::kBindingsError), checked.error().text());
    if (params.value(QLatin1String("approveCredentials")).toBool() && !checked->approvalsToAsk().isEmpty()) {
        secrets::CredentialBindings bindings;
        for (const CredentialApproval &pending : checked->approvalsToAsk()) {
            if (const std::optional<secrets::BindingsError> problem = bindings.load())
                return reply.fail(QLatin1String(api::errors::kBindingsError), problem->toString());
            if (QString error; !bindings.approve(pending.service, pending.domains, &error))
                return reply.fail(QLatin1String(api::errors::kBindingsError), error);
            qCInfo(lcInjection).noquote() << "approved" << pending.service << "for"
                                          << pending.domains.join(QStringLiteral(", ")) << "as asked by the caller";
        }
        checked = check(kit.credentials, name);
        if (!checked)
            return reply.fail(QLatin1String(api::errors::kBindingsError), checked.error().text());
    }
    if (checked->blocksStart()) {
        const QStringList problems = checked->blockingMessages(kitDir);
        return reply.fail(QLatin1String(api::errors::kCredentialsRequired),
                          QStringLiteral("sandbox %1 cannot start: %2").arg(name, problems.join(QStringLiteral("; "))));
    }
    for (const QString &warning : checked->warnings(kitDir))
        qCInfo(lcInjection).noquote() << "sandbox" << name << ":" << warning;

    prepareTrust(needsAuthority(kit.credentials, name), [reply, proceed = std::move(proceed)](const QString &problem) {
        if (!problem.isEmpty())
            return reply.fail(QLatin1String(api::errors::kTrustFailed), problem);
        proceed();
    });
}

void CredentialInjection::refuseStoredKeys(const QMap<QString, QString> &variables,
                                           std::function<void(QString problem)> done)
{
    QList<secrets::SecretId> stored = m_store->list();
    if (variables.isEmpty() || stored.isEmpty())
        return done(QString());
    // One key at a time, from the keychain's own queue; the first match ends the walk.
    auto next = std::make_shared<std::function<void()>>();
    *next = [this, variables, stored, done = std::move(done), next]() mutable {
        if (stored.isEmpty()) {
            auto finish = std::move(done);
            const auto keep = next;
            *next = nullptr; // breaks the cycle; this lambda's captures are gone from here on
            return finish(QString());
        }
        const secrets::SecretId id = stored.takeFirst();
        m_store->get(id, [variables, id, done, next](secrets::SecretResult result) {
            QString problem;
            // Shorter values than this are no keys, and would match any variable by chance.
            if (result.ok() && result.value.size() >= 8) {
                for (auto it = variables.cbegin(); it != variables.cend() && problem.isEmpty(); ++it) {
                    if (it.value().toUtf8().contains(result.value))
                        problem = storedKeyProblem(it.key(), id.displayName());
                }
            }
            secrets::wipe(result.value);
            if (!problem.isEmpty()) {
                auto finish = std::move(done);
                *next = nullptr;
                return finish(problem);
            }
            (*next)();
        });
    };
    (*next)();
}

void CredentialInjection::admitStart(const QString &sandbox, const api::PendingReply &reply,
                                     std::function<void()> proceed)
{
    prepareTrust(needsAuthority(remembered(sandbox), sandbox),
                 [reply, proceed = std::move(proceed)](const QString &problem) {
                     if (!problem.isEmpty())
                         return reply.fail(QLatin1String(api::errors::kTrustFailed), problem);
                     proceed();
                 });
}

bool CredentialInjection::needsAuthority(const QList<kit::Credential> &credentials, const QString &sandbox) const
{
    if (!const_cast<CredentialInjection *>(this)->customRules(sandbox).empty())
        return true;
    secrets::CredentialBindings bindings;
    if (credentials.isEmpty() || bindings.load())
        return false;
    return !injectRules(credentials, sandbox, bindings, m_store->list(), [](const QString &) {
                return QByteArray();
            }).empty();
}

void CredentialInjection::prepareTrust(bool needAuthority, const std::function<void(const QString &)> &done)
{
    if (!needAuthority || m_authority->isReady())
        return done(writeBundles().errorText());
    QPointer<CredentialInjection> self(this);
    m_authority->load([self, done](bool ok, const QString &loadError) {
        if (!self)
            return;
        if (!ok)
            return done(QStringLiteral("Paddock's certificate authority cannot be loaded: %1").arg(loadError));
        done(self->writeBundles().errorText());
    });
}

Result<void> CredentialInjection::writeBundles()
{
    // Without a loaded authority the certificate on disk is the current one, if there is one:
    // reading it needs no keychain.
    QByteArray authorityPem;
    if (m_authority->isReady()) {
        authorityPem = m_authority->certificatePem();
    } else {
        QFile file(m_authority->certificatePath());
        if (file.open(QIODevice::ReadOnly))
            authorityPem = file.readAll();
    }
    QString error;
    if (!paths::ensurePrivateDir(paths::runtimeDir(), &error))
        return fail(error);
    // Asked for before every create and start: unchanged sources cost a few stats, not reading
    // the system's roots (~200 KB) twice and both bundles. Before any sandbox needed a key there
    // is no authority yet: sandboxes trust the same roots as the proxy until there is one.
    if (!m_trust.writeBundles(authorityPem, upstreamBundlePath(), bundlePath(), &m_bundlesStamp, &error))
        return fail(error);
    return {};
}

void CredentialInjection::applyTo(proxy::ProxyEngine &proxy, proxy::ProxyEngine::EndpointId endpoint,
                                  const QString &sandbox)
{
    const QList<kit::Credential> credentials = remembered(sandbox);
    std::vector<proxy::InjectRule> custom = customRules(sandbox);
    if (credentials.isEmpty() && custom.empty() && !QFileInfo::exists(secrets::CustomSecrets::defaultPath()))
        return;
    m_keys->forget(sandbox);
    // Whatever cannot be used turns the interception off: a key is added only while its
    // binding and its secret are there, and tunnels open with one taken away are closed.
    proxy::InterceptionConfig config;
    secrets::CredentialBindings bindings;
    if (const std::optional<secrets::BindingsError> problem = bindings.load()) {
        qCWarning(lcInjection).noquote() << "sandbox" << sandbox << "gets no keys:" << problem->toString();
    } else {
        QStringList skipped;
        config.rules = injectRules(
            credentials, sandbox, bindings, m_store->list(),
            [this, sandbox](const QString &service) { return readSecret(sandbox, service); }, &skipped);
        for (const QString &why : std::as_const(skipped))
            qCInfo(lcInjection).noquote() << "sandbox" << sandbox << "gets no key for" << why;
    }
    std::move(custom.begin(), custom.end(), std::back_inserter(config.rules));
    if (const Result<void> written = config.rules.empty() ? Result<void>() : writeBundles(); !written) {
        qCWarning(lcInjection).noquote() << "sandbox" << sandbox << "gets no keys:" << written.error().text();
        config.rules.clear();
    }
    const std::size_t count = config.rules.size();
    if (count > 0) {
        config.upstreamCaBundlePath = upstreamBundlePath();
        config.leafFor = [this](const QString &host) { return leafFor(host); };
        // The guard looks for every key of the keychain, not those from a command.
        config.guard = secretGuardOf(sandbox, guardedSecrets(sandbox, config.rules)); // SecretGuardSetup.h
    }
    if (const Result<void> set = proxy.setInterception(endpoint, std::move(config)); !set)
        qCWarning(lcInjection).noquote() << "sandbox" << sandbox << "gets no keys:" << set.error().text();
    else
        qCInfo(lcInjection) << "sandbox" << sandbox << "has" << count << "injected domain(s)";
}

void CredentialInjection::interceptionFor(
    const kit::Credential &credential, const QString &sandbox,
    std::function<void(std::optional<proxy::InterceptionConfig>, QString problem)> done)
{
    QPointer<CredentialInjection> self(this);
    prepareTrust(true, [self, credential, sandbox, done = std::move(done)](const QString &problem) {
        if (!self)
            return;
        if (!problem.isEmpty())
            return done(std::nullopt, problem);
        secrets::CredentialBindings bindings;
        if (const std::optional<secrets::BindingsError> broken = bindings.load())
            return done(std::nullopt, broken->toString());
        // Called from the test proxy's threads, as applyTo()'s are: the daemon's injection
        // outlives every proxy it configures.
        CredentialInjection *injection = self.data();
        const QList<secrets::SecretId> stored = injection->m_store->list();
        if (!hasSecret(stored, sandbox, credential.service))
            return done(std::nullopt, QStringLiteral("no %1 key is stored; store it with `%2`")
                                          .arg(credential.service, secrets::SecretStore::setCommand(
                                                                       secrets::SecretId::global(credential.service))));
        proxy::InterceptionConfig config;
        config.rules =
            injectRules({credential}, sandbox, bindings, stored, [injection, sandbox](const QString &service) {
                return injection->readSecret(sandbox, service);
            });
        config.upstreamCaBundlePath = upstreamBundlePath();
        config.leafFor = [injection](const QString &host) { return injection->leafFor(host); };
        done(std::move(config), QString());
    });
}

std::optional<std::pair<secrets::SecretId, secrets::SecretSource>>
CredentialInjection::sourceFor(const QString &sandbox, const QString &service) const
{
    std::shared_ptr<const SourceSnapshot> snapshot;
    {
        const std::lock_guard<std::mutex> lock(m_snapshotMutex);
        snapshot = m_snapshot;
    }
    if (!snapshot)
        return std::nullopt;
    // The sandbox's own secret comes first, whether pasted or with a source, then the global one.
    for (const secrets::SecretId &id :
         {secrets::SecretId::forSandbox(sandbox, service), secrets::SecretId::global(service)}) {
        if ((!id.isGlobal() && sandbox.isEmpty()) || !snapshot->stored.contains(id))
            continue;
        for (const auto &[each, source] : snapshot->sources) {
            if (each == id)
                return std::make_pair(id, source);
        }
        return std::nullopt;
    }
    return std::nullopt;
}

void CredentialInjection::reportSourceFailure(const QString &sandbox, const QString &service, const QString &error)
{
    // The sentence may quote what the command wrote on stderr: it goes to the event log only.
    qCWarning(lcInjection).noquote() << "sandbox" << sandbox << "gets no key for" << service
                                     << "this time: its source failed (see the event log)";
    if (!m_sourceFailed)
        return;
    QString host;
    for (const kit::Credential &credential : remembered(sandbox)) {
        if (credential.service == service && !injectionDomains(credential).isEmpty()) {
            host = injectionDomains(credential).constFirst();
            break;
        }
    }
    events::NetworkEvent event;
    event.time = events::currentEventTime();
    event.sandbox = sandbox;
    event.host = host.isEmpty() ? service : host;
    event.port = 443;
    event.protocol = QStringLiteral("http");
    event.outcome = events::NetworkEvent::Outcome::UpstreamFailed;
    event.rule = QStringLiteral("secret %1").arg(service);
    event.reason = QStringLiteral("the %1 key was not sent: %2").arg(service, error);
    m_sourceFailed(std::move(event));
}

QByteArray CredentialInjection::readSecret(const QString &sandbox, const QString &service)
{
    if (const auto source = sourceFor(sandbox, service)) {
        QString error;
        QByteArray value = m_sourceValues->value(source->first, source->second, &error);
        if (value.isEmpty())
            reportSourceFailure(sandbox, service, error);
        return value;
    }
    QByteArray held = m_keys->find(sandbox, service);
    if (!held.isEmpty())
        return held;
    // Taken before the read: a key that changes meanwhile drops the cache, and this read's
    // value, perhaps the old one, is then not kept.
    const quint64 generation = m_keys->generation();
    QByteArray value = readSecretFrom(m_store.get(), sandbox, service);
    m_keys->insert(generation, sandbox, service, value);
    return value;
}

QByteArray CredentialInjection::readSecretFrom(secrets::SecretStore *store, const QString &sandbox,
                                               const QString &service)
{
    if (QThread::currentThread() == store->thread()) {
        secrets::SecretResult result = store->resolveAndWait(sandbox, service);
        return result.ok() ? std::move(result.value) : QByteArray();
    }
    const std::optional<QByteArray> value =
        waitOnThreadOf<QByteArray>(store, [store, sandbox, service](std::shared_ptr<std::promise<QByteArray>> promise) {
            store->resolve(sandbox, service, [promise, service](secrets::SecretResult result) {
                if (!result.ok())
                    qCWarning(lcInjection).noquote() << "the key of" << service << "cannot be read:" << result.message;
                promise->set_value(result.ok() ? std::move(result.value) : QByteArray());
            });
        });
    if (!value)
        qCWarning(lcInjection) << "the keychain did not answer in time for" << service;
    return value.value_or(QByteArray());
}

Result<proxy::TlsLeaf> CredentialInjection::leafFor(const QString &host)
{
    secrets::ca::LocalAuthority *authority = m_authority.get();
    if (!authority->isReady() && QThread::currentThread() != authority->thread()) {
        // A sandbox found running after a restart: its first intercepted connection loads the
        // authority it already trusts.
        const std::optional<QString> loaded =
            waitOnThreadOf<QString>(authority, [authority](std::shared_ptr<std::promise<QString>> promise) {
                if (authority->isReady())
                    return promise->set_value(QString());
                authority->load([promise](bool ok, const QString &problem) {
                    promise->set_value(ok ? QString() : problem.isEmpty() ? QStringLiteral("unknown error") : problem);
                });
            });
        if (!loaded || !loaded->isEmpty())
            return fail(QStringLiteral("Paddock's certificate authority cannot be loaded: %1")
                            .arg(loaded.value_or(QStringLiteral("the keychain did not answer"))));
    }
    QString error;
    const std::optional<secrets::ca::LeafCertificate> leaf = authority->leafFor(host, &error);
    if (!leaf)
        return fail(error);
    return proxy::TlsLeaf{leaf->certificate, leaf->key};
}

} // namespace paddock::sandbox

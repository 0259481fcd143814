// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SecretService.h"

#include "api/Server.h"
#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "kit/KitComposition.h"
#include "kit/KitLoader.h"
#include "sandbox/CredentialSetup.h"
#include "sandbox/CustomSecretMethods.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SecretSourceMethods.h"
#include "secrets/CredentialBindings.h"
#include "secrets/CustomSecrets.h"
#include "secrets/Masking.h"
#include "secrets/SecretSources.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>
#include <optional>
#include <variant>

Q_LOGGING_CATEGORY(lcSecretService, "paddock.sandbox.secrets", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/**
 * The rows of `secret.list` for the custom secrets: where their placeholder goes, no value;
 * @p error is why custom-secrets.json cannot be read (then there are none).
 */
QJsonArray customSecretRows(QString *error)
{
    QJsonArray rows;
    for (const secrets::CustomSecret &custom :
         secrets::CustomSecrets().read(error).value_or(QList<secrets::CustomSecret>())) {
        QJsonObject row{{QStringLiteral("service"), custom.name},
                        {QStringLiteral("present"), true},
                        {QStringLiteral("masked"), QString()},
                        {QStringLiteral("source"), QStringLiteral("custom")},
                        {QStringLiteral("sourceText"), custom.hosts.join(QStringLiteral(", "))},
                        {QStringLiteral("variable"), custom.variable}};
        if (!custom.sandbox.isEmpty())
            row.insert(QStringLiteral("sandbox"), custom.sandbox);
        row.insert(QStringLiteral("custom"), custom.toJson());
        rows.append(row);
    }
    return rows;
}

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

/** The error code a client can act on for a keychain failure. */
QString codeFor(secrets::SecretError error)
{
    switch (error) {
    case secrets::SecretError::NoBackend:
        return QLatin1String(api::errors::kKeychainUnavailable);
    case secrets::SecretError::NotFound:
        return QLatin1String(api::errors::kNotFound);
    case secrets::SecretError::InvalidName:
        return QLatin1String(api::errors::kInvalidParams);
    default:
        return QLatin1String(api::errors::kKeychainError);
    }
}

/** The secret named by `service` and `sandbox` in @p params, or an error sentence. */
Result<secrets::SecretId> idFrom(const QJsonObject &params)
{
    const QString service = params.value(QLatin1String("service")).toString();
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    const secrets::SecretId id =
        sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
    if (service.isEmpty())
        return fail(QStringLiteral("a service name is required"));
    if (const QString problem = id.validate(); !problem.isEmpty())
        return fail(problem);
    return id;
}

QJsonObject idJson(const secrets::SecretId &id)
{
    QJsonObject object{{QStringLiteral("service"), id.service}};
    if (!id.isGlobal())
        object.insert(QStringLiteral("sandbox"), id.sandbox);
    return object;
}

bool isWildcard(const QString &domain)
{
    return domain.startsWith(QLatin1String("*."), Qt::CaseInsensitive) ||
           domain.startsWith(QLatin1String("**."), Qt::CaseInsensitive) || domain == QLatin1String("*") ||
           domain == QLatin1String("**");
}

/**
 * The kit in @p directory with the `kitArgs` of @p params, or the reply that says why not. With
 * @p requireArgValues an argument left without a value is an error (an approval must name real
 * domains, not placeholders).
 */
std::variant<kit::Kit, api::Reply> loadKit(const QString &directory, const QJsonObject &params,
                                           bool requireArgValues = false)
{
    if (directory.isEmpty() || !QDir::isAbsolutePath(directory))
        return invalid(QStringLiteral("the kit must be an absolute directory path"));
    kit::KitLoadOptions options;
    options.requireArgValues = requireArgValues;
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        options.args.insert(it.key(), it.value().toString());
    if (params.contains(QLatin1String("mixins"))) {
        // A composition: its credentials are every kit's.
        QStringList kits{directory};
        for (const QJsonValue &mixin : params.value(QLatin1String("mixins")).toArray())
            kits << mixin.toString();
        const Result<kit::Composition> composed = kit::loadComposition(kits, options);
        if (!composed)
            return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                       QStringLiteral("the kits do not compose: %1").arg(composed.errorText()));
        return composed->kit;
    }
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(directory, options);
    if (!loaded.ok()) {
        QStringList problems;
        for (const kit::Diagnostic &diagnostic : loaded.diagnostics) {
            if (diagnostic.isError())
                problems << diagnostic.toString();
        }
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                   QStringLiteral("the kit in %1 cannot be used: %2")
                                       .arg(directory, problems.isEmpty() ? QStringLiteral("no spec.yaml")
                                                                          : problems.join(QLatin1String("; "))));
    }
    return *loaded.kit;
}

/** credentials.yaml as it is now, or the reply that says why it cannot be used. */
std::variant<secrets::CredentialBindings, api::Reply> loadBindings()
{
    secrets::CredentialBindings bindings;
    if (const auto problem = bindings.load())
        return api::Reply::failure(QLatin1String(api::errors::kBindingsError),
                                   QStringLiteral("credentials.yaml cannot be used: %1").arg(problem->toString()));
    return bindings;
}

/** `binding.approve` {bindings: [{service, domains}]}: the domains named, service by service. */
api::Reply approveNamedBindings(const QJsonArray &entries)
{
    auto loaded = loadBindings();
    if (auto *failed = std::get_if<api::Reply>(&loaded))
        return *failed;
    secrets::CredentialBindings &bindings = std::get<secrets::CredentialBindings>(loaded);
    QJsonArray approved;
    for (const QJsonValue &value : entries) {
        const QString service = value.toObject().value(QLatin1String("service")).toString();
        QStringList domains;
        for (const QJsonValue &domain : value.toObject().value(QLatin1String("domains")).toArray())
            domains << domain.toString();
        if (service.isEmpty() || domains.isEmpty())
            return invalid(QStringLiteral("each binding needs a service and its domains"));
        QString error;
        if (!bindings.approve(service, domains, &error))
            return api::Reply::failure(QLatin1String(api::errors::kBindingsError), error);
        qCInfo(lcSecretService).noquote() << "approved" << service << "for" << domains.join(QLatin1String(", "));
        approved.append(QJsonObject{{QStringLiteral("service"), service},
                                    {QStringLiteral("domains"), QJsonArray::fromStringList(domains)}});
    }
    return api::Reply::success({{QStringLiteral("approved"), approved}});
}

/** The kit `binding.check` names: `kit` (and `mixins`), or the kits sandbox `sandbox` was made of. */
std::variant<kit::Kit, api::Reply> kitToCheck(const QJsonObject &params, QString *directory)
{
    *directory = params.value(QLatin1String("kit")).toString();
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    QJsonObject kitParams = params;
    if (directory->isEmpty() && !sandbox.isEmpty()) {
        const std::optional<SandboxRecord> record = SandboxRecord::read(sandbox);
        if (!record || record->kitDirectory.isEmpty())
            return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                       QStringLiteral("no kit is recorded for a sandbox named %1").arg(sandbox));
        // A composed sandbox's credentials are every kit's it was made of.
        const QStringList kits = record->kitDirectories();
        *directory = kits.constFirst();
        if (kits.size() > 1)
            kitParams.insert(QStringLiteral("mixins"), QJsonArray::fromStringList(kits.mid(1)));
    }
    if (!sandbox.isEmpty() && !secrets::isValidName(sandbox))
        return invalid(QStringLiteral("\"%1\" is not a usable sandbox name").arg(sandbox));
    return loadKit(*directory, kitParams);
}

/** `binding.approve`: records the kit's credentials (all, or the `services` named) as approved. */
api::Reply approveBindings(const QJsonObject &params)
{
    if (params.contains(QLatin1String("bindings")) && !params.contains(QLatin1String("kit")))
        return approveNamedBindings(params.value(QLatin1String("bindings")).toArray());
    auto kitOrError = loadKit(params.value(QLatin1String("kit")).toString(), params, true);
    if (auto *failed = std::get_if<api::Reply>(&kitOrError))
        return *failed;
    const kit::Kit &kit = std::get<kit::Kit>(kitOrError);
    const bool all = !params.contains(QLatin1String("services"));
    QStringList services;
    for (const QJsonValue &value : params.value(QLatin1String("services")).toArray())
        services << value.toString();
    for (const QString &service : std::as_const(services)) {
        const bool known = std::any_of(kit.credentials.cbegin(), kit.credentials.cend(),
                                       [&](const kit::Credential &c) { return c.service == service; });
        if (!known)
            return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                       QStringLiteral("the kit %1 has no credential named %2").arg(kit.name, service));
    }
    auto loaded = loadBindings();
    if (auto *failed = std::get_if<api::Reply>(&loaded))
        return *failed;
    secrets::CredentialBindings &bindings = std::get<secrets::CredentialBindings>(loaded);
    QJsonArray approved;
    for (const kit::Credential &credential : kit.credentials) {
        if (!all && !services.contains(credential.service))
            continue;
        const QStringList domains = injectionDomains(credential);
        if (domains.isEmpty())
            continue;
        QString error;
        if (!bindings.approve(credential.service, domains, &error))
            return api::Reply::failure(QLatin1String(api::errors::kBindingsError), error);
        qCInfo(lcSecretService).noquote()
            << "approved" << credential.service << "of kit" << kit.name << "for" << domains.join(QLatin1String(", "));
        approved.append(QJsonObject{{QStringLiteral("service"), credential.service},
                                    {QStringLiteral("domains"), QJsonArray::fromStringList(domains)}});
    }
    return api::Reply::success({{QStringLiteral("kit"), kit.name}, {QStringLiteral("approved"), approved}});
}

/** @brief What `binding.check` found about one credential of the kit. */
struct CredentialRow
{
    kit::Credential credential;
    QStringList domains;
    secrets::Coverage coverage;
    bool secret = false;
};

/** The `credentials` entry of @p row; @p ready says whether the credential is ready for a start. */
QJsonObject credentialRowJson(const CredentialRow &row, bool *ready)
{
    const bool oauthOnly = !row.credential.apiKey.has_value();
    const bool approved = oauthOnly || row.domains.isEmpty() || row.coverage.covered;
    *ready = oauthOnly || (row.secret && approved);
    const bool wildcard = std::any_of(row.domains.cbegin(), row.domains.cend(), isWildcard);
    return QJsonObject{
        {QStringLiteral("service"), row.credential.service},
        {QStringLiteral("description"), row.credential.description},
        {QStringLiteral("required"), row.credential.required},
        {QStringLiteral("kind"), oauthOnly ? QStringLiteral("oauth") : QStringLiteral("apiKey")},
        {QStringLiteral("secret"), row.secret},
        {QStringLiteral("domains"), QJsonArray::fromStringList(row.domains)},
        {QStringLiteral("approved"), approved},
        {QStringLiteral("newDomains"), QJsonArray::fromStringList(approved ? QStringList() : row.coverage.newDomains)},
        {QStringLiteral("wildcard"), wildcard},
        {QStringLiteral("explanation"), approved ? QString() : row.coverage.explanation(row.credential.service)},
        {QStringLiteral("ready"), *ready},
    };
}

/** A name no secret has, so that reading it says only whether the keychain answers. */
const secrets::SecretId kProbeId = secrets::SecretId::global(QStringLiteral("paddock-keychain-probe"));

} // namespace

SecretService::SecretService(api::Server &server, QObject *parent)
    : QObject(parent), m_server(server), m_store(std::make_unique<secrets::SecretStore>())
{}

SecretService::~SecretService() = default;

QString SecretService::updatesPath()
{
    return paths::stateDir() + QStringLiteral("/secret-updates.json");
}

void SecretService::start()
{
    m_server.registerAsyncMethod(QStringLiteral("keychain.status"),
                                 [this](const QJsonObject &, const api::CallContext &, const api::PendingReply &reply) {
                                     keychainStatus(reply);
                                 });
    m_server.registerAsyncMethod(
        QStringLiteral("secret.list"),
        [this](const QJsonObject &, const api::CallContext &, const api::PendingReply &reply) { listSecrets(reply); });
    m_server.registerAsyncMethod(QStringLiteral("secret.set"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { setSecret(params, reply); });
    registerCustomSecretMethods(m_server, *m_store, [this] { credentialsChanged(); });
    registerSecretSourceMethods(m_server, [this] { credentialsChanged(); });
    m_server.registerAsyncMethod(QStringLiteral("secret.remove"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { removeSecret(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("binding.check"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { checkBindings(params, reply); });

    m_server.registerMethod(QStringLiteral("binding.list"), [](const QJsonObject &, const api::CallContext &) {
        auto loaded = loadBindings();
        if (auto *failed = std::get_if<api::Reply>(&loaded))
            return *failed;
        QJsonArray list;
        for (const secrets::Binding &binding : std::get<secrets::CredentialBindings>(loaded).bindings())
            list.append(QJsonObject{{QStringLiteral("service"), binding.service},
                                    {QStringLiteral("domains"), QJsonArray::fromStringList(binding.domains)}});
        return api::Reply::success({{QStringLiteral("bindings"), list}});
    });

    m_server.registerMethod(QStringLiteral("binding.approve"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                const api::Reply reply = approveBindings(params);
                                credentialsChanged();
                                return reply;
                            });

    m_server.registerMethod(QStringLiteral("binding.revoke"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                const QString service = params.value(QLatin1String("service")).toString();
                                if (service.isEmpty())
                                    return invalid(QStringLiteral("a service name is required"));
                                auto loaded = loadBindings();
                                if (auto *failed = std::get_if<api::Reply>(&loaded))
                                    return *failed;
                                QString error;
                                if (!std::get<secrets::CredentialBindings>(loaded).revoke(service, &error))
                                    return api::Reply::failure(QLatin1String(api::errors::kNotFound), error);
                                qCInfo(lcSecretService).noquote() << "revoked the binding of" << service;
                                credentialsChanged();
                                return api::Reply::success({{QStringLiteral("revoked"), service}});
                            });
}

void SecretService::keychainStatus(const api::PendingReply &reply)
{
    m_store->get(kProbeId, [reply](secrets::SecretResult result) {
        secrets::wipe(result.value);
        const bool available = result.ok() || result.error == secrets::SecretError::NotFound;
        QJsonObject status{{QStringLiteral("available"), available},
                           {QStringLiteral("message"), available ? QString() : result.message}};
        // No Secret Service on the bus, or a bus where nothing answers for it (D-Bus gives up
        // after its timeout): either way a keychain service is what is missing.
        if (result.error == secrets::SecretError::NoBackend || result.error == secrets::SecretError::Timeout ||
            result.error == secrets::SecretError::Other)
            status.insert(QStringLiteral("install"),
                          QStringLiteral("GNOME Keyring (the gnome-keyring package), or KWallet with its Secret "
                                         "Service enabled"));
        reply.succeed(status);
    });
}

QHash<QString, QJsonObject> SecretService::sourcesJson()
{
    QHash<QString, QJsonObject> found;
    const auto sources = secrets::SecretSources().read();
    if (!sources)
        return found;
    const QHash<QString, secrets::SourceStatus> statuses = secrets::SourceStatus::readAll();
    for (const auto &[id, source] : *sources) {
        QJsonObject row{{QStringLiteral("source"), source.kindToken()},
                        {QStringLiteral("sourceText"), source.describe()},
                        {QStringLiteral("refresh"), source.refreshText()}};
        const secrets::SourceStatus status = statuses.value(id.keychainKey());
        if (status.resolved.isValid())
            row.insert(QStringLiteral("lastResolved"), status.resolved.toString(Qt::ISODate));
        if (status.failed.isValid()) {
            row.insert(QStringLiteral("lastFailed"), status.failed.toString(Qt::ISODate));
            row.insert(QStringLiteral("lastError"), status.error);
        }
        found.insert(id.keychainKey(), row);
    }
    return found;
}

void SecretService::listSecrets(const api::PendingReply &reply)
{
    QString error;
    const QList<secrets::SecretId> ids = m_store->list(&error);
    if (!error.isEmpty())
        return reply.fail(QLatin1String(api::errors::kKeychainError), error);

    struct Gathered
    {
        QList<secrets::SecretId> ids;
        QStringList masked;
        QList<bool> present;
        int pending = 0;
        bool failed = false;
    };
    auto gathered = std::make_shared<Gathered>();
    gathered->ids = ids;
    gathered->pending = int(ids.size());
    const QJsonObject updates = readUpdates();
    const QHash<QString, QJsonObject> sources = sourcesJson();
    auto finish = [gathered, updates, sources, reply] {
        QJsonArray list;
        for (qsizetype i = 0; i < gathered->ids.size(); ++i) {
            const secrets::SecretId &id = gathered->ids.at(i);
            QJsonObject row = idJson(id);
            row.insert(QStringLiteral("present"), gathered->present.at(i));
            row.insert(QStringLiteral("masked"), gathered->masked.at(i));
            const QString updated = updates.value(id.displayName()).toString();
            if (!updated.isEmpty())
                row.insert(QStringLiteral("updated"), updated);
            row.insert(QStringLiteral("source"), QStringLiteral("keychain"));
            if (const auto source = sources.constFind(id.keychainKey()); source != sources.cend()) {
                for (auto it = source->begin(); it != source->end(); ++it)
                    row.insert(it.key(), it.value());
                row.insert(QStringLiteral("present"), true);
                row.insert(QStringLiteral("masked"), QString());
            }
            list.append(row);
        }
        QString customError;
        for (const QJsonValue &custom : customSecretRows(&customError))
            list.append(custom);
        reply.succeed({{QStringLiteral("secrets"), list}, {QStringLiteral("customError"), customError}});
    };
    if (ids.isEmpty()) {
        // Even an empty list is an answer about the keychain: say so when there is none.
        m_store->get(kProbeId, [reply, finish](secrets::SecretResult result) {
            secrets::wipe(result.value);
            // No Secret Service on the bus, or a bus where nothing answers for it (D-Bus gives up
            // after its timeout): either way a keychain service is what is missing.
            if (result.error == secrets::SecretError::NoBackend || result.error == secrets::SecretError::Timeout ||
                result.error == secrets::SecretError::Other)
                return reply.fail(QLatin1String(api::errors::kKeychainUnavailable), result.message);
            finish();
        });
        return;
    }
    gathered->masked.resize(ids.size());
    gathered->present.resize(ids.size());
    for (qsizetype i = 0; i < ids.size(); ++i) {
        m_store->get(ids.at(i), [gathered, i, reply, finish](secrets::SecretResult result) {
            if (gathered->failed) {
                secrets::wipe(result.value);
                return;
            }
            if (!result.ok() && result.error != secrets::SecretError::NotFound) {
                secrets::wipe(result.value);
                gathered->failed = true;
                return reply.fail(codeFor(result.error), result.message);
            }
            QString value = QString::fromUtf8(result.value);
            secrets::wipe(result.value);
            gathered->present[i] = result.ok();
            gathered->masked[i] = result.ok() ? secrets::mask(value) : QString();
            secrets::wipe(value);
            if (--gathered->pending == 0)
                finish();
        });
    }
}

void SecretService::setSecret(const QJsonObject &params, const api::PendingReply &reply)
{
    const Result<secrets::SecretId> id = idFrom(params);
    if (!id)
        return reply.complete(invalid(id.error().text()));
    const QJsonValue value = params.value(QLatin1String("value"));
    if (!value.isString() || value.toString().isEmpty())
        return reply.complete(invalid(QStringLiteral("the value is empty: nothing was stored")));
    QByteArray bytes = value.toString().toUtf8();
    // Never named in a log line: only the secret's name is, by the store.
    m_store->set(*id, std::move(bytes), [this, id = *id, reply](secrets::SecretResult result) {
        secrets::wipe(result.value);
        if (!result.ok())
            return reply.fail(codeFor(result.error), result.message);
        // A pasted value replaces a command or a reference given before.
        if (QString problem; !secrets::SecretSources().remove(id, &problem))
            return reply.fail(QLatin1String(api::errors::kKeychainError), problem);
        recordUpdate(id, true);
        credentialsChanged();
        qCInfo(lcSecretService).noquote() << "stored the key of" << id.displayName();
        reply.succeed(idJson(id));
    });
    secrets::wipe(bytes);
}

void SecretService::removeCustomSecret(const QString &name, const api::PendingReply &reply)
{
    QString error;
    bool removed = false;
    if (!secrets::CustomSecrets().remove(name, &removed, &error))
        return reply.fail(QLatin1String(api::errors::kKeychainError), error);
    if (!removed)
        return reply.fail(QLatin1String(api::errors::kNotFound),
                          QStringLiteral("there is no custom secret named %1").arg(name));
    // The proxy stops replacing the placeholder before the value leaves the keychain.
    credentialsChanged();
    qCInfo(lcSecretService).noquote() << "removed the custom secret" << name;
    m_store->removeKeyMaterial(QStringLiteral("custom-") + name, [reply, name](secrets::SecretResult result) {
        if (!result.ok() && result.error != secrets::SecretError::NotFound) // none for a value from a command
            return reply.fail(codeFor(result.error), result.message);
        reply.succeed({{QStringLiteral("removed"), name}, {QStringLiteral("custom"), true}});
    });
}

void SecretService::removeSecret(const QJsonObject &params, const api::PendingReply &reply)
{
    if (params.value(QLatin1String("custom")).toBool()) {
        const QString name = params.value(QLatin1String("service")).toString();
        if (!secrets::isValidName(name))
            return reply.complete(invalid(QStringLiteral("'%1' is not a valid secret name").arg(name.left(80))));
        return removeCustomSecret(name, reply);
    }
    const Result<secrets::SecretId> id = idFrom(params);
    if (!id)
        return reply.complete(invalid(id.error().text()));
    QString error;
    const bool hadSource = secrets::SecretSources().find(*id).has_value();
    if (!secrets::SecretSources().remove(*id, &error))
        return reply.fail(QLatin1String(api::errors::kKeychainError), error);
    m_store->remove(*id, [this, id = *id, reply, hadSource](secrets::SecretResult result) {
        if (!result.ok() && !(hadSource && result.error == secrets::SecretError::NotFound))
            return reply.fail(codeFor(result.error), result.message);
        recordUpdate(id, false);
        credentialsChanged();
        reply.succeed({{QStringLiteral("removed"), id.displayName()}});
    });
}

void SecretService::checkBindings(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    QString directory;
    auto kitOrError = kitToCheck(params, &directory);
    if (auto *failed = std::get_if<api::Reply>(&kitOrError))
        return reply.complete(*failed);
    auto bindingsOrError = loadBindings();
    if (auto *failed = std::get_if<api::Reply>(&bindingsOrError))
        return reply.complete(*failed);
    const kit::Kit kit = std::get<kit::Kit>(kitOrError);
    const secrets::CredentialBindings bindings = std::get<secrets::CredentialBindings>(bindingsOrError);

    struct State
    {
        QList<CredentialRow> rows;
        int pending = 0;
        bool keychain = true;
        QString keychainMessage;
    };
    auto state = std::make_shared<State>();
    for (const kit::Credential &credential : kit.credentials) {
        CredentialRow row{credential, injectionDomains(credential), {}, false};
        row.coverage = bindings.coverage(credential.service, row.domains);
        state->rows << row;
    }

    auto finish = [state, reply, name = kit.name, directory] {
        QJsonArray credentials;
        bool ready = true;
        for (const CredentialRow &row : std::as_const(state->rows)) {
            bool rowReady = false;
            credentials.append(credentialRowJson(row, &rowReady));
            if (row.credential.required && !rowReady)
                ready = false;
        }
        reply.succeed({{QStringLiteral("kit"), name},
                       {QStringLiteral("directory"), directory},
                       {QStringLiteral("ready"), ready},
                       {QStringLiteral("keychain"), state->keychain},
                       {QStringLiteral("keychainMessage"), state->keychainMessage},
                       {QStringLiteral("credentials"), credentials}});
    };

    for (qsizetype i = 0; i < state->rows.size(); ++i) {
        if (state->rows.at(i).credential.apiKey)
            ++state->pending;
    }
    if (state->pending == 0)
        return finish();
    for (qsizetype i = 0; i < state->rows.size(); ++i) {
        if (!state->rows.at(i).credential.apiKey)
            continue;
        // Presence is read from the keychain itself, as a start would; the value is dropped at once.
        m_store->resolve(
            sandbox, state->rows.at(i).credential.service, [state, i, finish](secrets::SecretResult result) {
                secrets::wipe(result.value);
                state->rows[i].secret = result.ok();
                // No Secret Service on the bus, or a bus where nothing answers for it (D-Bus gives up
                // after its timeout): either way a keychain service is what is missing.
                if (result.error == secrets::SecretError::NoBackend || result.error == secrets::SecretError::Timeout ||
                    result.error == secrets::SecretError::Other) {
                    state->keychain = false;
                    state->keychainMessage = result.message;
                }
                if (--state->pending == 0)
                    finish();
            });
    }
}

QJsonObject SecretService::readUpdates() const
{
    QFile file(updatesPath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

void SecretService::recordUpdate(const secrets::SecretId &id, bool present)
{
    QJsonObject updates = readUpdates();
    if (present)
        updates.insert(id.displayName(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    else
        updates.remove(id.displayName());
    QString error;
    if (!paths::ensurePrivateDir(paths::stateDir(), &error) ||
        !writeFileAtomically(updatesPath(), QJsonDocument(updates).toJson(QJsonDocument::Compact), &error))
        qCWarning(lcSecretService).noquote() << "cannot record when" << id.displayName() << "changed:" << error;
}

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/PolicyService.h"

#include "api/Server.h"
#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "events/EventHub.h"
#include "events/EventStore.h"
#include "kit/KitEditor.h"
#include "policy/AllowChoice.h"
#include "policy/HostGrantApprovals.h"
#include "policy/PolicyStore.h"
#include "policy/Preset.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/EventLogMethods.h"
#include "sandbox/PolicyCheck.h"
#include "sandbox/PolicyResolveMethods.h"
#include "sandbox/PolicyRuleEdits.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>

#include <algorithm>

Q_LOGGING_CATEGORY(lcPolicyService, "paddock.policy.service", QtInfoMsg)

namespace paddock::sandbox {
namespace {

constexpr std::uint16_t kDefaultPort = 443;
constexpr int kFlushTimeoutMs = 2000;
constexpr qint64 kPageReuseMs = 30000;

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

QString dismissedPath()
{
    return paths::stateDir() + QStringLiteral("/dismissed-denials.json");
}

QString groupKey(const QString &sandbox, const QString &host)
{
    return sandbox + QLatin1Char('\n') + host;
}

} // namespace

PolicyService::PolicyService(api::Server &server, SandboxService &sandboxes, QObject *parent)
    : QObject(parent), m_server(server), m_sandboxes(sandboxes)
{}

PolicyService::~PolicyService() = default;

QString PolicyService::policyTopic()
{
    return QStringLiteral("policy");
}

void PolicyService::start()
{
    loadDismissed();
    registerMethods();
    // Clients showing the rules read them again when anything changes them: this service, the
    // CLI writing policy.yaml, a hand edit, or a kit promoted into.
    m_server.registerTopic(policyTopic());
    connect(&m_sandboxes.policyStore(), &policy::PolicyStore::policyChanged, this, [this] {
        m_server.publish(policyTopic(), {{QStringLiteral("changed"), QStringLiteral("policy")}});
    });
    // A sandbox started or stopped brings its kit's rules in or out of the list.
    connect(&m_sandboxes, &SandboxService::operationFinished, this, [this](const QString &name) {
        m_server.publish(policyTopic(),
                         {{QStringLiteral("changed"), QStringLiteral("sandbox")}, {QStringLiteral("sandbox"), name}});
    });
}

void PolicyService::registerMethods()
{
    m_server.registerMethod(QStringLiteral("policy.get"), [this](const QJsonObject &, const api::CallContext &) {
        return api::Reply::success(policyJson());
    });

    m_server.registerMethod(
        QStringLiteral("policy.preset"), [this](const QJsonObject &params, const api::CallContext &) {
            policy::PolicyStore &store = m_sandboxes.policyStore();
            const QString name = params.value(QLatin1String("preset")).toString();
            const std::optional<policy::Preset> preset = policy::presetFromName(name);
            if (!preset)
                return invalid(QStringLiteral("unknown preset '%1': expected deny-all, balanced "
                                              "or allow-all")
                                   .arg(name));
            const policy::StoreResult result = store.setPreset(*preset);
            if (!result.ok())
                return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), result.error().text());
            return api::Reply::success({{QStringLiteral("preset"), policy::presetName(*preset)}});
        });

    m_server.registerMethod(QStringLiteral("policy.add"),
                            [this](const QJsonObject &params, const api::CallContext &) { return addRule(params); });
    m_server.registerMethod(QStringLiteral("policy.update"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                return updateRule(m_sandboxes.policyStore(), params);
                            });
    m_server.registerMethod(QStringLiteral("policy.remove"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                return removeRules(m_sandboxes.policyStore(), params);
                            });

    registerPolicyResolveMethods(m_server, m_sandboxes.policyStore());
    registerPolicyCheck(m_server, m_sandboxes);

    m_server.registerMethod(QStringLiteral("policy.reload"), [this](const QJsonObject &, const api::CallContext &) {
        policy::PolicyStore &store = m_sandboxes.policyStore();
        store.reloadNow(); // the change signal applies it to the proxy before this returns
        if (const std::optional<policy::PolicyError> error = store.lastError())
            return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), error->toString());
        return api::Reply::success({{QStringLiteral("rules"), store.policy().rules.size()}});
    });

    m_server.registerMethod(QStringLiteral("grant.list"),
                            [](const QJsonObject &, const api::CallContext &) { return listGrants(); });
    m_server.registerMethod(
        QStringLiteral("grant.approve"),
        [this](const QJsonObject &params, const api::CallContext &) { return approveGrants(params); });
    m_server.registerMethod(
        QStringLiteral("grant.revoke"),
        [this](const QJsonObject &params, const api::CallContext &) { return revokeGrants(params); });
    m_server.registerAsyncMethod(QStringLiteral("policy.allow"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { allow(params, reply); });
    // What a reader of the event log asks first: what the proxy did until now, written.
    m_server.registerMethod(QStringLiteral("events.flush"), [this](const QJsonObject &, const api::CallContext &) {
        return m_sandboxes.flushEvents()
                   ? api::Reply::success({})
                   : api::Reply::failure(QLatin1String(api::errors::kInternal),
                                         QStringLiteral("the event log did not take every event in time"));
    });
    registerEventLogMethods(m_server, m_sandboxes);
    m_server.registerAsyncMethod(QStringLiteral("events.denials"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { denials(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("events.dismiss"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { dismiss(params, reply); });
}

api::Reply PolicyService::addRule(const QJsonObject &params)
{
    return addRules(m_sandboxes.policyStore(), params);
}

api::Reply PolicyService::listGrants()
{
    policy::HostGrantApprovals approvals;
    if (const std::optional<policy::PolicyError> problem = approvals.load())
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), problem->toString());
    QJsonArray grants;
    const policy::ApprovedGrants approved = approvals.approved();
    for (auto it = approved.cbegin(); it != approved.cend(); ++it)
        grants.append(QJsonObject{{QStringLiteral("kit"), it.key()},
                                  {QStringLiteral("patterns"), QJsonArray::fromStringList(it.value())}});
    return api::Reply::success({{QStringLiteral("grants"), grants}, {QStringLiteral("file"), approvals.path()}});
}

api::Reply PolicyService::approveGrants(const QJsonObject &params)
{
    QString sandbox;
    const std::optional<kit::Kit> kit = CredentialInjection::kitOf(params, &sandbox);
    if (!kit)
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                   QStringLiteral("the kit in %1 cannot be used; `paddock kit validate %1` says why")
                                       .arg(params.value(QLatin1String("kit")).toString()));
    const QList<policy::HostGrant> grants = policy::hostGrantsOf(kit->networkAllow);
    QStringList patterns;
    for (const QJsonValue &value : params.value(QLatin1String("patterns")).toArray()) {
        const std::optional<policy::HostGrant> asked = policy::hostGrantOf(QStringView(value.toString()));
        if (!asked || !grants.contains(*asked))
            return invalid(QStringLiteral("%1 is not a host grant of the kit %2").arg(value.toString(), kit->name));
        patterns << asked->pattern;
    }
    if (patterns.isEmpty()) {
        for (const policy::HostGrant &grant : grants)
            patterns << grant.pattern;
    }
    policy::HostGrantApprovals approvals;
    if (const Result<void> approved = patterns.isEmpty() ? Result<void>() : approvals.approve(kit->name, patterns);
        !approved)
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), approved.error().text());
    qCInfo(lcPolicyService).noquote() << "approved host grants" << patterns.join(QStringLiteral(", ")) << "for kit"
                                      << kit->name;
    grantsChanged(kit->name);
    return api::Reply::success(
        {{QStringLiteral("kit"), kit->name}, {QStringLiteral("approved"), QJsonArray::fromStringList(patterns)}});
}

api::Reply PolicyService::revokeGrants(const QJsonObject &params)
{
    const QString kitName = params.value(QLatin1String("kit")).toString();
    QStringList patterns;
    for (const QJsonValue &value : params.value(QLatin1String("patterns")).toArray())
        patterns << value.toString();
    policy::HostGrantApprovals approvals;
    const Result<int> removed = approvals.revoke(kitName, patterns);
    if (!removed)
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), removed.error().text());
    if (*removed == 0)
        return api::Reply::failure(
            QLatin1String(api::errors::kNotFound),
            QStringLiteral("no host grant of the kit %1 is approved%2")
                .arg(kitName,
                     patterns.isEmpty() ? QString() : QStringLiteral(" as ") + patterns.join(QStringLiteral(", "))));
    qCInfo(lcPolicyService) << "revoked" << *removed << "host grants of kit" << kitName;
    grantsChanged(kitName);
    return api::Reply::success({{QStringLiteral("kit"), kitName}, {QStringLiteral("removed"), *removed}});
}

void PolicyService::grantsChanged(const QString &kitName)
{
    // Running sandboxes of the kit decide with the approvals as they are now.
    if (m_sandboxes.reloadKitRules(kitName).ok())
        m_server.publish(policyTopic(),
                         {{QStringLiteral("changed"), QStringLiteral("kit")}, {QStringLiteral("kit"), kitName}});
}

QJsonObject PolicyService::policyJson()
{
    policy::PolicyStore &store = m_sandboxes.policyStore();
    store.reloadNow(); // a hand edit counts from now, not from when the file watch notices
    const policy::PolicyData data = store.policy();
    QJsonArray rules;
    for (const policy::Rule &rule : data.rules)
        rules << ruleJson(rule);
    // The kits of running sandboxes decide too; they are edited in their spec.yaml, not here.
    QSet<QString> kitsSeen;
    for (const QString &name : m_sandboxes.runningSandboxes()) {
        const std::optional<SandboxRecord> record = SandboxRecord::read(name);
        if (!record || kitsSeen.contains(record->kitName))
            continue;
        kitsSeen.insert(record->kitName);
        const QString source = record->kitDirectory + QStringLiteral("/spec.yaml");
        for (const policy::Rule &rule :
             policy::kitNetworkRules(record->kitName, record->networkAllow, record->networkDeny).rules) {
            QJsonObject object = ruleJson(rule);
            object.insert(QStringLiteral("source"), source);
            object.insert(QStringLiteral("readOnly"), true);
            rules << object;
        }
    }
    QJsonObject resolve;
    for (auto it = data.resolveOverrides.cbegin(); it != data.resolveOverrides.cend(); ++it)
        resolve.insert(it.key(), it.value().toString());
    return {{QStringLiteral("preset"), policy::presetName(data.preset)},
            {QStringLiteral("presetDescription"), policy::presetDescription(data.preset)},
            {QStringLiteral("rules"), rules},
            {QStringLiteral("resolve"), resolve},
            {QStringLiteral("fileError"), store.lastError() ? store.lastError()->toString() : QString()}};
}

void PolicyService::allowForKit(const QString &sandbox, const QString &pattern, QJsonObject result,
                                const api::PendingReply &reply)
{
    QString error;
    const std::optional<SandboxRecord> record = SandboxRecord::read(sandbox);
    if (!record)
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox),
                          QStringLiteral("no sandbox named %1").arg(sandbox));
    std::optional<kit::KitEditor> editor = kit::KitEditor::open(record->kitDirectory, &error);
    if (!editor)
        return reply.fail(QLatin1String(api::errors::kKitFailed), error);
    const kit::KitEditResult edit = editor->addNetworkPattern(kit::NetworkList::Allow, pattern);
    if (edit.failed())
        return reply.fail(QLatin1String(api::errors::kKitFailed), edit.message);
    QList<kit::Diagnostic> diagnostics;
    if (edit.changed() && !editor->save(&error, &diagnostics)) {
        QStringList problems{error};
        for (const kit::Diagnostic &diagnostic : std::as_const(diagnostics))
            problems << diagnostic.toString();
        return reply.fail(QLatin1String(api::errors::kKitFailed), problems.join(QLatin1Char('\n')).trimmed());
    }
    // Allowing a refused address of this computer for the kit is the user's approval of it.
    if (const std::optional<policy::HostGrant> grant = policy::hostGrantOf(QStringView(pattern))) {
        policy::HostGrantApprovals approvals;
        if (const Result<void> approved = approvals.approve(record->kitName, {grant->pattern}); !approved)
            return reply.fail(QLatin1String(api::errors::kPolicyFailed), approved.error().text());
    }
    // The file is the kit's truth; its sandboxes decide with it from the next connection.
    if (const Result<void> reloaded = m_sandboxes.reloadKitRules(record->kitName); !reloaded)
        qCWarning(lcPolicyService).noquote()
            << "kit" << record->kitName << "edited but not applied:" << reloaded.error().text();
    m_server.publish(policyTopic(),
                     {{QStringLiteral("changed"), QStringLiteral("kit")}, {QStringLiteral("kit"), record->kitName}});
    qCInfo(lcPolicyService).noquote() << edit.message << "in" << editor->filePath();
    result.insert(QStringLiteral("kitFile"), editor->filePath());
    result.insert(QStringLiteral("changed"), edit.changed());
    result.insert(QStringLiteral("message"), QStringLiteral("%1 in %2").arg(edit.message, editor->filePath()));
    return reply.succeed(result);
}

void PolicyService::allow(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString host = params.value(QLatin1String("host")).toString().trimmed();
    const int port = params.value(QLatin1String("port")).toInt(kDefaultPort);
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    const QString where = params.value(QLatin1String("where")).toString(QStringLiteral("sandbox"));
    const QString what = params.value(QLatin1String("what")).toString(QStringLiteral("exact"));
    auto fail = [&reply](const QString &message) { reply.fail(QLatin1String(api::errors::kInvalidParams), message); };
    if (host.isEmpty())
        return fail(QStringLiteral("policy.allow needs the host to allow"));
    if (port < 1 || port > 65535)
        return fail(QStringLiteral("the port must be between 1 and 65535"));
    if (where != QLatin1String("sandbox") && where != QLatin1String("kit") && where != QLatin1String("global"))
        return fail(QStringLiteral("unknown place '%1': expected sandbox, kit or global").arg(where));
    if (where != QLatin1String("global") && sandbox.isEmpty())
        return fail(QStringLiteral("allowing for a sandbox or its kit needs the sandbox's name"));
    const Result<QString> proposed = policy::allowChoicePattern(host, std::uint16_t(port), what);
    if (!proposed)
        return fail(proposed.error().text());
    const Result<policy::HostPattern> parsed = policy::HostPattern::parse(*proposed, policy::PatternContext::Allow);
    if (!parsed)
        return fail(parsed.error().message);
    // As policy.yaml and listings spell it: `host:443` is `host`.
    const std::optional<QString> pattern = parsed->toString();

    QJsonObject result{{QStringLiteral("pattern"), *pattern}, {QStringLiteral("where"), where}};
    if (where == QLatin1String("kit"))
        return allowForKit(sandbox, *pattern, result, reply);

    const policy::Scope scope =
        where == QLatin1String("global") ? policy::Scope::global() : policy::Scope::sandbox(sandbox);
    policy::PolicyStore &store = m_sandboxes.policyStore();
    const QList<policy::Rule> before = store.policy().rules;
    const policy::StoreResult added = store.addRule(scope, policy::Verdict::Allow, *pattern, policy::Origin::Approval);
    if (!added.ok())
        return reply.fail(QLatin1String(api::errors::kPolicyFailed), added.error().text());
    const bool existed = std::any_of(before.cbegin(), before.cend(),
                                     [&](const policy::Rule &rule) { return rule.id == added->rule->id; });
    qCInfo(lcPolicyService).noquote() << "allowed" << *pattern << "for" << scope.toString();
    result.insert(QStringLiteral("scope"), scope.toString());
    result.insert(QStringLiteral("rule"), ruleJson(*added->rule));
    result.insert(QStringLiteral("changed"), !existed);
    result.insert(QStringLiteral("message"),
                  existed ? QStringLiteral("%1 was already allowed (%2)").arg(*pattern, scope.toString())
                          : QStringLiteral("allowed %1 (%2)").arg(*pattern, scope.toString()));
    reply.succeed(result);
}

void PolicyService::denials(const QJsonObject &params, const api::PendingReply &reply)
{
    events::LogFilter filter;
    filter.sandbox = params.value(QLatin1String("sandbox")).toString();
    filter.limit = 0; // grouped again below; the limit applies to those groups
    if (params.contains(QLatin1String("since"))) {
        filter.since = QDateTime::fromString(params.value(QLatin1String("since")).toString(), Qt::ISODateWithMs);
        if (!filter.since.isValid())
            return reply.fail(QLatin1String(api::errors::kInvalidParams),
                              QStringLiteral("since must be a time such as 2026-01-31T09:15:02.345Z"));
    }
    const int limit = params.value(QLatin1String("limit")).toInt(kDefaultDenialLimit);
    const int offset = std::max(0, params.value(QLatin1String("offset")).toInt());
    const QString filterKey = filter.sandbox + QLatin1Char('\n') + filter.since.toString(Qt::ISODateWithMs);
    // A client reading a long list page by page reads the list as it was at its first page.
    if (offset > 0 && filterKey == m_pagedFilter && m_pagedAt.isValid() && !m_pagedAt.hasExpired(kPageReuseMs))
        return reply.succeed(denialsPage(m_paged, offset, limit));

    events::EventHub *hub = m_sandboxes.eventHub();
    if (!hub)
        return reply.fail(QLatin1String(api::errors::kInternal), QStringLiteral("the event log is not open"));
    // Every event a client was sent before this call is then in the database: a client that
    // subscribed first and asks second misses nothing and counts nothing twice.
    m_sandboxes.flushEvents();
    events::EventStore store(hub->databasePath());
    if (!store.open())
        return reply.fail(QLatin1String(api::errors::kInternal), store.errorString());

    QHash<QString, events::BlockedEntry> groups;
    auto merge = [&groups](const events::BlockedEntry &entry) {
        const QString key = groupKey(entry.sandbox, entry.host);
        auto it = groups.find(key);
        if (it == groups.end()) {
            groups.insert(key, entry);
            return;
        }
        events::BlockedEntry &group = it.value();
        group.count += entry.count;
        if (entry.firstSeen < group.firstSeen)
            group.firstSeen = entry.firstSeen;
        if (entry.lastSeen > group.lastSeen) {
            const qint64 count = group.count;
            const QDateTime first = group.firstSeen;
            group = entry;
            group.count = count;
            group.firstSeen = first;
        }
    };
    for (const events::BlockedEntry &entry : store.log(filter).blocked)
        merge(entry);

    // A dismissed group comes back when refused again, counting from its dismissal.
    for (auto it = m_dismissed.cbegin(); it != m_dismissed.cend(); ++it) {
        const auto group = groups.find(it.key());
        if (group == groups.end())
            continue;
        if (group->lastSeen <= it.value()) {
            groups.erase(group);
            continue;
        }
        events::LogFilter since = filter;
        since.sandbox = group->sandbox;
        since.since = std::max(filter.since, it.value().addMSecs(1));
        const QString host = group->host;
        groups.erase(group);
        for (const events::BlockedEntry &entry : store.log(since).blocked) {
            if (entry.host == host)
                merge(entry);
        }
    }

    QList<events::BlockedEntry> sorted = groups.values();
    std::sort(sorted.begin(), sorted.end(), [](const events::BlockedEntry &a, const events::BlockedEntry &b) {
        return a.lastSeen != b.lastSeen ? a.lastSeen > b.lastSeen : a.host < b.host;
    });
    m_paged = sorted;
    m_pagedFilter = filterKey;
    m_pagedAt.start();
    reply.succeed(denialsPage(m_paged, offset, limit));
}

QJsonObject PolicyService::denialsPage(const QList<events::BlockedEntry> &sorted, int offset, int limit)
{
    QJsonArray array;
    const qsizetype end = limit > 0 ? std::min<qsizetype>(sorted.size(), qsizetype(offset) + limit) : sorted.size();
    for (qsizetype i = offset; i < end; ++i) {
        const events::BlockedEntry &entry = sorted.at(i);
        array << QJsonObject{{QStringLiteral("host"), entry.host},
                             {QStringLiteral("sandbox"), entry.sandbox},
                             {QStringLiteral("kit"), entry.kit},
                             {QStringLiteral("port"), entry.port},
                             {QStringLiteral("protocol"), entry.protocol},
                             {QStringLiteral("reason"), entry.reason},
                             {QStringLiteral("rule"), entry.rule},
                             {QStringLiteral("program"), entry.program},
                             {QStringLiteral("command"), entry.command},
                             {QStringLiteral("written"), entry.written},
                             {QStringLiteral("count"), entry.count},
                             {QStringLiteral("firstSeen"), timeJson(entry.firstSeen)},
                             {QStringLiteral("lastSeen"), timeJson(entry.lastSeen)}};
    }
    return {{QStringLiteral("denials"), array}, {QStringLiteral("total"), int(sorted.size())}};
}

void PolicyService::dismiss(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString host =
        QString::fromStdString(policy::normaliseHostName(params.value(QLatin1String("host")).toString().trimmed()));
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    if (host.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), QStringLiteral("events.dismiss needs a host"));
    // Everything refused up to now is hidden; the next refusal shows the row again.
    if (events::EventHub *hub = m_sandboxes.eventHub())
        hub->flush(std::chrono::milliseconds(kFlushTimeoutMs));
    const QDateTime now = events::currentEventTime();
    m_dismissed.insert(groupKey(sandbox, host), now);
    if (const Result<void> saved = saveDismissed(); !saved)
        return reply.fail(QLatin1String(api::errors::kInternal), saved.error().text());
    reply.succeed({{QStringLiteral("dismissed"), timeJson(now)}});
}

void PolicyService::loadDismissed()
{
    QFile file(dismissedPath());
    if (!file.open(QIODevice::ReadOnly))
        return;
    for (const QJsonValue &value :
         QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("dismissed")).toArray()) {
        const QJsonObject item = value.toObject();
        const QDateTime time = QDateTime::fromString(item.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
        if (time.isValid())
            m_dismissed.insert(
                groupKey(item.value(QLatin1String("sandbox")).toString(), item.value(QLatin1String("host")).toString()),
                time.toUTC());
    }
}

Result<void> PolicyService::saveDismissed() const
{
    QJsonArray array;
    for (auto it = m_dismissed.cbegin(); it != m_dismissed.cend(); ++it)
        array << QJsonObject{{QStringLiteral("sandbox"), it.key().section(QLatin1Char('\n'), 0, 0)},
                             {QStringLiteral("host"), it.key().section(QLatin1Char('\n'), 1)},
                             {QStringLiteral("time"), timeJson(it.value())}};
    QString error;
    if (!paths::ensurePrivateDir(paths::stateDir(), &error) ||
        !writeFileAtomically(dismissedPath(), QJsonDocument(QJsonObject{{QStringLiteral("dismissed"), array}}).toJson(),
                             &error, 0600))
        return fail(error);
    return {};
}

} // namespace paddock::sandbox

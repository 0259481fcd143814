// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/AgentPermsService.h"

#include "api/Server.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include <QDir>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAgentPerms, "paddock.agentperms", QtInfoMsg)

namespace paddock::sandbox {

using namespace agentperms;

QJsonObject AgentPermsService::Refusal::toJson() const
{
    QJsonObject json{{QStringLiteral("id"), id},
                     {QStringLiteral("sandbox"), sandbox},
                     {QStringLiteral("kit"), kit},
                     {QStringLiteral("time"), lastSeen.toUTC().toString(Qt::ISODateWithMs)},
                     {QStringLiteral("firstSeen"), firstSeen.toUTC().toString(Qt::ISODateWithMs)},
                     {QStringLiteral("count"), count},
                     {QStringLiteral("state"), stateName(decision.state)},
                     {QStringLiteral("event"), decision.event},
                     {QStringLiteral("tool"), decision.tool},
                     {QStringLiteral("value"), decision.value()},
                     {QStringLiteral("resolution"), decision.resolution},
                     {QStringLiteral("dismissed"), dismissed},
                     {QStringLiteral("certain"), explanation.value(QLatin1String("certain")).toBool(true)}};
    // The rule: the tester's, else the pattern the extension names in its message.
    const QJsonObject decided = explanation.value(QLatin1String("firstStop")).toObject();
    if (!decided.isEmpty()) {
        json.insert(QStringLiteral("surface"), decided.value(QLatin1String("surface")));
        json.insert(QStringLiteral("pattern"), decided.value(QLatin1String("pattern")));
        json.insert(QStringLiteral("rule"), decided.value(QLatin1String("rule")));
        json.insert(QStringLiteral("scope"), decided.value(QLatin1String("scope")));
    } else if (!decision.matched.isEmpty()) {
        json.insert(QStringLiteral("surface"), decision.tool);
        json.insert(QStringLiteral("pattern"), decision.matched);
        json.insert(QStringLiteral("rule"),
                    QStringLiteral("%1 \"%2\" (%3)").arg(decision.tool, decision.matched, decision.origin));
        json.insert(QStringLiteral("scope"), decision.origin);
    }
    return json;
}

AgentPermsService::AgentPermsService(api::Server &server, SandboxService &sandboxes, QObject *parent)
    : QObject(parent), m_server(server), m_sandboxes(sandboxes)
{}

AgentPermsService::~AgentPermsService() = default;

void AgentPermsService::start()
{
    m_server.registerTopic(agentTopic());
    registerMethods();
    registerEditMethods();
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &AgentPermsService::pollLogs);
    // Listing sandboxes asks every runtime: less often than the logs are read. A sandbox that
    // starts or stops is looked at alone, at once: the next request of the client that started
    // it does not wait for every container engine's list.
    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &AgentPermsService::refreshSandboxes);
    connect(&m_sandboxes, &SandboxService::operationFinished, this, &AgentPermsService::refreshSandbox);
    refreshSandboxes();
    m_poll.start();
    m_refresh.start();
}

std::optional<AgentPermsService::Places> AgentPermsService::placesOf(const QString &sandbox) const
{
    const std::optional<runtime::SandboxInfo> info = m_sandboxes.inspect(sandbox);
    if (!info)
        return std::nullopt;
    Places places;
    places.sandbox = sandbox;
    places.kitName = info->kitName;
    places.home = SandboxService::homeOf(sandbox);
    places.workspace = info->workspace;
    places.workspaceInside = info->workspace;
    places.startedAt = info->startedAt;
    if (const std::optional<SandboxRecord> record = SandboxRecord::read(sandbox))
        places.kitDirectory = record->kitDirectory;
    if (const std::optional<CloneWorkspace> clone = CloneWorkspace::read(sandbox)) {
        places.workspace = clone->folderInClone();
        places.workspaceInside = clone->folder();
    }
    return places;
}

void AgentPermsService::refreshSandboxes()
{
    const QStringList running = m_sandboxes.runningSandboxes();
    for (auto it = m_followed.begin(); it != m_followed.end();) {
        if (!running.contains(it->first))
            it = m_followed.erase(it);
        else
            ++it;
    }
    for (const QString &name : running)
        follow(name);
}

void AgentPermsService::refreshSandbox(const QString &name)
{
    const std::optional<runtime::SandboxInfo> info = m_sandboxes.inspect(name);
    if (!info || info->status != runtime::SandboxStatus::Running) {
        m_followed.erase(name);
        return;
    }
    follow(name);
}

void AgentPermsService::follow(const QString &name)
{
    if (m_followed.count(name))
        return;
    if (const std::optional<Places> places = placesOf(name)) {
        Followed followed;
        followed.places = *places;
        followed.follower = std::make_unique<ReviewLogFollower>(places->home);
        m_followed.emplace(name, std::move(followed));
    }
}

void AgentPermsService::pollLogs()
{
    for (auto &[name, followed] : m_followed) {
        QString problem;
        const QList<QByteArray> lines = followed.follower->poll(&problem);
        if (problem != followed.problem && !problem.isEmpty())
            qCWarning(lcAgentPerms).noquote() << "sandbox" << name << ":" << problem;
        followed.problem = problem;
        for (const QByteArray &line : lines) {
            if (const std::optional<AgentDecision> decision = parseReviewLine(line))
                record(followed.places, *decision);
        }
    }
}

void AgentPermsService::record(const Places &places, const AgentDecision &decision)
{
    const QString value = decision.value();
    Refusal *group = nullptr;
    for (Refusal &existing : m_refusals) {
        if (existing.sandbox == places.sandbox && existing.decision.tool == decision.tool &&
            existing.decision.value() == value) {
            group = &existing;
            break;
        }
    }
    // The answer to an ask closes it: it says how the question ended, it is not a new refusal.
    const bool answer = decision.event == QLatin1String("denied") || decision.event == QLatin1String("approved");
    if (answer && group && group->decision.state == State::Ask) {
        group->decision.resolution = decision.resolution.isEmpty() ? decision.event : decision.resolution;
        group->decision.event = decision.event;
    } else if (answer) {
        return; // the question itself was read before this daemon started
    } else {
        if (!group) {
            m_refusals.prepend(Refusal{m_nextId++, places.sandbox, places.kitName, decision, 0, decision.time, {}, {}});
            group = &m_refusals.first();
            if (m_refusals.size() > kMaxRefusals)
                m_refusals.removeLast();
        }
        group->decision = decision;
        group->count += 1;
        group->lastSeen = decision.time;
        group->dismissed = false;
        group->explanation = testResultJson(testCall(rulesInForce(places), {decision.tool, value}, contextOf(places)));
    }
    m_server.publish(agentTopic(), {{QStringLiteral("type"), QStringLiteral("refusal")},
                                    {QStringLiteral("refusal"), group->toJson()}});
}

TestContext AgentPermsService::contextOf(const Places &places)
{
    TestContext context;
    context.cwd = places.workspaceInside;
    return context;
}

PermissionConfig AgentPermsService::rulesInForce(const Places &places) const
{
    const ScopeFile global = ScopeFile::load(QStringLiteral("global"), places.home, globalConfigRelativePath());
    if (places.workspace.isEmpty())
        return global.config;
    const ScopeFile project = ScopeFile::load(QStringLiteral("project"), places.workspace, projectConfigRelativePath());
    return mergeConfigs(global.config, project.config);
}

void AgentPermsService::registerMethods()
{
    m_server.registerMethod(QStringLiteral("agent.refusals"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                const QString sandbox = params.value(QLatin1String("sandbox")).toString();
                                QJsonArray list;
                                for (const Refusal &refusal : std::as_const(m_refusals)) {
                                    if (sandbox.isEmpty() || refusal.sandbox == sandbox)
                                        list.append(refusal.toJson());
                                }
                                return api::Reply::success({{QStringLiteral("refusals"), list}});
                            });
    m_server.registerMethod(QStringLiteral("agent.dismiss"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                const int id = params.value(QLatin1String("id")).toInt();
                                for (Refusal &refusal : m_refusals) {
                                    if (refusal.id == id) {
                                        refusal.dismissed = true;
                                        return api::Reply::success({{QStringLiteral("dismissed"), id}});
                                    }
                                }
                                return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                                           QStringLiteral("no agent refusal %1").arg(id));
                            });
    m_server.registerMethod(QStringLiteral("agent.counts"), [this](const QJsonObject &, const api::CallContext &) {
        QJsonObject counts;
        for (const auto &[name, followed] : m_followed) {
            int count = 0;
            for (const Refusal &refusal : std::as_const(m_refusals)) {
                if (refusal.sandbox == name &&
                    (!followed.places.startedAt.isValid() || refusal.lastSeen >= followed.places.startedAt))
                    count += refusal.count;
            }
            counts.insert(name, count);
        }
        return api::Reply::success({{QStringLiteral("counts"), counts}});
    });
    m_server.registerMethod(
        QStringLiteral("agent.config"),
        [this](const QJsonObject &params, const api::CallContext &) { return configReply(params); });
    m_server.registerMethod(QStringLiteral("agent.test"),
                            [this](const QJsonObject &params, const api::CallContext &) { return test(params); });
    m_server.registerMethod(QStringLiteral("agent.allow"),
                            [this](const QJsonObject &params, const api::CallContext &) { return allowReply(params); });
}

api::Reply AgentPermsService::allowReply(const QJsonObject &params)
{
    const int id = params.value(QLatin1String("id")).toInt();
    const auto found =
        std::find_if(m_refusals.cbegin(), m_refusals.cend(), [id](const Refusal &r) { return r.id == id; });
    if (found == m_refusals.cend())
        return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                   QStringLiteral("no agent refusal %1").arg(id));
    const std::optional<Places> places = placesOf(found->sandbox);
    if (!places)
        return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                   QStringLiteral("sandbox %1 no longer exists").arg(found->sandbox));
    const QString where = params.value(QLatin1String("where")).toString(QStringLiteral("project"));
    if (where != QLatin1String("project") && where != QLatin1String("kit"))
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                   QStringLiteral("where is 'project' or 'kit', not '%1'").arg(where));
    const QList<RuleChange> changes = allowRulesFor(rulesInForce(*places), found->decision, contextOf(*places));
    if (changes.isEmpty())
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                   QStringLiteral("the refusal names no tool and value to allow"));
    QJsonArray changeList;
    for (const RuleChange &change : changes)
        changeList.append(
            QJsonObject{{QStringLiteral("surface"), change.surface}, {QStringLiteral("pattern"), change.pattern}});
    QJsonObject editParams{
        {QStringLiteral("sandbox"), found->sandbox},
        {QStringLiteral("scope"), where == QLatin1String("kit") ? QStringLiteral("global") : QStringLiteral("project")},
        {QStringLiteral("dryRun"), params.value(QLatin1String("dryRun")).toBool()}};
    return edit(editParams,
                [changes](ConfigEditor &editor) -> Result<void> {
                    for (const RuleChange &change : changes) {
                        if (QString error; !editor.setRule(change.surface, change.pattern, State::Allow, &error))
                            return fail(error);
                    }
                    return {};
                },
                {{QStringLiteral("changes"), changeList}});
}

} // namespace paddock::sandbox

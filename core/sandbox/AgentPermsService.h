// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/ConfigEditor.h"
#include "agentperms/ReviewLog.h"
#include "agentperms/ScopeFile.h"
#include "common/Result.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace paddock::api {
class Server;
class Reply;
} // namespace paddock::api

namespace paddock::sandbox {

class SandboxService;

/**
 * @brief The agent's own guard beside the network's: the rules of the Pi extension
 * pi-permission-system for a kit or a sandbox, and the live stream of what it refused.
 *
 * For every running sandbox the service follows the extension's review log in the sandbox's
 * home (agentperms::ReviewLogFollower: no link followed, sizes bounded, rotation and partial
 * lines tolerated), every kPollMs. Each deny or ask becomes a refusal, explained by the rule
 * tester against the rules the extension reads there (the home's global file and the
 * workspace's project file), kept in memory (the last kMaxRefusals, grouped by sandbox, tool
 * and value) and published on topic `agent`.
 *
 * A TARGET is {kit: DIR} or {sandbox: NAME}. Its scopes: `global`, the kit's
 * `files/home/.pi/agent/extensions/pi-permission-system/config.json` (for a sandbox, the kit it
 * was made from; an edit also goes to the copy in the home of each running sandbox of that
 * kit, which is the one the extension reads), and `project`, the workspace's
 * `.pi/extensions/pi-permission-system/config.json` (a sandbox only). Every edit goes through
 * agentperms::ConfigEditor (only the lines concerned change) and is checked against the
 * schema before it is written; `dryRun: true` answers what would change, for a confirmation.
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `agent.config` TARGET → {kit, kitDirectory, sandbox?, global: FILE, project?: FILE,
 *   inForce?: FILE (the home's copy), schemaVersion}; FILE is ScopeFile::toJson().
 * - `agent.set` TARGET + {scope?, surface, pattern?, state, dryRun?} → EDIT; no pattern: the
 *   surface's string form (`"bash": "ask"`).
 * - `agent.remove` TARGET + {scope?, surface, pattern?, dryRun?} → EDIT.
 * - `agent.move` TARGET + {scope?, surface, pattern, index, dryRun?} → EDIT.
 * - `agent.save` TARGET + {scope?, text, dryRun?} → EDIT: the whole file.
 * - `agent.test` TARGET + {query: "TOOL: VALUE"} → the tester's answer (testResultJson()).
 * - `agent.refusals` {sandbox?} → {refusals: [REFUSAL..]}, most recent first.
 * - `agent.allow` {id, where: project|kit, dryRun?} → EDIT + {changes: [{surface, pattern}]}:
 *   the narrowest rules that let the refused call pass (agentperms::allowRulesFor()).
 * - `agent.dismiss` {id} → {dismissed: id}: hides it until refused again.
 * - `agent.counts` {} → {counts: {NAME: N}}: refusals of each running sandbox since it started.
 *
 * EDIT: {path, scope, changed, before, after, diff: [{kind: "-"|"+", line, text}], homes?: N}.
 * REFUSAL: {id, sandbox, kit, time, firstSeen, count, state (deny|ask), event, tool, value,
 * resolution, surface, pattern, rule, scope, certain, dismissed}.
 *
 * Topic `agent`: {type: "refusal", refusal: REFUSAL} as one arrives; {type: "changed", path}
 * after an edit.
 */
class AgentPermsService : public QObject
{
    Q_OBJECT
public:
    /** The `agent.test` answer for @p params ({sandbox|kit, query}). */
    api::Reply test(const QJsonObject &params) const;

    static constexpr int kPollMs = 200;
    static constexpr int kRefreshMs = 2000;
    static constexpr int kMaxRefusals = 2000;

    static QString agentTopic() { return QStringLiteral("agent"); }

    AgentPermsService(api::Server &server, SandboxService &sandboxes, QObject *parent = nullptr);
    ~AgentPermsService() override;

    /** Registers the methods and the topic and starts following the running sandboxes. */
    void start();

private:
    struct Places
    {
        QString sandbox;
        QString kitName;
        QString kitDirectory;
        QString home;            ///< on the host
        QString workspace;       ///< on the host (a clone's own copy)
        QString workspaceInside; ///< where the agent works, inside
        QDateTime startedAt;
    };
    struct Followed
    {
        Places places;
        std::unique_ptr<agentperms::ReviewLogFollower> follower;
        QString problem; ///< the last problem reported, so it is logged once
    };
    struct Refusal
    {
        int id = 0;
        QString sandbox;
        QString kit;
        agentperms::AgentDecision decision;
        int count = 0;
        QDateTime firstSeen;
        QDateTime lastSeen;
        QJsonObject explanation; ///< the tester's answer when it was refused
        bool dismissed = false;
        QJsonObject toJson() const;
    };
    struct Target
    {
        Places places;
        bool isSandbox = false;
    };
    using Edit = std::function<Result<void>(agentperms::ConfigEditor &)>;

    void registerMethods();
    void registerEditMethods();
    void refreshSandboxes();
    /** Follows sandbox @p name while it runs, and no longer once it stops or goes. */
    void refreshSandbox(const QString &name);
    /** Starts following the review log of running sandbox @p name, unless it is followed already. */
    void follow(const QString &name);
    void pollLogs();
    void record(const Places &places, const agentperms::AgentDecision &decision);

    std::optional<Places> placesOf(const QString &sandbox) const;
    Result<Target> targetOf(const QJsonObject &params) const;
    Result<agentperms::ScopeFile> scopeFile(const Target &target, const QString &scope) const;
    /** The rules the extension reads in @p places: the home's copy merged with the project file. */
    agentperms::PermissionConfig rulesInForce(const Places &places) const;
    static agentperms::TestContext contextOf(const Places &places);

    api::Reply edit(const QJsonObject &params, const Edit &change, QJsonObject extra = {});
    /** Applies @p change to the home copy of every running sandbox made from @p kitDirectory. */
    int editHomes(const QString &kitDirectory, const Edit &change);
    api::Reply configReply(const QJsonObject &params) const;
    api::Reply allowReply(const QJsonObject &params);

    api::Server &m_server;
    SandboxService &m_sandboxes;
    QTimer m_poll;
    QTimer m_refresh;
    std::map<QString, Followed> m_followed;
    QList<Refusal> m_refusals;
    int m_nextId = 1;
};

} // namespace paddock::sandbox

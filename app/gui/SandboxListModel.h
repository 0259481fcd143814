// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimer>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One sandbox as the Sandboxes page lists it. */
struct SandboxRow
{
    QString name;
    QString kit;
    QString backend;
    QString status;
    QString workspace;
    QDateTime startedAt;
    int exitCode = -1;
    QString agentState;
    int agentExitCode = -1;
    QString agentReason; ///< why the agent could not start, as the sandbox's supervisor says it
    int agentAttached = 0;
    QString rootText;
    QString sharesText;
    QStringList agentVerbs; ///< the terminal verbs its kit declares (agent-interactive-sessions@1)
    bool busy = false;

    /** One sandbox of a `sandbox.list` answer. */
    static std::optional<SandboxRow> fromJson(const QJsonObject &info);
    bool sameState(const SandboxRow &other) const;
};

/**
 * @brief The sandboxes paddockd knows, for the Sandboxes page: one row per sandbox with its
 * kit, backend, status, its agent's state, workspace, uptime and the refusals since it started.
 *
 * Filled from `sandbox.list` once connected and again every few seconds and after every
 * action, so a sandbox started or stopped from a terminal shows up by itself. Refusals are
 * the stored ones since the sandbox started (`events.denials` when the daemon has it) plus
 * the `network` events with outcome `denied` that arrive live.
 *
 * A running sandbox's `agent` (none, running or exited with a status) comes with the list;
 * `stateText` says both states in words ("Running · agent exited (status 3)").
 *
 * start() asks `binding.check` first: when the kit's credentials need approval it emits
 * approvalNeeded() instead of starting, and the page shows the binding dialog; a missing
 * key stops the start with a sentence saying where to set it. Every action ends in
 * actionSucceeded() or actionFailed(), a daemon that is not there included.
 */
class SandboxListModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        KitRole,
        BackendRole,
        StatusRole,
        WorkspaceRole,
        StartedAtRole,
        UptimeRole,
        DenialsRole,
        BusyRole,
        ExitCodeRole,
        AgentStateRole,    ///< "none", "running", "exited"; empty when the sandbox is not running
        AgentExitCodeRole, ///< the exited agent's status, else -1
        AgentAttachedRole, ///< terminals attached to the agent now
        StateTextRole,     ///< the sandbox's and its agent's state in words
        AgentRefusalsRole, ///< what pi-permission-system refused or asked since it started
        RootTextRole,      ///< its own root: "root 1.2 MB over image pi:1"; empty when it has none
        SharesTextRole, ///< what it shares and runs beside it: "~/.nuget → /home/agent/.nuget (rw) · services postgres:5432"
        ActivityRole,   ///< its connections in the last hour, [[allowed, refused], ...] oldest first (a sparkline)
        AgentVerbsRole, ///< the terminal verbs its kit declares: "new-session", "resume", "continue", ...
    };
    Q_ENUM(Role)

    explicit SandboxListModel(QObject *parent = nullptr);

    /** Asks sandbox.list again now. */
    Q_INVOKABLE void refresh();
    /** Starts @p name; with @p approved false the kit's credentials are checked first. */
    Q_INVOKABLE void start(const QString &name, bool approved = false);
    Q_INVOKABLE void stop(const QString &name);
    /** Removes @p name, stopping it first when it runs. */
    Q_INVOKABLE void remove(const QString &name);
    /** Makes @p name again from its kit as loaded now, keeping its volumes (`sandbox.recreate`). */
    Q_INVOKABLE void recreate(const QString &name);
    /** The row of the sandbox @p name, or -1. */
    Q_INVOKABLE int rowOf(const QString &name) const;
    /** "2 h 05 min", "3 min", "12 s": how long a sandbox has been running. */
    Q_INVOKABLE static QString formatUptime(qint64 milliseconds);
    /**
     * "Running · agent running", "Running · agent exited (status 3)", "Stopped": @p status of
     * the sandbox and @p agentState of its agent (empty when the daemon said nothing of it);
     * with @p agentReason, why it could not start: "Running · the agent exited: pi: command not
     * found (exit 127)".
     */
    static QString describeState(const QString &status, const QString &agentState, int agentExitCode,
                                 const QString &agentReason = {});
    /**
     * "root 1.2 MB over image pi:1", "root 12 kB over the host's system (kernel overlay)": what a
     * sandbox wrote into its own root (@p bytes, -1 when not known) over @p base ("image",
     * "host"), and over the host's system what mounts it (@p mount, as the daemon says it);
     * empty for a root that is not its own ("read-only", or none said).
     */
    static QString describeRoot(const QString &base, const QString &image, qint64 bytes, const QString &mount = {});
    /** What a sandbox (its INFO) shares beyond its kit, in one line: folders with their mode, variables' names. */
    static QString describeShares(const QJsonObject &info);

    // What the daemon sends, handed in as it arrives (refresh() and the client's events do).
    /** A `sandbox.list` answer's `sandboxes`: rows sorted by name, updated in place when the names stay. */
    void applyList(const QJsonArray &sandboxes);
    /** One event of topic @p topic: a `network` refusal of a listed sandbox counts; an `agent` refusal asks again. */
    void daemonEvent(const QString &topic, const QJsonObject &data) override;
    /** The `events.denials` answer for @p name since @p since: its stored refusals of this run. */
    void applyStoredDenials(const QString &name, const QDateTime &since, const QJsonObject &result);
    /** An `agent.counts` answer: what the agent of each sandbox was refused since it started. */
    void applyAgentCounts(const QJsonObject &result);
    /** An `events.activity` answer asked per sandbox: each sandbox's last hour. */
    void applyActivity(const QJsonObject &result);

Q_SIGNALS:
    /** An action finished; @p message is one sentence for the status line of the page. */
    void actionSucceeded(const QString &message);
    void actionFailed(const QString &message);
    /**
     * Starting @p name needs the user's approval: @p pending is the `credentials` rows of
     * binding.check that are not approved, @p kitDirectory the kit they come from.
     */
    void approvalNeeded(const QString &name, const QString &kitDirectory, const QVariantList &pending);

protected:
    void daemonConnected() override;
    void daemonDisconnected() override;

private:
    struct Denials
    {
        QDateTime since;            ///< the start they are counted from
        qint64 stored = 0;          ///< stored refusals since then, as last asked
        QDateTime storedUpTo;       ///< live events up to here are in @c stored already
        QList<QDateTime> liveTimes; ///< refusals seen live (an invalid time always counts)

        qint64 total() const;
    };

    void declareRoles();
    void countStoredDenials(const QString &name, const QDateTime &since);
    /** Asks `agent.counts`: the agent's refusals of each running sandbox. */
    void countAgentRefusals();
    /** Asks `events.activity` once for every sandbox: the sparklines' last hour. */
    void countActivity();
    void onBindingChecked(const QString &name, const api::Reply &reply);
    void startNow(const QString &name);
    /** What every action does with its answer: the row is no longer busy, the page is told, the list read again. */
    void finishAction(const QString &name, const api::Reply &reply, const QString &done);
    void setBusy(const QString &name, bool busy);
    qint64 denialsOf(const QString &name) const;

    Rows<SandboxRow> m_rows{this};
    QHash<QString, Denials> m_denials;
    QHash<QString, int> m_agentRefusals;
    QHash<QString, QVariantList> m_activity;
    int m_refreshes = 0;
    QTimer m_poll;
    QTimer m_tick;
    bool m_refreshAgain = false;
};

} // namespace paddock::gui

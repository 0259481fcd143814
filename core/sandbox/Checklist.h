// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"
#include "sandbox/SandboxRecord.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace paddock::runtime {
class Runtime;
}

namespace paddock::sandbox {

/** @brief One line of the checklist: what was checked, the verdict and one sentence. */
struct CheckResult
{
    enum class Status {
        Ok,
        Failed,
        Skipped
    };

    QString id;    ///< "credential", "blocked", "workspace", "log", "key", "agent"
    QString title; ///< what a student reads in the checklist
    Status status = Status::Skipped;
    QString message;     ///< one sentence
    QStringList details; ///< e.g. each unexpected refusal

    static QString statusName(Status status);
    /** {id, title, status: ok|failed|skipped, message, details: [..]}. */
    QJsonObject toJson() const;
};

/** The ids of the checks, in the order they run. */
QStringList checkIds();

/** @brief The checklist of one running sandbox. */
struct Checklist
{
    QString sandbox;
    QString kit;
    QList<CheckResult> checks;

    /** True when no check failed (skipped ones do not count against it). */
    bool passed() const;
    QJsonObject toJson() const;
};

/**
 * Tests the key of one service against its provider: nullopt when that test is not
 * available here, else its result (id "key").
 */
using KeyTest = std::function<std::optional<CheckResult>(const QString &service, const QString &kitDir)>;

/**
 * The provider check through `PROGRAM secret test SERVICE --kit DIR` (PROGRAM is Paddock's
 * own executable): exit 0 is ok, 1 failed; a program without that command (a usage error)
 * makes the check "not available".
 */
KeyTest keyTestThrough(const QString &program);

/** @brief The running sandbox runChecklist() checks, as its runtime and record describe it. */
struct ChecklistTarget
{
    QString sandbox;
    QString kitName;
    QString workspace; ///< the folder on the host shared as the workspace
    QDateTime startedAt;
    std::optional<SandboxRecord> record; ///< gives the kit's folder and its network rules
    /** The daemon's `agent.test` answer for "read: .env", when the kit configures
     *  pi-permission-system (agentRulesQuery()); without it the agent check is left out. */
    std::optional<api::Reply> agentRules;
};

/** What the agent check asks the agent's rules: reading .env. */
QString agentRulesQuery();

/** @brief How runChecklist() checks. */
struct VerifyOptions
{
    KeyTest keyTest; ///< empty: the provider check is skipped
    /** How long to wait for the proxy's refusal of the probe to reach the event log. */
    int eventWaitMs = 15000;
};

/** Told of each check as it finishes, in order. */
using CheckReport = std::function<void(const CheckResult &check)>;

/**
 * Runs the course's checks against the running sandbox @p target, through @p runtime (commands
 * run inside it as its agent's user, with no terminal) and the event log:
 *
 * 1. credential: each credential variable of the kit holds the sentinel inside, not a key;
 * 2. blocked: a request inside to a host on no list fails, and the refusal is logged for
 *    this sandbox;
 * 3. workspace: a file written inside the workspace appears on the host (then removed);
 * 4. log: since the sandbox started, every refusal was chosen by a deny rule (the probe of
 *    check 2 aside); each other one is named;
 * 5. key: the key reaches its provider, when @p options.keyTest can tell;
 * 6. agent: when the kit configures pi-permission-system, its rules in force in the sandbox
 *    refuse reading `.env` (the `agent.test` method), and the deciding rule is named.
 *
 * Blocks for seconds (the probe's refusal is awaited; the key test asks a provider): the daemon
 * runs it on a thread of its own (VerifyService). @p report hears of each check as it ends.
 */
Checklist runChecklist(runtime::Runtime &runtime, const ChecklistTarget &target, const VerifyOptions &options,
                       const CheckReport &report = {});

} // namespace paddock::sandbox

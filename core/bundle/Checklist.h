// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace paddock::bundle {

/** @brief One line of the checklist: what was checked, the verdict and one sentence. */
struct CheckResult
{
    enum class Status { Ok, Failed, Skipped };

    QString id;    ///< "credential", "blocked", "workspace", "log", "key", "agent"
    QString title; ///< what a student reads in the checklist
    Status status = Status::Skipped;
    QString message; ///< one sentence
    QStringList details; ///< e.g. each unexpected refusal

    static QString statusName(Status status);
    QJsonObject toJson() const;
};

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

/** @brief What verifySandbox() checks and how. */
struct VerifyOptions
{
    QString sandbox;
    KeyTest keyTest; ///< empty: the provider check is skipped
    /** How long to wait for the daemon to write the probe's refusal to the event log. */
    int eventWaitMs = 15000;
};

/**
 * Runs the course's checks against the running sandbox @p options.sandbox, through the daemon
 * (which is started when needed), the sandbox's runtime (commands run inside it) and the
 * event log:
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
 * Blocks: run it off a GUI thread. Returns nothing, with @p error, when the sandbox cannot
 * be checked at all (no daemon, no such sandbox, not running).
 */
std::optional<Checklist> verifySandbox(const VerifyOptions &options, QString *error);

} // namespace paddock::bundle

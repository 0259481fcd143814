// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"
#include "policy/HostPattern.h"
#include "policy/RequestMatch.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>
#include <string_view>

namespace paddock::policy {

/** @brief Which connections a rule applies to: every sandbox, one sandbox, or one kit. */
struct Scope
{
    enum class Kind {
        Global,
        Sandbox,
        Kit
    };

    Kind kind = Kind::Global;
    QString name; ///< the sandbox or kit name; empty for global

    static Scope global() { return {}; }
    static Scope sandbox(const QString &name) { return {Kind::Sandbox, name}; }
    static Scope kit(const QString &name) { return {Kind::Kit, name}; }

    /** `global`, `sandbox:NAME` or `kit:NAME`, the form the policy file uses. */
    QString toString() const;
    /** The inverse of toString(); nullopt for anything else. */
    static std::optional<Scope> fromString(QStringView text);
    friend bool operator==(const Scope &, const Scope &) = default;
};

enum class Verdict {
    Allow,
    Deny
};

/** Where a rule came from, so a person knows whom to ask about it. */
enum class Origin {
    Preset,   ///< part of the chosen preset
    User,     ///< added by the user (CLI, GUI, or by hand in policy.yaml)
    Kit,      ///< the running kit's permissions.network
    Approval, ///< a blocked connection the user promoted from the denial list
};

QString verdictName(Verdict verdict);
std::optional<Verdict> verdictFromName(QStringView name);
QString originName(Origin origin);
std::optional<Origin> originFromName(QStringView name);

/** @brief One allow or deny rule, as stored, listed and reported in decisions. */
struct Rule
{
    QString id; ///< short and stable; see ruleIdFor()
    Scope scope;
    Verdict verdict = Verdict::Allow;
    HostPattern pattern;
    /**
     * Empty: any program. Else only connections from this program: a file name like `pip`, an
     * absolute path, `sha256:HEX`, or either with `@sha256:HEX` (programConditionHolds(): an
     * allow holds for the sandbox's own program only, a deny for anything that may be it).
     * Part of what the rule says, so of its id.
     */
    QString program;
    Origin origin = Origin::User;
    QDateTime created; ///< UTC; invalid for rules that were never created by a person (presets, kits)
    /** Methods and paths the rule is limited to; empty: the whole host (see RequestMatch). */
    RequestMatch request;

    /** "allow example.com (global, user)" or "deny api.github.com POST /gists (global, user)". */
    QString describe() const;
};

/**
 * A short id derived from what the rule says (scope, verdict, pattern): the same rule gets
 * the same id on every machine, and a duplicate is recognised as such.
 */
QString ruleIdFor(const Scope &scope, Verdict verdict, const HostPattern &pattern, const RequestMatch &request = {},
                  const QString &program = {});

/**
 * Whether @p program can be a rule's program condition: a file name or an absolute path,
 * printable, no spaces; or `sha256:HEX`, or either with `@sha256:HEX` after it. Fails
 * saying what is wrong.
 */
Result<void> checkProgramCondition(const QString &program);

/**
 * Whether a rule's program condition @p condition holds for @p program: any program when it is
 * empty; for an allow, the program is what it names (ClientProgram::matches(): from the base,
 * not an imitation); for a deny, it may be (ClientProgram::mayBe()), or nobody said which
 * program connected: not knowing never lets through what a deny names.
 */
bool programConditionHolds(std::string_view condition, bool deny, const ClientProgram &program);

/** The context a pattern is parsed in for a rule of @p verdict from @p origin. */
PatternContext patternContextFor(Verdict verdict, Origin origin);

} // namespace paddock::policy

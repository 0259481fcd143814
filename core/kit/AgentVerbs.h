// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The verbs a schemaVersion "3" workload kit declares for driving its agent:
// agent-sessions@1 (headless: run one prompt, resume, continue, list) and
// agent-interactive-sessions@1 (the same with a terminal, plus a new session and the agent's
// own session picker). They grant nothing: they say how to invoke what the sandbox runs anyway.

#include "common/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

inline constexpr char kPromptPlaceholder[] = "{{.Prompt}}";
inline constexpr char kSessionIdPlaceholder[] = "{{.SessionID}}";

/** @brief One operation on the agent. */
enum class AgentVerb {
    NewSession,    ///< a fresh session (with a terminal only)
    Prompt,        ///< one prompt, {{.Prompt}}
    Resume,        ///< a named session, {{.SessionID}}
    Continue,      ///< the most recent session
    SessionPicker, ///< the agent's own picker (with a terminal only)
    List,          ///< the resumable session ids: a complete command, not a tail
};

/** "new-session", "prompt", "resume", "continue", "session-picker", "list". */
QString agentVerbName(AgentVerb verb);
/** The verb agentVerbName() names, or nothing. */
std::optional<AgentVerb> agentVerbNamed(const QString &name);

/**
 * @brief What a sandbox needs to build an agent verb's argv: the workload's launch argv and
 * the kit's declarations as written (after argument substitution), kept with the sandbox.
 */
struct AgentVerbs
{
    QString kitName;
    QStringList launch;                         ///< the workload's launch argv (image Entrypoint + Cmd)
    std::optional<QStringList> interactiveTail; ///< lifecycle@1 `interactive`
    std::optional<QJsonObject> headless;        ///< agent-sessions@1 `config`
    std::optional<QJsonObject> interactive;     ///< agent-interactive-sessions@1 `config`

    /**
     * Whether @p verb is declared, with a terminal (@p terminal) or without. agent-sessions@1
     * reads an empty tail as absent; agent-interactive-sessions@1 a present empty one as the
     * launch argv alone. A new session with a terminal is always there (the lifecycle launch).
     */
    bool declares(AgentVerb verb, bool terminal) const;

    /**
     * The argv of @p verb: the launch argv plus the verb's tail, `{{.Prompt}}` or
     * `{{.SessionID}}` replaced by @p value as it is (exec argv: nothing is quoted or split);
     * for List the declared command on its own (a string runs with `sh -c`). An undeclared verb
     * is an error saying the kit does not declare it: no flag is made up.
     */
    Result<QStringList> argv(AgentVerb verb, bool terminal, const QString &value = {}) const;

    bool isEmpty() const { return !headless && !interactive; }
    /** {terminal: [names], headless: [names]}: the verbs declared, by agentVerbName(). */
    QJsonObject declaredJson() const;
    QJsonObject toJson() const;
    static AgentVerbs fromJson(const QJsonObject &object);
};

/** At most this many session ids are read from a `list` command. */
inline constexpr int kMaxSessionIds = 200;

/**
 * The session ids a `list` command printed: one per line, most recent first, surrounding
 * spaces and empty lines dropped. A line with a control character or over 256 bytes is not
 * an id and is left out; at most kMaxSessionIds are kept.
 */
QStringList parseSessionIds(const QByteArray &output);

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/AgentConfig.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::agentperms {

/** @brief "What happens for TOOL: VALUE?" — `bash: rm -rf game`, `read: .env`. */
struct TestQuery
{
    QString surface; ///< a tool (`read`, `bash`, …), or a layer alone: `path`, `external_directory`
    QString value;   ///< the path, the command, the MCP target or the skill name

    /** Reads "SURFACE: VALUE" (or "SURFACE VALUE"); nothing when there is no surface. */
    static std::optional<TestQuery> parse(const QString &text);
};

/** @brief Where the call happens: the agent's home and working directory, inside the sandbox. */
struct TestContext
{
    QString home = QStringLiteral("/home/agent");
    QString cwd; ///< empty: unknown (relative paths are inside, absolute ones outside)
};

/** @brief What one layer of the extension answered, and the rule that made it answer so. */
struct LayerVerdict
{
    QString layer;   ///< path, external_directory, tool, bash
    QString surface; ///< the surface whose rule decided (`*` for the universal fallback)
    QString pattern; ///< the rule's pattern
    QString value;   ///< the value that matched it (the path form, the command, a bash token)
    QString scope;   ///< global, project, or default (the universal fallback or the built-in ask)
    int line = 0;    ///< the rule's line in its scope's file
    State state = State::Ask;
    bool fallback = false; ///< no rule of the surface matched: the universal `*` (or ask) decided

    /** "bash \"rm -rf *\" (global, line 7)". */
    QString ruleText() const;
};

/** @brief The answer: the merged decision, the layer that made it, and what the tester cannot tell. */
struct TestResult
{
    /** The most restrictive answer of all layers: what happens when every question is approved. */
    State state = State::Ask;
    std::optional<LayerVerdict> decidedBy;
    /**
     * The first layer, in the extension's order, that refuses or asks: where a call stops
     * when nobody answers (a session without a terminal refuses every ask).
     */
    std::optional<LayerVerdict> firstStop;
    QList<LayerVerdict> layers; ///< every layer that had a say, in the extension's order
    /** Where the extension goes further than the tester: compound or wrapped bash, symlinks. */
    QStringList notes;
    /** False when the extension would parse the command further and might decide otherwise. */
    bool certain = true;
};

/**
 * Evaluates @p query against @p config (the merged scopes) the way pi-permission-system
 * documents it: within a surface the last matching pattern wins (`*` matches anything,
 * `/` included, `?` one character, a trailing ` *` also matches the bare command, `~/` and
 * `$HOME/` are the home); the universal `*` (else ask) answers when no pattern of the
 * surface matches; across layers the most restrictive answer wins, and the first layer that
 * gave it is named. The layers run in the extension's order: for a file tool path,
 * external_directory, then the tool's own surface; for bash the arguments' external_directory
 * and path, then the command. A tool denied for every value is hidden from the agent.
 *
 * A path gate fires only when a `path` rule matched; external_directory only for a path
 * outside the working directory. For bash, a single command is matched after its leading
 * `NAME=value` assignments, and its path-shaped arguments go through the path and
 * external_directory layers; a chain, a substitution, a subshell or a redirection is
 * reported as something the extension parses further (@c certain false), and a wrapper
 * (`sudo`, `env`, `sh -c`, `find -exec`, …) is floored to ask unless a rule denies it.
 */
TestResult testCall(const PermissionConfig &config, const TestQuery &query, const TestContext &context = {});

/** @p pattern matches @p value, with the extension's wildcards and home expansion. */
bool wildcardMatches(const QString &pattern, const QString &value, const QString &home);

} // namespace paddock::agentperms

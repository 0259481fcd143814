// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/Jsonc.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::agentperms {

/** The three decisions of pi-permission-system, from the least restrictive to the most. */
enum class State {
    Allow,
    Ask,
    Deny
};

std::optional<State> stateFromName(const QString &name);
QString stateName(State state);
/** allow 0, ask 1, deny 2: across layers the highest wins. */
int restrictiveness(State state);

/** @brief One pattern of a surface's map, or the catch-all a string value stands for. */
struct PatternRule
{
    QString pattern;
    State state = State::Ask;
    QString reason; ///< a deny's `{"action": "deny", "reason": ...}`
    QString scope;  ///< "global" or "project": where the rule was written
    int line = 0;   ///< 1-based line of the pattern in its file, 0 when unknown
};

/**
 * @brief One key of the `permission` object: `*`, `path`, `bash`, `external_directory`, a
 * tool name (`read`, `write`, …), `mcp`, `skill`.
 *
 * A string value (`"read": "allow"`) is the shorthand for `{"*": STATE}` and is kept as one
 * rule with pattern `*` and @c shorthand set, so an edit writes it back in the same form.
 */
struct Surface
{
    QString name;
    bool shorthand = false;
    QList<PatternRule> rules; ///< in the file's order: the last matching one decides
    int line = 0;
};

/**
 * @brief What one config file of pi-permission-system (or the merge of several) says.
 *
 * The global scope is `~/.pi/agent/extensions/pi-permission-system/config.json` (a kit carries
 * it under `files/home/`), the project scope `<cwd>/.pi/extensions/pi-permission-system/
 * config.json`. Read leniently: a value the schema refuses is skipped here and reported by
 * checkConfig().
 */
struct PermissionConfig
{
    QList<Surface> surfaces; ///< in the order the extension iterates them
    bool reviewLog = true;   ///< `permissionReviewLog`
    bool yoloMode = false;   ///< `yoloMode`: every ask is approved

    const Surface *surface(const QString &name) const;
    /** `permission["*"]` as a state, when it is one. */
    std::optional<State> universal() const;
    bool isEmpty() const { return surfaces.isEmpty(); }
};

/** Reads the model out of a parsed config; @p scope labels every rule. */
PermissionConfig configFromJson(const JsonNode &root, const QString &text, const QString &scope);

/**
 * @p lower with @p higher laid over it, as the extension merges its scopes: a string over a
 * string replaces it; two maps merge key by key (a key already there keeps its place and
 * takes the new value, new keys come after); a string and a map, the later one wins whole.
 * Runtime knobs are replaced.
 */
PermissionConfig mergeConfigs(const PermissionConfig &lower, const PermissionConfig &higher);

/** Where the files live, relative to a home or a working directory. */
QString globalConfigRelativePath();  ///< `.pi/agent/extensions/pi-permission-system/config.json`
QString projectConfigRelativePath(); ///< `.pi/extensions/pi-permission-system/config.json`
QString reviewLogRelativePath();     ///< `.pi/agent/extensions/pi-permission-system/logs/…-permission-review.jsonl`
/** In a kit: `files/home/` + the global path. */
QString kitConfigRelativePath();

} // namespace paddock::agentperms

// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's edits of policy.yaml's rules: add, change, remove. Every client (the command
// line, the window, ask mode) goes through these, so one place writes the file and the proxy
// has the change before the caller hears back.
#pragma once

#include "api/Protocol.h"
#include "policy/PolicyStore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>

namespace paddock::sandbox {

/** A time as the daemon's answers carry it: ISO 8601 UTC with milliseconds, null when unset. */
QJsonValue timeJson(const QDateTime &time);

/** A rule as the daemon's answers carry it: id, scope, pattern, decision, origin, program, created, request, method, path. */
QJsonObject ruleJson(const policy::Rule &rule);

/**
 * `policy.add`: `pattern` (or `patterns`, a list: every one is checked before any is written),
 * `decision` (allow|deny, default allow), `scope` (default global), and optionally `method`,
 * `path` (as `--method`/`--path` read them) and `program`. Answers `rules` (each with
 * `existed`), and for the first `rule` and `existed`.
 */
api::Reply addRules(policy::PolicyStore &store, const QJsonObject &params);

/** `policy.update`: `id` and what changes (`pattern`, `decision`, `scope`); methods, paths and program stay. */
api::Reply updateRule(policy::PolicyStore &store, const QJsonObject &params);

/**
 * `policy.remove`: the rule `id`, or every rule whose `pattern` is that pattern in `scope`
 * (default global). Answers `removed`, the count.
 */
api::Reply removeRules(policy::PolicyStore &store, const QJsonObject &params);

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/Jsonc.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace paddock::agentperms {

/**
 * The version of pi-permission-system whose `schemas/permissions.schema.json` checkConfig()
 * follows. The schema itself ships in resources/agentperms/ (MIT, see the NOTICE there).
 */
inline constexpr const char *kSchemaVersion = "20.7.3";

/** @brief One place where a config does not follow the schema. */
struct ConfigProblem
{
    int line = 0;
    int column = 0;
    QStringList field; ///< from the root: {"permission", "bash", "rm -rf *"}
    QString message;   ///< one sentence: what is wrong and what is expected
    bool warning = false;

    /** "LINE:COLUMN: permission.bash["rm -rf *"]: MESSAGE". */
    QString toString() const;
};

/** The keys the schema allows at the top level, in its order. */
QStringList schemaTopLevelKeys();

/**
 * Checks @p root (parsed from @p text) against the extension's schema: the runtime knobs and
 * their types, `permission` (a state or a map of non-empty patterns to a state or to
 * `{"action": "deny", "reason"?: ≤500 characters}`), `shellTools` and
 * `piInfrastructureReadPaths`; nothing else is allowed, as the extension validates strictly.
 * A key written twice is a warning: JSON keeps only the last.
 */
QList<ConfigProblem> checkConfig(const JsonNode &root, const QString &text);

/** True when one of @p problems is not a warning. */
bool hasErrors(const QList<ConfigProblem> &problems);

} // namespace paddock::agentperms

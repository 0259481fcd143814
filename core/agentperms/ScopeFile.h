// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/AgentConfig.h"
#include "agentperms/ConfigSchema.h"
#include "agentperms/ReviewLog.h"
#include "agentperms/RuleTester.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace paddock::agentperms {

/** The largest config file read: far more than any real policy. */
constexpr qint64 kMaxConfigBytes = 256 * 1024;

/**
 * @brief One scope's config file as it is on disk: its text, the model read from it and what
 * the schema says about it.
 *
 * @c root is the folder the file is confined to (a kit, a sandbox's home or workspace) and
 * @c relative its path under it; the file is read and written without following links
 * (ConfinedFile.h), since a sandbox can write both its home and its workspace.
 */
struct ScopeFile
{
    QString scope; ///< global or project
    QString root;
    QString relative;
    bool exists = false;
    QString text;
    PermissionConfig config;
    QList<ConfigProblem> problems;
    QString parseError; ///< "LINE:COLUMN: why" when the text does not parse
    QString readError;  ///< why the file could not be read (a link, too large, …)

    QString path() const { return root + QLatin1Char('/') + relative; }
    bool usable() const { return readError.isEmpty() && parseError.isEmpty(); }
    QJsonObject toJson() const;

    /** Reads the file (a missing file is an empty config). */
    static ScopeFile load(const QString &scope, const QString &root, const QString &relative);
    /** Reads @p text as this scope's content, without touching the disk. */
    void setText(const QString &text);
    /** Writes @p text (checked first: it must parse and follow the schema). */
    bool save(const QString &text, QString *error);
};

/** One line per surface, in order: `bash: * → ask, rm -rf * → deny`; `external_directory: ask`. */
QStringList describeRules(const PermissionConfig &config);

/** @brief One rule to write: `surface[pattern] = state`. */
struct RuleChange
{
    QString surface;
    QString pattern;
    State state = State::Allow;
};

/**
 * The narrowest rules that let @p decision pass under @p config: for each layer that refused
 * it, the exact value (the path as the agent wrote it, the whole command) on that layer's
 * surface. When the tester cannot reproduce the refusal, the exact value on the tool's own
 * surface (bash: the command).
 */
QList<RuleChange> allowRulesFor(const PermissionConfig &config, const AgentDecision &decision,
                                const TestContext &context);

/**
 * The lines that differ between @p before and @p after, in order: [{kind: "-"|"+", line, text}]
 * (`line` numbers the line in its own version), from their longest common run of lines.
 */
QJsonArray lineDiff(const QString &before, const QString &after);

/** TestResult as JSON: {state, decidedBy, firstStop?: {layer, surface, pattern, value, scope, line, state, fallback,
 * rule}, layers, notes, certain}. */
QJsonObject testResultJson(const TestResult &result);

} // namespace paddock::agentperms

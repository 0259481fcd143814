// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "kit/Kit.h"

#include <QList>
#include <QString>

namespace paddock::kit {

/** @brief One `op version` bound of a requires or integrates entry. */
struct V3Bound
{
    QString op; ///< ">=", ">", "<=", "<" or "="
    QString version;
};

/** @brief A `requires`/`integrates` entry: a capability name and the bounds its version must hold. */
struct V3Constraint
{
    QString name; ///< normalised: a bare name is in com.docker.kit/
    QList<V3Bound> bounds;
    QString text; ///< as written, for messages
};

/** @brief A `provides` entry: a normalised name and its version, empty when it states none. */
struct V3Provide
{
    QString name;
    QString version;
    QString text;
};

/** @p name with the default namespace made explicit: `gh` is `com.docker.kit/gh`. */
QString normalisedKitCapability(const QString &name);

/** Orders two versions segment by segment (numbers numerically, other segments lexically): <0, 0, >0. */
int compareV3Versions(const QString &a, const QString &b);

/** `name@version` or `name`. */
Result<V3Provide> parseV3Provide(const QString &entry);

/**
 * `name` or `name OP version[, OP version]…`; a set of bounds no version can hold (conflicting
 * pins, inverted or exclusively touching bounds) is an error.
 */
Result<V3Constraint> parseV3Constraint(const QString &entry);

/** Whether @p provide satisfies @p constraint: an unversioned provide satisfies only a bare name. */
bool satisfies(const V3Provide &provide, const V3Constraint &constraint);

/**
 * Resolves a composition of schemaVersion 3 kits as a closed set: exactly one workload, at most
 * one provider per name, every `requires` met inside the set, no `conflicts` name provided, no
 * present provider outside an `integrates` range. On success, the indexes of @p kits in
 * composition order: the workload first (its layers are the root every mixin lands on), then
 * the mixins with each provider before the kits that require or integrate it, whatever order
 * they were given in. A failure names the kit and the constraint.
 */
Result<QList<int>> resolveComposition(const QList<Kit> &kits);

} // namespace paddock::kit

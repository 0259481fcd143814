// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "kit/Kit.h"
#include "kit/KitLoader.h"

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace paddock::kit {

/** @brief One kit of a composition, as a sandbox keeps it for its life. */
struct ComposedKit
{
    QString name;
    bool workload = false;
    QString reference; ///< the image reference it was loaded from
    QString digest;    ///< its manifest digest
    QString directory; ///< its folder in the library
    QString image;     ///< its layers' image in Paddock's store

    QJsonObject toJson() const;
};

/** @brief A workload and its mixins, resolved and merged into what one sandbox applies. */
struct Composition
{
    /**
     * The workload with every mixin's declarations added in composition order: network lists,
     * credentials, SSH agent grants, variables, lifecycle hooks and files, ports, volumes,
     * privilege, capability outcomes and agent contexts; the sandbox's limits (resources@1) and
     * interactive tail (lifecycle@1), which one kit states. Named `workload+mixin+...`, the scope
     * its network rules and host-grant approvals are kept under.
     */
    Kit kit;
    QList<ComposedKit> parts; ///< in composition order, the workload first

    /** The mixins' stored images, in composition order (the last lands on top). */
    QStringList mixinImages() const;
    QJsonArray partsJson() const;
};

/**
 * Resolves @p kits (schemaVersion 3) as a closed set (resolveComposition()) and merges them
 * in composition order as the specification combines each declaration: lists are united,
 * hooks and files concatenate, an instance (a credential's service, an SSH agent phase, a
 * port, a volume path, a variable) declared twice differently is an error, and so is one
 * file path written twice, two interactive tails or two different resources@1. An error names
 * the kits and what they disagree on.
 */
Result<Composition> composeKits(const QList<Kit> &kits);

/** Loads the kits in @p directories with @p options (each takes the arguments it declares), then composeKits(). */
Result<Composition> loadComposition(const QStringList &directories, const KitLoadOptions &options);

} // namespace paddock::kit

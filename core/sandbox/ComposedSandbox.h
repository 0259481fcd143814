// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"
#include "kit/Kit.h"
#include "sandbox/SandboxCreation.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace paddock::sandbox {

struct CreateRequest;

/**
 * The kit a create applies: the one in `kit`, or, with `mixins`, the workload and mixins
 * resolved and merged (kit::composeKits()), whose parts go to @p composition. Refused with
 * @p refusal (`invalid-kit`), naming the kit and constraint, before anything is made.
 */
std::optional<kit::Kit> loadCreationKit(const CreateRequest &request, QJsonArray *composition, api::Reply *refusal);

/** Why a composition is refused on a container engine, and the fix. */
inline QString compositionNeedsBwrap()
{
    return QStringLiteral("a composition of kits runs under bubblewrap only: Paddock does not build the composed "
                          "image for a container engine; run it with --backend bwrap");
}

/**
 * Stacks a composition's mixins over the workload's root for @p runtime: under bubblewrap,
 * each mixin's layers from Paddock's store over the image's, the last mixin on top, and its
 * image's variables over the image's (PATH extended). A container engine is refused: the
 * composed image is not built for it.
 */
bool stackMixins(CreationPlan &plan, const QString &runtime, api::Reply *refusal);

} // namespace paddock::sandbox

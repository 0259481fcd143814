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

/**
 * The layers of a root, top-most first: @p mixinsTopFirst over @p workloadTopFirst, each layer
 * once (overlayfs refuses one twice). A mixin built FROM the workload's base has that base's
 * layers too: they stay at the workload's place, under its own layers, whose changes to the
 * base's files a copy stacked higher would undo (the Docker engine skips them likewise).
 */
QStringList stackedLayers(const QStringList &mixinsTopFirst, const QStringList &workloadTopFirst);

/**
 * Stacks a composition's mixins over the workload's root for @p runtime: each mixin's layers
 * from Paddock's store over the image's, the last mixin on top, and its image's variables over
 * the image's (PATH extended). Under bubblewrap the layers join the sandbox's overlay; on a
 * container engine the kit's image becomes the composition's (composedImageTag()), which
 * composedImageIntoEngine() gives the engine at creation.
 */
bool stackMixins(CreationPlan &plan, const QString &runtime, api::Reply *refusal);

} // namespace paddock::sandbox

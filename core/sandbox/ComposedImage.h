// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QString>
#include <QStringList>

namespace paddock::runtime {
class DockerRuntime;
namespace docker {
class DockerClient;
}
} // namespace paddock::runtime

namespace paddock::sandbox {

struct CreationPlan;

/**
 * The name a container engine knows a composition's image by: `paddock/composed:HEX`, HEX the
 * SHA-256 of the workload's image id @p workloadId and the mixins' image ids @p mixinIds in
 * composition order. The same kits name the same image, which is built once and then reused.
 */
QString composedImageTag(const QString &workloadId, const QStringList &mixinIds);

/** Whether @p image names a composition's image (composedImageTag()). */
bool isComposedImage(const QString &image);

/**
 * Gives @p client's engine the image @p plan's composition runs (its kit's image, a
 * composedImageTag()), unless the engine has it: built FROM the workload's image
 * (plan.engineImage, which the engine has) with each mixin's layers from Paddock's image store
 * copied over it in composition order, bottom first, as bubblewrap stacks them. A layer's
 * whiteouts (what it deletes from the layers under it) are removed by a `RUN rm` before its
 * files are copied, which needs `rm` in the workload's image. What it did goes to @p notes.
 */
Result<void> composedImageIntoEngine(const runtime::docker::DockerClient &client, const CreationPlan &plan,
                                     QStringList *notes);

/** The composition image (composedImageTag()) sandbox @p name's container runs on @p engine, or empty. */
QString composedImageOf(runtime::DockerRuntime &engine, const QString &name);

/**
 * Removes composition image @p image from @p client's engine, with the steps its build left,
 * once no container uses it (the engine refuses while one does: another sandbox of the same
 * kits). The next sandbox of those kits builds it again. Adds a line to @p notes when removed.
 */
void removeComposedImageIfUnused(const runtime::docker::DockerClient &client, const QString &image, QStringList *notes);

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox made from a composition of v3 kits: the workload and its mixins merged into the kit
// it applies, and the mixins' layers stacked over the workload's root (on a container engine, in
// an image made for it: ComposedImage).
#include "sandbox/ComposedSandbox.h"

#include "sandbox/ComposedImage.h"

#include "image/ImageStore.h"
#include "kit/KitComposition.h"
#include "kit/KitLoader.h"
#include "sandbox/CreateRequest.h"

#include <QDir>

#include <algorithm>

namespace paddock::sandbox {
namespace {

api::Reply refuse(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidKit), message);
}

/** @p env with @p over's variables set over it; a PATH gains the elements it lacks, at its end. */
QStringList variablesOver(QStringList env, const QStringList &over)
{
    for (const QString &entry : over) {
        const QString name = entry.section(QLatin1Char('='), 0, 0);
        const auto same = std::find_if(env.begin(), env.end(), [&name](const QString &have) {
            return have.section(QLatin1Char('='), 0, 0) == name;
        });
        if (same == env.end()) {
            env << entry;
        } else if (name == QLatin1String("PATH")) {
            QStringList elements = same->section(QLatin1Char('='), 1).split(QLatin1Char(':'));
            for (const QString &element : entry.section(QLatin1Char('='), 1).split(QLatin1Char(':')))
                if (!element.isEmpty() && !elements.contains(element))
                    elements << element;
            *same = QStringLiteral("PATH=") + elements.join(QLatin1Char(':'));
        } else {
            *same = entry;
        }
    }
    return env;
}

} // namespace

std::optional<kit::Kit> loadCreationKit(const CreateRequest &request, QJsonArray *composition, api::Reply *refusal)
{
    if (request.mixinDirectories.isEmpty()) {
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(request.kitDirectory, request.kitLoadOptions());
        if (loaded.ok())
            return *loaded.kit;
        QStringList problems;
        for (const kit::Diagnostic &diagnostic : loaded.diagnostics)
            problems << diagnostic.toString();
        *refusal = refuse(QStringLiteral("the kit in %1 cannot be used:\n%2")
                              .arg(request.kitDirectory, problems.join(QLatin1Char('\n'))));
        return std::nullopt;
    }
    const Result<kit::Composition> composed =
        kit::loadComposition(QStringList{request.kitDirectory} + request.mixinDirectories, request.kitLoadOptions());
    if (!composed) {
        *refusal = refuse(QStringLiteral("the kits do not compose: %1").arg(composed.errorText()));
        return std::nullopt;
    }
    *composition = composed->partsJson();
    return composed->kit;
}

QStringList stackedLayers(const QStringList &mixinsTopFirst, const QStringList &workloadTopFirst)
{
    QStringList bottomFirst = mixinsTopFirst + workloadTopFirst;
    std::reverse(bottomFirst.begin(), bottomFirst.end());
    bottomFirst.removeDuplicates(); // keeps the first, bottom-most, of each
    return QStringList(bottomFirst.crbegin(), bottomFirst.crend());
}

bool stackMixins(CreationPlan &plan, const QString &runtime, api::Reply *refusal)
{
    if (plan.composition.isEmpty())
        return true;
    const bool engine = runtime != QLatin1String("bwrap");
    if (engine ? plan.engineImage.isEmpty() || !plan.kit.sandbox : !plan.image) {
        *refusal = refuse(QStringLiteral("the workload's image is no longer in Paddock's image store: load the kit "
                                         "again (paddock kit load FILE)"));
        return false;
    }
    const image::ImageStore store;
    QList<QStringList> stacked; // bottom first
    QStringList mixinIds;
    for (const QJsonValue &value : std::as_const(plan.composition)) {
        const QJsonObject part = value.toObject();
        if (part.value(QLatin1String("kind")).toString() != QLatin1String("mixin"))
            continue;
        const QString id = part.value(QLatin1String("image")).toString();
        if (id.isEmpty())
            continue; // a declaration-only mixin (paddock kit build): no layers of its own
        const std::optional<image::StoredImage> image = store.find(id);
        if (!image) {
            *refusal = refuse(QStringLiteral("mixin %1's layers are not in Paddock's image store: load the kit again "
                                             "(paddock kit load FILE)")
                                  .arg(part.value(QLatin1String("name")).toString()));
            return false;
        }
        stacked.prepend(image->layersTopFirst());
        mixinIds << image->id;
        plan.imageConfig.env = variablesOver(plan.imageConfig.env, image->config.env);
    }
    if (engine) {
        // The engine runs an image of the workload's with the mixins' layers over it, made at creation.
        if (!mixinIds.isEmpty())
            plan.kit.sandbox->image = composedImageTag(plan.engineImage, mixinIds);
        return true;
    }
    plan.mixinLayers.clear();
    for (const QStringList &layers : std::as_const(stacked))
        plan.mixinLayers += layers;
    return true;
}

} // namespace paddock::sandbox

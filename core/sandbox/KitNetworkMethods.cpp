// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitNetworkMethods.h"

#include "api/Server.h"
#include "kit/KitEditor.h"
#include "kit/KitLoader.h"
#include "sandbox/PolicyService.h"
#include "sandbox/SandboxService.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcKitNetworkMethods, "paddock.sandbox.kitnetwork", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply refused(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kKitFailed), message);
}

/** The kit's `name:` as the saved file gives it, for the sandboxes made from it. */
QString kitNameOf(const QString &specFile)
{
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(QFileInfo(specFile).absolutePath(), {});
    return loaded.kit ? loaded.kit->name : QString();
}

api::Reply edit(api::Server &server, SandboxService &sandboxes, const QJsonObject &params)
{
    const QString kitPath = params.value(QLatin1String("kit")).toString();
    if (!QDir::isAbsolutePath(kitPath))
        return invalid(QStringLiteral("the kit must be an absolute folder or spec.yaml"));
    const QString listName = params.value(QLatin1String("list")).toString();
    if (listName != QLatin1String("allow") && listName != QLatin1String("deny"))
        return invalid(QStringLiteral("the list is allow or deny, not '%1'").arg(listName));
    const kit::NetworkList list = listName == QLatin1String("allow") ? kit::NetworkList::Allow : kit::NetworkList::Deny;
    const bool remove = params.value(QLatin1String("remove")).toBool();
    QStringList patterns;
    for (const QJsonValue &value : params.value(QLatin1String("patterns")).toArray())
        patterns << value.toString();
    if (patterns.isEmpty() || patterns.contains(QString()))
        return invalid(QStringLiteral("at least one pattern is required, none empty"));

    QString error;
    std::optional<kit::KitEditor> editor = kit::KitEditor::open(kitPath, &error);
    if (!editor)
        return refused(error);
    QJsonArray reports;
    bool changed = false;
    for (const QString &pattern : std::as_const(patterns)) {
        const kit::KitEditResult result =
            remove ? editor->removeNetworkPattern(list, pattern) : editor->addNetworkPattern(list, pattern);
        if (result.failed())
            return refused(QStringLiteral("%1 was not changed: %2").arg(editor->filePath(), result.message));
        changed |= result.changed();
        reports.append(QStringLiteral("%1 in %2").arg(result.message, editor->filePath()));
    }
    if (changed && !editor->save(&error))
        return refused(error);

    const QString kitName = kitNameOf(editor->filePath());
    if (changed && !kitName.isEmpty()) {
        qCInfo(lcKitNetworkMethods).noquote() << "permissions.network." + listName << "of kit" << kitName << "edited";
        // An error here only says no sandbox of the kit runs: the file is what they will read.
        if (sandboxes.reloadKitRules(kitName).ok())
            server.publish(PolicyService::policyTopic(),
                           {{QStringLiteral("changed"), QStringLiteral("kit")}, {QStringLiteral("kit"), kitName}});
    }
    return api::Reply::success(
        {{QStringLiteral("file"), editor->filePath()},
         {QStringLiteral("changed"), changed},
         {QStringLiteral("reports"), reports},
         {QStringLiteral("kit"), kitName},
         {QStringLiteral("deny"), QJsonArray::fromStringList(editor->networkPatterns(kit::NetworkList::Deny))}});
}

} // namespace

void registerKitNetworkMethods(api::Server &server, SandboxService &sandboxes)
{
    server.registerMethod(QStringLiteral("kit.network.edit"),
                          [&server, &sandboxes](const QJsonObject &params, const api::CallContext &) {
                              return edit(server, sandboxes, params);
                          });
}

} // namespace paddock::sandbox

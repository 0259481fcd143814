// SPDX-License-Identifier: GPL-3.0-or-later
// AgentPermsService: the config files of a kit or a sandbox, their edits and the rule tester.
#include "api/Server.h"
#include "kit/KitLoader.h"
#include "sandbox/AgentPermsService.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcAgentPerms)

namespace paddock::sandbox {

using namespace agentperms;

namespace {

api::Reply badParams(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

/** What an agentperms::ConfigEditor call answered (@p done, or @p error), as a Result. */
Result<void> editorAnswer(bool done, const QString &error)
{
    if (!done)
        return fail(error);
    return {};
}

} // namespace

Result<AgentPermsService::Target> AgentPermsService::targetOf(const QJsonObject &params) const
{
    Target target;
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    if (!sandbox.isEmpty()) {
        const std::optional<Places> places = placesOf(sandbox);
        if (!places)
            return fail(QStringLiteral("no sandbox is called %1").arg(sandbox));
        target.places = *places;
        target.isSandbox = true;
        return target;
    }
    const QString kit = params.value(QLatin1String("kit")).toString();
    if (kit.isEmpty() || !QDir::isAbsolutePath(kit) || !QFileInfo(kit + QStringLiteral("/spec.yaml")).isFile())
        return fail(kit.isEmpty() ? QStringLiteral("name a kit (an absolute folder) or a sandbox")
                                  : QStringLiteral("%1 is not a kit folder (no spec.yaml)").arg(kit));
    target.places.kitDirectory = QDir::cleanPath(kit);
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(target.places.kitDirectory);
    target.places.kitName = loaded.kit ? loaded.kit->name : QFileInfo(kit).fileName();
    return target;
}

Result<ScopeFile> AgentPermsService::scopeFile(const Target &target, const QString &scope) const
{
    if (scope == QLatin1String("global")) {
        if (target.places.kitDirectory.isEmpty() || !QFileInfo(target.places.kitDirectory).isDir())
            return fail(QStringLiteral("the kit of %1 is no longer where it was made from").arg(target.places.sandbox));
        return ScopeFile::load(scope, target.places.kitDirectory, kitConfigRelativePath());
    }
    if (scope == QLatin1String("project")) {
        if (!target.isSandbox || target.places.workspace.isEmpty()) {
            return fail(QStringLiteral("a project scope belongs to a sandbox's workspace; name a sandbox"));
        }
        return ScopeFile::load(scope, target.places.workspace, projectConfigRelativePath());
    }
    return fail(QStringLiteral("scope is 'global' or 'project', not '%1'").arg(scope));
}

api::Reply AgentPermsService::configReply(const QJsonObject &params) const
{
    const Result<Target> target = targetOf(params);
    if (!target)
        return badParams(target.error().text());
    QJsonObject result{{QStringLiteral("kit"), target->places.kitName},
                       {QStringLiteral("kitDirectory"), target->places.kitDirectory},
                       {QStringLiteral("schemaVersion"), QLatin1String(kSchemaVersion)}};
    if (const Result<ScopeFile> global = scopeFile(*target, QStringLiteral("global")); global.ok())
        result.insert(QStringLiteral("global"), global->toJson());
    if (target->isSandbox) {
        result.insert(QStringLiteral("sandbox"), target->places.sandbox);
        if (const Result<ScopeFile> project = scopeFile(*target, QStringLiteral("project")); project.ok())
            result.insert(QStringLiteral("project"), project->toJson());
        result.insert(
            QStringLiteral("inForce"),
            ScopeFile::load(QStringLiteral("global"), target->places.home, globalConfigRelativePath()).toJson());
    }
    return api::Reply::success(result);
}

api::Reply AgentPermsService::test(const QJsonObject &params) const
{
    const Result<Target> target = targetOf(params);
    if (!target)
        return badParams(target.error().text());
    const std::optional<TestQuery> query = TestQuery::parse(params.value(QLatin1String("query")).toString());
    if (!query)
        return badParams(QStringLiteral("a query is 'TOOL: VALUE', as in 'bash: rm -rf game' or 'read: .env'"));
    PermissionConfig rules;
    if (target->isSandbox) {
        rules = rulesInForce(target->places);
    } else if (const Result<ScopeFile> global = scopeFile(*target, QStringLiteral("global")); global.ok()) {
        rules = global->config;
    }
    QJsonObject result = testResultJson(testCall(rules, *query, contextOf(target->places)));
    result.insert(QStringLiteral("query"), QStringLiteral("%1: %2").arg(query->surface, query->value));
    return api::Reply::success(result);
}

api::Reply AgentPermsService::edit(const QJsonObject &params, const Edit &change, QJsonObject extra)
{
    const Result<Target> target = targetOf(params);
    if (!target)
        return badParams(target.error().text());
    const QString scope = params.value(QLatin1String("scope"))
                              .toString(target->isSandbox ? QStringLiteral("project") : QStringLiteral("global"));
    Result<ScopeFile> file = scopeFile(*target, scope);
    if (!file)
        return badParams(file.error().text());
    if (!file->readError.isEmpty())
        return api::Reply::failure(QLatin1String(api::errors::kAgentConfigFailed), file->readError);
    ConfigEditor editor(file->text);
    if (const Result<void> changed = change(editor); !changed)
        return api::Reply::failure(QLatin1String(api::errors::kAgentConfigFailed), changed.error().text());
    QString error;
    const QString before = file->text;
    const QString after = editor.text();
    const bool changed = before != after;
    extra.insert(QStringLiteral("path"), file->path());
    extra.insert(QStringLiteral("scope"), scope);
    extra.insert(QStringLiteral("changed"), changed);
    extra.insert(QStringLiteral("before"), before);
    extra.insert(QStringLiteral("after"), after);
    extra.insert(QStringLiteral("diff"), lineDiff(before, after));
    if (params.value(QLatin1String("dryRun")).toBool() || !changed)
        return api::Reply::success(extra);
    if (!file->save(after, &error))
        return api::Reply::failure(QLatin1String(api::errors::kAgentConfigFailed), error);
    if (scope == QLatin1String("global"))
        extra.insert(QStringLiteral("homes"), editHomes(target->places.kitDirectory, change));
    qCInfo(lcAgentPerms).noquote() << "changed" << file->path();
    m_server.publish(agentTopic(),
                     {{QStringLiteral("type"), QStringLiteral("changed")}, {QStringLiteral("path"), file->path()}});
    return api::Reply::success(extra);
}

int AgentPermsService::editHomes(const QString &kitDirectory, const Edit &change)
{
    // The extension reads the copy in the home, made when the sandbox was created: the same
    // edit goes there, so the rule holds for the agent's next call.
    int edited = 0;
    for (const auto &[name, followed] : m_followed) {
        if (QDir::cleanPath(followed.places.kitDirectory) != QDir::cleanPath(kitDirectory))
            continue;
        ScopeFile home = ScopeFile::load(QStringLiteral("global"), followed.places.home, globalConfigRelativePath());
        ConfigEditor editor(home.text);
        const Result<void> changed = home.readError.isEmpty() ? change(editor) : fail(home.readError);
        QString error = changed.errorText();
        if (!changed || !home.save(editor.text(), &error)) {
            qCWarning(lcAgentPerms).noquote()
                << "the rules in the home of" << name
                << "stay as they were:" << (home.readError.isEmpty() ? error : home.readError);
            continue;
        }
        ++edited;
    }
    return edited;
}

void AgentPermsService::registerEditMethods()
{
    const auto stateOf = [](const QJsonObject &params) {
        return stateFromName(params.value(QLatin1String("state")).toString());
    };
    m_server.registerMethod(
        QStringLiteral("agent.set"), [this, stateOf](const QJsonObject &params, const api::CallContext &) {
            const std::optional<State> state = stateOf(params);
            const QString surface = params.value(QLatin1String("surface")).toString();
            const QString pattern = params.value(QLatin1String("pattern")).toString();
            if (!state || surface.isEmpty())
                return badParams(QStringLiteral("agent.set takes a surface and a state (allow, ask or deny)"));
            return edit(params, [&](ConfigEditor &editor) {
                QString error;
                const bool set = pattern.isEmpty() ? editor.setSurface(surface, *state, &error)
                                                   : editor.setRule(surface, pattern, *state, &error);
                return editorAnswer(set, error);
            });
        });
    m_server.registerMethod(
        QStringLiteral("agent.remove"), [this](const QJsonObject &params, const api::CallContext &) {
            const QString surface = params.value(QLatin1String("surface")).toString();
            const QString pattern = params.value(QLatin1String("pattern")).toString();
            if (surface.isEmpty())
                return badParams(QStringLiteral("agent.remove takes a surface"));
            return edit(params, [&](ConfigEditor &editor) {
                QString error;
                const bool removed = pattern.isEmpty() ? editor.removeSurface(surface, &error)
                                                       : editor.removeRule(surface, pattern, &error);
                return editorAnswer(removed, error);
            });
        });
    m_server.registerMethod(QStringLiteral("agent.move"), [this](const QJsonObject &params, const api::CallContext &) {
        const QString surface = params.value(QLatin1String("surface")).toString();
        const QString pattern = params.value(QLatin1String("pattern")).toString();
        const int index = params.value(QLatin1String("index")).toInt(-1);
        if (surface.isEmpty() || pattern.isEmpty() || index < 0)
            return badParams(QStringLiteral("agent.move takes a surface, a pattern and an index"));
        return edit(params, [&](ConfigEditor &editor) {
            QString error;
            return editorAnswer(editor.moveRule(surface, pattern, index, &error), error);
        });
    });
    m_server.registerMethod(QStringLiteral("agent.save"), [this](const QJsonObject &params, const api::CallContext &) {
        const QString text = params.value(QLatin1String("text")).toString();
        return edit(params, [&](ConfigEditor &editor) {
            editor = ConfigEditor(text);
            return Result<void>();
        });
    });
}

} // namespace paddock::sandbox

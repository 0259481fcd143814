// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/BundleMethods.h"

#include "api/Server.h"
#include "bundle/Bundle.h"
#include "common/AtomicFile.h"
#include "policy/HostGrant.h"
#include "policy/PolicyStore.h"
#include "sandbox/Engines.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBundleMethods, "paddock.sandbox.bundle", QtInfoMsg)

namespace paddock::sandbox {
namespace {

constexpr int kListedFiles = 40;

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply refused(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kKitFailed), message);
}

QString describeRule(const bundle::BundleRule &rule)
{
    QString text =
        QStringLiteral("%1 %2 (%3)").arg(policy::verdictName(rule.verdict), rule.pattern, rule.scope.toString());
    if (rule.verdict == policy::Verdict::Allow) {
        if (const std::optional<policy::HostGrant> grant = policy::hostGrantOf(QStringView(rule.pattern)))
            text += QStringLiteral(", a host grant: reaches ") + grant->reachPhrase();
    }
    return text;
}

/** What importing changes in policy.yaml, for the question and the refusal; empty when nothing. */
QStringList policyChanges(const bundle::ImportPlan &plan)
{
    QStringList changes;
    if (!plan.hasPolicy)
        return changes;
    if (plan.presetChanges())
        changes << QStringLiteral("the preset %1 -> %2")
                       .arg(policy::presetName(plan.currentPreset), policy::presetName(plan.newPreset));
    for (const bundle::PlannedRule &rule : plan.rules) {
        if (!rule.alreadyPresent)
            changes << QStringLiteral("the rule ") + describeRule(rule.rule);
    }
    return changes;
}

QJsonArray filesJson(const bundle::OpenedBundle &opened, int *more)
{
    QJsonArray files;
    *more = 0;
    for (const bundle::TarEntry &entry : opened.kitEntries) {
        if (entry.type != bundle::TarEntry::Type::File)
            continue;
        if (files.size() >= kListedFiles) {
            ++*more;
            continue;
        }
        files.append(
            QJsonObject{{QStringLiteral("path"), entry.path}, {QStringLiteral("executable"), entry.executable}});
    }
    return files;
}

QJsonObject policyJson(const bundle::ImportPlan &plan)
{
    QJsonArray rules;
    for (const bundle::PlannedRule &rule : plan.rules)
        rules.append(QJsonObject{{QStringLiteral("description"), describeRule(rule.rule)},
                                 {QStringLiteral("alreadyPresent"), rule.alreadyPresent}});
    return {{QStringLiteral("hasPolicy"), plan.hasPolicy},
            {QStringLiteral("presetChanges"), plan.presetChanges()},
            {QStringLiteral("currentPreset"), policy::presetName(plan.currentPreset)},
            {QStringLiteral("newPreset"), policy::presetName(plan.newPreset)},
            {QStringLiteral("rules"), rules},
            {QStringLiteral("policyChanges"), QJsonArray::fromStringList(policyChanges(plan))}};
}

QJsonObject planJson(const bundle::OpenedBundle &opened, const bundle::ImportPlan &plan)
{
    QJsonObject result = policyJson(plan);
    int more = 0;
    const QJsonArray files = filesJson(opened, &more);
    QJsonArray secrets;
    for (const bundle::BundleSecret &secret : plan.secrets)
        secrets.append(QJsonObject{{QStringLiteral("service"), secret.service},
                                   {QStringLiteral("description"), secret.description},
                                   {QStringLiteral("required"), secret.required},
                                   {QStringLiteral("domains"), QJsonArray::fromStringList(secret.domains)}});
    QJsonArray grants;
    for (const policy::HostGrant &grant : policy::hostGrantsOf(opened.kit.networkAllow))
        grants.append(
            QJsonObject{{QStringLiteral("pattern"), grant.pattern}, {QStringLiteral("reach"), grant.reachPhrase()}});
    const QString engine = opened.manifest.engine;
    const QJsonObject fields{
        {QStringLiteral("kit"),
         QJsonObject{{QStringLiteral("name"), opened.kit.name}, {QStringLiteral("version"), opened.kit.version}}},
        {QStringLiteral("createdBy"), opened.manifest.createdBy},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(opened.warnings)},
        {QStringLiteral("notes"), plan.notes},
        {QStringLiteral("engine"), engine},
        {QStringLiteral("engineKnown"), !engine.isEmpty() && EngineList::read().find(engine).has_value()},
        {QStringLiteral("destination"), plan.destination},
        {QStringLiteral("replacesExisting"), plan.replacesExisting},
        {QStringLiteral("fileCount"), plan.fileCount},
        {QStringLiteral("bytes"), plan.bytes},
        {QStringLiteral("files"), files},
        {QStringLiteral("moreFiles"), more},
        {QStringLiteral("hasAgentRules"), plan.hasAgentRules},
        {QStringLiteral("agentRules"), QJsonArray::fromStringList(plan.agentRules)},
        {QStringLiteral("agentRuleProblems"), QJsonArray::fromStringList(plan.agentRuleProblems)},
        {QStringLiteral("secrets"), secrets},
        {QStringLiteral("hostGrants"), grants},
        {QStringLiteral("hasDockerfile"), plan.hasDockerfile},
        {QStringLiteral("image"), plan.image}};
    for (auto it = fields.begin(); it != fields.end(); ++it)
        result.insert(it.key(), it.value());
    return result;
}

/** The bundle of @p params opened and planned, or the failure to answer with. */
struct Planned
{
    std::optional<bundle::OpenedBundle> opened;
    std::optional<bundle::ImportPlan> plan;
    bundle::ImportOptions options;
};

std::variant<Planned, api::Reply> openAndPlan(const QJsonObject &params, const QString &policyPath)
{
    const QString file = params.value(QLatin1String("file")).toString();
    const QString into = params.value(QLatin1String("into")).toString();
    if (!QDir::isAbsolutePath(file))
        return invalid(QStringLiteral("the bundle must be named by an absolute path"));
    if (!into.isEmpty() && !QDir::isAbsolutePath(into))
        return invalid(QStringLiteral("the kit folder to create must be an absolute path"));
    bundle::OpenResult opened = bundle::openBundle(file);
    if (!opened.bundle)
        return api::Reply::failure(QLatin1String(api::errors::kBundleRefused), opened.error);
    Planned planned;
    planned.options.destination = into;
    planned.options.replace = params.value(QLatin1String("replace")).toBool();
    planned.options.policyPath = policyPath;
    QString error;
    planned.plan = bundle::planImport(*opened.bundle, planned.options, &error);
    if (!planned.plan)
        return refused(error);
    planned.opened = std::move(opened.bundle);
    return planned;
}

api::Reply preview(const QJsonObject &params, const QString &policyPath)
{
    std::variant<Planned, api::Reply> planned = openAndPlan(params, policyPath);
    if (const api::Reply *failed = std::get_if<api::Reply>(&planned))
        return *failed;
    const Planned &ready = std::get<Planned>(planned);
    return api::Reply::success(planJson(*ready.opened, *ready.plan));
}

api::Reply import(const QJsonObject &params, policy::PolicyStore &store)
{
    std::variant<Planned, api::Reply> planned = openAndPlan(params, store.path());
    if (const api::Reply *failed = std::get_if<api::Reply>(&planned))
        return *failed;
    Planned &ready = std::get<Planned>(planned);
    if (!params.value(QLatin1String("applyPolicy")).toBool())
        ready.plan->hasPolicy = false;
    QString error;
    if (!bundle::applyImport(*ready.opened, *ready.plan, ready.options, &error))
        return refused(error);
    if (ready.plan->hasPolicy)
        store.reloadNow(); // its change signal puts the rules in force before the answer
    qCInfo(lcBundleMethods).noquote() << "imported kit" << ready.opened->kit.name << "into" << ready.plan->destination
                                      << (ready.plan->hasPolicy ? "with its policy" : "");
    QJsonObject result = planJson(*ready.opened, *ready.plan);
    result.insert(QStringLiteral("imported"), true);
    result.insert(QStringLiteral("rulesAdded"), ready.plan->rulesToAdd());
    return api::Reply::success(result);
}

api::Reply exportBundle(const QJsonObject &params, const QString &policyPath)
{
    bundle::ExportRequest request;
    request.kitDir = params.value(QLatin1String("kit")).toString();
    QString output = params.value(QLatin1String("output")).toString();
    const QString folder = params.value(QLatin1String("folder")).toString();
    if (!QDir::isAbsolutePath(request.kitDir) || !QDir::isAbsolutePath(output.isEmpty() ? folder : output))
        return invalid(QStringLiteral("the kit's folder and the file to write must be absolute paths"));
    request.includePolicy = params.value(QLatin1String("policy")).toBool();
    request.policyPath = policyPath;
    request.notes = params.value(QLatin1String("notes")).toString();
    request.engine = params.value(QLatin1String("engine")).toString();
    const bundle::ExportResult result = bundle::exportBundle(request);
    if (!result.ok())
        return refused(result.error);
    if (output.isEmpty())
        output = QDir(folder).filePath(result.manifest.kitName + QStringLiteral(".paddock"));
    QString error;
    if (!writeFileAtomically(output, result.archive, &error))
        return refused(QStringLiteral("cannot write %1: %2").arg(output, error));
    QJsonObject answer{{QStringLiteral("output"), output},
                       {QStringLiteral("kit"), result.manifest.kitName},
                       {QStringLiteral("fileCount"), result.fileCount},
                       {QStringLiteral("bytes"), result.bytes},
                       {QStringLiteral("engine"), result.manifest.engine}};
    if (result.manifest.policy)
        answer.insert(QStringLiteral("policy"),
                      QJsonObject{{QStringLiteral("preset"), policy::presetName(result.manifest.policy->preset)},
                                  {QStringLiteral("rules"), result.manifest.policy->rules.size()}});
    QStringList services;
    for (const bundle::BundleSecret &secret : result.manifest.secrets)
        services << secret.service;
    answer.insert(QStringLiteral("secrets"), QJsonArray::fromStringList(services));
    qCInfo(lcBundleMethods).noquote() << "exported kit" << result.manifest.kitName << "to" << output;
    return api::Reply::success(answer);
}

} // namespace

void registerBundleMethods(api::Server &server, policy::PolicyStore &policyStore)
{
    policy::PolicyStore *store = &policyStore;
    server.registerMethod(
        QStringLiteral("bundle.preview"),
        [store](const QJsonObject &params, const api::CallContext &) { return preview(params, store->path()); });
    server.registerMethod(
        QStringLiteral("bundle.import"),
        [store](const QJsonObject &params, const api::CallContext &) { return import(params, *store); });
    server.registerMethod(
        QStringLiteral("bundle.export"),
        [store](const QJsonObject &params, const api::CallContext &) { return exportBundle(params, store->path()); });
}

} // namespace paddock::sandbox

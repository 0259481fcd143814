// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/PolicyCheck.h"

#include "api/Server.h"
#include "kit/KitLoader.h"
#include "policy/PolicyEngine.h"
#include "policy/PolicyStore.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include <QHostInfo>
#include <QJsonArray>

#include <memory>
#include <variant>

namespace paddock::sandbox {
namespace {

/** The host part of a check target: `host`, `host:port`, `[v6]:port`. */
QString targetHost(const QString &target)
{
    if (target.startsWith(QLatin1Char('[')))
        return target.mid(1, target.indexOf(QLatin1Char(']')) - 1);
    if (target.count(QLatin1Char(':')) == 1)
        return target.section(QLatin1Char(':'), 0, 0);
    return target;
}

/** What a check decides with: the daemon's engine, or one with a kit's rules added for this check. */
struct CheckEngine
{
    std::shared_ptr<policy::PolicyEngine> own; ///< set when a kit was given
    policy::PolicyEngine *engine = nullptr;
    QString kitName;
    QJsonArray warnings;
};

/** The engine for @p params, or the reply that says why there is none. */
std::variant<CheckEngine, api::Reply> engineFor(SandboxService &sandboxes, const QJsonObject &params)
{
    CheckEngine check;
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    const QString kitDir = params.value(QLatin1String("kit")).toString();
    if (kitDir.isEmpty()) {
        // A running sandbox's kit rules are in the daemon's engine under its kit's name.
        check.engine = &sandboxes.policyStore().engine();
        if (!sandbox.isEmpty() && sandboxes.runningSandboxes().contains(sandbox)) {
            if (const std::optional<SandboxRecord> record = SandboxRecord::read(sandbox))
                check.kitName = record->kitName;
        }
        return check;
    }
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, {});
    if (!loaded.ok()) {
        QStringList problems{QStringLiteral("the kit in %1 does not load").arg(kitDir)};
        for (const kit::Diagnostic &diagnostic : loaded.diagnostics)
            problems << diagnostic.toString();
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit), problems.join(QLatin1Char('\n')));
    }
    check.kitName = loaded.kit->name;
    const policy::KitRules rules =
        policy::kitNetworkRules(check.kitName, loaded.kit->networkAllow, loaded.kit->networkDeny);
    for (const QString &problem : rules.errors)
        check.warnings << QStringLiteral("ignoring the kit's pattern %1").arg(problem);
    check.own = std::make_shared<policy::PolicyEngine>();
    check.own->setPolicy(sandboxes.policyStore().policy());
    check.own->setKitRules(check.kitName, rules.rules);
    check.engine = check.own.get();
    return check;
}

QJsonObject answerOf(const policy::Explanation &explanation, const QString &note, const QJsonArray &warnings)
{
    const policy::Decision &decision = explanation.decision;
    QJsonObject answer{{QStringLiteral("allowed"), decision.allowed},    {QStringLiteral("host"), decision.host},
                       {QStringLiteral("port"), decision.port},          {QStringLiteral("rule"), decision.ruleLabel()},
                       {QStringLiteral("basis"), decision.basisToken()}, {QStringLiteral("reason"), decision.reason()}};
    if (!explanation.fix.isEmpty())
        answer.insert(QStringLiteral("fix"), explanation.fix);
    if (!note.isEmpty())
        answer.insert(QStringLiteral("note"), note);
    if (!warnings.isEmpty())
        answer.insert(QStringLiteral("warnings"), warnings);
    return answer;
}

void check(SandboxService &sandboxes, const QJsonObject &params, const api::PendingReply &reply)
{
    const QString target = params.value(QLatin1String("target")).toString().trimmed();
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    if (target.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), QStringLiteral("policy.check needs a target"));
    auto found = engineFor(sandboxes, params);
    if (const auto *failed = std::get_if<api::Reply>(&found))
        return reply.complete(*failed);
    const CheckEngine engine = std::get<CheckEngine>(std::move(found));
    const policy::Explanation explanation = engine.engine->check(target, sandbox, engine.kitName);
    if (explanation.decision.basis == policy::Decision::Basis::InvalidHost)
        return reply.fail(QLatin1String(api::errors::kInvalidParams), explanation.decision.reason());
    // A name the rules allow is resolved as the proxy would (override, else DNS), so the
    // rebinding guard sees the addresses the connection would reach. A refused name is never
    // looked up.
    const QString host = targetHost(target);
    if (!explanation.decision.allowed || policy::IpAddress::parse(host) || engine.engine->resolveOverride(host))
        return reply.succeed(answerOf(explanation, {}, engine.warnings));
    // The service is the lookup's context: no answer comes once it is gone.
    QHostInfo::lookupHost(host, &sandboxes, [engine, explanation, target, sandbox, host, reply](const QHostInfo &info) {
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            const QString note = QStringLiteral("%1 does not resolve here (%2); the proxy would answer 502")
                                     .arg(host, info.errorString());
            return reply.succeed(answerOf(explanation, note, engine.warnings));
        }
        reply.succeed(
            answerOf(engine.engine->check(target, sandbox, engine.kitName, info.addresses()), {}, engine.warnings));
    });
}

} // namespace

void registerPolicyCheck(api::Server &server, SandboxService &sandboxes)
{
    server.registerAsyncMethod(QStringLiteral("policy.check"),
                               [&sandboxes](const QJsonObject &params, const api::CallContext &,
                                            const api::PendingReply &reply) { check(sandboxes, params, reply); });
}

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
// Learning mode, ask mode and policy proposals: the daemon methods `sandbox.learning`,
// `sandbox.ask` and `policy.proposal` of SandboxService (documented in SandboxService.h).
#include "api/Server.h"
#include "events/EventStore.h"
#include "sandbox/AskService.h"
#include "sandbox/LearningProposal.h"
#include "sandbox/SandboxService.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcLearning, "paddock.sandbox.learning", QtInfoMsg)

namespace paddock::sandbox {

void SandboxService::registerLearningMethods()
{
    // The two modes are switched alike: {name, enabled}, answered with the sandbox's INFO.
    const auto registerMode = [this](const QString &method, const char *label,
                                     std::function<void(const QString &, bool)> apply) {
        m_server.registerMethod(
            method, [this, method, label, apply](const QJsonObject &params, const api::CallContext &) {
                const QString name = params.value(QLatin1String("name")).toString();
                const QJsonValue enabled = params.value(QLatin1String("enabled"));
                if (!enabled.isBool())
                    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                               QStringLiteral("%1 needs enabled: true or false").arg(method));
                const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
                if (!runtime)
                    return api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                               QStringLiteral("no sandbox named %1").arg(name));
                apply(name, enabled.toBool());
                qCInfo(lcLearning) << label << (enabled.toBool() ? "on" : "off") << "for" << name;
                return api::Reply::success({{QStringLiteral("sandbox"), infoJson(*runtime->inspect(name))}});
            });
    };
    registerMode(QStringLiteral("sandbox.learning"), "learning mode",
                 [this](const QString &name, bool on) { m_modes->setLearning(name, on); });
    registerMode(QStringLiteral("sandbox.ask"), "ask mode", [this](const QString &name, bool on) {
        m_modes->setAsking(name, on);
        if (!on)
            m_proxy.recheck(); // what it holds is refused now, as the default says
        // A window's switch follows a change made elsewhere (the CLI, another window).
        m_server.publish(AskService::asksTopic(), {{QStringLiteral("change"), QStringLiteral("mode")},
                                                   {QStringLiteral("sandbox"), name},
                                                   {QStringLiteral("asking"), on}});
    });

    m_server.registerMethod(QStringLiteral("policy.proposal"), [this](const QJsonObject &params,
                                                                      const api::CallContext &) {
        const QString name = params.value(QLatin1String("sandbox")).toString();
        if (name.isEmpty())
            return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                       QStringLiteral("policy.proposal needs a sandbox"));
        events::EventFilter filter;
        filter.sandbox = name;
        filter.includeLearned = true;
        if (params.contains(QLatin1String("since"))) {
            filter.since = QDateTime::fromString(params.value(QLatin1String("since")).toString(), Qt::ISODateWithMs);
            if (!filter.since.isValid())
                return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                           QStringLiteral("since must be an ISO 8601 time"));
        }
        // The kit of the sandbox decides which kit rules count; a removed sandbox is still
        // in the log under the kit it last ran.
        QString kit;
        if (const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name))
            kit = runtime->inspect(name)->kitName;
        if (!m_hub)
            return api::Reply::failure(QLatin1String(api::errors::kInternal), QStringLiteral("no event log"));
        m_hub->flush(); // what the proxy just reported counts too
        events::EventStore store(m_hub->databasePath());
        if (!store.open())
            return api::Reply::failure(QLatin1String(api::errors::kInternal), store.errorString());
        QList<ObservedDestination> observed;
        const bool read = store.forEachEvent(filter, [&](const events::NetworkEvent &event) {
            if (kit.isEmpty())
                kit = event.kit;
            observed.append({event.host, event.port, 1, event.time});
            return true;
        });
        if (!read)
            return api::Reply::failure(QLatin1String(api::errors::kInternal), store.errorString());
        QJsonObject result = proposePolicy(observed, m_policy.engine(), name, kit).toJson();
        result.insert(QStringLiteral("sandbox"), name);
        result.insert(QStringLiteral("kit"), kit);
        return api::Reply::success(result);
    });
}

} // namespace paddock::sandbox

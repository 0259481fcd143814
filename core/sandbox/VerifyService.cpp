// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/VerifyService.h"

#include "agentperms/AgentConfig.h"
#include "api/Server.h"
#include "runtime/Runtime.h"
#include "sandbox/AgentPermsService.h"
#include "sandbox/Checklist.h"
#include "sandbox/SandboxService.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUuid>

#include <thread>

Q_LOGGING_CATEGORY(lcVerify, "paddock.verify", QtInfoMsg)

namespace paddock::sandbox {
namespace {

constexpr qsizetype kMaxRunToken = 64;

} // namespace

QString VerifyService::findCliProgram()
{
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/paddock");
    return QFileInfo(beside).isExecutable() ? beside : QString();
}

VerifyService::VerifyService(api::Server &server, SandboxService &sandboxes, const AgentPermsService *agentPerms,
                             QObject *parent)
    : QObject(parent),
      m_server(server),
      m_sandboxes(sandboxes),
      m_agentPerms(agentPerms),
      m_alive(std::make_shared<int>(0))
{}

VerifyService::~VerifyService() = default;

void VerifyService::start()
{
    m_server.registerTopic(topic());
    m_server.registerAsyncMethod(QStringLiteral("sandbox.verify"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { verify(params, reply); });
}

void VerifyService::verify(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    QString run = params.value(QLatin1String("run")).toString();
    if (name.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), QStringLiteral("sandbox.verify needs a name"));
    if (run.size() > kMaxRunToken)
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("the run token is longer than %1 characters").arg(kMaxRunToken));
    if (run.isEmpty())
        run = QUuid::createUuid().toString(QUuid::WithoutBraces);

    const std::shared_ptr<runtime::Runtime> runtime = m_sandboxes.runtimeOf(name);
    const std::optional<runtime::SandboxInfo> info = runtime ? runtime->inspect(name) : std::nullopt;
    if (!info)
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox), QStringLiteral("no sandbox named %1").arg(name));
    if (info->status != runtime::SandboxStatus::Running)
        return reply.fail(
            QLatin1String(api::errors::kNotRunning),
            QStringLiteral("sandbox %1 is not running; start it with 'paddock start %1' (or 'paddock run') first")
                .arg(name));
    if (m_running.contains(name))
        return reply.fail(QLatin1String(api::errors::kBusy),
                          QStringLiteral("the checklist of %1 is running already; wait for its end").arg(name));

    ChecklistTarget target;
    target.sandbox = name;
    target.kitName = info->kitName;
    target.workspace = info->workspace;
    target.startedAt = info->startedAt;
    target.record = SandboxRecord::read(name);
    // The agent's rules are the daemon's to read: ask them here, before the worker starts.
    const QString kitDir = target.record ? target.record->kitDirectory : QString();
    if (m_agentPerms && !kitDir.isEmpty() &&
        QFileInfo::exists(kitDir + QLatin1Char('/') + agentperms::kitConfigRelativePath()))
        target.agentRules =
            m_agentPerms->test({{QStringLiteral("sandbox"), name}, {QStringLiteral("query"), agentRulesQuery()}});
    VerifyOptions options;
    if (const QString program = findCliProgram(); !program.isEmpty())
        options.keyTest = keyTestThrough(program);

    m_running.insert(name);
    std::weak_ptr<int> alive = m_alive;
    // Detached: the checks are bounded (each command inside, the probe's wait, the key test's
    // timeout), and the daemon must not wait for them to exit.
    std::thread([this, alive, runtime, target, options, run, reply] {
        const int total = int(checkIds().size()) + (target.agentRules ? 1 : 0);
        int index = 0;
        const Checklist checklist = runChecklist(*runtime, target, options, [&](const CheckResult &check) {
            const QJsonObject event{{QStringLiteral("run"), run},
                                    {QStringLiteral("sandbox"), target.sandbox},
                                    {QStringLiteral("kit"), target.kitName},
                                    {QStringLiteral("index"), index++},
                                    {QStringLiteral("total"), total},
                                    {QStringLiteral("check"), check.toJson()}};
            if (alive.expired())
                return;
            QMetaObject::invokeMethod(
                this, [this, event] { m_server.publish(topic(), event); }, Qt::QueuedConnection);
        });
        if (alive.expired())
            return;
        QMetaObject::invokeMethod(
            this,
            [this, name = target.sandbox, result = checklist.toJson(), reply] {
                m_running.remove(name);
                qCInfo(lcVerify) << "checklist of" << name
                                 << (result.value(QLatin1String("passed")).toBool() ? "passed" : "found failures");
                reply.succeed(result);
            },
            Qt::QueuedConnection);
    }).detach();
}

} // namespace paddock::sandbox

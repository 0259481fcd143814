// SPDX-License-Identifier: GPL-3.0-or-later
#include "EnvironmentPlan.h"

#include "env/HostCommandApprovals.h"
#include "kit/KitLibrary.h"
#include "sandbox/SharedFolders.h"
#include "secrets/CredentialBindings.h"

#include <QUrl>

namespace paddock::gui {

EnvironmentPlan::EnvironmentPlan(QObject *parent) : DaemonBound(parent) {}

bool EnvironmentPlan::open(const QString &fileOrUrl)
{
    const QUrl url(fileOrUrl);
    m_file = url.isLocalFile() ? url.toLocalFile() : fileOrUrl;
    m_plan.reset();
    m_kitDirectory.clear();
    m_hostCommands.clear();
    setMessage(QString());
    std::variant<env::Environment, FileError> loaded = env::loadEnvironment(m_file, env::userEnvironmentFile());
    if (const auto *problem = std::get_if<FileError>(&loaded)) {
        m_planText.clear();
        setError(problem->toString());
        Q_EMIT planChanged();
        return false;
    }
    m_plan = env::planEnvironment(std::get<env::Environment>(loaded), sandbox::checkEnvironmentShares);
    QString kitError;
    m_kitDirectory = kit::KitLibrary().resolve(m_plan->kit.source, &kitError).value_or(QString());
    const env::HostCommandApprovals approvals;
    m_planText = env::planText(*m_plan, m_kitDirectory,
                               [&](const env::HostCommand &command) { return approvals.isApproved(command); });
    if (m_kitDirectory.isEmpty())
        m_planText += tr("Refused: %1").arg(kitError) + QLatin1Char('\n');
    for (const env::HostCommand &command : m_plan->env.hostCommands) {
        m_hostCommands << QVariantMap{{QStringLiteral("phase"), command.phase},
                                      {QStringLiteral("name"), command.name},
                                      {QStringLiteral("command"), command.command},
                                      {QStringLiteral("approved"), approvals.isApproved(command)}};
    }
    setError(QString());
    Q_EMIT planChanged();
    return true;
}

bool EnvironmentPlan::approveTicked(const QVariantList &ticked)
{
    // The file is read again: what runs is what it says now, and it must be what was shown.
    const QVariantList shown = m_hostCommands;
    if (!open(m_file))
        return false;
    env::HostCommandApprovals approvals;
    const QList<env::HostCommand> &commands = m_plan->env.hostCommands;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        const bool same = i < shown.size() &&
                          shown.at(i).toMap().value(QStringLiteral("command")).toString() == commands.at(i).command;
        if (!same) {
            setError(tr("The file changed since it was shown: read its host commands again."));
            return false;
        }
        QString error;
        if (ticked.contains(QVariant(int(i))) && !approvals.isApproved(commands.at(i)) &&
            !approvals.approve(commands.at(i), &error)) {
            setError(error);
            return false;
        }
    }
    for (const env::HostCommand &command : commands) {
        if (command.phase != QLatin1String("preRemove") && !approvals.isApproved(command)) {
            setError(tr("Tick each command that runs on this computer to approve it, once you have read it."));
            return false;
        }
    }
    open(m_file); // shows them approved
    return true;
}

bool EnvironmentPlan::runPhase(const QString &phase)
{
    const env::HostCommandApprovals approvals;
    for (const env::HostCommand &command : m_plan->env.commandsOf(phase)) {
        QString error;
        if (!env::runApprovedCommand(command, approvals, m_plan->env.name, false, &error)) {
            finish(error);
            return false;
        }
    }
    return true;
}

void EnvironmentPlan::bringUp(const QVariantList &ticked)
{
    if (m_busy || !ok() || !approveTicked(ticked))
        return;
    secrets::CredentialBindings bindings;
    QString error;
    if (const auto problem = bindings.load())
        return setError(problem->toString());
    for (const env::BindingEntry &binding : m_plan->env.bindings) {
        if (!bindings.approve(binding.service, binding.domains, &error))
            return setError(error);
    }
    setBusy(true);
    if (!runPhase(QStringLiteral("initialize")))
        return;
    const QString name = m_plan->env.name;
    act(QStringLiteral("sandbox.create"), env::creationParams(*m_plan, m_kitDirectory),
        [this, name](const api::Reply &created) {
            if (created.isError())
                return finish(created.errorMessage());
            act(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}}, [this](const api::Reply &started) {
                if (started.isError())
                    return finish(started.errorMessage());
                addServices(0);
            });
        });
}

void EnvironmentPlan::addServices(qsizetype next)
{
    if (next >= m_plan->env.services.size()) {
        if (runPhase(QStringLiteral("postCreate")))
            finish(QString());
        return;
    }
    act(QStringLiteral("service.add"), env::serviceParams(m_plan->env.name, m_plan->env.services.at(next)),
        [this, next](const api::Reply &added) {
            if (added.isError())
                return finish(added.errorMessage());
            addServices(next + 1);
        });
}

void EnvironmentPlan::finish(const QString &problem)
{
    setBusy(false);
    setError(problem);
    if (!problem.isEmpty())
        return;
    setMessage(tr("Environment %1 is up.").arg(m_plan->env.name));
    Q_EMIT broughtUp(m_plan->env.name);
}

void EnvironmentPlan::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

void EnvironmentPlan::setMessage(const QString &message)
{
    if (m_message == message)
        return;
    m_message = message;
    Q_EMIT messageChanged();
}

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/SandboxSpec.h"

#include <QJsonArray>
#include <QJsonObject>

/**
 * @brief The one JSON form of a SandboxSpec, which every runtime keeps with a sandbox (a
 * state file for bubblewrap, a container label for Docker) so that another process, or a
 * restarted daemon, knows what the sandbox was. Inline so each runtime library can use it
 * without linking the others.
 */
namespace paddock::runtime {

inline QJsonObject toJson(const SandboxSpec &spec)
{
    QJsonObject environment;
    for (auto it = spec.environment.cbegin(); it != spec.environment.cend(); ++it)
        environment.insert(it.key(), it.value());
    QJsonArray steps;
    for (const SandboxSpec::StartupStep &step : spec.startupSteps)
        steps.append(QJsonObject{{QStringLiteral("uid"), step.uid}, {QStringLiteral("script"), step.script}});
    QJsonArray binds;
    for (const ReadOnlyBind &bind : spec.readOnlyBinds)
        binds.append(
            QJsonObject{{QStringLiteral("host"), bind.hostPath}, {QStringLiteral("sandbox"), bind.sandboxPath}});
    QJsonArray mounts;
    for (const SharedMount &mount : spec.sharedMounts)
        mounts.append(QJsonObject{{QStringLiteral("host"), mount.hostPath},
                                  {QStringLiteral("sandbox"), mount.sandboxPath},
                                  {QStringLiteral("writable"), mount.writable}});
    const SandboxGrants &g = spec.grants;
    return {
        {QStringLiteral("name"), spec.name},
        {QStringLiteral("kit"), spec.kitName},
        {QStringLiteral("workspace"), spec.workspace},
        {QStringLiteral("homeDir"), spec.homeDir},
        {QStringLiteral("sandboxHome"), spec.sandboxHome},
        {QStringLiteral("environment"), environment},
        {QStringLiteral("argv"), QJsonArray::fromStringList(spec.argv)},
        {QStringLiteral("startup"), spec.startup},
        {QStringLiteral("startupSteps"), steps},
        {QStringLiteral("workingDir"), spec.workingDir},
        {QStringLiteral("proxySocket"), spec.proxySocket},
        {QStringLiteral("sandboxProxySocket"), spec.sandboxProxySocket},
        {QStringLiteral("proxyPort"), spec.proxyPort},
        {QStringLiteral("initPath"), spec.initPath},
        {QStringLiteral("readOnlyBinds"), binds},
        {QStringLiteral("sharedMounts"), mounts},
        {QStringLiteral("personVariables"), QJsonArray::fromStringList(spec.personVariables)},
        {QStringLiteral("grants"), QJsonObject{{QStringLiteral("dockerSocket"), g.dockerSocket},
                                               {QStringLiteral("sshAgentSocket"), g.sshAgentSocket},
                                               {QStringLiteral("x11Display"), g.x11Display},
                                               {QStringLiteral("xauthorityFile"), g.xauthorityFile},
                                               {QStringLiteral("waylandSocket"), g.waylandSocket},
                                               {QStringLiteral("dbusSessionSocket"), g.dbusSessionSocket}}},
        {QStringLiteral("interactive"), spec.interactive},
        {QStringLiteral("protectHostFiles"), spec.protectHostFiles},
        {QStringLiteral("disposable"), spec.disposable},
        {QStringLiteral("limits"), QJsonObject{{QStringLiteral("maxProcesses"), spec.limits.maxProcesses},
                                               {QStringLiteral("memoryBytes"), spec.limits.memoryBytes},
                                               {QStringLiteral("cpus"), spec.limits.cpus}}},
        {QStringLiteral("lifetime"), spec.lifetime == SandboxSpec::Lifetime::Foreground ? QStringLiteral("foreground")
                                                                                        : QStringLiteral("detached")},
    };
}

/** The inverse of toJson(); a missing field keeps SandboxSpec's default. */
inline SandboxSpec sandboxSpecFromJson(const QJsonObject &o)
{
    SandboxSpec spec;
    spec.name = o.value(QStringLiteral("name")).toString();
    spec.kitName = o.value(QStringLiteral("kit")).toString();
    spec.workspace = o.value(QStringLiteral("workspace")).toString();
    spec.homeDir = o.value(QStringLiteral("homeDir")).toString();
    spec.sandboxHome = o.value(QStringLiteral("sandboxHome")).toString(spec.sandboxHome);
    const QJsonObject environment = o.value(QStringLiteral("environment")).toObject();
    for (auto it = environment.begin(); it != environment.end(); ++it)
        spec.environment.insert(it.key(), it.value().toString());
    for (const QJsonValue &arg : o.value(QStringLiteral("argv")).toArray())
        spec.argv << arg.toString();
    spec.startup = o.value(QStringLiteral("startup")).toString();
    for (const QJsonValue &step : o.value(QStringLiteral("startupSteps")).toArray())
        spec.startupSteps.append({step[QStringLiteral("uid")].toInt(1000), step[QStringLiteral("script")].toString()});
    spec.workingDir = o.value(QStringLiteral("workingDir")).toString();
    spec.proxySocket = o.value(QStringLiteral("proxySocket")).toString();
    spec.sandboxProxySocket = o.value(QStringLiteral("sandboxProxySocket")).toString(spec.sandboxProxySocket);
    spec.proxyPort = o.value(QStringLiteral("proxyPort")).toInt(spec.proxyPort);
    spec.initPath = o.value(QStringLiteral("initPath")).toString();
    for (const QJsonValue &bind : o.value(QStringLiteral("readOnlyBinds")).toArray())
        spec.readOnlyBinds.append(
            {bind[QStringLiteral("host")].toString(), bind[QStringLiteral("sandbox")].toString()});
    for (const QJsonValue &mount : o.value(QStringLiteral("sharedMounts")).toArray())
        spec.sharedMounts.append({mount[QStringLiteral("host")].toString(), mount[QStringLiteral("sandbox")].toString(),
                                  mount[QStringLiteral("writable")].toBool()});
    for (const QJsonValue &name : o.value(QStringLiteral("personVariables")).toArray())
        spec.personVariables << name.toString();
    const QJsonObject g = o.value(QStringLiteral("grants")).toObject();
    spec.grants.dockerSocket = g.value(QStringLiteral("dockerSocket")).toString();
    spec.grants.sshAgentSocket = g.value(QStringLiteral("sshAgentSocket")).toString();
    spec.grants.x11Display = g.value(QStringLiteral("x11Display")).toString();
    spec.grants.xauthorityFile = g.value(QStringLiteral("xauthorityFile")).toString();
    spec.grants.waylandSocket = g.value(QStringLiteral("waylandSocket")).toString();
    spec.grants.dbusSessionSocket = g.value(QStringLiteral("dbusSessionSocket")).toString();
    spec.interactive = o.value(QStringLiteral("interactive")).toBool();
    spec.protectHostFiles = o.value(QStringLiteral("protectHostFiles")).toBool(true);
    spec.disposable = o.value(QStringLiteral("disposable")).toBool(false);
    const QJsonObject limits = o.value(QStringLiteral("limits")).toObject();
    spec.limits.maxProcesses = limits.value(QStringLiteral("maxProcesses")).toInt(spec.limits.maxProcesses);
    spec.limits.memoryBytes = limits.value(QStringLiteral("memoryBytes")).toInteger();
    spec.limits.cpus = limits.value(QStringLiteral("cpus")).toDouble();
    spec.lifetime = o.value(QStringLiteral("lifetime")).toString() == QLatin1String("foreground")
                        ? SandboxSpec::Lifetime::Foreground
                        : SandboxSpec::Lifetime::Detached;
    return spec;
}

} // namespace paddock::runtime

// SPDX-License-Identifier: GPL-3.0-or-later
#include "env/EnvPlan.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTextStream>

namespace paddock::env {
namespace {

/** The name a protected file must have at the workspace's top to be mounted read-only. */
constexpr const char *kProtectedName = "sbxenv.yaml";

void chooseKit(EnvPlan *plan)
{
    const Environment &env = plan->env;
    if (env.kits.size() > 1) {
        QStringList sources;
        for (const KitEntry &entry : env.kits)
            sources << entry.source;
        plan->problems << QStringLiteral("kits: Paddock runs one kit per sandbox and the file names %1 (%2): "
                                         "compose them into one kit (its spec's mixins) and name that one")
                              .arg(env.kits.size())
                              .arg(sources.join(QStringLiteral(", ")));
    }
    plan->kit = env.kits.size() == 1 ? env.kits.first() : KitEntry{env.agent, {}};
    if (!env.kit.isEmpty())
        plan->kit.source = env.kit;
}

/** The file is read-only inside only where Paddock mounts it so: sbxenv.yaml at the workspace's top. */
void checkFilePlace(EnvPlan *plan)
{
    const QString workspace = QFileInfo(plan->env.workspace).canonicalFilePath();
    for (const QString &path : plan->env.files) {
        const QFileInfo file(QFileInfo(path).canonicalFilePath());
        if (workspace.isEmpty() ||
            !(file.absoluteFilePath() + QLatin1Char('/')).startsWith(workspace + QLatin1Char('/')))
            continue;
        plan->fileInWorkspace = true;
        if (file.absolutePath() != workspace || file.fileName() != QLatin1String(kProtectedName))
            plan->problems << QStringLiteral(
                                  "%1 is inside the workspace but is not its top folder's %2, so the sandbox "
                                  "could change what runs here: move it to %3/%2, or outside the workspace")
                                  .arg(path, QLatin1String(kProtectedName), workspace);
    }
    if (plan->env.sandboxOptions.value(QStringLiteral("writableEnvFiles")) == QLatin1String("true"))
        plan->problems << QStringLiteral("sandboxOptions.writableEnvFiles: Paddock keeps the environment file "
                                         "read-only inside, since it decides what runs on this computer");
}

void checkShares(EnvPlan *plan, const ShareFindings &found)
{
    for (qsizetype i = 0; i < plan->env.mounts.size(); ++i) {
        const auto [problem, warning] = found.mounts.value(i);
        if (!problem.isEmpty())
            plan->problems << QStringLiteral("x-paddock.mounts %1: %2").arg(plan->env.mounts.at(i).toString(), problem);
        else if (!warning.isEmpty())
            plan->warnings << warning;
    }
    for (auto it = plan->env.env.begin(); it != plan->env.env.end(); ++it) {
        if (const QString problem = found.variables.value(it.key()); !problem.isEmpty())
            plan->problems << QStringLiteral("env %1: %2").arg(it.key(), problem);
    }
}

void addNotes(EnvPlan *plan, const ShareFindings &found)
{
    const Environment &env = plan->env;
    if (!QFileInfo(env.workspace).isDir())
        plan->problems << QStringLiteral("workspace %1 is not a folder").arg(env.workspace);
    else if (found.workspace)
        plan->problems << QStringLiteral("workspace: %1").arg(*found.workspace);
    if (!env.ports.isEmpty())
        plan->notes << QStringLiteral("ports: Paddock publishes the ports the kit declares (its spec's ports); "
                                      "the file's are listed, not published");
    for (auto it = env.sandboxOptions.begin(); it != env.sandboxOptions.end(); ++it) {
        if (it.key() != QLatin1String("writableEnvFiles"))
            plan->notes << QStringLiteral("sandboxOptions.%1 is an sbx option; Paddock does not use it").arg(it.key());
    }
    if (!env.services.isEmpty())
        plan->notes << QStringLiteral("companion services run on the Docker engine");
}

QString joinMap(const QMap<QString, QString> &map, const QString &separator)
{
    QStringList parts;
    for (auto it = map.begin(); it != map.end(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(separator);
}

void writeShares(QTextStream &out, const EnvPlan &plan)
{
    const Environment &env = plan.env;
    out << "Workspace:  " << env.workspace << " (read-write)\n";
    if (plan.fileInWorkspace)
        out << "            " << kProtectedName << " in it is read-only inside\n";
    out << "Mounts:" << (env.mounts.isEmpty() ? " none" : "") << '\n';
    for (const kit::SharedFolder &mount : env.mounts)
        out << "  " << mount.hostPath << " -> " << mount.insidePath
            << (mount.writable ? " (read-write)" : " (read-only)") << '\n';
    out << "Variables:" << (env.env.isEmpty() ? " none" : "") << '\n';
    for (auto it = env.env.begin(); it != env.env.end(); ++it)
        out << "  " << it.key() << '=' << it.value() << '\n';
    out << "Ports:" << (env.ports.isEmpty() ? " none" : "") << '\n';
    for (const PortEntry &port : env.ports)
        out << "  sandbox " << port.sandbox << " -> host "
            << (port.host ? QString::number(port.host) : QStringLiteral("any")) << '\n';
    out << "Bindings to approve:" << (env.bindings.isEmpty() ? " none" : "") << '\n';
    for (const BindingEntry &binding : env.bindings)
        out << "  " << binding.service << " (" << binding.kind << ") to " << binding.domains.join(QStringLiteral(", "))
            << '\n';
    out << "Companion services:" << (env.services.isEmpty() ? " none" : "") << '\n';
    for (const ServiceEntry &service : env.services) {
        QStringList ports;
        for (int port : service.ports)
            ports << QString::number(port);
        out << "  " << service.name << ": " << service.image;
        if (!ports.isEmpty())
            out << ", ports " << ports.join(QStringLiteral(", "));
        if (!service.env.isEmpty())
            out << ", env " << joinMap(service.env, QStringLiteral(" "));
        if (!service.volumes.isEmpty())
            out << ", volumes " << service.volumes.join(QStringLiteral(" "));
        out << '\n';
    }
}

} // namespace

EnvPlan planEnvironment(const Environment &env, const ShareChecker &check)
{
    EnvPlan plan;
    plan.env = env;
    const ShareFindings found = check(env);
    chooseKit(&plan);
    addNotes(&plan, found);
    checkFilePlace(&plan);
    checkShares(&plan, found);
    return plan;
}

QString planText(const EnvPlan &plan, const QString &kitDirectory,
                 const std::function<bool(const HostCommand &)> &approved)
{
    QString text;
    QTextStream out(&text);
    const Environment &env = plan.env;
    out << "Environment " << env.name << " from " << env.files.join(QStringLiteral(" under ")) << '\n';
    out << "Sandbox:    " << env.name << ", backend "
        << (env.backend.isEmpty() ? QStringLiteral("bwrap (the default)") : env.backend) << '\n';
    out << "Kit:        " << plan.kit.source;
    if (!kitDirectory.isEmpty() && kitDirectory != plan.kit.source)
        out << " (" << kitDirectory << ')';
    if (!plan.kit.args.isEmpty())
        out << ", args " << joinMap(plan.kit.args, QStringLiteral(" "));
    out << '\n';
    writeShares(out, plan);
    out << "Host commands (run on this computer with sh -c, each only once its exact text is approved):"
        << (env.hostCommands.isEmpty() ? " none" : "") << '\n';
    for (const HostCommand &command : env.hostCommands) {
        out << "  " << command.phase;
        if (!command.name.isEmpty())
            out << " \"" << command.name << '"';
        out << " (" << command.file << ':' << command.line << ", in " << QFileInfo(command.file).absolutePath() << "), "
            << (approved && approved(command) ? "approved" : "not approved yet") << ":\n";
        out << command.command << (command.command.endsWith(QLatin1Char('\n')) ? "" : "\n");
    }
    for (const QString &note : plan.notes)
        out << "Note: " << note << '\n';
    for (const QString &warning : plan.warnings)
        out << "Warning: " << warning << '\n';
    for (const QString &problem : plan.problems)
        out << "Refused: " << problem << '\n';
    out.flush();
    return text;
}

QJsonObject creationParams(const EnvPlan &plan, const QString &kitDirectory)
{
    QJsonObject kitArgs;
    for (auto it = plan.kit.args.begin(); it != plan.kit.args.end(); ++it)
        kitArgs.insert(it.key(), it.value());
    QJsonObject env;
    for (auto it = plan.env.env.begin(); it != plan.env.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonObject params{{QStringLiteral("kit"), kitDirectory},
                       {QStringLiteral("kitArgs"), kitArgs},
                       {QStringLiteral("workspace"), plan.env.workspace},
                       {QStringLiteral("name"), plan.env.name},
                       {QStringLiteral("mounts"), kit::toJson(plan.env.mounts)},
                       {QStringLiteral("env"), env},
                       {QStringLiteral("interactive"), false},
                       {QStringLiteral("protectHostFiles"), true}};
    if (!plan.env.backend.isEmpty())
        params.insert(QStringLiteral("backend"), plan.env.backend);
    return params;
}

QJsonObject serviceParams(const QString &sandbox, const ServiceEntry &service)
{
    QJsonObject env;
    for (auto it = service.env.begin(); it != service.env.end(); ++it)
        env.insert(it.key(), it.value());
    QJsonArray ports;
    for (int port : service.ports)
        ports.append(port);
    const QJsonObject entry{{QStringLiteral("name"), service.name},
                            {QStringLiteral("image"), service.image},
                            {QStringLiteral("env"), env},
                            {QStringLiteral("ports"), ports},
                            {QStringLiteral("volumes"), QJsonArray::fromStringList(service.volumes)},
                            {QStringLiteral("command"), QJsonArray::fromStringList(service.command)}};
    return {{QStringLiteral("sandbox"), sandbox}, {QStringLiteral("service"), entry}};
}

} // namespace paddock::env

// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock service`: companion services of a sandbox (a dev database beside the agent), kept
// and run by the daemon (sandbox/Companions.h) on the Docker engine.
#include "Cli.h"
#include "KitArgument.h"
#include "SandboxCliSupport.h"

#include "kit/KitShares.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli {
namespace {

constexpr int kServiceTimeoutMs = 120000;

/**
 * Whom a call is about: {kit: DIR} with --kit (then NAME is the first argument), else {sandbox}.
 * Nullopt, with the exit code in @p code, when the kit cannot be found or an argument is missing.
 */
std::optional<QJsonObject> target(const Invocation &call, qsizetype wanted, int *code, qsizetype *nameAt)
{
    const bool kit = call.parser.isSet(QStringLiteral("kit"));
    *nameAt = kit ? 0 : 1;
    if (call.positional.size() < wanted - (kit ? 1 : 0)) {
        *code = usageError(call.commandPath, kit ? QStringLiteral("with --kit, name only the service")
                                                 : QStringLiteral("name the sandbox (or use --kit KIT)"));
        return std::nullopt;
    }
    if (!kit)
        return QJsonObject{{QStringLiteral("sandbox"), call.positional.first()}};
    const std::optional<QString> dir = resolveKit(call.parser.value(QStringLiteral("kit")));
    if (!dir) {
        *code = ExitFailed;
        return std::nullopt;
    }
    return QJsonObject{{QStringLiteral("kit"), *dir}};
}

std::optional<QJsonObject> serviceJson(const Invocation &call, qsizetype nameAt, int *code)
{
    QJsonObject env;
    QString error;
    for (const QString &text : call.parser.values(QStringLiteral("env"))) {
        const std::optional<kit::VariableArgument> variable = kit::parseVariable(text, &error);
        if (!variable) {
            *code = usageError(call.commandPath, QStringLiteral("--env %1").arg(error));
            return std::nullopt;
        }
        env.insert(variable->name, variable->value.value_or(qEnvironmentVariable(qPrintable(variable->name))));
    }
    QJsonArray ports;
    for (const QString &text : call.parser.values(QStringLiteral("port"))) {
        bool ok = false;
        const int port = text.toInt(&ok);
        if (!ok || port < 1 || port > 65535) {
            *code =
                usageError(call.commandPath, QStringLiteral("--port %1: a port is a number from 1 to 65535").arg(text));
            return std::nullopt;
        }
        ports.append(port);
    }
    return QJsonObject{
        {QStringLiteral("name"), call.positional.at(nameAt)},
        {QStringLiteral("image"), call.parser.value(QStringLiteral("image"))},
        {QStringLiteral("env"), env},
        {QStringLiteral("ports"), ports},
        {QStringLiteral("volumes"), QJsonArray::fromStringList(call.parser.values(QStringLiteral("volume")))},
        {QStringLiteral("command"), QJsonArray::fromStringList(argumentsAfterDoubleDash())}};
}

int runAdd(const Invocation &call)
{
    if (call.parser.value(QStringLiteral("image")).isEmpty())
        return usageError(call.commandPath, QStringLiteral("--image IMAGE is required"));
    int code = ExitOk;
    qsizetype nameAt = 1;
    std::optional<QJsonObject> params = target(call, 2, &code, &nameAt);
    const std::optional<QJsonObject> service = params ? serviceJson(call, nameAt, &code) : std::nullopt;
    if (!service)
        return code;
    params->insert(QStringLiteral("service"), *service);
    const std::optional<QJsonObject> added = callDaemon(QStringLiteral("service.add"), *params, kServiceTimeoutMs);
    if (!added)
        return ExitFailed;
    if (params->contains(QLatin1String("kit"))) {
        out() << "Every new sandbox of kit " << params->value(QLatin1String("kit")).toString() << " gets service "
              << call.positional.at(nameAt) << ".\n";
        return ExitOk;
    }
    const QString sandbox = call.positional.first();
    QStringList reach;
    for (const QJsonValue &value : added->value(QLatin1String("reach")).toArray())
        reach << value.toString();
    out() << "Sandbox " << sandbox << " has service " << call.positional.at(1);
    if (!reach.isEmpty())
        out() << ", reached inside at " << reach.join(QStringLiteral(", "));
    out() << ".\n";
    return ExitOk;
}

int runList(const Invocation &call)
{
    int code = ExitOk;
    qsizetype nameAt = 0;
    const std::optional<QJsonObject> params = target(call, 1, &code, &nameAt);
    if (!params)
        return code;
    const std::optional<QJsonObject> listed = callDaemon(QStringLiteral("service.list"), *params);
    if (!listed)
        return ExitFailed;
    const QString owner = params->contains(QLatin1String("kit"))
                              ? QStringLiteral("Kit %1").arg(params->value(QLatin1String("kit")).toString())
                              : QStringLiteral("Sandbox %1").arg(call.positional.first());
    const QJsonArray services = listed->value(QLatin1String("services")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(services).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (services.isEmpty()) {
        out() << owner << " has no services. Add one with 'paddock service add "
              << (call.positional.isEmpty() ? QStringLiteral("--kit KIT") : call.positional.first())
              << " NAME --image IMAGE --port PORT'.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &value : services) {
        const QJsonObject service = value.toObject();
        QStringList ports;
        for (const QJsonValue &port : service.value(QLatin1String("ports")).toArray())
            ports << QString::number(port.toInt());
        rows.append({service.value(QLatin1String("name")).toString(), service.value(QLatin1String("image")).toString(),
                     ports.isEmpty() ? QStringLiteral("-") : ports.join(QLatin1Char(',')),
                     QStringList(service.value(QLatin1String("env")).toObject().keys()).join(QLatin1Char(','))});
    }
    printTable({QStringLiteral("NAME"), QStringLiteral("IMAGE"), QStringLiteral("PORTS"), QStringLiteral("ENV")}, rows);
    return ExitOk;
}

int runRemove(const Invocation &call)
{
    int code = ExitOk;
    qsizetype nameAt = 1;
    std::optional<QJsonObject> params = target(call, 2, &code, &nameAt);
    if (!params)
        return code;
    params->insert(QStringLiteral("name"), call.positional.at(nameAt));
    if (!callDaemon(QStringLiteral("service.remove"), *params, kServiceTimeoutMs))
        return ExitFailed;
    if (params->contains(QLatin1String("kit"))) {
        out() << "new sandboxes of kit " << params->value(QLatin1String("kit")).toString() << " no longer get service "
              << call.positional.at(nameAt) << '\n';
        return ExitOk;
    }
    out() << "removed service " << call.positional.at(1) << " of " << call.positional.first() << " and its volumes\n";
    return ExitOk;
}

} // namespace

Command serviceCommand()
{
    Command service;
    service.name = QStringLiteral("service");
    service.summary = QStringLiteral("Companion services of a sandbox: a dev database beside the agent.");
    service.description = QStringLiteral(
        "A service is a container on the Docker engine (whatever runs the sandbox) started before the\n"
        "sandbox and stopped after it, on a network of its own with no route out. The sandbox reaches it\n"
        "by its NAME at its --port numbers (psql -h postgres), through its proxy: allowed for that sandbox\n"
        "only, logged like any connection. Nothing else of that network is reachable from the sandbox.");

    const QCommandLineOption forKit = kitOption(
        QStringLiteral("The kit's settings instead of a sandbox: every new sandbox of the kit gets the service."));
    Command add = leaf(QStringLiteral("add"), QStringLiteral("Add a service to a sandbox."),
                       QStringLiteral("Adds service NAME to sandbox SANDBOX, from a local IMAGE of the engine. A\n"
                                      "running sandbox gets it at once; otherwise it starts with the sandbox.\n"
                                      "Arguments after '--' replace the image's command."),
                       runAdd);
    add.positionalSyntax = QStringLiteral("SANDBOX NAME | --kit KIT NAME [-- COMMAND...]");
    add.minPositional = 1;
    add.options = {
        QCommandLineOption(QStringLiteral("image"), QStringLiteral("The image, e.g. postgres:15."),
                           QStringLiteral("IMAGE")),
        QCommandLineOption(QStringLiteral("env"), QStringLiteral("A variable of the service (repeatable)."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("port"), QStringLiteral("A port the sandbox may reach (repeatable)."),
                           QStringLiteral("PORT")),
        QCommandLineOption(QStringLiteral("volume"),
                           QStringLiteral("A path inside the service kept in a volume across restarts (repeatable)."),
                           QStringLiteral("PATH")),
        forKit};

    Command list = leaf(QStringLiteral("ls"), QStringLiteral("List a sandbox's services."), {}, runList);
    list.positionalSyntax = QStringLiteral("SANDBOX | --kit KIT");
    list.minPositional = 0;
    list.maxPositional = 1;
    list.options = {jsonOption(QStringLiteral("the services")), forKit};

    Command remove = leaf(QStringLiteral("rm"), QStringLiteral("Remove a service and its volumes."), {}, runRemove);
    remove.positionalSyntax = QStringLiteral("SANDBOX NAME | --kit KIT NAME");
    remove.minPositional = 1;
    remove.maxPositional = 2;
    remove.options = {forKit};

    service.subcommands = {add, list, remove};
    return service;
}

} // namespace paddock::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock service`: companion services of a sandbox (a dev database beside the agent), kept
// and run by the daemon (sandbox/Companions.h) on the Docker engine.
#include "Cli.h"
#include "SandboxCliSupport.h"

#include "kit/KitShares.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli {
namespace {

constexpr int kServiceTimeoutMs = 120000;

std::optional<QJsonObject> serviceJson(const Invocation &call, int *code)
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
        {QStringLiteral("name"), call.positional.at(1)},
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
    const std::optional<QJsonObject> service = serviceJson(call, &code);
    if (!service)
        return code;
    const QString sandbox = call.positional.first();
    const std::optional<QJsonObject> added =
        callDaemon(QStringLiteral("service.add"),
                   {{QStringLiteral("sandbox"), sandbox}, {QStringLiteral("service"), *service}}, kServiceTimeoutMs);
    if (!added)
        return ExitFailed;
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
    const std::optional<QJsonObject> listed =
        callDaemon(QStringLiteral("service.list"), {{QStringLiteral("sandbox"), call.positional.first()}});
    if (!listed)
        return ExitFailed;
    const QJsonArray services = listed->value(QLatin1String("services")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(services).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (services.isEmpty()) {
        out() << "Sandbox " << call.positional.first() << " has no services. Add one with 'paddock service add "
              << call.positional.first() << " NAME --image IMAGE --port PORT'.\n";
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
    if (!callDaemon(
            QStringLiteral("service.remove"),
            {{QStringLiteral("sandbox"), call.positional.first()}, {QStringLiteral("name"), call.positional.at(1)}},
            kServiceTimeoutMs))
        return ExitFailed;
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

    Command add = leaf(QStringLiteral("add"), QStringLiteral("Add a service to a sandbox."),
                       QStringLiteral("Adds service NAME to sandbox SANDBOX, from a local IMAGE of the engine. A\n"
                                      "running sandbox gets it at once; otherwise it starts with the sandbox.\n"
                                      "Arguments after '--' replace the image's command."),
                       runAdd);
    add.positionalSyntax = QStringLiteral("SANDBOX NAME [-- COMMAND...]");
    add.minPositional = 2;
    add.options = {
        QCommandLineOption(QStringLiteral("image"), QStringLiteral("The image, e.g. postgres:15."),
                           QStringLiteral("IMAGE")),
        QCommandLineOption(QStringLiteral("env"), QStringLiteral("A variable of the service (repeatable)."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("port"), QStringLiteral("A port the sandbox may reach (repeatable)."),
                           QStringLiteral("PORT")),
        QCommandLineOption(QStringLiteral("volume"),
                           QStringLiteral("A path inside the service kept in a volume across restarts (repeatable)."),
                           QStringLiteral("PATH"))};

    Command list = leaf(QStringLiteral("ls"), QStringLiteral("List a sandbox's services."), {}, runList);
    list.positionalSyntax = QStringLiteral("SANDBOX");
    list.minPositional = list.maxPositional = 1;
    list.options = {jsonOption(QStringLiteral("the services"))};

    Command remove = leaf(QStringLiteral("rm"), QStringLiteral("Remove a service and its volumes."), {}, runRemove);
    remove.positionalSyntax = QStringLiteral("SANDBOX NAME");
    remove.minPositional = remove.maxPositional = 2;

    service.subcommands = {add, list, remove};
    return service;
}

} // namespace paddock::cli

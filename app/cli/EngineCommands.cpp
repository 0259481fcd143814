// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock engine`: the container engines the Docker backend can run sandboxes on (this
// computer's, the docker CLI's contexts, and those added here), kept by the daemon
// (sandbox/EngineService.h).
#include "Cli.h"
#include "CliSupport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli {
namespace {

constexpr int kEngineTimeoutMs = 60000;

QString tlsCell(const QJsonObject &engine)
{
    if (!engine.value(QLatin1String("host")).toString().startsWith(QLatin1String("tcp://")))
        return QStringLiteral("-");
    return engine.value(QLatin1String("tls")).toBool() ? QStringLiteral("yes") : QStringLiteral("no");
}

int report(const Invocation &call, const QJsonObject &listed)
{
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(listed).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &value : listed.value(QLatin1String("engines")).toArray()) {
        const QJsonObject engine = value.toObject();
        QString name = engine.value(QLatin1String("name")).toString();
        if (engine.value(QLatin1String("inUse")).toBool())
            name += QStringLiteral(" *");
        QString source = engine.value(QLatin1String("source")).toString();
        if (engine.value(QLatin1String("dockerCurrent")).toBool())
            source += QStringLiteral(" (docker's current)");
        rows.append({name, source, engine.value(QLatin1String("host")).toString(), tlsCell(engine),
                     engine.value(QLatin1String("onThisComputer")).toBool() ? QStringLiteral("this computer")
                                                                            : QStringLiteral("another computer")});
    }
    printTable({QStringLiteral("NAME"), QStringLiteral("SOURCE"), QStringLiteral("HOST"), QStringLiteral("TLS"),
                QStringLiteral("WHERE")},
               rows);
    out() << "* in use: Docker sandboxes run there unless --engine names another.\n";
    for (const QJsonValue &problem : listed.value(QLatin1String("problems")).toArray())
        out() << "Problem: " << problem.toString() << '\n';
    return ExitOk;
}

int call(const Invocation &invocation, const QString &method, const QJsonObject &params)
{
    int code = ExitOk;
    const std::optional<QJsonObject> listed = callDaemon(invocation, method, params, &code, kEngineTimeoutMs);
    return listed ? report(invocation, *listed) : code;
}

int runList(const Invocation &invocation)
{
    return call(invocation, QStringLiteral("engine.list"), {});
}

int runAdd(const Invocation &invocation)
{
    QJsonObject params{{QStringLiteral("name"), invocation.positional.at(0)},
                       {QStringLiteral("host"), invocation.positional.at(1)}};
    for (const auto &[option, key] : {std::pair{"tls-ca", "tlsCa"}, {"tls-cert", "tlsCert"}, {"tls-key", "tlsKey"}}) {
        const QString value = invocation.parser.value(QLatin1String(option));
        if (!value.isEmpty())
            params.insert(QLatin1String(key), QFileInfo(value).absoluteFilePath());
    }
    if (invocation.parser.isSet(QStringLiteral("remote")))
        params.insert(QStringLiteral("remote"), true);
    return call(invocation, QStringLiteral("engine.add"), params);
}

int runRemove(const Invocation &invocation)
{
    return call(invocation, QStringLiteral("engine.remove"), {{QStringLiteral("name"), invocation.positional.at(0)}});
}

int runUse(const Invocation &invocation)
{
    return call(invocation, QStringLiteral("engine.use"), {{QStringLiteral("name"), invocation.positional.at(0)}});
}

Command withName(Command command, int count, const QString &syntax)
{
    command.positionalSyntax = syntax;
    command.minPositional = count;
    command.maxPositional = count;
    command.options.append(jsonOption(QStringLiteral("the engines")));
    return command;
}

} // namespace

Command engineCommand()
{
    Command engine;
    engine.name = QStringLiteral("engine");
    engine.summary = QStringLiteral("The container engines Docker sandboxes run on.");
    engine.description =
        QStringLiteral("The Docker backend runs sandboxes on a container engine: this computer's (local:\n"
                       "DOCKER_HOST, else /var/run/docker.sock), one of the docker CLI's contexts (read where\n"
                       "docker keeps them, never copied), or one added here. A sandbox on an engine of another\n"
                       "computer gets a copy of the workspace's committed files, and its way out is the daemon's\n"
                       "own stream to that engine, back to this computer's proxy.");

    Command list = leaf(QStringLiteral("ls"), QStringLiteral("List the engines and the one in use."),
                        QStringLiteral("Lists every engine: its name, where it comes from, its host, whether it\n"
                                       "is reached with TLS and whether it is on this computer."),
                        runList);
    list = withName(list, 0, QString());

    Command add = leaf(QStringLiteral("add"), QStringLiteral("Add an engine reached over TCP."),
                       QStringLiteral("Adds engine NAME at HOST (tcp://HOST:PORT, unix:///PATH or ssh://) once it has\n"
                                      "answered: with --tls-ca its certificate must be signed by that CA, and\n"
                                      "--tls-cert with --tls-key is the client certificate it asks for."),
                       runAdd);
    add.description += QStringLiteral("\nssh://[USER@]HOST[:PORT] reaches the engine as the docker CLI does: the\n"
                                      "system's ssh (its agent, keys and known hosts, never a prompt) runs 'docker\n"
                                      "system dial-stdio' on HOST.");
    add = withName(add, 2, QStringLiteral("NAME HOST"));
    add.options.append({QCommandLineOption(QStringLiteral("tls-ca"),
                                           QStringLiteral("The CA that signs the engine's "
                                                          "certificate."),
                                           QStringLiteral("FILE")),
                        QCommandLineOption(QStringLiteral("tls-cert"), QStringLiteral("The client certificate."),
                                           QStringLiteral("FILE")),
                        QCommandLineOption(QStringLiteral("tls-key"), QStringLiteral("The client certificate's key."),
                                           QStringLiteral("FILE")),
                        QCommandLineOption(QStringLiteral("remote"),
                                           QStringLiteral("The engine shares no folder with this computer, even on "
                                                          "a loopback address: copy the workspace in, reach the "
                                                          "proxy through the engine's own connection."))});

    Command remove = leaf(QStringLiteral("rm"), QStringLiteral("Remove an engine added here."),
                          QStringLiteral("Removes engine NAME, added with 'paddock engine add', once no sandbox\n"
                                         "runs on it. Docker contexts are docker's: 'docker context rm'."),
                          runRemove);
    remove = withName(remove, 1, QStringLiteral("NAME"));

    Command use = leaf(QStringLiteral("use"), QStringLiteral("Choose the engine Docker sandboxes run on."),
                       QStringLiteral("Docker sandboxes created from now on run on engine NAME unless --engine\n"
                                      "names another; 'paddock engine use local' goes back to this computer's."),
                       runUse);
    use = withName(use, 1, QStringLiteral("NAME"));

    engine.subcommands = {list, add, remove, use};
    return engine;
}

} // namespace paddock::cli

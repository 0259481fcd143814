// SPDX-License-Identifier: GPL-3.0-or-later
// paddock ask NAME on|off, paddock policy ask and paddock policy answer: ask mode, where a
// connection no rule covers waits while a person (or a script) decides.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "api/DaemonConnection.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <csignal>

namespace paddock::cli {
namespace {

using policycli::kJson;
using policycli::kPolicyCallTimeoutMs;
using policycli::kSandbox;

volatile std::sig_atomic_t g_stopFollowing = 0;

void onFollowSignal(int)
{
    g_stopFollowing = 1;
}

QString target(const QJsonObject &ask)
{
    const QString host = ask.value(QLatin1String("host")).toString();
    const QString name = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return name + QLatin1Char(':') + QString::number(ask.value(QLatin1String("port")).toInt());
}

/** Seconds until the proxy stops waiting, as the table shows them. */
QString secondsLeft(const QJsonObject &ask)
{
    const QDateTime deadline =
        QDateTime::fromString(ask.value(QLatin1String("deadline")).toString(), Qt::ISODateWithMs);
    if (!deadline.isValid())
        return QStringLiteral("-");
    return QStringLiteral("%1 s").arg(std::max<qint64>(0, QDateTime::currentDateTimeUtc().secsTo(deadline)));
}

QStringList askRow(const QJsonObject &ask)
{
    const QString program = ask.value(QLatin1String("program")).toString();
    return {ask.value(QLatin1String("id")).toString(),
            ask.value(QLatin1String("sandbox")).toString(),
            target(ask),
            programCell(program, ask.value(QLatin1String("written")).toString()),
            QString::number(ask.value(QLatin1String("waiting")).toInt()),
            secondsLeft(ask)};
}

const QStringList kAskHeader{QStringLiteral("ID"),      QStringLiteral("SANDBOX"), QStringLiteral("DESTINATION"),
                             QStringLiteral("PROGRAM"), QStringLiteral("WAITING"), QStringLiteral("TIME LEFT")};

int runAskMode(const Invocation &call)
{
    return switchSandboxMode(
        call, QStringLiteral("sandbox.ask"), kPolicyCallTimeoutMs, [](const QString &name, bool on) {
            if (on)
                out() << "Ask mode is on for " << name
                      << ": a connection no rule covers now waits for an answer (in the window, or\n"
                         "'paddock policy ask' and 'paddock policy answer ID allow|deny').\n";
            else
                out() << "Ask mode is off for " << name << ": what no rule allows is refused at once again.\n";
        });
}

/** Prints each ASK that appears until interrupted: a line, or its JSON with --json. */
int followAsks(const QString &sandbox, bool json)
{
    struct sigaction action = {};
    action.sa_handler = onFollowSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    const api::Reply subscribed =
        connection.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("asks")}}});
    if (subscribed.isError())
        return failure(subscribed.errorMessage());
    // What waits already comes first, then what arrives.
    const api::Reply waiting = connection.call(QStringLiteral("policy.asks"), {});
    if (waiting.isError())
        return failure(waiting.errorMessage());
    const auto print = [&](const QJsonObject &ask) {
        if (!sandbox.isEmpty() && ask.value(QLatin1String("sandbox")).toString() != sandbox)
            return;
        if (json)
            out() << QJsonDocument(ask).toJson(QJsonDocument::Compact) << '\n';
        else
            out() << askRow(ask).join(QStringLiteral("  ")) << "  " << ask.value(QLatin1String("reason")).toString()
                  << '\n';
        out().flush();
    };
    if (!json) {
        err() << "Following connections waiting for an answer; Ctrl-C stops.\n";
        err().flush();
    }
    for (const QJsonValue &ask : waiting.result().value(QLatin1String("asks")).toArray())
        print(ask.toObject());
    while (!g_stopFollowing && connection.isOpen()) {
        const std::optional<api::Event> event = connection.waitForEvent(500);
        if (event && event->data.value(QLatin1String("change")).toString() == QLatin1String("held"))
            print(event->data.value(QLatin1String("ask")).toObject());
    }
    return g_stopFollowing ? ExitOk : failure(QStringLiteral("the daemon went away"));
}

int runAsks(const Invocation &call)
{
    const QString sandbox = call.parser.value(kSandbox);
    const bool json = call.parser.isSet(kJson);
    if (call.parser.isSet(QStringLiteral("follow")))
        return followAsks(sandbox, json);
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.asks"), {}, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    QJsonArray asks;
    for (const QJsonValue &ask : result->value(QLatin1String("asks")).toArray()) {
        if (sandbox.isEmpty() || ask.toObject().value(QLatin1String("sandbox")).toString() == sandbox)
            asks.append(ask);
    }
    if (json) {
        policycli::printJson(QJsonDocument(asks));
        return ExitOk;
    }
    if (asks.isEmpty()) {
        out() << "Nothing is waiting for an answer.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &ask : asks)
        rows << askRow(ask.toObject());
    printTable(kAskHeader, rows);
    out() << "Answer with 'paddock policy answer ID allow|deny', adding --where sandbox|kit|global to keep it.\n";
    return ExitOk;
}

int runAnswer(const Invocation &call)
{
    const QString id = call.positional.at(0);
    const QString decision = call.positional.at(1);
    if (decision != QLatin1String("allow") && decision != QLatin1String("deny"))
        return usageError(call.commandPath, QStringLiteral("expected allow or deny, not '%1'").arg(decision));
    QJsonObject params{{QStringLiteral("id"), id}, {QStringLiteral("decision"), decision}};
    if (call.parser.isSet(QStringLiteral("where")))
        params.insert(QStringLiteral("where"), call.parser.value(QStringLiteral("where")));
    if (call.parser.isSet(QStringLiteral("what"))) {
        if (!params.contains(QLatin1String("where")))
            return usageError(call.commandPath, QStringLiteral("--what shapes a rule: give --where too"));
        params.insert(QStringLiteral("what"), call.parser.value(QStringLiteral("what")));
    }
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.answer"), params, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    if (call.parser.isSet(kJson)) {
        policycli::printJson(QJsonDocument(*result));
        return ExitOk;
    }
    out() << result->value(QLatin1String("message")).toString() << '\n';
    return ExitOk;
}

} // namespace

Command askModeCommand()
{
    Command command =
        leaf(QStringLiteral("ask"), QStringLiteral("Turn a sandbox's ask mode on or off."),
             QStringLiteral("In ask mode a connection that no rule covers is held, for up to 30 seconds, while you\n"
                            "decide in the window or with 'paddock policy answer'; unanswered, it is refused (403).\n"
                            "A host a rule denies, and the host's own or the local network, stay refused at once.\n"
                            "Ask mode lasts until turned off or until paddockd restarts."),
             runAskMode);
    command.positionalSyntax = QStringLiteral("NAME on|off");
    command.minPositional = command.maxPositional = 2;
    command.options = {jsonOption(QStringLiteral("the sandbox"))};
    return command;
}

QList<Command> policyAskCommands()
{
    Command asks =
        leaf(QStringLiteral("ask"), QStringLiteral("List the connections waiting for an answer."),
             QStringLiteral("Lists what sandboxes in ask mode wait for: one line per sandbox and destination,\n"
                            "with how many connections wait and how long they still will. With --follow,\n"
                            "prints each new one as it arrives (one JSON object a line with --json), so a\n"
                            "script can answer them with 'paddock policy answer'."),
             runAsks);
    asks.options = {jsonOption(QStringLiteral("the waiting connections")),
                    policycli::sandboxOption(QStringLiteral("Only what sandbox NAME waits for.")),
                    QCommandLineOption(QStringLiteral("follow"), QStringLiteral("Print new ones as they arrive."))};

    Command answer = leaf(
        QStringLiteral("answer"), QStringLiteral("Allow or deny connections waiting for an answer."),
        QStringLiteral("Answers every connection waiting under ID (see 'paddock policy ask'). Alone, allow or deny\n"
                       "is for these connections only. With --where, it is kept: allow writes the same rule as\n"
                       "the window's Allow dialog (the sandbox, its kit's spec.yaml, or everywhere), deny a deny\n"
                       "rule; --what shapes its pattern: exact (the host on this port), anyport (host:*), wildcard\n"
                       "(*.parent) or deep (**.parent)."),
        runAnswer);
    answer.positionalSyntax = QStringLiteral("ID allow|deny");
    answer.minPositional = answer.maxPositional = 2;
    answer.options = {
        jsonOption(QStringLiteral("the answer")),
        QCommandLineOption(QStringLiteral("where"),
                           QStringLiteral("Keep the answer as a rule: sandbox, kit or global."),
                           QStringLiteral("WHERE")),
        QCommandLineOption(QStringLiteral("what"),
                           QStringLiteral("The rule's pattern: exact, anyport, wildcard or deep (exact)."),
                           QStringLiteral("WHAT"))};
    return {asks, answer};
}

} // namespace paddock::cli

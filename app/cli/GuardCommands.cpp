// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock guard`: a sandbox's secret-egress guard (sandbox/SecretGuardService.h): what it looks
// for in requests to the model provider, what it does on a match, and the values it lets through.
#include "Cli.h"
#include "CliSupport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace paddock::cli {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("GuardCommands", text);
}

int print(const Invocation &call, const QJsonObject &guard)
{
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(guard).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    out() << tr("Sandbox %1: secret guard %2\n")
                 .arg(guard.value(QLatin1String("name")).toString(), guard.value(QLatin1String("mode")).toString());
    QList<QStringList> rows;
    const QJsonArray allowed = guard.value(QLatin1String("allowed")).toArray();
    for (const QJsonValue &value : guard.value(QLatin1String("values")).toArray()) {
        const QJsonObject v = value.toObject();
        rows.append({v.value(QLatin1String("file")).toString(), v.value(QLatin1String("name")).toString(),
                     allowed.contains(v) ? tr("allowed") : tr("guarded")});
    }
    if (!rows.isEmpty())
        printTable({tr("FILE"), tr("NAME"), tr("STATE")}, rows);
    else
        out() << tr("No .env or private key file with a value to guard in the workspace.\n");
    for (const QJsonValue &why : guard.value(QLatin1String("skipped")).toArray())
        out() << tr("left out: %1\n").arg(why.toString());
    out() << tr("The keys Paddock injects for the sandbox are guarded too.\n");
    return ExitOk;
}

int runShow(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> guard = callDaemon(
        call, QStringLiteral("sandbox.guard"), {{QStringLiteral("name"), call.positional.first()}}, &code, 30000);
    return guard ? print(call, *guard) : code;
}

int runSet(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> guard =
        callDaemon(call, QStringLiteral("sandbox.guard"),
                   {{QStringLiteral("name"), call.positional.at(0)}, {QStringLiteral("mode"), call.positional.at(1)}},
                   &code, 30000);
    if (!guard)
        return code;
    out() << tr("Sandbox %1: secret guard %2, from its next request\n")
                 .arg(call.positional.at(0), guard->value(QLatin1String("mode")).toString());
    return ExitOk;
}

int runAllow(const Invocation &call, bool allow)
{
    int code = ExitOk;
    const QJsonObject value{{QStringLiteral("file"), call.positional.at(1)},
                            {QStringLiteral("name"), call.positional.at(2)}};
    const std::optional<QJsonObject> guard =
        callDaemon(call, QStringLiteral("sandbox.guard"),
                   {{QStringLiteral("name"), call.positional.at(0)},
                    {allow ? QStringLiteral("allow") : QStringLiteral("disallow"), value}},
                   &code, 30000);
    if (!guard)
        return code;
    out() << (allow ? tr("Sandbox %1 may now send the value of %2 from %3\n")
                    : tr("Sandbox %1 may no longer send the value of %2 from %3\n"))
                 .arg(call.positional.at(0), call.positional.at(2), call.positional.at(1));
    return ExitOk;
}

} // namespace

Command guardCommand()
{
    Command guard;
    guard.name = QStringLiteral("guard");
    guard.summary = tr("The secret guard: workspace secrets kept out of requests to the model provider.");
    guard.description =
        tr("Requests Paddock adds a key to (the model provider's) are looked through for the values of the\n"
           "workspace's .env and .env.* files, its *.pem and id_* private keys, and the keys Paddock injects:\n"
           "as they are, JSON-escaped, percent-encoded or in base64. In mode refuse (the default for new\n"
           "sandboxes) such a request is not sent and the agent is told why; in mode redact each value is\n"
           "replaced by a marker naming it; off looks for nothing.");
    Command show = leaf(QStringLiteral("show"), tr("What the guard looks for in a sandbox's requests."),
                        tr("Lists the values by file and name, never a value itself."), runShow);
    show.positionalSyntax = QStringLiteral("SANDBOX");
    show.minPositional = show.maxPositional = 1;
    show.options = {jsonOption(tr("the guard"))};
    Command set = leaf(QStringLiteral("set"), tr("Set the guard's mode: refuse, redact or off."), {}, runSet);
    set.positionalSyntax = QStringLiteral("SANDBOX refuse|redact|off");
    set.minPositional = set.maxPositional = 2;
    Command allow = leaf(QStringLiteral("allow"), tr("Let a sandbox send one value of its workspace."),
                         tr("FILE and NAME as `paddock guard show` lists them, e.g. .env OPENAI_KEY."),
                         [](const Invocation &call) { return runAllow(call, true); });
    allow.positionalSyntax = QStringLiteral("SANDBOX FILE NAME");
    allow.minPositional = allow.maxPositional = 3;
    Command disallow = leaf(QStringLiteral("disallow"), tr("Guard a value that was allowed again."), {},
                            [](const Invocation &call) { return runAllow(call, false); });
    disallow.positionalSyntax = QStringLiteral("SANDBOX FILE NAME");
    disallow.minPositional = disallow.maxPositional = 3;
    guard.subcommands = {show, set, allow, disallow};
    return guard;
}

} // namespace paddock::cli

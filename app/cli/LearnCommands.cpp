// SPDX-License-Identifier: GPL-3.0-or-later
// paddock learn NAME on|off, and paddock policy propose NAME: learning mode and the allowlist
// proposed from what a sandbox asked for.
#include "Cli.h"
#include "CliSupport.h"

#include "policy/Rule.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <optional>

namespace paddock::cli {
namespace {

/** Learning mode and proposals ask paddockd, which reads the event log. */
constexpr int kLearnCallTimeoutMs = 60000;

int runLearn(const Invocation &call)
{
    return switchSandboxMode(
        call, QStringLiteral("sandbox.learning"), kLearnCallTimeoutMs, [](const QString &name, bool on) {
            if (on)
                out() << "Learning mode is on for " << name
                      << ": connections no rule allows pass and are recorded.\n"
                         "See what it learned with 'paddock policy propose "
                      << name << "', and turn it off with 'paddock learn " << name << " off'.\n";
            else
                out() << "Learning mode is off for " << name << ": the policy decides alone again.\n";
        });
}

void printProposal(const QJsonObject &proposal)
{
    const QJsonArray entries = proposal.value(QLatin1String("entries")).toArray();
    const QString name = proposal.value(QLatin1String("sandbox")).toString();
    if (entries.isEmpty()) {
        out() << "Sandbox " << name << " asked for nothing the policy refuses: there is nothing to propose.\n";
        return;
    }
    QList<QStringList> rows{{QStringLiteral("HOST"), QStringLiteral("PORT"), QStringLiteral("COUNT"),
                             QStringLiteral("LAST SEEN"), QStringLiteral("SUGGESTION")}};
    for (const QJsonValue &value : entries) {
        const QJsonObject entry = value.toObject();
        rows.append(
            {entry.value(QLatin1String("host")).toString(), QString::number(entry.value(QLatin1String("port")).toInt()),
             QString::number(entry.value(QLatin1String("count")).toInteger()),
             entry.value(QLatin1String("lastSeen")).toString(), entry.value(QLatin1String("suggestion")).toString()});
    }
    QList<qsizetype> widths(rows.first().size(), 0);
    for (const QStringList &row : std::as_const(rows)) {
        for (qsizetype i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row.at(i).size());
    }
    for (const QStringList &row : std::as_const(rows)) {
        for (qsizetype i = 0; i < row.size(); ++i)
            out() << (i + 1 < row.size() ? row.at(i).leftJustified(widths[i] + 2) : row.at(i));
        out() << '\n';
    }
    const QJsonArray patterns = proposal.value(QLatin1String("patterns")).toArray();
    if (patterns.isEmpty())
        return;
    out() << "\nProposed allowlist:\n";
    for (const QJsonValue &pattern : patterns)
        out() << "  " << pattern.toString() << '\n';
}

int runPropose(const Invocation &call)
{
    const QString name = call.positional.constFirst();
    const bool apply = call.parser.isSet(QStringLiteral("apply"));
    const QString scopeName = call.parser.value(QStringLiteral("scope"));
    if (!apply && call.parser.isSet(QStringLiteral("scope")))
        return usageError(call.commandPath, QStringLiteral("--scope goes with --apply"));
    if (scopeName != QLatin1String("sandbox") && scopeName != QLatin1String("kit") &&
        scopeName != QLatin1String("global"))
        return usageError(call.commandPath,
                          QStringLiteral("--scope is sandbox, kit or global, not '%1'").arg(scopeName));
    int code = ExitOk;
    std::optional<QJsonObject> proposal = callDaemon(call, QStringLiteral("policy.proposal"),
                                                     {{QStringLiteral("sandbox"), name}}, &code, kLearnCallTimeoutMs);
    if (!proposal)
        return code;
    const bool json = call.parser.isSet(QStringLiteral("json"));
    if (!json)
        printProposal(*proposal);
    const QJsonArray patterns = proposal->value(QLatin1String("patterns")).toArray();
    if (!apply) {
        if (json)
            out() << QJsonDocument(*proposal).toJson(QJsonDocument::Indented);
        else if (!patterns.isEmpty())
            out() << "\nApply it with 'paddock policy propose " << name
                  << " --apply' (--scope sandbox, kit or global; sandbox by default).\n";
        return ExitOk;
    }

    const QString kit = proposal->value(QLatin1String("kit")).toString();
    if (scopeName == QLatin1String("kit") && kit.isEmpty())
        return failure(
            QStringLiteral("the kit of sandbox %1 is not known; choose --scope sandbox or global").arg(name));
    const policy::Scope scope = scopeName == QLatin1String("global") ? policy::Scope::global()
                                : scopeName == QLatin1String("kit")  ? policy::Scope::kit(kit)
                                                                     : policy::Scope::sandbox(name);
    // Added through the daemon as `paddock policy allow` does: in force when it answers.
    QJsonArray applied;
    if (!patterns.isEmpty()) {
        const std::optional<QJsonObject> added =
            callDaemon(call, QStringLiteral("policy.add"),
                       {{QStringLiteral("patterns"), patterns}, {QStringLiteral("scope"), scope.toString()}}, &code,
                       kLearnCallTimeoutMs);
        if (!added)
            return code;
        for (const QJsonValue &value : added->value(QLatin1String("rules")).toArray()) {
            const QJsonObject rule = value.toObject();
            applied.append(rule.value(QLatin1String("id")));
            if (!json)
                out() << "Allowed: " << rule.value(QLatin1String("pattern")).toString() << " (rule "
                      << rule.value(QLatin1String("id")).toString() << ", " << scope.toString() << ")\n";
        }
    }
    if (json) {
        proposal->insert(QStringLiteral("applied"), applied);
        proposal->insert(QStringLiteral("scope"), scope.toString());
        out() << QJsonDocument(*proposal).toJson(QJsonDocument::Indented);
    } else if (patterns.isEmpty()) {
        out() << "Nothing to apply.\n";
    }
    return ExitOk;
}

} // namespace

Command learnCommand()
{
    Command command;
    command.name = QStringLiteral("learn");
    command.summary = QStringLiteral("Turn a sandbox's learning mode on or off.");
    command.description =
        QStringLiteral("In learning mode a connection that no rule allows is let through and recorded as learned,\n"
                       "with the rule that would have refused it; a host a rule denies, and the host's own or the\n"
                       "local network, stay refused. 'paddock policy propose NAME' then turns what was learned into\n"
                       "an allowlist. Learning lasts until turned off or until paddockd restarts.");
    command.positionalSyntax = QStringLiteral("NAME on|off");
    command.minPositional = command.maxPositional = 2;
    command.options = {jsonOption(QStringLiteral("the sandbox"))};
    command.run = runLearn;
    return command;
}

Command policyProposeCommand()
{
    Command command;
    command.name = QStringLiteral("propose");
    command.summary = QStringLiteral("Propose an allowlist from what a sandbox was refused or learned.");
    command.description =
        QStringLiteral("Lists the destinations sandbox NAME asked for that no rule allows (learned in learning mode,\n"
                       "or refused), with how often and when last, and folds them into the smallest allowlist:\n"
                       "exact hosts, and *.parent for several hosts under one parent, never wider than a\n"
                       "registrable domain nor over a host a rule denies. --apply adds the patterns as allow rules\n"
                       "for the sandbox (default), its kit, or every sandbox.");
    command.positionalSyntax = QStringLiteral("NAME");
    command.minPositional = command.maxPositional = 1;
    command.options = {
        jsonOption(QStringLiteral("the proposal")),
        QCommandLineOption(QStringLiteral("apply"), QStringLiteral("Add the proposed patterns as allow rules.")),
        QCommandLineOption(QStringLiteral("scope"), QStringLiteral("Where --apply adds them: sandbox, kit or global."),
                           QStringLiteral("SCOPE"), QStringLiteral("sandbox")),
    };
    command.run = runPropose;
    return command;
}

} // namespace paddock::cli

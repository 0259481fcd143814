// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit allow|deny: edits paddockd makes through the minimal-diff writer and applies to the
// kit's running sandboxes (kit.network.edit); paddock kit isolation: the
// least isolation of a kit's sandboxes, a setting of Paddock's own kept by paddockd (kit.isolation.set).
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "api/Protocol.h"
#include "kit/KitEditor.h"
#include "kit/KitLibrary.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace paddock::cli {
namespace {

using kit::NetworkList;

// What a user most likely meant when they pasted a URL: its host (and port).
QString hostOf(const QString &text)
{
    const qsizetype scheme = text.indexOf(QLatin1String("://"));
    QString rest = scheme >= 0 ? text.mid(scheme + 3) : text;
    rest = rest.section(QLatin1Char('/'), 0, 0).section(QLatin1Char('?'), 0, 0).section(QLatin1Char('#'), 0, 0);
    return rest.section(QLatin1Char('@'), -1);
}

/**
 * A first look at a pattern, so an obvious slip (a URL, a path, two hosts in one
 * argument) is caught before the kit is touched. What a pattern means is the policy
 * engine's business; this only rejects what can never be one.
 */
std::optional<QString> patternProblem(const QString &pattern)
{
    if (pattern.isEmpty())
        return QStringLiteral("a pattern cannot be empty");
    for (const QChar c : pattern) {
        if (c.isSpace() || c.category() == QChar::Other_Control)
            return QStringLiteral("'%1' contains a space; give one pattern per argument").arg(pattern);
    }
    if (pattern.contains(QLatin1String("://"))) {
        return QStringLiteral("'%1' is a URL; give the host alone, e.g. %2 (a pattern has no scheme)")
            .arg(pattern, hostOf(pattern));
    }
    if (pattern.contains(QLatin1Char('/'))) {
        // An address range (10.0.0.0/8, fd00::/8) is the one place a slash belongs.
        static const QRegularExpression cidr(QStringLiteral("^\\[?[0-9A-Fa-f:.]+\\]?/[0-9]{1,3}$"));
        if (!cidr.match(pattern).hasMatch())
            return QStringLiteral("'%1' has a path; give the host alone, e.g. %2 (a pattern has no path)")
                .arg(pattern, hostOf(pattern));
    }
    for (const QChar c : pattern) {
        if (c == QLatin1Char('?') || c == QLatin1Char('#') || c == QLatin1Char('@') || c == QLatin1Char(',') ||
            c == QLatin1Char('"') || c == QLatin1Char('\'') || c == QLatin1Char('\\'))
            return QStringLiteral("'%1' contains '%2', which cannot appear in a host pattern").arg(pattern, c);
    }
    return std::nullopt;
}

int runNetworkEdit(const Invocation &invocation, NetworkList list)
{
    const bool remove = invocation.parser.isSet(QStringLiteral("remove"));
    // The kit's spec.yaml itself is accepted too; anything else is a library name or a folder.
    QString kitDir = invocation.positional.first();
    if (!QFileInfo(kitDir).isFile()) {
        const kit::KitLibrary library;
        QString error;
        const std::optional<QString> resolved = library.resolve(kitDir, &error);
        if (!resolved)
            return failure(error);
        if (!kitDir.contains(QLatin1Char('/')) && library.sampleDirectories().contains(*resolved))
            return failure(QStringLiteral("%1 is a sample kit shipped with Paddock and is not edited in place; copy "
                                          "its folder %2 and add the copy with 'paddock kit add'")
                               .arg(kitDir, *resolved));
        kitDir = *resolved;
    }
    const QStringList patterns = invocation.positional.mid(1);
    for (const QString &pattern : patterns) {
        if (const std::optional<QString> problem = patternProblem(pattern))
            return usageError(invocation.commandPath, *problem);
    }

    // The daemon edits the file and applies it to the kit's running sandboxes before it answers.
    const QJsonObject params{
        {QStringLiteral("kit"), QFileInfo(kitDir).absoluteFilePath()},
        {QStringLiteral("list"), list == NetworkList::Allow ? QStringLiteral("allow") : QStringLiteral("deny")},
        {QStringLiteral("patterns"), QJsonArray::fromStringList(patterns)},
        {QStringLiteral("remove"), remove}};
    const api::Reply reply = daemonReply(QStringLiteral("kit.network.edit"), params, kDaemonCallTimeoutMs);
    if (reply.isError())
        return failure(reply.errorMessage());
    for (const QJsonValue &report : reply.result().value(QLatin1String("reports")).toArray())
        out() << report.toString() << '\n';
    if (!remove && list == NetworkList::Allow) {
        QStringList denied;
        for (const QJsonValue &value : reply.result().value(QLatin1String("deny")).toArray())
            denied << value.toString();
        for (const QString &pattern : patterns) {
            if (denied.contains(pattern, Qt::CaseInsensitive))
                err() << "paddock: note: " << pattern
                      << " is also in permissions.network.deny, which wins over allow\n";
        }
    }
    return ExitOk;
}

int runIsolation(const Invocation &invocation)
{
    const std::optional<QString> kitDir = resolveKit(invocation.positional.first());
    if (!kitDir)
        return ExitFailed;
    // The daemon keeps the setting; a create after this returns gets it.
    QJsonObject params{{QStringLiteral("kit"), *kitDir}};
    QString method = QStringLiteral("kit.settings");
    if (invocation.positional.size() > 1) {
        const QString level = invocation.positional.at(1);
        if (level != QLatin1String("container") && level != QLatin1String("gvisor"))
            return usageError(invocation.commandPath,
                              QStringLiteral("the isolation is container or gvisor, not '%1'").arg(level));
        params.insert(QStringLiteral("isolation"), level);
        method = QStringLiteral("kit.isolation.set");
    }
    int code = ExitOk;
    const std::optional<QJsonObject> answer = callDaemon(invocation, method, params, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    const QString minimum = answer->value(QLatin1String("isolation")).toString();
    if (!minimum.isEmpty())
        out() << "Sandboxes of " << *kitDir << " get " << minimum << " isolation at least ("
              << answer->value(QLatin1String("file")).toString() << ").\n";
    else
        out() << "Sandboxes of " << *kitDir << " get the isolation they are asked for (container by default).\n";
    return ExitOk;
}

Command isolationCommand()
{
    Command command;
    command.name = QStringLiteral("isolation");
    command.summary = QStringLiteral("Show or set the least isolation of a kit's sandboxes.");
    command.description =
        QStringLiteral("With LEVEL gvisor, every sandbox made from KIT runs under gVisor (a kernel of its own,\n"
                       "through the Docker engine's runsc runtime): 'run' and 'create' choose it when no\n"
                       "--isolation is given, and refuse a lower one. LEVEL container lifts the setting.\n"
                       "Without LEVEL, prints the setting.\n"
                       "\n"
                       "The setting is Paddock's, kept in kit-settings.yaml in its configuration folder, so the\n"
                       "kit's spec.yaml stays as Docker Sandboxes reads it.");
    command.positionalSyntax = QStringLiteral("KIT [LEVEL]");
    command.positionalHelp = {{QStringLiteral("KIT"), kitArgumentHelp()},
                              {QStringLiteral("LEVEL"), QStringLiteral("container or gvisor.")}};
    command.minPositional = 1;
    command.maxPositional = 2;
    command.run = runIsolation;
    return command;
}

Command networkEditCommand(NetworkList list)
{
    const bool allow = list == NetworkList::Allow;
    const QString listPath = kit::networkListPath(list);
    Command command;
    command.name = allow ? QStringLiteral("allow") : QStringLiteral("deny");
    command.summary =
        allow ? QStringLiteral("Add domain patterns to a kit's network allowlist (--remove to take them out).")
              : QStringLiteral("Add domain patterns to a kit's network denylist (--remove to take them out).");
    command.description =
        QStringLiteral("Adds each PATTERN to %1 in KIT's spec.yaml,\n"
                       "or removes it with --remove.\n"
                       "\n"
                       "Only the lines concerned change: a new pattern is one new line written like the\n"
                       "patterns already there, and comments, order and quoting elsewhere stay as they\n"
                       "are. A kit without the list gets the missing block at the end of its nearest\n"
                       "parent. Removing the last pattern of a list removes the list, and an emptied\n"
                       "network or permissions block with it.\n"
                       "\n"
                       "The edited kit is validated before it is written; if it would be invalid,\n"
                       "nothing is written. Adding a pattern that is already listed, or removing one\n"
                       "that is not, changes nothing and still succeeds. Patterns compare without\n"
                       "regard to case. paddockd writes the file, and the kit's running sandboxes\n"
                       "decide with the new list from their next connection, once this returns.\n"
                       "\n"
                       "Exit status: 0 when the kit says what was asked, 1 when the kit is missing,\n"
                       "unreadable or would become invalid, 2 for a malformed command line or pattern.")
            .arg(listPath);
    command.options << QCommandLineOption(
        QStringLiteral("remove"), QStringLiteral("Remove the patterns from %1 instead of adding them.").arg(listPath));
    command.positionalSyntax = QStringLiteral("KIT PATTERN...");
    command.positionalHelp = {
        {QStringLiteral("KIT"), kitArgumentHelp() + QStringLiteral(" Its spec.yaml may be named too.")},
        {QStringLiteral("PATTERN"),
         QStringLiteral("host, host:port, host:80-443, *.example.com, **.example.com, an IP or a "
                        "CIDR range. No scheme, no path.")},
    };
    command.minPositional = 2;
    command.run = [list](const Invocation &invocation) { return runNetworkEdit(invocation, list); };
    return command;
}

} // namespace

QList<Command> kitEditCommands()
{
    return {networkEditCommand(NetworkList::Allow), networkEditCommand(NetworkList::Deny), isolationCommand()};
}

} // namespace paddock::cli

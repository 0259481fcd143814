// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit share: the folders and variables every sandbox of a kit gets on this computer, a
// setting of Paddock's own (kit::KitSettings), so the kit's spec.yaml stays as sbx reads it.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "kit/KitSettings.h"
#include "kit/KitShares.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace paddock::cli {
namespace {

/** Adds `--mount` values to @p shares, read as a sandbox's creation reads them (the daemon checks them). */
bool addMounts(const Invocation &call, kit::KitShares &shares)
{
    QString error;
    for (const QString &text : call.parser.values(QStringLiteral("mount"))) {
        const std::optional<kit::SharedFolder> folder = kit::SharedFolder::parse(text, QDir::currentPath(), &error);
        if (!folder) {
            failure(QStringLiteral("--mount %1: %2").arg(text, error));
            return false;
        }
        shares.mounts.erase(std::remove_if(shares.mounts.begin(), shares.mounts.end(),
                                           [&](const QString &kept) {
                                               const auto old = kit::SharedFolder::parse(kept, {}, &error);
                                               return old && old->insidePath == folder->insidePath;
                                           }),
                            shares.mounts.end());
        shares.mounts << folder->toString();
    }
    return true;
}

/** Adds `--env` values to @p shares; NAME alone takes this shell's value. */
bool addVariables(const Invocation &call, kit::KitShares &shares)
{
    QString error;
    for (const QString &text : call.parser.values(QStringLiteral("env"))) {
        const std::optional<kit::VariableArgument> variable = kit::parseVariable(text, &error);
        if (!variable) {
            failure(QStringLiteral("--env %1").arg(error));
            return false;
        }
        shares.variables.insert(variable->name,
                                variable->value.value_or(qEnvironmentVariable(qPrintable(variable->name))));
    }
    return true;
}

void removeEntries(const Invocation &call, kit::KitShares &shares)
{
    for (const QString &inside : call.parser.values(QStringLiteral("remove-mount"))) {
        QString error;
        shares.mounts.erase(std::remove_if(shares.mounts.begin(), shares.mounts.end(),
                                           [&](const QString &kept) {
                                               const auto old = kit::SharedFolder::parse(kept, {}, &error);
                                               return old && (old->insidePath == QDir::cleanPath(inside) ||
                                                              old->hostPath == QDir::cleanPath(inside));
                                           }),
                            shares.mounts.end());
    }
    for (const QString &name : call.parser.values(QStringLiteral("remove-env")))
        shares.variables.remove(name);
}

kit::KitShares sharesOf(const QJsonObject &answer)
{
    kit::KitShares shares;
    for (const QJsonValue &mount : answer.value(QLatin1String("mounts")).toArray())
        shares.mounts << mount.toString();
    const QJsonObject env = answer.value(QLatin1String("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it)
        shares.variables.insert(it.key(), it.value().toString());
    return shares;
}

QJsonObject sharesParams(const QString &kitDir, const kit::KitShares &shares)
{
    QJsonObject env;
    for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it)
        env.insert(it.key(), it.value());
    return {{QStringLiteral("kit"), kitDir},
            {QStringLiteral("mounts"), QJsonArray::fromStringList(shares.mounts)},
            {QStringLiteral("env"), env}};
}

void printShares(const QString &kitDir, const QString &file, const kit::KitShares &shares)
{
    if (shares.isEmpty()) {
        out() << "Sandboxes of " << kitDir << " share no folder or variable of their own.\n";
        return;
    }
    out() << "Sandboxes of " << kitDir << " get (" << file << "):\n";
    for (const QString &mount : shares.mounts)
        out() << "  mount " << mount << '\n';
    for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it)
        out() << "  env   " << it.key() << '=' << it.value() << '\n';
}

int runShare(const Invocation &call)
{
    const std::optional<QString> kitDir = resolveKit(call.positional.first());
    if (!kitDir)
        return ExitFailed;
    int code = ExitOk;
    const std::optional<QJsonObject> current = callDaemon(
        call, QStringLiteral("kit.settings"), {{QStringLiteral("kit"), *kitDir}}, &code, kDaemonCallTimeoutMs);
    if (!current)
        return code;
    const kit::KitShares before = sharesOf(*current);
    kit::KitShares shares = before;
    if (call.parser.isSet(QStringLiteral("clear")))
        shares = {};
    removeEntries(call, shares);
    if (!addMounts(call, shares) || !addVariables(call, shares))
        return ExitFailed;
    if (shares == before) {
        printShares(*kitDir, current->value(QLatin1String("file")).toString(), shares);
        return ExitOk;
    }
    // The daemon checks each as a create would and writes them; a create after this gets them.
    const std::optional<QJsonObject> written =
        callDaemon(call, QStringLiteral("kit.shares.set"), sharesParams(*kitDir, shares), &code, kDaemonCallTimeoutMs);
    if (!written)
        return code;
    for (const QJsonValue &warning : written->value(QLatin1String("warnings")).toArray())
        err() << "paddock: warning: " << warning.toString() << '\n';
    printShares(*kitDir, written->value(QLatin1String("file")).toString(), sharesOf(*written));
    out() << "Sandboxes created from now on get them; existing ones keep what they were created with.\n";
    return ExitOk;
}

} // namespace

Command kitShareCommand()
{
    Command command;
    command.name = QStringLiteral("share");
    command.summary = QStringLiteral("Show or set the folders and variables a kit's sandboxes share.");
    command.description = QStringLiteral(
        "Every sandbox created from KIT gets these folders and variables, as if given with --mount and\n"
        "--env to 'paddock run' or 'create' (which win for the same inside path or name). Checked as\n"
        "those are: the home folder, ~/.ssh, ~/.gnupg, keyrings, Paddock's folders and the Docker socket\n"
        "are refused, and so is a variable that holds a provider key. Without options, prints them.\n"
        "\n"
        "The setting is Paddock's, kept in kit-settings.yaml in its configuration folder, so the\n"
        "kit's spec.yaml stays as Docker Sandboxes reads it.");
    command.positionalSyntax = QStringLiteral("KIT");
    command.positionalHelp = {{QStringLiteral("KIT"), kitArgumentHelp()}};
    command.options = {
        QCommandLineOption(QStringLiteral("mount"),
                           QStringLiteral("Share a host folder or file (repeatable); mode rw unless :ro."),
                           QStringLiteral("HOST[:INSIDE][:ro|rw]")),
        QCommandLineOption(QStringLiteral("env"),
                           QStringLiteral("Set a variable (repeatable); NAME alone takes this shell's value."),
                           QStringLiteral("NAME=VALUE|NAME")),
        QCommandLineOption(QStringLiteral("remove-mount"), QStringLiteral("Stop sharing the folder at PATH."),
                           QStringLiteral("PATH")),
        QCommandLineOption(QStringLiteral("remove-env"), QStringLiteral("Stop setting variable NAME."),
                           QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("clear"), QStringLiteral("Remove every folder and variable first."))};
    command.minPositional = 1;
    command.maxPositional = 1;
    command.run = runShare;
    return command;
}

} // namespace paddock::cli

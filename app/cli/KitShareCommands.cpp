// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit share: the folders and variables every sandbox of a kit gets on this computer, a
// setting of Paddock's own (kit::KitSettings), so the kit's spec.yaml stays as sbx reads it.
#include "Cli.h"
#include "KitArgument.h"

#include "kit/KitSettings.h"
#include "runtime/SandboxSpec.h"
#include "sandbox/SharedFolders.h"

#include <QDir>

namespace paddock::cli {
namespace {

/** Adds `--mount` values to @p shares, each checked as a sandbox's creation will check it. */
bool addMounts(const Invocation &call, const QString &kitDir, kit::KitShares &shares)
{
    QString error;
    for (const QString &text : call.parser.values(QStringLiteral("mount"))) {
        std::optional<sandbox::SharedFolder> folder = sandbox::SharedFolder::parse(text, QDir::currentPath(), &error);
        QString warning;
        if (folder) {
            if (const std::optional<QString> problem =
                    sandbox::sharedFolderProblem(&*folder, QString(), runtime::SandboxSpec().sandboxHome, &warning)) {
                error = *problem;
                folder.reset();
            }
        }
        if (!folder) {
            failure(QStringLiteral("--mount %1: %2").arg(text, error));
            return false;
        }
        if (!warning.isEmpty())
            err() << "paddock: warning: " << warning << '\n';
        shares.mounts.erase(std::remove_if(shares.mounts.begin(), shares.mounts.end(),
                                           [&](const QString &kept) {
                                               const auto old = sandbox::SharedFolder::parse(kept, kitDir, &error);
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
        const std::optional<sandbox::VariableArgument> variable = sandbox::parseVariable(text, &error);
        const QString value =
            variable ? variable->value.value_or(qEnvironmentVariable(qPrintable(variable->name))) : QString();
        if (variable)
            error = sandbox::variableProblem(variable->name, value, {}).value_or(QString());
        if (!variable || !error.isEmpty()) {
            failure(QStringLiteral("--env %1").arg(error));
            return false;
        }
        shares.variables.insert(variable->name, value);
    }
    return true;
}

void removeEntries(const Invocation &call, kit::KitShares &shares)
{
    for (const QString &inside : call.parser.values(QStringLiteral("remove-mount"))) {
        QString error;
        shares.mounts.erase(std::remove_if(shares.mounts.begin(), shares.mounts.end(),
                                           [&](const QString &kept) {
                                               const auto old = sandbox::SharedFolder::parse(kept, {}, &error);
                                               return old && (old->insidePath == QDir::cleanPath(inside) ||
                                                              old->hostPath == QDir::cleanPath(inside));
                                           }),
                            shares.mounts.end());
    }
    for (const QString &name : call.parser.values(QStringLiteral("remove-env")))
        shares.variables.remove(name);
}

void printShares(const QString &kitDir, const kit::KitShares &shares)
{
    if (shares.isEmpty()) {
        out() << "Sandboxes of " << kitDir << " share no folder or variable of their own.\n";
        return;
    }
    out() << "Sandboxes of " << kitDir << " get (" << kit::KitSettings::path() << "):\n";
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
    QString error;
    kit::KitShares shares = kit::KitSettings::shares(*kitDir, &error);
    if (!error.isEmpty())
        return failure(error);
    const kit::KitShares before = shares;
    if (call.parser.isSet(QStringLiteral("clear")))
        shares = {};
    removeEntries(call, shares);
    if (!addMounts(call, *kitDir, shares) || !addVariables(call, shares))
        return ExitFailed;
    if (shares != before && !kit::KitSettings::setShares(*kitDir, shares, &error))
        return failure(error);
    printShares(*kitDir, shares);
    if (shares != before)
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

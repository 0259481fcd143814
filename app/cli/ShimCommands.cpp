// SPDX-License-Identifier: GPL-3.0-or-later
// paddock shim install|ls|rm: launchers that make a sandbox the default way a command starts.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "common/AtomicFile.h"
#include "kit/KitLoader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace paddock::cli {

namespace {

/** The first line after the interpreter: how a shim is told from a file someone else wrote. */
const QByteArray kMarker = "# paddock-shim 1: written by 'paddock shim install'; 'paddock shim rm' removes it";
const QByteArray kKitPrefix = "# kit: ";
constexpr qint64 kMaxShimSize = 64 * 1024;

QString defaultBinDir()
{
    return QDir::homePath() + QStringLiteral("/.local/bin");
}

QString binDir(const Invocation &call)
{
    const QString dir = call.parser.value(QStringLiteral("dir"));
    return QDir::cleanPath(QFileInfo(dir.isEmpty() ? defaultBinDir() : dir).absoluteFilePath());
}

/** Single-quoted for sh: every ' becomes '\''. */
QString shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

struct Shim
{
    QString command;
    QString kit;
    QString path;
};

/** The shim at @p path, or nothing when the file is missing or was not written by `shim install`. */
std::optional<Shim> readShim(const QString &path)
{
    QFile file(path);
    const QFileInfo info(path);
    if (info.isSymLink() || !info.isFile() || info.size() > kMaxShimSize || !file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QList<QByteArray> lines = file.readAll().split('\n');
    if (lines.size() < 3 || lines.at(1) != kMarker)
        return std::nullopt;
    Shim shim;
    shim.command = info.fileName();
    shim.path = path;
    for (const QByteArray &line : lines) {
        if (line.startsWith(kKitPrefix))
            shim.kit = QString::fromUtf8(line.mid(kKitPrefix.size()));
    }
    return shim;
}

bool isOnPath(const QString &dir)
{
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    for (const QString &entry : qEnvironmentVariable("PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const QString entryCanonical = QFileInfo(entry).canonicalFilePath();
        if (QDir::cleanPath(entry) == dir || (!canonical.isEmpty() && entryCanonical == canonical))
            return true;
    }
    return false;
}

QString shimScript(const QString &command, const QString &kitDir)
{
    const QString paddock = QFileInfo(QCoreApplication::applicationFilePath()).absoluteFilePath();
    return QStringLiteral("#!/bin/sh\n") + QString::fromUtf8(kMarker) + QLatin1Char('\n') +
           QString::fromUtf8(kKitPrefix) + kitDir + QLatin1Char('\n') +
           QStringLiteral("# Runs %1 in a Paddock sandbox with the current folder as its workspace: the kit's\n"
                          "# agent with exactly these arguments, in the folder's sandbox (made and started when\n"
                          "# needed, and left running), as a session of its own.\n")
               .arg(command) +
           QStringLiteral("exec %1 run --new-session --kit %2 -- \"$@\"\n")
               .arg(shellQuote(paddock), shellQuote(kitDir));
}

int runInstall(const Invocation &call)
{
    const QString command = call.positional.first();
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._+-]*$"));
    if (!validName.match(command).hasMatch())
        return usageError(
            call.commandPath,
            QStringLiteral("'%1' is not a command name (letters, digits, '.', '_', '+', '-')").arg(command));
    if (command == QLatin1String("paddock") || command == QLatin1String("paddockd"))
        return usageError(call.commandPath, QStringLiteral("a shim named %1 would run itself").arg(command));
    if (call.parser.value(QStringLiteral("kit")).isEmpty())
        return usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
    const std::optional<QString> resolved = resolveKit(call.parser.value(QStringLiteral("kit")));
    if (!resolved)
        return ExitFailed;
    const QString kitDir = *resolved;
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, {});
    if (!loaded.ok())
        return failure(QStringLiteral("%1 is not a valid kit; 'paddock kit validate %1' says why").arg(kitDir));

    const QString dir = binDir(call);
    const QString target = dir + QLatin1Char('/') + command;
    const QFileInfo existing(target);
    if ((existing.exists() || existing.isSymLink()) && !readShim(target))
        return failure(QStringLiteral("%1 exists and was not written by 'paddock shim install'; it is left as it "
                                      "is (remove it yourself, or choose another --dir)")
                           .arg(target));
    if (!QDir().mkpath(dir))
        return failure(QStringLiteral("cannot create %1").arg(dir));
    QString error;
    if (!writeFileAtomically(target, shimScript(command, kitDir).toUtf8(), &error, 0755))
        return failure(QStringLiteral("cannot write %1: %2").arg(target, error));
    QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                      QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                      QFileDevice::ExeOther);
    out() << "Installed " << target << ": '" << command << "' now runs in a sandbox of kit " << loaded.kit->name << " ("
          << kitDir << ")\n";
    if (!isOnPath(dir)) {
        err() << "paddock: warning: " << dir << " is not on your PATH, so typing '" << command
              << "' will not find the shim; add it, e.g. in ~/.profile: export PATH=\"" << dir << ":$PATH\"\n";
        err().flush();
    }
    return ExitOk;
}

int runLs(const Invocation &call)
{
    const QString dir = binDir(call);
    QList<Shim> shims;
    const QFileInfoList files = QDir(dir).entryInfoList(QDir::Files | QDir::System | QDir::Hidden, QDir::Name);
    for (const QFileInfo &info : files) {
        if (const std::optional<Shim> shim = readShim(info.absoluteFilePath()))
            shims.append(*shim);
    }
    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const Shim &shim : std::as_const(shims))
            array.append(QJsonObject{{QStringLiteral("command"), shim.command},
                                     {QStringLiteral("kit"), shim.kit},
                                     {QStringLiteral("path"), shim.path}});
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (shims.isEmpty()) {
        out() << "No shims in " << dir << ". Add one with 'paddock shim install COMMAND --kit KIT'.\n";
        return ExitOk;
    }
    qsizetype width = QStringLiteral("COMMAND").size();
    for (const Shim &shim : std::as_const(shims))
        width = std::max(width, shim.command.size());
    out() << QStringLiteral("COMMAND").leftJustified(width + 2) << "KIT\n";
    for (const Shim &shim : std::as_const(shims))
        out() << shim.command.leftJustified(width + 2) << shim.kit << '\n';
    return ExitOk;
}

int runRm(const Invocation &call)
{
    const QString dir = binDir(call);
    int code = ExitOk;
    for (const QString &command : call.positional) {
        const QString target = dir + QLatin1Char('/') + command;
        if (command.contains(QLatin1Char('/')) || !QFileInfo(target).exists()) {
            code = failure(QStringLiteral("no shim named %1 in %2").arg(command, dir));
            continue;
        }
        if (!readShim(target)) {
            code = failure(
                QStringLiteral("%1 was not written by 'paddock shim install'; it is left as it is").arg(target));
            continue;
        }
        if (!QFile::remove(target)) {
            code = failure(QStringLiteral("cannot remove %1").arg(target));
            continue;
        }
        out() << "Removed " << target << '\n';
    }
    return code;
}

QCommandLineOption dirOption()
{
    return {QStringLiteral("dir"), QStringLiteral("Where the shims live (default: ~/.local/bin)."),
            QStringLiteral("BIN")};
}

} // namespace

Command shimCommand()
{
    Command group;
    group.name = QStringLiteral("shim");
    group.summary = QStringLiteral("Make a command start in a sandbox when you type it.");
    group.description =
        QStringLiteral("A shim is a small launcher script named after a command (pi, claude, aider...). Typing the\n"
                       "command in a project folder then runs 'paddock run --kit DIR -- COMMAND ARGS...' with\n"
                       "that folder as the workspace. Shims are marked so Paddock never touches a file it did\n"
                       "not write.");

    Command install;
    install.name = QStringLiteral("install");
    install.summary = QStringLiteral("Write a shim for COMMAND that runs it in a sandbox of a kit.");
    install.description =
        QStringLiteral("Writes BIN/COMMAND (BIN: ~/.local/bin unless --dir). An existing shim is updated; any other\n"
                       "file of that name is refused. Warns when BIN is not on PATH.");
    install.options = {kitOption(QStringLiteral("The kit the command runs in.")), dirOption()};
    install.positionalSyntax = QStringLiteral("COMMAND");
    install.positionalHelp = {{QStringLiteral("COMMAND"), QStringLiteral("The command name, as you type it.")}};
    install.minPositional = install.maxPositional = 1;
    install.run = runInstall;

    Command ls;
    ls.name = QStringLiteral("ls");
    ls.summary = QStringLiteral("List the shims and their kits.");
    ls.description = QStringLiteral("Lists the shims in BIN (~/.local/bin unless --dir).");
    ls.options = {dirOption(), jsonOption(QStringLiteral("the list"))};
    ls.maxPositional = 0;
    ls.run = runLs;

    Command rm;
    rm.name = QStringLiteral("rm");
    rm.summary = QStringLiteral("Remove shims.");
    rm.description = QStringLiteral("Removes BIN/COMMAND for each COMMAND, only when 'paddock shim install' wrote it.");
    rm.options = {dirOption()};
    rm.positionalSyntax = QStringLiteral("COMMAND...");
    rm.minPositional = 1;
    rm.run = runRm;

    group.subcommands << install << ls << rm;
    return group;
}

} // namespace paddock::cli

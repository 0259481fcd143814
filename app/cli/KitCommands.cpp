// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit validate|show|allow|deny
#include "Cli.h"

#include "kit/KitJson.h"
#include "kit/KitLoader.h"

#include <QJsonDocument>

#include <algorithm>

namespace paddock::cli {

namespace {

int runValidate(const Invocation &call)
{
    bool anyInvalid = false;
    for (const QString &dir : call.positional) {
        // Required arguments stay unresolved here: a kit is valid when it is valid for
        // some values of its arguments, which only `show` and `run` need.
        const kit::KitLoadResult result = kit::KitLoader::loadDirectory(dir, {});
        if (result.ok()) {
            out() << dir << ": ok\n";
            for (const kit::Diagnostic &d : result.diagnostics)
                out() << "  " << d.toString() << '\n';
            continue;
        }
        anyInvalid = true;
        const auto errors = std::count_if(result.diagnostics.cbegin(), result.diagnostics.cend(),
                                          [](const kit::Diagnostic &d) { return d.isError(); });
        out() << dir << ": invalid (" << errors << (errors == 1 ? " error" : " errors") << ")\n";
        for (const kit::Diagnostic &d : result.diagnostics)
            out() << "  " << d.toString() << '\n';
    }
    out().flush();
    return anyInvalid ? ExitFailed : ExitOk;
}

int runShow(const Invocation &call)
{
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    for (const QString &assignment : call.parser.values(QStringLiteral("arg"))) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return usageError(call.commandPath, QStringLiteral("--arg takes NAME=VALUE, got '%1'").arg(assignment));
        options.args.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    const QString dir = call.positional.constFirst();
    const kit::KitLoadResult result = kit::KitLoader::loadDirectory(dir, options);
    if (!result.ok()) {
        for (const kit::Diagnostic &d : result.diagnostics)
            err() << d.toString() << '\n';
        err().flush();
        return ExitFailed;
    }
    // Warnings go to stderr so that --json output stays a single parseable document.
    for (const kit::Diagnostic &d : result.diagnostics)
        err() << d.toString() << '\n';
    err().flush();
    if (call.parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(kit::toJson(*result.kit)).toJson(QJsonDocument::Indented);
    else
        out() << kit::toText(*result.kit);
    out().flush();
    return ExitOk;
}

} // namespace

Command kitCommand()
{
    Command kit;
    kit.name = QStringLiteral("kit");
    kit.summary = QStringLiteral("Validate, show and edit kits (spec.yaml directories).");
    kit.description =
        QStringLiteral("A kit is a directory holding a spec.yaml (schemaVersion \"2\", the format of Docker\n"
                       "Sandboxes) and optionally a files/ tree copied into the sandbox.");

    Command validate;
    validate.name = QStringLiteral("validate");
    validate.summary = QStringLiteral("Check kit directories strictly and report every problem.");
    validate.description =
        QStringLiteral("Reads each kit as sbx does, strictly: an unknown field anywhere is an error, and so\n"
                       "is a key of v1 or of an earlier draft (the error names its v2 replacement).\n"
                       "schemaVersion \"1\" kits are refused with a note on how to migrate them.\n\n"
                       "Prints one line per kit: 'DIR: ok' followed by its warnings, or 'DIR: invalid'\n"
                       "followed by its errors, each as FILE:LINE:COLUMN: error: MESSAGE.\n"
                       "Required arguments (args:) need no value here. Exits 1 when a kit is invalid.");
    validate.positionalSyntax = QStringLiteral("DIR...");
    validate.positionalHelp = {{QStringLiteral("DIR"), QStringLiteral("A kit directory (holding spec.yaml).")}};
    validate.minPositional = 1;
    validate.run = runValidate;

    Command show;
    show.name = QStringLiteral("show");
    show.summary = QStringLiteral("Print a kit as Paddock understands it, arguments substituted.");
    show.description =
        QStringLiteral("Loads the kit, substitutes its ${{ kit.args.NAME }} arguments (values given with\n"
                       "--arg, declared defaults otherwise) and prints the normalised kit: scheme: bearer and\n"
                       "basic expanded into header and format, publishedPorts read as ports.\n"
                       "A required argument without a value is an error. Warnings go to stderr.\n"
                       "Exits 1 with the errors when the kit does not load.");
    show.positionalSyntax = QStringLiteral("DIR");
    show.positionalHelp = {{QStringLiteral("DIR"), QStringLiteral("A kit directory (holding spec.yaml).")}};
    show.minPositional = 1;
    show.maxPositional = 1;
    show.options = {
        QCommandLineOption(QStringLiteral("arg"), QStringLiteral("Value of the kit argument NAME (repeatable)."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("json"), QStringLiteral("Print the kit as JSON.")),
    };
    show.run = runShow;

    kit.subcommands << validate << show;
    kit.subcommands << kitEditCommands();
    return kit;
}

} // namespace paddock::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit validate|show|ls|add|forget|new (allow and deny live in KitEditCommands.cpp)
#include "BindingApproval.h"
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "api/DaemonConnection.h"
#include "api/Protocol.h"
#include "kit/KitJson.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"
#include "kit/KitV3Descriptor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <algorithm>

#include <unistd.h>

namespace paddock::cli {

namespace {

/** The kit @p argument names (a library name, a folder or a descriptor file), loaded; an unknown name is one error. */
kit::KitLoadResult loadNamedKit(const kit::KitLibrary &library, const QString &argument,
                                const kit::KitLoadOptions &options)
{
    // A schemaVersion "3" descriptor is one file, not a folder.
    if (QFileInfo(argument).isFile()) {
        QFile file(argument);
        if (file.open(QIODevice::ReadOnly) && file.size() <= 4 * kit::kV3DescriptorMaxBytes)
            return kit::KitLoader::loadText(file.readAll(), argument, options);
    }
    QString error;
    const std::optional<QString> folder = library.resolve(argument, &error);
    if (folder)
        return kit::KitLoader::loadDirectory(*folder, options);
    kit::KitLoadResult result;
    kit::Diagnostic problem;
    problem.file = argument;
    problem.message = error;
    result.diagnostics << problem;
    return result;
}

/** What a schemaVersion "3" kit provides and what became of each capability it requests. */
void printCapabilities(const kit::Kit &kit)
{
    if (kit.schemaVersion != QLatin1String("3"))
        return;
    out() << "  " << (kit.isSandbox() ? "workload" : "mixin") << " (schemaVersion 3)";
    if (!kit.provides.isEmpty())
        out() << ", provides " << kit.provides.join(QStringLiteral(", "));
    out() << '\n';
    for (const kit::CapabilityOutcome &c : kit.capabilities)
        out() << "  " << kit::outcomeName(c.status) << ": " << c.type << (c.label.isEmpty() ? "" : " (") << c.label
              << (c.label.isEmpty() ? "" : ")") << " - " << c.what << '\n';
}

/** The same for a kit as the daemon's kit.load answers it. */
void printLoadedCapabilities(const QJsonObject &kit)
{
    if (kit.value(QLatin1String("schemaVersion")).toString() != QLatin1String("3"))
        return;
    out() << "  " << kit.value(QLatin1String("kind")).toString() << " (schemaVersion 3)";
    QStringList provides;
    for (const QJsonValue &value : kit.value(QLatin1String("provides")).toArray())
        provides << value.toString();
    if (!provides.isEmpty())
        out() << ", provides " << provides.join(QStringLiteral(", "));
    out() << '\n';
    for (const QJsonValue &value : kit.value(QLatin1String("capabilities")).toArray()) {
        const QJsonObject c = value.toObject();
        const QString label = c.value(QLatin1String("label")).toString();
        out() << "  " << c.value(QLatin1String("status")).toString() << ": "
              << c.value(QLatin1String("type")).toString()
              << (label.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(label)) << " - "
              << c.value(QLatin1String("what")).toString() << '\n';
    }
}

/** On a terminal, whether the person accepts what an update of a loaded kit is granted beyond it. */
bool acceptWidenings(const QString &source, const QJsonArray &widenings)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    err() << "This update of the kit is granted more than the one loaded before (" << source << "):\n";
    for (const QJsonValue &line : widenings)
        err() << "  + " << line.toString() << '\n';
    return terminalAnswersYes(QStringLiteral("Accept these changes?"));
}

/** How long `kit load` and `kit pull` wait for paddockd, which unpacks every layer. */
constexpr int kKitLoadTimeoutMs = 30 * 60 * 1000;

/**
 * Has paddockd load the kit (@p method: kit.load or kit.pull), asking on a terminal when the
 * kit is an update granted more than the loaded one, then again with the approval.
 */
std::optional<QJsonObject> loadAsked(const Invocation &call, const QString &method, QJsonObject params,
                                     const QString &source, int *code)
{
    params.insert(QStringLiteral("name"), call.parser.value(QStringLiteral("name")));
    params.insert(QStringLiteral("approve"), call.parser.isSet(QStringLiteral("approve-kit-changes")));
    std::optional<QJsonObject> answer = callDaemon(call, method, params, code, kKitLoadTimeoutMs);
    if (answer && answer->value(QLatin1String("needsApproval")).toBool() &&
        acceptWidenings(source, answer->value(QLatin1String("widenings")).toArray())) {
        params.insert(QStringLiteral("approve"), true);
        answer = callDaemon(call, method, params, code, kKitLoadTimeoutMs);
    }
    return answer;
}

/** Prints what loading the kit of @p source did (the daemon's answer); the exit code. */
int reportLoaded(const QJsonObject &answer, const QString &source)
{
    for (const QJsonValue &value : answer.value(QLatin1String("diagnostics")).toArray()) {
        const QJsonObject d = value.toObject();
        (d.value(QLatin1String("error")).toBool() ? err() : out()) << d.value(QLatin1String("text")).toString() << '\n';
    }
    for (const QJsonValue &note : answer.value(QLatin1String("notes")).toArray())
        out() << "note: " << note.toString() << '\n';
    if (!answer.value(QLatin1String("loaded")).toBool()) {
        err() << "paddock: " << source << " was not loaded\n";
        err().flush();
        out().flush();
        return answer.value(QLatin1String("refused")).toBool() ? ExitRefused : ExitFailed;
    }
    const QJsonObject kit = answer.value(QLatin1String("kit")).toObject();
    const QString reference = kit.value(QLatin1String("reference")).toString();
    const QString digest = kit.value(QLatin1String("digest")).toString();
    out() << "loaded " << kit.value(QLatin1String("name")).toString() << " ("
          << kit.value(QLatin1String("kind")).toString() << ") from " << (reference.isEmpty() ? source : reference)
          << (digest.isEmpty() ? "" : " ") << digest << " into " << kit.value(QLatin1String("directory")).toString()
          << '\n';
    printLoadedCapabilities(kit);
    if (kit.value(QLatin1String("kind")).toString() == QLatin1String("workload"))
        out() << "run it with: paddock run --kit " << kit.value(QLatin1String("name")).toString() << '\n';
    out().flush();
    return ExitOk;
}

int runLoad(const Invocation &call)
{
    // The daemon reads the file the person named (it runs as the same user) and writes the library.
    const QString archive = call.positional.constFirst();
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        loadAsked(call, QStringLiteral("kit.load"), {{QStringLiteral("file"), QFileInfo(archive).absoluteFilePath()}},
                  archive, &code);
    return answer ? reportLoaded(*answer, archive) : code;
}

/** Has paddockd pull the kit image from its registry, then load it as `kit load` does. */
int runPull(const Invocation &call)
{
    const QString reference = call.positional.constFirst();
    out() << "pulling " << reference << " through paddockd\n";
    out().flush();
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        loadAsked(call, QStringLiteral("kit.pull"), {{QStringLiteral("reference"), reference}}, reference, &code);
    return answer ? reportLoaded(*answer, reference) : code;
}

/**
 * kit.build as loadAsked() has a load done, over one connection that prints each Dockerfile step
 * as paddockd reports it (events of topic `image` carrying this run's token).
 */
std::optional<QJsonObject> buildAsked(const Invocation &call, QJsonObject params, const QString &source, int *code)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error)) {
        *code = failure(error);
        return std::nullopt;
    }
    const api::Reply subscribed =
        connection.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("image")}}});
    if (subscribed.isError()) {
        *code = failure(subscribed.errorMessage());
        return std::nullopt;
    }
    const QString run = QUuid::createUuid().toString(QUuid::WithoutBraces);
    params.insert(QStringLiteral("run"), run);
    params.insert(QStringLiteral("name"), call.parser.value(QStringLiteral("name")));
    params.insert(QStringLiteral("approve"), call.parser.isSet(QStringLiteral("approve-kit-changes")));
    int shown = 0;
    const auto printStep = [&run, &shown](const api::Event &event) {
        const int step = event.data.value(QLatin1String("step")).toInt();
        if (event.topic != QLatin1String("image") || event.data.value(QLatin1String("run")).toString() != run ||
            step == shown)
            return;
        shown = step;
        out() << "step " << step << '/' << event.data.value(QLatin1String("totalSteps")).toInt() << ": "
              << event.data.value(QLatin1String("message")).toString() << '\n';
        out().flush();
    };
    api::Reply reply = connection.call(QStringLiteral("kit.build"), params, kKitLoadTimeoutMs, printStep);
    if (!reply.isError() && reply.result().value(QLatin1String("needsApproval")).toBool() &&
        acceptWidenings(source, reply.result().value(QLatin1String("widenings")).toArray())) {
        params.insert(QStringLiteral("approve"), true);
        shown = 0;
        reply = connection.call(QStringLiteral("kit.build"), params, kKitLoadTimeoutMs, printStep);
    }
    if (reply.isError()) {
        *code = reply.errorCode() == QLatin1String(api::errors::kInvalidParams)
                    ? usageError(call.commandPath, reply.errorMessage())
                    : failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

/** Has paddockd build the authored kit of PATH through the Docker engine and load what it built. */
int runBuild(const Invocation &call)
{
    const QString path = call.positional.constFirst();
    if (!QFileInfo::exists(path))
        return failure(QStringLiteral("there is no %1 (a kit folder or its STEM.yaml)").arg(path));
    int code = ExitOk;
    const std::optional<QJsonObject> args = kitArgsJson(call, &code);
    if (!args)
        return code;
    QJsonObject params{{QStringLiteral("path"), QFileInfo(path).absoluteFilePath()}, {QStringLiteral("args"), *args}};
    if (call.parser.isSet(QStringLiteral("tag")))
        params.insert(QStringLiteral("tag"), call.parser.value(QStringLiteral("tag")));
    out() << "building " << path << " through paddockd and the Docker engine\n";
    out().flush();
    const std::optional<QJsonObject> answer = buildAsked(call, params, path, &code);
    return answer ? reportLoaded(*answer, path) : code;
}

int runValidate(const Invocation &call)
{
    const kit::KitLibrary library;
    bool anyInvalid = false;
    for (const QString &dir : call.positional) {
        // Required arguments stay unresolved here: a kit is valid when it is valid for
        // some values of its arguments, which only `show` and `run` need.
        const kit::KitLoadResult result = loadNamedKit(library, dir, {});
        if (result.ok()) {
            out() << dir << ": ok\n";
            for (const kit::Diagnostic &d : result.diagnostics)
                out() << "  " << d.toString() << '\n';
            printCapabilities(*result.kit);
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
    int code = ExitOk;
    const std::optional<QMap<QString, QString>> args = kitArgValues(call, &code);
    if (!args)
        return code;
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    options.args = *args;
    const kit::KitLoadResult result = loadNamedKit(kit::KitLibrary(), call.positional.constFirst(), options);
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

QString healthText(const QJsonObject &entry)
{
    const int errors = entry.value(QLatin1String("errors")).toInt();
    const int warnings = entry.value(QLatin1String("warnings")).toInt();
    if (errors > 0)
        return QStringLiteral("%1 %2").arg(errors).arg(QLatin1String(errors == 1 ? "error" : "errors"));
    if (warnings > 0)
        return QStringLiteral("ok, %1 %2").arg(warnings).arg(QLatin1String(warnings == 1 ? "warning" : "warnings"));
    return QStringLiteral("ok");
}

/** The library as a table, columns sized to their content like `ls -l` (names vary from 2 to 40 characters). */
void printLibrary(const QJsonArray &entries)
{
    const auto field = [](const QJsonObject &entry, const char *key) {
        return entry.value(QLatin1String(key)).toString();
    };
    const QStringList headers{QStringLiteral("NAME"), QStringLiteral("VERSION"), QStringLiteral("SOURCE"),
                              QStringLiteral("STATUS"), QStringLiteral("FOLDER")};
    QList<QStringList> rows{headers};
    for (const QJsonValue &value : entries) {
        const QJsonObject entry = value.toObject();
        const QString version = field(entry, "version");
        rows << QStringList{field(entry, "name"), version.isEmpty() ? QStringLiteral("-") : version,
                            field(entry, "source"), healthText(entry), field(entry, "directory")};
    }
    QList<int> widths(headers.size(), 0);
    for (const QStringList &row : rows)
        for (qsizetype i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], int(row.at(i).size()));
    for (qsizetype r = 0; r < rows.size(); ++r) {
        const QStringList &row = rows.at(r);
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i)
            line += i + 1 < row.size() ? row.at(i).leftJustified(widths[i] + 2) : row.at(i);
        out() << line << '\n';
        // A loaded OCI kit says where it came from.
        const QJsonObject entry = r > 0 ? entries.at(r - 1).toObject() : QJsonObject();
        if (const QString digest = field(entry, "digest"); !digest.isEmpty()) {
            const QString reference = field(entry, "reference");
            out() << "  from " << (reference.isEmpty() ? QStringLiteral("an archive") : reference) << ' ' << digest
                  << '\n';
        }
    }
}

/** The library as the daemon reads it, the one that writes it. */
int runList(const Invocation &call)
{
    int code = ExitFailed;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("kit.list"), {}, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    const QJsonArray entries = answer->value(QLatin1String("kits")).toArray();
    if (call.parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(entries).toJson(QJsonDocument::Indented);
    else if (entries.isEmpty())
        out() << "No kits yet: add a kit folder with `paddock kit add DIR` or make one with "
                 "`paddock kit new --template sandbox DIR`.\n";
    else
        printLibrary(entries);
    out().flush();
    if (const QString broken = answer->value(QLatin1String("configError")).toString(); !broken.isEmpty()) {
        err() << "paddock: the added kits are not listed: " << broken << '\n';
        err().flush();
        return ExitFailed;
    }
    return ExitOk;
}

/** kit.add of @p dir: the daemon writes kits.yaml; nullopt after printing why it did not. */
std::optional<QJsonObject> addToLibrary(const Invocation &call, const QString &dir, int *code)
{
    return callDaemon(call, QStringLiteral("kit.add"),
                      {{QStringLiteral("directory"), QFileInfo(dir).absoluteFilePath()}}, code, kDaemonCallTimeoutMs);
}

int runAdd(const Invocation &call)
{
    const QString dir = call.positional.constFirst();
    int code = ExitFailed;
    const std::optional<QJsonObject> answer = addToLibrary(call, dir, &code);
    if (!answer)
        return code;
    const QJsonObject entry = answer->value(QLatin1String("kit")).toObject();
    const QString what = QStringLiteral("%1 (%2)").arg(entry.value(QLatin1String("name")).toString(),
                                                       entry.value(QLatin1String("directory")).toString());
    if (answer->value(QLatin1String("added")).toBool())
        out() << "added " << what;
    else
        out() << what << " is already in the library";
    out() << (entry.value(QLatin1String("valid")).toBool()
                  ? QString()
                  : QStringLiteral("; it does not validate yet: paddock kit validate %1").arg(dir))
          << '\n';
    out().flush();
    return ExitOk;
}

int runForget(const Invocation &call)
{
    // A folder on this command line is this process's; the daemon is given it whole.
    const QString argument = call.positional.constFirst();
    const QString kit = argument.contains(QLatin1Char('/')) || QFileInfo(argument).isDir()
                            ? QFileInfo(argument).absoluteFilePath()
                            : argument;
    int code = ExitFailed;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("kit.forget"), {{QStringLiteral("kit"), kit}}, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    out() << "forgot " << answer->value(QLatin1String("forgotten")).toString() << " (its files are untouched)\n";
    out().flush();
    return ExitOk;
}

int runNew(const Invocation &call)
{
    const QString templateName = call.parser.value(QStringLiteral("template"));
    if (templateName.isEmpty())
        return usageError(call.commandPath, QStringLiteral("--template is required (%1)")
                                                .arg(kit::KitLibrary::templateNames().join(QStringLiteral(", "))));
    if (!kit::KitLibrary::templateNames().contains(templateName))
        return usageError(call.commandPath,
                          QStringLiteral("unknown template '%1' (templates: %2)")
                              .arg(templateName, kit::KitLibrary::templateNames().join(QStringLiteral(", "))));
    const QString dir = call.positional.constFirst();
    QString error;
    if (!kit::KitLibrary::createFromTemplate(templateName, dir, call.parser.value(QStringLiteral("name")), &error))
        return failure(error);
    const QString specPath = QDir(dir).filePath(QStringLiteral("spec.yaml"));
    if (call.parser.isSet(QStringLiteral("no-add"))) {
        out() << "wrote " << specPath << '\n';
    } else {
        const api::Reply added =
            daemonReply(QStringLiteral("kit.add"), {{QStringLiteral("directory"), QFileInfo(dir).absoluteFilePath()}},
                        kDaemonCallTimeoutMs);
        if (added.isError())
            return failure(
                QStringLiteral("wrote %1 but could not add it to the library: %2").arg(specPath, added.errorMessage()));
        out() << "wrote " << specPath << " and added it to the library\n";
    }
    out().flush();
    return ExitOk;
}

Command validateCommand()
{
    Command validate;
    validate.name = QStringLiteral("validate");
    validate.summary = QStringLiteral("Check kit directories strictly and report every problem.");
    validate.description =
        QStringLiteral("Reads each kit as sbx does, strictly: an unknown field anywhere is an error, and so\n"
                       "is a key of v1 or of an earlier draft (the error names its v2 replacement).\n"
                       "schemaVersion \"1\" kits are refused with a note on how to migrate them. A schemaVersion\n"
                       "\"3\" descriptor file is checked by the rules of OCI kits, and what it provides and\n"
                       "the fate of each capability it requests (applied, skipped, refused) are listed.\n\n"
                       "Prints one line per kit: 'KIT: ok' followed by its warnings, or 'KIT: invalid'\n"
                       "followed by its errors, each as FILE:LINE:COLUMN: error: MESSAGE.\n"
                       "Required arguments (args:) need no value here. Exits 1 when a kit is invalid.");
    validate.positionalSyntax = QStringLiteral("KIT...");
    validate.positionalHelp = {{QStringLiteral("KIT"), kitArgumentHelp()}};
    validate.minPositional = 1;
    validate.run = runValidate;
    return validate;
}

Command showCommand()
{
    Command show;
    show.name = QStringLiteral("show");
    show.summary = QStringLiteral("Print a kit as Paddock understands it, arguments substituted.");
    show.description =
        QStringLiteral("Loads the kit, substitutes its ${{ kit.args.NAME }} arguments (values given with\n"
                       "--arg, declared defaults otherwise) and prints the normalised kit: scheme: bearer and\n"
                       "basic expanded into header and format, publishedPorts read as ports.\n"
                       "A required argument without a value is an error. Warnings go to stderr.\n"
                       "Exits 1 with the errors when the kit does not load.");
    show.positionalSyntax = QStringLiteral("KIT");
    show.positionalHelp = {{QStringLiteral("KIT"), kitArgumentHelp()}};
    show.minPositional = 1;
    show.maxPositional = 1;
    show.options = {
        QCommandLineOption(QStringLiteral("arg"), QStringLiteral("Value of the kit argument NAME (repeatable)."),
                           QStringLiteral("NAME=VALUE")),
        jsonOption(QStringLiteral("the kit")),
    };
    show.run = runShow;
    return show;
}

Command listCommand()
{
    Command list;
    list.name = QStringLiteral("ls");
    list.summary = QStringLiteral("List the kits Paddock knows: folders you added, imported kits and the samples.");
    list.description =
        QStringLiteral("Lists the kit folders added with `paddock kit add` (kept in ~/.config/paddock/kits.yaml),\n"
                       "the kits `paddock bundle import` wrote into ~/.local/share/paddock/kits and the sample\n"
                       "kits shipped with Paddock, each checked as `kit validate` does: name, version, source\n"
                       "(added, imported or sample), status (ok, or its number of errors) and folder.\n"
                       "Every command that takes a kit accepts the name listed here.\n"
                       "Exits 1 when kits.yaml cannot be read (the error names its line).");
    list.maxPositional = 0;
    list.options = {jsonOption(QStringLiteral("the list"))};
    list.run = runList;
    return list;
}

Command addCommand()
{
    Command add;
    add.name = QStringLiteral("add");
    add.summary = QStringLiteral("Add a kit folder to the library.");
    add.description =
        QStringLiteral("Remembers the folder DIR (which must hold a spec.yaml) in ~/.config/paddock/kits.yaml.\n"
                       "The kit is listed even when it does not validate yet.");
    add.positionalSyntax = QStringLiteral("DIR");
    add.positionalHelp = {{QStringLiteral("DIR"), QStringLiteral("A kit directory (holding spec.yaml).")}};
    add.minPositional = 1;
    add.maxPositional = 1;
    add.run = runAdd;
    return add;
}

Command forgetCommand()
{
    Command forget;
    forget.name = QStringLiteral("forget");
    forget.summary = QStringLiteral("Remove an added kit from the library (its files stay).");
    forget.description =
        QStringLiteral("Removes the folder, or the added kit with that name, from ~/.config/paddock/kits.yaml.\n"
                       "Nothing is deleted. Sample kits cannot be forgotten.");
    forget.positionalSyntax = QStringLiteral("NAME|DIR");
    forget.positionalHelp = {{QStringLiteral("NAME|DIR"), QStringLiteral("The kit's name or its folder.")}};
    forget.minPositional = 1;
    forget.maxPositional = 1;
    forget.run = runForget;
    return forget;
}

Command loadCommand()
{
    Command load;
    load.name = QStringLiteral("load");
    load.summary = QStringLiteral("Load a schemaVersion 3 kit (an OCI image) from an archive.");
    load.description = QStringLiteral(
        "Reads the kit image of FILE, an OCI layout tar or a `docker save` tar: its descriptor from the\n"
        "vnd.docker.sandbox.kit.descriptor annotation (index first, then the linux manifest), checked\n"
        "strictly, and its layers into Paddock's image store, so that a workload runs under bubblewrap\n"
        "without Docker (`paddock run --kit NAME`; entrypoint, env, user and workdir from the image).\n"
        "Each capability it requests is applied, skipped (optional, not implemented here) or refused\n"
        "(required, not implemented here: nothing is loaded). The kit is listed by `paddock kit ls`\n"
        "with its reference and digest. Loading a kit of the same name again replaces it; when the\n"
        "new one is granted more (a domain, a deny removed, a key, a port, a volume, privilege), the\n"
        "load stops with the list: accept it at the prompt on a terminal, or with --approve-kit-changes.");
    load.positionalSyntax = QStringLiteral("FILE");
    load.positionalHelp = {{QStringLiteral("FILE"), QStringLiteral("An OCI layout or docker save archive (.tar).")}};
    load.minPositional = 1;
    load.maxPositional = 1;
    load.options = {QCommandLineOption(QStringLiteral("name"),
                                       QStringLiteral("The kit's name (default: from its image reference)."),
                                       QStringLiteral("NAME")),
                    QCommandLineOption(QStringLiteral("approve-kit-changes"),
                                       QStringLiteral("Accept an update that is granted more than the loaded kit "
                                                      "(for scripts; a terminal is asked)."))};
    load.run = runLoad;
    return load;
}

Command pullCommand()
{
    Command pull;
    pull.name = QStringLiteral("pull");
    pull.summary = QStringLiteral("Pull a schemaVersion 3 kit (an OCI image) from its registry.");
    pull.description = QStringLiteral(
        "Fetches the kit image REF ([HOST[:PORT]/]REPO[:TAG|@sha256:DIGEST]) from its registry, without\n"
        "Docker, and loads it as `paddock kit load` loads an archive. The registry is reached over\n"
        "HTTPS with the logins of `docker login` (~/.docker/config.json and its credential helpers)\n"
        "and the certificate authorities of ~/.docker/certs.d/HOST:PORT/ca.crt. Every blob is\n"
        "checked against its digest.");
    pull.positionalSyntax = QStringLiteral("REF");
    pull.positionalHelp = {
        {QStringLiteral("REF"), QStringLiteral("The kit image, e.g. registry.example/kits/shell:1.0")}};
    pull.minPositional = 1;
    pull.maxPositional = 1;
    pull.options = {QCommandLineOption(QStringLiteral("name"),
                                       QStringLiteral("The kit's name (default: from its image reference)."),
                                       QStringLiteral("NAME")),
                    QCommandLineOption(QStringLiteral("approve-kit-changes"),
                                       QStringLiteral("Accept an update that is granted more than the loaded kit "
                                                      "(for scripts; a terminal is asked)."))};
    pull.run = runPull;
    return pull;
}

Command buildCommand()
{
    Command build;
    build.name = QStringLiteral("build");
    build.summary = QStringLiteral("Build an authored schemaVersion 3 kit (STEM.yaml and its recipe) into a kit.");
    build.description =
        QStringLiteral("Reads the authored kit PATH strictly (errors with line:column, as `kit validate`), builds its\n"
                       "image through the local Docker engine and loads it as `paddock kit load` loads an archive:\n"
                       "listed by `paddock kit ls` with its tag and digest, its layers in Paddock's image store so it\n"
                       "runs under bubblewrap too. The recipe is STEM.dockerfile beside STEM.yaml, the file the\n"
                       "descriptor's `dockerfile:` names, or its inline `build:`; a mixin with none is\n"
                       "declaration-only (no image, no engine needed). The folder is the build context: a link\n"
                       "leading out of it or more than 1 GiB of files refuses the build. Build-phase arguments\n"
                       "(`buildArg:`) take --arg values or their defaults and are written into the published\n"
                       "descriptor, which leaves `dockerfile:` out. RUN steps have no network, as for\n"
                       "`paddock template build` (which builds a spec.yaml kit's image): put what they need in\n"
                       "the folder, or build FROM an image that has it. Building again replaces the kit; an update\n"
                       "granted more stops for approval as `kit load` does.");
    build.positionalSyntax = QStringLiteral("PATH");
    build.positionalHelp = {{QStringLiteral("PATH"), QStringLiteral("The kit's folder, or its STEM.yaml descriptor.")}};
    build.minPositional = 1;
    build.maxPositional = 1;
    build.options = {QCommandLineOption(QStringLiteral("tag"),
                                        QStringLiteral("The built image's name (default: paddock/kit-NAME:latest)."),
                                        QStringLiteral("REF")),
                     QCommandLineOption(QStringLiteral("name"), QStringLiteral("The kit's name (default: from STEM)."),
                                        QStringLiteral("NAME")),
                     QCommandLineOption(QStringLiteral("arg"),
                                        QStringLiteral("Value of the build-phase argument NAME (repeatable)."),
                                        QStringLiteral("NAME=VALUE")),
                     QCommandLineOption(QStringLiteral("approve-kit-changes"),
                                        QStringLiteral("Accept an update that is granted more than the loaded kit "
                                                       "(for scripts; a terminal is asked)."))};
    build.run = runBuild;
    return build;
}

Command createCommand()
{
    Command create;
    create.name = QStringLiteral("new");
    create.summary = QStringLiteral("Write a new kit from a template and add it to the library.");
    create.description =
        QStringLiteral("Writes DIR/spec.yaml from a template (sandbox: an image, an entrypoint and an allowlist;\n"
                       "mixin: domains and setup layered onto another kit), named after the folder unless\n"
                       "--name says otherwise, and adds DIR to the library. DIR must not hold a spec.yaml.");
    create.positionalSyntax = QStringLiteral("DIR");
    create.positionalHelp = {{QStringLiteral("DIR"), QStringLiteral("The folder of the new kit (created).")}};
    create.minPositional = 1;
    create.maxPositional = 1;
    create.options = {
        QCommandLineOption(QStringLiteral("template"), QStringLiteral("The template: sandbox or mixin."),
                           QStringLiteral("T")),
        QCommandLineOption(QStringLiteral("name"), QStringLiteral("The kit's name (default: from the folder name)."),
                           QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("no-add"),
                           QStringLiteral("Only write the files; do not add the kit to the library.")),
    };
    create.run = runNew;
    return create;
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

    kit.subcommands << validateCommand() << showCommand();
    kit.subcommands << listCommand() << addCommand() << forgetCommand() << createCommand() << loadCommand()
                    << pullCommand() << buildCommand();
    kit.subcommands << kitEditCommands() << kitShareCommand() << kitResolveCommand();
    return kit;
}

} // namespace paddock::cli

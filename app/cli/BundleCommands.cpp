// SPDX-License-Identifier: GPL-3.0-or-later
// paddock bundle export|import
#include "BindingApproval.h"
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "api/Protocol.h"
#include "kit/KitLibrary.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

#include <unistd.h>

namespace paddock::cli {

namespace {

QString humanSize(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

void printIndented(const QString &text)
{
    for (const QString &line : text.split(QLatin1Char('\n')))
        out() << "  " << line << '\n';
}

QStringList stringsOf(const QJsonValue &value)
{
    QStringList strings;
    for (const QJsonValue &item : value.toArray())
        strings << item.toString();
    return strings;
}

/** Whether the command tree has `paddock GROUP LEAF`, so hints only name commands that exist. */
bool commandExists(const QString &group, const QString &leafName)
{
    for (const Command &command : rootCommand().subcommands) {
        if (command.name != group)
            continue;
        for (const Command &leaf : command.subcommands) {
            if (leaf.name == leafName)
                return true;
        }
    }
    return false;
}

/** @p path as the daemon must get it: absolute, since its working folder is not this one. */
QString absolute(const QString &path)
{
    return path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
}

int runExport(const Invocation &call)
{
    if (call.parser.value(QStringLiteral("kit")).isEmpty())
        return usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
    const std::optional<QString> kitDir = resolveKit(call.parser.value(QStringLiteral("kit")));
    if (!kitDir)
        return ExitFailed;
    QJsonObject params{{QStringLiteral("kit"), absolute(*kitDir)},
                       {QStringLiteral("policy"), call.parser.isSet(QStringLiteral("policy"))},
                       {QStringLiteral("engine"), call.parser.value(QStringLiteral("engine"))}};
    if (call.parser.isSet(QStringLiteral("notes"))) {
        QFile notes(call.parser.value(QStringLiteral("notes")));
        if (!notes.open(QIODevice::ReadOnly))
            return failure(QStringLiteral("cannot read %1: %2").arg(notes.fileName(), notes.errorString()));
        params.insert(QStringLiteral("notes"), QString::fromUtf8(notes.read(64 * 1024 + 1)));
    }
    // The file is the person's own, written by the daemon, which reads the kit and policy.yaml.
    const QString output = call.parser.value(QStringLiteral("output"));
    if (output.isEmpty())
        params.insert(QStringLiteral("folder"), QDir::currentPath());
    else
        params.insert(QStringLiteral("output"), absolute(output));
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("bundle.export"), params, &code, kDaemonCallTimeoutMs);
    if (!result)
        return code;
    const QString kitName = result->value(QLatin1String("kit")).toString();
    out() << "Wrote " << (output.isEmpty() ? kitName + QStringLiteral(".paddock") : output) << ": kit " << kitName
          << " (" << result->value(QLatin1String("fileCount")).toInt() << " files, "
          << humanSize(result->value(QLatin1String("bytes")).toInteger()) << ")\n";
    if (const QJsonObject policy = result->value(QLatin1String("policy")).toObject(); !policy.isEmpty())
        out() << "  policy: preset " << policy.value(QLatin1String("preset")).toString() << ", "
              << policy.value(QLatin1String("rules")).toInt() << " rules\n";
    const QStringList services = stringsOf(result->value(QLatin1String("secrets")));
    out() << "  secrets students provide: "
          << (services.isEmpty() ? QStringLiteral("none") : services.join(QStringLiteral(", ")))
          << " (names only; no value is in the file)\n";
    if (const QString engine = result->value(QLatin1String("engine")).toString(); !engine.isEmpty())
        out() << "  engine: students' sandboxes run on " << engine
              << " (each student adds it on their computer: its address and TLS files are not in the file)\n";
    return ExitOk;
}

/** The engine a bundle's sandboxes run on, and whether this computer has it. */
void printEngine(const QJsonObject &plan)
{
    const QString engine = plan.value(QLatin1String("engine")).toString();
    if (engine.isEmpty())
        return;
    out() << "\nIts sandboxes run on the container engine " << engine
          << ": the keys, the network policy and the event log stay on this computer.\n";
    if (plan.value(QLatin1String("engineKnown")).toBool())
        out() << "  This computer has engine " << engine << ".\n";
    else
        out() << "  This computer has no engine " << engine << " yet: add it with the address and TLS files your "
              << "teacher gives, e.g. paddock engine add " << engine
              << " tcp://HOST:2376 --remote --tls-ca ca.pem --tls-cert cert.pem --tls-key key.pem\n";
}

void printPolicyPlan(const QJsonObject &plan)
{
    if (!plan.value(QLatin1String("hasPolicy")).toBool()) {
        out() << "  leave the network policy as it is (the bundle carries none)\n";
        return;
    }
    const QString current = plan.value(QLatin1String("currentPreset")).toString();
    const QString next = plan.value(QLatin1String("newPreset")).toString();
    const bool changes = plan.value(QLatin1String("presetChanges")).toBool();
    if (changes)
        out() << "  set the policy preset: " << current << " -> " << next << '\n';
    else
        out() << "  keep the policy preset " << current << '\n';
    if (next == QLatin1String("allow-all") && changes)
        out() << "  warning: allow-all lets the sandbox reach every public host\n";
    for (const QJsonValue &value : plan.value(QLatin1String("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        out() << "  "
              << (rule.value(QLatin1String("alreadyPresent")).toBool() ? "keep rule (already present): " : "add rule: ")
              << rule.value(QLatin1String("description")).toString() << '\n';
    }
}

void printSecretsAndGrants(const QJsonObject &plan)
{
    const QJsonArray secrets = plan.value(QLatin1String("secrets")).toArray();
    if (!secrets.isEmpty()) {
        out() << "\nSecrets you will provide (a bundle never carries their values):\n";
        for (const QJsonValue &value : secrets) {
            const QJsonObject secret = value.toObject();
            out() << "  " << secret.value(QLatin1String("service")).toString()
                  << (secret.value(QLatin1String("required")).toBool() ? " (required)" : " (optional)");
            if (const QString description = secret.value(QLatin1String("description")).toString();
                !description.isEmpty())
                out() << ": " << description;
            if (const QStringList domains = stringsOf(secret.value(QLatin1String("domains"))); !domains.isEmpty())
                out() << "; sent only to " << domains.join(QStringLiteral(", "));
            out() << '\n';
        }
    }
    const QJsonArray grants = plan.value(QLatin1String("hostGrants")).toArray();
    if (!grants.isEmpty()) {
        out() << "\nThe kit reaches this computer or its networks (host grants, asked about before its first "
                 "sandbox starts):\n";
        for (const QJsonValue &grant : grants)
            out() << "  " << grant.toObject().value(QLatin1String("pattern")).toString() << "  reaches "
                  << grant.toObject().value(QLatin1String("reach")).toString() << '\n';
    }
}

void printPreview(const QString &file, const QJsonObject &plan)
{
    const QJsonObject kit = plan.value(QLatin1String("kit")).toObject();
    out() << "Bundle " << file << ": kit " << kit.value(QLatin1String("name")).toString();
    if (const QString version = kit.value(QLatin1String("version")).toString(); !version.isEmpty())
        out() << ' ' << version;
    if (const QString createdBy = plan.value(QLatin1String("createdBy")).toString(); !createdBy.isEmpty())
        out() << ", made with " << createdBy;
    out() << '\n';
    for (const QString &warning : stringsOf(plan.value(QLatin1String("warnings"))))
        out() << "  warning: " << warning << '\n';
    if (const QString notes = plan.value(QLatin1String("notes")).toString().trimmed(); !notes.isEmpty()) {
        out() << "\nNotes from the bundle's author:\n";
        printIndented(notes);
    }
    printEngine(plan);
    out() << "\nImporting it will:\n";
    out() << "  "
          << (plan.value(QLatin1String("replacesExisting")).toBool() ? "replace the kit folder "
                                                                     : "write the kit folder ")
          << plan.value(QLatin1String("destination")).toString() << " ("
          << plan.value(QLatin1String("fileCount")).toInt() << " files, "
          << humanSize(plan.value(QLatin1String("bytes")).toInteger()) << ")\n";
    // Every file is named, so a student sees a dotfile or script the kit would bring along.
    for (const QJsonValue &value : plan.value(QLatin1String("files")).toArray()) {
        const QJsonObject entry = value.toObject();
        out() << "      " << entry.value(QLatin1String("path")).toString()
              << (entry.value(QLatin1String("executable")).toBool() ? " (executable)" : "") << '\n';
    }
    if (const int more = plan.value(QLatin1String("moreFiles")).toInt(); more > 0)
        out() << "      ... and " << more << " more\n";
    printPolicyPlan(plan);
    if (plan.value(QLatin1String("hasAgentRules")).toBool()) {
        out() << "\nThe agent's own rules it brings (pi-permission-system, last match wins within a surface):\n";
        for (const QString &line : stringsOf(plan.value(QLatin1String("agentRules"))))
            out() << "  " << line << '\n';
        for (const QString &problem : stringsOf(plan.value(QLatin1String("agentRuleProblems"))))
            out() << "  warning: " << problem << '\n';
    }
    printSecretsAndGrants(plan);
}

void printNextSteps(const QJsonObject &plan)
{
    const QString kitName = plan.value(QLatin1String("kit")).toObject().value(QLatin1String("name")).toString();
    const QString destination = plan.value(QLatin1String("destination")).toString();
    const QString engine = plan.value(QLatin1String("engine")).toString();
    const QJsonArray secrets = plan.value(QLatin1String("secrets")).toArray();
    // The kit by its name when the library finds this import by it, else by its folder.
    const std::optional<QString> byName = kit::KitLibrary().resolve(kitName, nullptr);
    const QString kit = byName && *byName == QFileInfo(destination).canonicalFilePath() ? kitName : destination;
    QStringList steps;
    for (const QJsonValue &secret : secrets)
        steps << QStringLiteral("paddock secret set %1")
                     .arg(secret.toObject().value(QLatin1String("service")).toString());
    if (std::any_of(secrets.begin(), secrets.end(), [](const QJsonValue &secret) {
            return !secret.toObject().value(QLatin1String("domains")).toArray().isEmpty();
        }))
        steps << QStringLiteral("paddock binding approve --kit %1").arg(kit);
    if (!plan.value(QLatin1String("hostGrants")).toArray().isEmpty())
        steps << QStringLiteral("paddock grant check --kit %1   (then approve, or answer at the first run)")
                     .arg(destination);
    if (plan.value(QLatin1String("hasDockerfile")).toBool()) {
        const QString build = commandExists(QStringLiteral("template"), QStringLiteral("build"))
                                  ? QStringLiteral("paddock template build --kit %1").arg(kit)
                                  : QStringLiteral("docker build -t %1 %2")
                                        .arg(plan.value(QLatin1String("image")).toString(), destination);
        steps << build + QStringLiteral("   (for the Docker runtime only)");
    }
    if (!engine.isEmpty() && !plan.value(QLatin1String("engineKnown")).toBool())
        steps << QStringLiteral("paddock engine add %1 tcp://HOST:2376 --remote --tls-ca ca.pem --tls-cert cert.pem "
                                "--tls-key key.pem   (the address and files your teacher gives)")
                     .arg(engine);
    steps << QStringLiteral("cd YOUR-PROJECT && paddock run %1--kit %2")
                 .arg(engine.isEmpty() ? QString() : QStringLiteral("--engine %1 ").arg(engine), kit);
    steps << QStringLiteral("paddock verify NAME   (NAME as 'paddock ls' shows it)");
    out() << "\nNext steps:\n";
    for (qsizetype i = 0; i < steps.size(); ++i)
        out() << "  " << (i + 1) << ". " << steps.at(i) << '\n';
}

/**
 * The bundle's preset and rules change the network policy of every sandbox, so they are applied
 * only with --apply-policy or a "y" on the terminal; --skip-policy (or "n") imports the kit
 * alone. Sets *apply, or returns the exit code when the import must stop, having written nothing.
 */
std::optional<int> consentToPolicy(const Invocation &call, const QJsonObject &plan, bool *apply)
{
    const QStringList changes = stringsOf(plan.value(QLatin1String("policyChanges")));
    *apply = plan.value(QLatin1String("hasPolicy")).toBool();
    if (changes.isEmpty() || call.parser.isSet(QStringLiteral("apply-policy")))
        return std::nullopt;
    if (call.parser.isSet(QStringLiteral("skip-policy"))) {
        *apply = false;
        out() << "\nThe network policy is left as it is (--skip-policy).\n";
        return std::nullopt;
    }
    if (!isTerminal(STDIN_FILENO)) {
        out().flush();
        return failure(QStringLiteral("the bundle would change the network policy of every sandbox (%1); run again "
                                      "with --apply-policy to apply it, or --skip-policy to import the kit alone; "
                                      "nothing was written")
                           .arg(changes.join(QStringLiteral(", "))));
    }
    out().flush();
    for (;;) {
        const std::optional<QString> answer =
            readAnswer(QStringLiteral("Apply the bundle's network policy to every sandbox (%1)? [y/N] ")
                           .arg(changes.join(QStringLiteral(", "))));
        const QString word = answer.value_or(QString()).toLower();
        if (word == QLatin1String("y") || word == QLatin1String("yes"))
            return std::nullopt;
        if (!answer || word.isEmpty() || word == QLatin1String("n") || word == QLatin1String("no")) {
            *apply = false;
            out() << "The network policy is left as it is; importing the kit alone.\n";
            return std::nullopt;
        }
        err() << "Answer y to apply it or n to import the kit alone.\n";
    }
}

/** Calls @p method for the bundle @p file; prints the failure as the command always has. */
std::optional<QJsonObject> callForBundle(const Invocation &call, const QString &method, const QString &file,
                                         QJsonObject params, int *code)
{
    params.insert(QStringLiteral("file"), absolute(file));
    const QString into = call.parser.value(QStringLiteral("into"));
    if (!into.isEmpty())
        params.insert(QStringLiteral("into"), absolute(into));
    params.insert(QStringLiteral("replace"), call.parser.isSet(QStringLiteral("replace")));
    const api::Reply reply = daemonReply(method, params, kDaemonCallTimeoutMs);
    if (!reply.isError())
        return reply.result();
    if (reply.errorCode() == QLatin1String(api::errors::kBundleRefused) ||
        reply.errorCode() == QLatin1String(api::errors::kNoSuchFile))
        *code = failure(QStringLiteral("%1 refused: %2").arg(file, reply.errorMessage()));
    else if (reply.errorCode() == QLatin1String(api::errors::kInvalidParams))
        *code = usageError(call.commandPath, reply.errorMessage());
    else
        *code = failure(reply.errorMessage());
    return std::nullopt;
}

int runImport(const Invocation &call)
{
    const QString file = call.positional.first();
    int code = ExitOk;
    const std::optional<QJsonObject> plan = callForBundle(call, QStringLiteral("bundle.preview"), file, {}, &code);
    if (!plan)
        return code;
    printPreview(file, *plan);
    if (call.parser.isSet(QStringLiteral("dry-run"))) {
        out() << "\nDry run: nothing was written.\n";
        return ExitOk;
    }
    if (call.parser.isSet(QStringLiteral("apply-policy")) && call.parser.isSet(QStringLiteral("skip-policy")))
        return usageError(call.commandPath, QStringLiteral("--apply-policy and --skip-policy exclude each other"));
    bool apply = false;
    if (const std::optional<int> stopped = consentToPolicy(call, *plan, &apply))
        return *stopped;
    out().flush();
    // The daemon writes the kit and the policy, and puts the policy in force before it answers.
    const std::optional<QJsonObject> imported =
        callForBundle(call, QStringLiteral("bundle.import"), file, {{QStringLiteral("applyPolicy"), apply}}, &code);
    if (!imported)
        return code;
    out() << "\nImported kit "
          << imported->value(QLatin1String("kit")).toObject().value(QLatin1String("name")).toString() << " into "
          << imported->value(QLatin1String("destination")).toString();
    if (imported->value(QLatin1String("hasPolicy")).toBool())
        out() << "; policy updated (" << imported->value(QLatin1String("rulesAdded")).toInt() << " rules added)";
    out() << ".\n";
    printNextSteps(*imported);
    return ExitOk;
}

} // namespace

Command bundleCommand()
{
    Command group;
    group.name = QStringLiteral("bundle");
    group.summary = QStringLiteral("Share a kit, its policy and its list of secrets as one .paddock file.");
    group.description =
        QStringLiteral("A bundle is what a teacher hands a class: one file holding a kit, optionally the network\n"
                       "policy to apply, the secrets each student must provide (names and descriptions, never\n"
                       "values) and a short text for students.");

    Command exportCommand;
    exportCommand.name = QStringLiteral("export");
    exportCommand.summary = QStringLiteral("Pack a kit (and optionally the policy) into a .paddock file.");
    exportCommand.description =
        QStringLiteral("Writes FILE (default: KIT-NAME.paddock in the current folder), a tar archive holding\n"
                       "manifest.json and the kit under kit/. The kit must validate; symbolic links and special\n"
                       "files in it are refused and .git folders left out. With --policy the bundle carries the\n"
                       "policy preset and the global rules (and the kit's own) of policy.yaml.");
    exportCommand.options = {
        kitOption(QStringLiteral("The kit to pack.")),
        QCommandLineOption(QStringLiteral("policy"), QStringLiteral("Include the policy preset and rules.")),
        QCommandLineOption(QStringLiteral("notes"), QStringLiteral("A text file shown to students on import."),
                           QStringLiteral("FILE")),
        QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("The file to write."),
                           QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("engine"),
                           QStringLiteral("The container engine students' sandboxes run on, by name (a lab server)."),
                           QStringLiteral("NAME")),
    };
    exportCommand.maxPositional = 0;
    exportCommand.run = runExport;

    Command importCommand;
    importCommand.name = QStringLiteral("import");
    importCommand.summary = QStringLiteral("Preview, then install a .paddock bundle.");
    importCommand.description =
        QStringLiteral("Checks FILE as untrusted input (no links, devices, absolute paths or '..', sizes bounded,\n"
                       "the kit valid), prints everything the import will change, then writes the kit to\n"
                       "~/.local/share/paddock/kits/NAME (or --into DIR), applies the bundle's policy and prints\n"
                       "the next steps. The kit is staged and renamed into place: a failed import leaves nothing\n"
                       "behind. With --dry-run it stops after the preview.\n\n"
                       "A policy preset or rules that would change the network policy of every sandbox are asked\n"
                       "about on a terminal; in scripts they need --apply-policy (or --skip-policy to import the\n"
                       "kit alone), otherwise nothing is written (exit 1). The kit's rules that reach this\n"
                       "computer or its networks (host grants) are listed, and asked about at the first run.");
    importCommand.options = {
        QCommandLineOption(QStringLiteral("dry-run"), QStringLiteral("Print what would change; write nothing.")),
        QCommandLineOption(QStringLiteral("into"),
                           QStringLiteral("The kit folder to create instead of the default (named as a kit is)."),
                           QStringLiteral("DIR")),
        QCommandLineOption(QStringLiteral("replace"), QStringLiteral("Replace the kit folder if it exists.")),
        QCommandLineOption(QStringLiteral("apply-policy"),
                           QStringLiteral("Apply the bundle's policy preset and rules without asking.")),
        QCommandLineOption(QStringLiteral("skip-policy"),
                           QStringLiteral("Import the kit alone; leave the network policy as it is.")),
    };
    importCommand.positionalSyntax = QStringLiteral("FILE");
    importCommand.positionalHelp = {{QStringLiteral("FILE"), QStringLiteral("A .paddock bundle.")}};
    importCommand.minPositional = importCommand.maxPositional = 1;
    importCommand.run = runImport;

    group.subcommands << exportCommand << importCommand;
    return group;
}

} // namespace paddock::cli

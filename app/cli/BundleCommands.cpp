// SPDX-License-Identifier: GPL-3.0-or-later
// paddock bundle export|import
#include "BindingApproval.h"
#include "Cli.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "bundle/Bundle.h"
#include "common/AtomicFile.h"
#include "kit/KitLibrary.h"
#include "policy/HostGrant.h"
#include "sandbox/Engines.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

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

QString describeRule(const bundle::BundleRule &rule)
{
    QString text =
        QStringLiteral("%1 %2 (%3)").arg(policy::verdictName(rule.verdict), rule.pattern, rule.scope.toString());
    if (rule.verdict == policy::Verdict::Allow) {
        if (const std::optional<policy::HostGrant> grant = policy::hostGrantOf(QStringView(rule.pattern)))
            text += QStringLiteral(", a host grant: reaches ") + grant->reachPhrase();
    }
    return text;
}

void printIndented(const QString &text)
{
    for (const QString &line : text.split(QLatin1Char('\n')))
        out() << "  " << line << '\n';
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

int runExport(const Invocation &call)
{
    bundle::ExportRequest request;
    if (call.parser.value(QStringLiteral("kit")).isEmpty())
        return usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
    const std::optional<QString> kitDir = resolveKit(call.parser.value(QStringLiteral("kit")));
    if (!kitDir)
        return ExitFailed;
    request.kitDir = *kitDir;
    request.includePolicy = call.parser.isSet(QStringLiteral("policy"));
    request.engine = call.parser.value(QStringLiteral("engine"));
    if (call.parser.isSet(QStringLiteral("notes"))) {
        QFile notes(call.parser.value(QStringLiteral("notes")));
        if (!notes.open(QIODevice::ReadOnly))
            return failure(QStringLiteral("cannot read %1: %2").arg(notes.fileName(), notes.errorString()));
        request.notes = QString::fromUtf8(notes.read(64 * 1024 + 1));
    }
    const bundle::ExportResult result = bundle::exportBundle(request);
    if (!result.ok())
        return failure(result.error);
    QString output = call.parser.value(QStringLiteral("output"));
    if (output.isEmpty())
        output = result.manifest.kitName + QStringLiteral(".paddock");
    QString error;
    if (!writeFileAtomically(output, result.archive, &error))
        return failure(QStringLiteral("cannot write %1: %2").arg(output, error));

    out() << "Wrote " << output << ": kit " << result.manifest.kitName << " (" << result.fileCount << " files, "
          << humanSize(result.bytes) << ")\n";
    if (result.manifest.policy)
        out() << "  policy: preset " << policy::presetName(result.manifest.policy->preset) << ", "
              << result.manifest.policy->rules.size() << " rules\n";
    QStringList services;
    for (const bundle::BundleSecret &secret : result.manifest.secrets)
        services << secret.service;
    out() << "  secrets students provide: "
          << (services.isEmpty() ? QStringLiteral("none") : services.join(QStringLiteral(", ")))
          << " (names only; no value is in the file)\n";
    if (!result.manifest.engine.isEmpty())
        out() << "  engine: students' sandboxes run on " << result.manifest.engine
              << " (each student adds it on their computer: its address and TLS files are not in the file)\n";
    return ExitOk;
}

/** The engine a bundle's sandboxes run on, and whether this computer has it. */
void printEngine(const QString &engine)
{
    if (engine.isEmpty())
        return;
    out() << "\nIts sandboxes run on the container engine " << engine
          << ": the keys, the network policy and the event log stay on this computer.\n";
    if (sandbox::EngineList::read().find(engine))
        out() << "  This computer has engine " << engine << ".\n";
    else
        out() << "  This computer has no engine " << engine << " yet: add it with the address and TLS files your "
              << "teacher gives, e.g. paddock engine add " << engine
              << " tcp://HOST:2376 --remote --tls-ca ca.pem --tls-cert cert.pem --tls-key key.pem\n";
}

void printPreview(const QString &file, const bundle::OpenedBundle &opened, const bundle::ImportPlan &plan)
{
    out() << "Bundle " << file << ": kit " << opened.kit.name;
    if (!opened.kit.version.isEmpty())
        out() << ' ' << opened.kit.version;
    if (!opened.manifest.createdBy.isEmpty())
        out() << ", made with " << opened.manifest.createdBy;
    out() << '\n';
    for (const QString &warning : opened.warnings)
        out() << "  warning: " << warning << '\n';
    if (!plan.notes.trimmed().isEmpty()) {
        out() << "\nNotes from the bundle's author:\n";
        printIndented(plan.notes.trimmed());
    }
    printEngine(opened.manifest.engine);
    out() << "\nImporting it will:\n";
    out() << "  " << (plan.replacesExisting ? "replace the kit folder " : "write the kit folder ") << plan.destination
          << " (" << plan.fileCount << " files, " << humanSize(plan.bytes) << ")\n";
    // Every file is named, so a student sees a dotfile or script the kit would bring along.
    constexpr int kListed = 40;
    int listed = 0;
    for (const bundle::TarEntry &entry : opened.kitEntries) {
        if (entry.type != bundle::TarEntry::Type::File)
            continue;
        if (++listed > kListed)
            continue;
        out() << "      " << entry.path << (entry.executable ? " (executable)" : "") << '\n';
    }
    if (listed > kListed)
        out() << "      ... and " << (listed - kListed) << " more\n";
    if (plan.hasPolicy) {
        if (plan.presetChanges())
            out() << "  set the policy preset: " << policy::presetName(plan.currentPreset) << " -> "
                  << policy::presetName(plan.newPreset) << '\n';
        else
            out() << "  keep the policy preset " << policy::presetName(plan.currentPreset) << '\n';
        if (plan.newPreset == policy::Preset::AllowAll && plan.presetChanges())
            out() << "  warning: allow-all lets the sandbox reach every public host\n";
        for (const bundle::PlannedRule &rule : plan.rules)
            out() << "  " << (rule.alreadyPresent ? "keep rule (already present): " : "add rule: ")
                  << describeRule(rule.rule) << '\n';
    } else {
        out() << "  leave the network policy as it is (the bundle carries none)\n";
    }
    if (plan.hasAgentRules) {
        out() << "\nThe agent's own rules it brings (pi-permission-system, last match wins within a surface):\n";
        for (const QString &line : plan.agentRules)
            out() << "  " << line << '\n';
        for (const QString &problem : plan.agentRuleProblems)
            out() << "  warning: " << problem << '\n';
    }
    if (!plan.secrets.isEmpty()) {
        out() << "\nSecrets you will provide (a bundle never carries their values):\n";
        for (const bundle::BundleSecret &secret : plan.secrets) {
            out() << "  " << secret.service << (secret.required ? " (required)" : " (optional)");
            if (!secret.description.isEmpty())
                out() << ": " << secret.description;
            if (!secret.domains.isEmpty())
                out() << "; sent only to " << secret.domains.join(QStringLiteral(", "));
            out() << '\n';
        }
    }
    const QList<policy::HostGrant> grants = policy::hostGrantsOf(opened.kit.networkAllow);
    if (!grants.isEmpty()) {
        out() << "\nThe kit reaches this computer or its networks (host grants, asked about before its first "
                 "sandbox starts):\n";
        for (const policy::HostGrant &grant : grants)
            out() << "  " << grant.pattern << "  reaches " << grant.reachPhrase() << '\n';
    }
}

void printNextSteps(const bundle::ImportPlan &plan, const QString &kitName, bool hasHostGrants, const QString &engine)
{
    // The kit by its name when the library finds this import by it, else by its folder.
    const std::optional<QString> byName = kit::KitLibrary().resolve(kitName, nullptr);
    const QString kit =
        byName && *byName == QFileInfo(plan.destination).canonicalFilePath() ? kitName : plan.destination;
    QStringList steps;
    for (const bundle::BundleSecret &secret : plan.secrets)
        steps << QStringLiteral("paddock secret set %1").arg(secret.service);
    if (std::any_of(plan.secrets.cbegin(), plan.secrets.cend(),
                    [](const bundle::BundleSecret &secret) { return !secret.domains.isEmpty(); }))
        steps << QStringLiteral("paddock binding approve --kit %1").arg(kit);
    if (hasHostGrants)
        steps << QStringLiteral("paddock grant check --kit %1   (then approve, or answer at the first run)")
                     .arg(plan.destination);
    if (plan.hasDockerfile) {
        const QString build = commandExists(QStringLiteral("template"), QStringLiteral("build"))
                                  ? QStringLiteral("paddock template build --kit %1").arg(kit)
                                  : QStringLiteral("docker build -t %1 %2").arg(plan.image, plan.destination);
        steps << build + QStringLiteral("   (for the Docker runtime only)");
    }
    if (!engine.isEmpty() && !sandbox::EngineList::read().find(engine))
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

/** What importing changes in policy.yaml, for the question and the refusal; empty when nothing. */
QStringList policyChanges(const bundle::ImportPlan &plan)
{
    QStringList changes;
    if (!plan.hasPolicy)
        return changes;
    if (plan.presetChanges())
        changes << QStringLiteral("the preset %1 -> %2")
                       .arg(policy::presetName(plan.currentPreset), policy::presetName(plan.newPreset));
    for (const bundle::PlannedRule &rule : plan.rules) {
        if (!rule.alreadyPresent)
            changes << QStringLiteral("the rule ") + describeRule(rule.rule);
    }
    return changes;
}

/**
 * The bundle's preset and rules change the network policy of every sandbox, so they are applied
 * only with --apply-policy or a "y" on the terminal; --skip-policy (or "n") imports the kit
 * alone. Returns the exit code when the import must stop, having written nothing.
 */
std::optional<int> consentToPolicy(const Invocation &call, bundle::ImportPlan *plan)
{
    const QStringList changes = policyChanges(*plan);
    if (changes.isEmpty() || call.parser.isSet(QStringLiteral("apply-policy")))
        return std::nullopt;
    if (call.parser.isSet(QStringLiteral("skip-policy"))) {
        plan->hasPolicy = false;
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
            plan->hasPolicy = false;
            out() << "The network policy is left as it is; importing the kit alone.\n";
            return std::nullopt;
        }
        err() << "Answer y to apply it or n to import the kit alone.\n";
    }
}

int runImport(const Invocation &call)
{
    const QString file = call.positional.first();
    const bundle::OpenResult opened = bundle::openBundle(file);
    if (!opened.bundle)
        return failure(QStringLiteral("%1 refused: %2").arg(file, opened.error));
    bundle::ImportOptions options;
    options.destination = call.parser.value(QStringLiteral("into"));
    options.replace = call.parser.isSet(QStringLiteral("replace"));
    QString error;
    std::optional<bundle::ImportPlan> plan = bundle::planImport(*opened.bundle, options, &error);
    if (!plan)
        return failure(error);
    printPreview(file, *opened.bundle, *plan);
    if (call.parser.isSet(QStringLiteral("dry-run"))) {
        out() << "\nDry run: nothing was written.\n";
        return ExitOk;
    }
    if (call.parser.isSet(QStringLiteral("apply-policy")) && call.parser.isSet(QStringLiteral("skip-policy")))
        return usageError(call.commandPath, QStringLiteral("--apply-policy and --skip-policy exclude each other"));
    if (const std::optional<int> stopped = consentToPolicy(call, &*plan))
        return *stopped;
    out().flush();
    if (!bundle::applyImport(*opened.bundle, *plan, options, &error))
        return failure(error);
    out() << "\nImported kit " << opened.bundle->kit.name << " into " << plan->destination;
    if (plan->hasPolicy)
        out() << "; policy updated (" << plan->rulesToAdd() << " rules added)";
    out() << ".\n";
    printNextSteps(*plan, opened.bundle->kit.name, !policy::hostGrantsOf(opened.bundle->kit.networkAllow).isEmpty(),
                   opened.bundle->manifest.engine);
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

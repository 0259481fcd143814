// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit resolve KIT... : whether schemaVersion 3 kits compose, and in which order.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "kit/KitLoader.h"
#include "kit/KitResolution.h"

namespace paddock::cli {

namespace {

int runResolve(const Invocation &call)
{
    QList<kit::Kit> kits;
    for (const QString &argument : call.positional) {
        const std::optional<QString> folder = resolveKit(argument);
        if (!folder)
            return ExitFailed;
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(*folder);
        if (!loaded.kit) {
            for (const kit::Diagnostic &d : loaded.diagnostics)
                err() << d.toString() << '\n';
            return failure(QStringLiteral("%1 does not load: paddock kit validate %1").arg(argument));
        }
        if (loaded.kit->schemaVersion != QLatin1String("3"))
            return failure(QStringLiteral("%1 is a schemaVersion %2 kit: only schemaVersion 3 kits are resolved "
                                          "by provides and requires")
                               .arg(argument, loaded.kit->schemaVersion));
        kits << *loaded.kit;
    }
    const Result<QList<int>> order = kit::resolveComposition(kits);
    if (!order)
        return failure(order.errorText());
    out() << "the kits compose, in this order:\n";
    for (const int k : *order) {
        const kit::Kit &kit = kits.at(k);
        out() << "  " << kit.name << " (" << (kit.isSandbox() ? "workload" : "mixin") << ")";
        if (!kit.provides.isEmpty())
            out() << ", provides " << kit.provides.join(QStringLiteral(", "));
        if (!kit.requirements.isEmpty())
            out() << ", requires " << kit.requirements.join(QStringLiteral("; "));
        out() << '\n';
    }
    out().flush();
    return ExitOk;
}

} // namespace

Command kitResolveCommand()
{
    Command resolve;
    resolve.name = QStringLiteral("resolve");
    resolve.summary = QStringLiteral("Check that schemaVersion 3 kits compose, and print their order.");
    resolve.description =
        QStringLiteral("Resolves a workload and its mixins as a closed set, as Docker Sandboxes does: exactly one\n"
                       "workload, one kit per provided name, every `requires` met by the kits given (versions\n"
                       "within range), no `conflicts` name provided, no present provider outside an `integrates`\n"
                       "range. Prints the composition order (the workload, then providers before the kits that\n"
                       "need them, whatever the order given), or the constraint that fails and exits 1.");
    resolve.positionalSyntax = QStringLiteral("KIT...");
    resolve.positionalHelp = {{QStringLiteral("KIT"), kitArgumentHelp()}};
    resolve.minPositional = 1;
    resolve.run = runResolve;
    return resolve;
}

} // namespace paddock::cli

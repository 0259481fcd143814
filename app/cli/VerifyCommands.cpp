// SPDX-License-Identifier: GPL-3.0-or-later
// paddock verify NAME: the checklist that proves a sandbox is set up as the course asks.
#include "Cli.h"

#include "bundle/Checklist.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace paddock::cli {

namespace {

bool hasSecretTest()
{
    for (const Command &group : rootCommand().subcommands) {
        if (group.name != QLatin1String("secret"))
            continue;
        for (const Command &leaf : group.subcommands) {
            if (leaf.name == QLatin1String("test"))
                return true;
        }
    }
    return false;
}

int runVerify(const Invocation &call)
{
    bundle::VerifyOptions options;
    options.sandbox = call.positional.first();
    if (hasSecretTest())
        options.keyTest = bundle::keyTestThrough(QCoreApplication::applicationFilePath());
    QString error;
    const std::optional<bundle::Checklist> checklist = bundle::verifySandbox(options, &error);
    if (!checklist)
        return failure(error);
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(checklist->toJson()).toJson(QJsonDocument::Indented);
        return checklist->passed() ? ExitOk : ExitFailed;
    }
    out() << "Sandbox " << checklist->sandbox << " (kit " << checklist->kit << ")\n";
    int failed = 0;
    for (const bundle::CheckResult &check : checklist->checks) {
        if (check.status == bundle::CheckResult::Status::Failed)
            ++failed;
        out() << "  " << bundle::CheckResult::statusName(check.status).leftJustified(8) << check.title << '\n';
        out() << "          " << check.message << '\n';
        for (const QString &detail : check.details)
            out() << "          - " << detail << '\n';
    }
    out() << (failed == 0 ? QStringLiteral("No check failed.\n")
                          : QStringLiteral("%1 check(s) failed.\n").arg(failed));
    return failed == 0 ? ExitOk : ExitFailed;
}

} // namespace

Command verifyCommand()
{
    Command verify;
    verify.name = QStringLiteral("verify");
    verify.summary = QStringLiteral("Check that a running sandbox holds no key, filters, shares and logs.");
    verify.description = QStringLiteral(
        "Runs the checks that prove sandbox NAME is set up right, each ok, failed or skipped with\n"
        "one sentence:\n"
        "  credential  each credential variable of the kit holds the sentinel inside, not a key\n"
        "  blocked     a request inside to a domain on no list fails, and its refusal is logged\n"
        "  workspace   a file written inside the workspace appears on the host\n"
        "  log         every refusal since the sandbox started was chosen by a deny rule; any other\n"
        "              is named\n"
        "  key         the key reaches its provider ('paddock secret test SERVICE --kit KIT')\n"
        "Commands run inside the sandbox ('env', 'sh', curl or wget); the probe's file is removed.\n"
        "Exits 0 when no check failed, 1 otherwise.");
    verify.positionalSyntax = QStringLiteral("NAME");
    verify.positionalHelp = {{QStringLiteral("NAME"), QStringLiteral("A running sandbox ('paddock ls').")}};
    verify.minPositional = verify.maxPositional = 1;
    verify.options = {QCommandLineOption(QStringLiteral("json"), QStringLiteral("Print the checklist as JSON."))};
    verify.run = runVerify;
    return verify;
}

} // namespace paddock::cli

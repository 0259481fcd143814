// SPDX-License-Identifier: GPL-3.0-or-later
// paddock review NAME [--json] [--revert PATH]: what a session changed among the workspace's
// files that the host runs or trusts later (git hooks and config, .envrc, .vscode/, build and
// CI files), with a diff, and putting one back.
#include "Cli.h"
#include "SandboxCliSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace paddock::cli {
namespace {

int runReview(const Invocation &call)
{
    const QString name = call.positional.first();
    const QString revert = call.parser.value(QStringLiteral("revert"));
    if (!revert.isEmpty()) {
        if (!callDaemon(QStringLiteral("sandbox.revert"),
                        {{QStringLiteral("name"), name}, {QStringLiteral("path"), revert}}))
            return ExitFailed;
        out() << "put back " << revert << " as it was when " << name << " started\n";
        return ExitOk;
    }
    const std::optional<QJsonObject> reviewed =
        callDaemon(QStringLiteral("sandbox.review"), {{QStringLiteral("name"), name}});
    if (!reviewed)
        return ExitFailed;
    const QJsonArray changes = reviewed->value(QLatin1String("changes")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(changes).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (changes.isEmpty()) {
        out() << "Nothing your tools run or trust changed in " << name << "'s workspace since it started.\n";
        return ExitOk;
    }
    for (const QJsonValue &value : changes) {
        const QJsonObject change = value.toObject();
        out() << change.value(QLatin1String("change")).toString() << ' '
              << change.value(QLatin1String("path")).toString() << " ("
              << change.value(QLatin1String("what")).toString() << ")\n";
        const QString diff = change.value(QLatin1String("diff")).toString();
        out() << (diff.endsWith(QLatin1Char('\n')) || diff.isEmpty() ? diff : diff + QLatin1Char('\n')) << '\n';
    }
    out() << changes.size() << " file(s) your tools run or trust changed; read them before you run git, make or "
          << "your editor there.\nPut one back with 'paddock review " << name << " --revert PATH'.\n";
    return ExitOk;
}

} // namespace

Command reviewCommand()
{
    Command review = leaf(
        QStringLiteral("review"), QStringLiteral("Show what a sandbox changed that your tools run or trust."),
        QStringLiteral("Lists the files of sandbox NAME's workspace that changed since it started and that the host\n"
                       "runs or trusts later: git hooks and config, .envrc, .vscode/, Makefile, package.json,\n"
                       "pyproject.toml, setup.py, CI workflows and pre-commit hooks, each with a diff. A sandbox\n"
                       "working in place can change them (the first four only with --unprotected); reading them\n"
                       "before running git, make or your editor there is the part a sandbox cannot do for you."),
        runReview);
    review.options = {jsonOption(QStringLiteral("the changes")),
                      QCommandLineOption(QStringLiteral("revert"),
                                         QStringLiteral("Put PATH back as it was when the sandbox started."),
                                         QStringLiteral("PATH"))};
    review.positionalSyntax = QStringLiteral("NAME");
    review.minPositional = review.maxPositional = 1;
    return review;
}

} // namespace paddock::cli

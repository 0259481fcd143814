// SPDX-License-Identifier: GPL-3.0-or-later
// paddock verify NAME: the checklist that proves a sandbox is set up as the course asks. The
// daemon runs it (sandbox.verify); each check is printed as its event arrives.
#include "Cli.h"
#include "SandboxCliSupport.h"

#include "api/DaemonConnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

namespace paddock::cli {

namespace {

/** The checks take seconds each; the key check may wait up to 90 s for a provider. */
constexpr int kVerifyTimeoutMs = 10 * 60 * 1000;

/** Prints the checks of one run as they come, the header before the first. */
class ChecklistPrinter
{
public:
    void check(const QString &sandbox, const QString &kit, const QJsonObject &check)
    {
        if (m_printed == 0)
            out() << "Sandbox " << sandbox << " (kit " << kit << ")\n";
        ++m_printed;
        const QString status = check.value(QLatin1String("status")).toString();
        if (status == QLatin1String("failed"))
            ++m_failed;
        out() << "  " << status.leftJustified(8) << check.value(QLatin1String("title")).toString() << '\n';
        out() << "          " << check.value(QLatin1String("message")).toString() << '\n';
        for (const QJsonValue &detail : check.value(QLatin1String("details")).toArray())
            out() << "          - " << detail.toString() << '\n';
        out().flush();
    }
    /** The checks of @p result no event brought (none, normally), then the verdict. */
    int finish(const QJsonObject &result)
    {
        const QJsonArray checks = result.value(QLatin1String("checks")).toArray();
        for (qsizetype i = m_printed; i < checks.size(); ++i)
            check(result.value(QLatin1String("sandbox")).toString(), result.value(QLatin1String("kit")).toString(),
                  checks.at(i).toObject());
        out() << (m_failed == 0 ? QStringLiteral("No check failed.\n")
                                : QStringLiteral("%1 check(s) failed.\n").arg(m_failed));
        return m_failed == 0 ? ExitOk : ExitFailed;
    }

private:
    qsizetype m_printed = 0;
    int m_failed = 0;
};

int runVerify(const Invocation &call)
{
    const bool json = call.parser.isSet(QStringLiteral("json"));
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    if (!json) {
        const api::Reply subscribed = connection.call(
            QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("verify")}}});
        if (subscribed.isError())
            return failure(subscribed.errorMessage());
    }
    // Other clients may check other sandboxes meanwhile: this run's events carry this token.
    const QString run = QUuid::createUuid().toString(QUuid::WithoutBraces);
    ChecklistPrinter printer;
    const api::Reply reply = connection.call(
        QStringLiteral("sandbox.verify"),
        {{QStringLiteral("name"), call.positional.first()}, {QStringLiteral("run"), run}}, kVerifyTimeoutMs,
        [&](const api::Event &event) {
            if (event.topic != QLatin1String("verify") || event.data.value(QLatin1String("run")).toString() != run)
                return;
            printer.check(event.data.value(QLatin1String("sandbox")).toString(),
                          event.data.value(QLatin1String("kit")).toString(),
                          event.data.value(QLatin1String("check")).toObject());
        });
    if (reply.isError())
        return failure(reply.errorMessage());
    if (json) {
        out() << QJsonDocument(reply.result()).toJson(QJsonDocument::Indented);
        return reply.result().value(QLatin1String("passed")).toBool() ? ExitOk : ExitFailed;
    }
    return printer.finish(reply.result());
}

} // namespace

Command verifyCommand()
{
    Command verify;
    verify.name = QStringLiteral("verify");
    verify.summary = QStringLiteral("Check that a running sandbox holds no key, filters, shares and logs.");
    verify.description =
        QStringLiteral("Runs the checks that prove sandbox NAME is set up right, each ok, failed or skipped with\n"
                       "one sentence:\n"
                       "  credential  each credential variable of the kit holds the sentinel inside, not a key\n"
                       "  blocked     a request inside to a domain on no list fails, and its refusal is logged\n"
                       "  workspace   a file written inside the workspace appears on the host\n"
                       "  log         every refusal since the sandbox started was chosen by a deny rule; any other\n"
                       "              is named\n"
                       "  key         the key reaches its provider ('paddock secret test SERVICE --kit KIT')\n"
                       "paddockd runs them and each is printed as it ends. Commands run inside the sandbox ('env',\n"
                       "'sh', curl or wget); the probe's file is removed.\n"
                       "Exits 0 when no check failed, 1 otherwise.");
    verify.positionalSyntax = QStringLiteral("NAME");
    verify.positionalHelp = {{QStringLiteral("NAME"), QStringLiteral("A running sandbox ('paddock ls').")}};
    verify.minPositional = verify.maxPositional = 1;
    verify.options = {jsonOption(QStringLiteral("the checklist"))};
    verify.run = runVerify;
    return verify;
}

} // namespace paddock::cli

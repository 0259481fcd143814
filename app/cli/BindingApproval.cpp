// SPDX-License-Identifier: GPL-3.0-or-later
#include "BindingApproval.h"

#include "CliSupport.h"
#include "Command.h"
#include "SecretCliSupport.h"

#include "api/Protocol.h"

#include <QLoggingCategory>
#include <QRegularExpression>

#include <cerrno>
#include <optional>
#include <utility>

#include <unistd.h>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcBindingApproval, "paddock.cli.approval", QtWarningMsg)

std::optional<QString> readAnswer(const QString &question)
{
    err() << question;
    err().flush();
    QByteArray line;
    for (;;) {
        char c = 0;
        const ssize_t got = ::read(STDIN_FILENO, &c, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return line.isEmpty() ? std::nullopt : std::optional<QString>(QString::fromUtf8(line).trimmed());
        if (c == '\n')
            return QString::fromUtf8(line).trimmed();
        line.append(c);
    }
}

bool terminalAnswersYes(const QString &question)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    const QString answer = readAnswer(question + QStringLiteral(" [y/N] ")).value_or(QString()).toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes");
}

namespace {

void describe(const PendingApproval &pending)
{
    QTextStream &s = err();
    s << "  " << pending.service << (pending.required ? " (required)" : " (optional)") << '\n';
    if (!pending.description.isEmpty())
        s << "    " << pending.description << '\n';
    s << "    key sent to: " << pending.domains.join(QStringLiteral(", ")) << '\n';
    if (pending.newDomains != pending.domains)
        s << "    not yet approved: " << pending.newDomains.join(QStringLiteral(", ")) << '\n';
    for (const QString &domain : pending.domains) {
        if (isWildcardDomain(domain))
            s << "    warning: " << domain << " sends the key to every host under "
              << QString(domain).remove(QRegularExpression(QStringLiteral("^\\*+\\."))) << '\n';
    }
}

bool approve(const KitRequest &kit, const PendingApproval &pending, ApprovalOutcome &outcome)
{
    QString error;
    if (!approveInDaemon(kit, pending.service, &error)) {
        outcome.status = ApprovalOutcome::Status::Failed;
        outcome.error = error;
        return false;
    }
    qCDebug(lcBindingApproval) << "approved" << pending.service << pending.domains;
    outcome.approved << pending.service;
    return true;
}

QStringList stringsOf(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

} // namespace

PendingApproval PendingApproval::fromJson(const QJsonObject &entry)
{
    return PendingApproval{
        entry.value(QLatin1String("service")).toString(), entry.value(QLatin1String("description")).toString(),
        entry.value(QLatin1String("required")).toBool(), stringsOf(entry.value(QLatin1String("domains"))),
        stringsOf(entry.value(QLatin1String("newDomains")))};
}

QJsonObject KitRequest::params() const
{
    QJsonObject params{{QStringLiteral("kit"), directory}, {QStringLiteral("kitArgs"), args}};
    if (!mixins.isEmpty())
        params.insert(QStringLiteral("mixins"), mixins);
    return params;
}

bool approveInDaemon(const KitRequest &kit, const QString &service, QString *error)
{
    QJsonObject params = kit.params();
    params.insert(QStringLiteral("services"), QJsonArray{service});
    const api::Reply reply = daemonReply(QStringLiteral("binding.approve"), params, kDaemonCallTimeoutMs);
    if (reply.isError())
        *error = reply.errorMessage();
    return !reply.isError();
}

bool isWildcardDomain(const QString &domain)
{
    return domain.contains(QLatin1Char('*'));
}

QList<PendingApproval> pendingApprovals(const QJsonArray &rows, const QStringList &services)
{
    QList<PendingApproval> result;
    for (const QJsonValue &value : rows) {
        const QJsonObject row = value.toObject();
        PendingApproval pending = PendingApproval::fromJson(row);
        if (!services.isEmpty() && !services.contains(pending.service))
            continue;
        // A key the kit injects nowhere is never sent by the proxy: there is nothing to approve.
        if (row.value(QLatin1String("kind")).toString() != QLatin1String("apiKey") || pending.domains.isEmpty() ||
            row.value(QLatin1String("approved")).toBool())
            continue;
        result << pending;
    }
    return result;
}

ApprovalOutcome approveInteractively(const KitRequest &kit, const QList<PendingApproval> &pending)
{
    ApprovalOutcome outcome;
    for (const PendingApproval &p : pending)
        outcome.pending << p.service;
    if (pending.isEmpty())
        return outcome;
    if (!isTerminal(STDIN_FILENO)) {
        outcome.status = ApprovalOutcome::Status::NeedsApproval;
        return outcome;
    }

    err() << "The kit " << kit.name << " sends API keys from your keychain to these domains:\n\n";
    for (const PendingApproval &p : pending) {
        describe(p);
        err() << '\n';
    }

    QChar choice;
    for (;;) {
        const std::optional<QString> answer = readAnswer(QStringLiteral("[A]pprove all · [R]eview each · [N]o: "));
        if (!answer) {
            err() << '\n';
            choice = QLatin1Char('n');
            break;
        }
        const QString word = answer->toLower();
        if (word == QLatin1String("a") || word == QLatin1String("approve") || word == QLatin1String("r") ||
            word == QLatin1String("review") || word == QLatin1String("n") || word == QLatin1String("no")) {
            choice = word.at(0);
            break;
        }
        err() << "Answer A to approve all, R to review each credential, or N to approve none.\n";
    }

    if (choice == QLatin1Char('a')) {
        for (const PendingApproval &p : pending) {
            if (!approve(kit, p, outcome))
                break;
        }
    } else if (choice == QLatin1Char('r')) {
        for (const PendingApproval &p : pending) {
            const std::optional<QString> answer = readAnswer(
                QStringLiteral("Approve %1 for %2? [y/N]: ").arg(p.service, p.newDomains.join(QStringLiteral(", "))));
            if (!answer) {
                err() << '\n';
                break;
            }
            const QString word = answer->toLower();
            if ((word == QLatin1String("y") || word == QLatin1String("yes")) && !approve(kit, p, outcome))
                break;
        }
    }

    for (const QString &service : std::as_const(outcome.approved))
        outcome.pending.removeAll(service);
    if (outcome.status == ApprovalOutcome::Status::Failed)
        return outcome;
    if (outcome.pending.isEmpty())
        outcome.status = ApprovalOutcome::Status::Approved;
    else if (outcome.approved.isEmpty())
        outcome.status = ApprovalOutcome::Status::Declined;
    else
        outcome.status = ApprovalOutcome::Status::PartlyApproved;
    return outcome;
}

QString shellQuote(const QString &argument)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (plain.match(argument).hasMatch())
        return argument;
    QString quoted = argument;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace paddock::cli

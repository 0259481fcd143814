// SPDX-License-Identifier: GPL-3.0-or-later
#include "BindingApproval.h"

#include "Command.h"
#include "SecretCliSupport.h"

#include "sandbox/CredentialSetup.h"

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

bool approve(secrets::CredentialBindings &bindings, const PendingApproval &pending, ApprovalOutcome &outcome)
{
    QString error;
    if (!bindings.approve(pending.service, pending.domains, &error)) {
        outcome.status = ApprovalOutcome::Status::Failed;
        outcome.error = error;
        return false;
    }
    qCDebug(lcBindingApproval) << "approved" << pending.service << pending.domains;
    outcome.approved << pending.service;
    return true;
}

} // namespace

QStringList injectionDomains(const kit::Credential &credential)
{
    // One definition for the command line, the daemon and `secret test`.
    return sandbox::injectionDomains(credential);
}

bool isWildcardDomain(const QString &domain)
{
    return domain.contains(QLatin1Char('*'));
}

QList<PendingApproval> pendingApprovals(const kit::Kit &kit, const secrets::CredentialBindings &bindings,
                                        const QStringList &services)
{
    QList<PendingApproval> result;
    for (const kit::Credential &credential : kit.credentials) {
        if (!services.isEmpty() && !services.contains(credential.service))
            continue;
        const QStringList domains = injectionDomains(credential);
        // A key the kit injects nowhere is never sent by the proxy: there is nothing to approve.
        if (domains.isEmpty())
            continue;
        const secrets::Coverage coverage = bindings.coverage(credential.service, domains);
        if (coverage.covered)
            continue;
        result << PendingApproval{credential.service, credential.description, credential.required, domains,
                                  coverage.newDomains};
    }
    return result;
}

ApprovalOutcome approveInteractively(const kit::Kit &kit, secrets::CredentialBindings &bindings,
                                     const QStringList &services)
{
    ApprovalOutcome outcome;
    if (const auto problem = bindings.load()) {
        outcome.status = ApprovalOutcome::Status::Failed;
        outcome.error = problem->toString();
        return outcome;
    }
    const QList<PendingApproval> pending = pendingApprovals(kit, bindings, services);
    for (const PendingApproval &p : pending)
        outcome.pending << p.service;
    if (pending.isEmpty())
        return outcome;
    if (!isTerminal(STDIN_FILENO)) {
        outcome.status = ApprovalOutcome::Status::NeedsApproval;
        return outcome;
    }

    const QString kitName = kit.displayName.isEmpty() ? kit.name : kit.displayName;
    err() << "The kit " << kitName << " sends API keys from your keychain to these domains:\n\n";
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
            if (!approve(bindings, p, outcome))
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
            if ((word == QLatin1String("y") || word == QLatin1String("yes")) && !approve(bindings, p, outcome))
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

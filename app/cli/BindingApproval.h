// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"
#include "secrets/CredentialBindings.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::cli {

/** @brief One credential of a kit whose key would be sent to domains not yet approved. */
struct PendingApproval
{
    QString service;
    QString description;
    bool required = false;
    QStringList domains;    ///< every domain the kit injects the key into, normalised, in kit order
    QStringList newDomains; ///< those of @c domains the binding does not cover yet
};

/** @brief What approveInteractively() did. */
struct ApprovalOutcome
{
    enum class Status {
        NothingToApprove, ///< every credential of the kit is covered already; nothing was asked
        Approved,         ///< everything pending was approved
        PartlyApproved,   ///< the user reviewed each and approved some
        Declined,         ///< the user approved nothing
        NeedsApproval,    ///< stdin is not a terminal: nothing was asked, nothing approved
        Failed,           ///< credentials.yaml could not be read or written (see @c error)
    };

    Status status = Status::NothingToApprove;
    QStringList approved; ///< services approved by this call
    QStringList pending;  ///< services still not approved afterwards
    QString error;

    /** True when nothing is left to approve. */
    bool complete() const { return status == Status::NothingToApprove || status == Status::Approved; }
};

/** The domains @p credential's API key is injected into: normalised, without repeats, in kit order. */
QStringList injectionDomains(const kit::Credential &credential);

/** Whether @p domain is a pattern ("*.example.com", "**.example.com") rather than one host. */
bool isWildcardDomain(const QString &domain);

/**
 * The credentials of @p kit that inject an API key into a domain @p bindings does not cover,
 * in kit order. With @p services non-empty, only those services are considered.
 */
QList<PendingApproval> pendingApprovals(const kit::Kit &kit, const secrets::CredentialBindings &bindings,
                                        const QStringList &services = {});

/**
 * Asks the person at the terminal whether @p kit may use its credentials, as `run` and
 * `create` do before a sandbox starts.
 *
 * Each pending credential is shown with its description and the domains its key would be
 * sent to (a wildcard domain carries a warning), then the question
 * "[A]pprove all · [R]eview each · [N]o" is asked; "review" asks once per credential. Approved
 * services are recorded in @p bindings (credentials.yaml) at once.
 *
 * The prompt goes to stderr and the answers are read from stdin. When stdin is not a terminal
 * nothing is asked and the outcome is NeedsApproval, so a script never hangs on a question.
 */
ApprovalOutcome approveInteractively(const kit::Kit &kit, secrets::CredentialBindings &bindings,
                                     const QStringList &services = {});

/** Asks @p question on stderr and reads one line from stdin, trimmed; nullopt at the end of input. */
std::optional<QString> readAnswer(const QString &question);

/** @p argument quoted for a POSIX shell when it needs it, so printed commands can be pasted. */
QString shellQuote(const QString &argument);

} // namespace paddock::cli

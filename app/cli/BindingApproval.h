// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
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

    /** One entry of the daemon's answers (`binding.check` rows, `sandbox.credentials` pendings). */
    static PendingApproval fromJson(const QJsonObject &entry);
};

/**
 * @brief The kit a credential command is about, as the daemon's methods take it.
 *
 * The command line only names the kit; the daemon loads it, reads credentials.yaml and the
 * keychain, and records approvals, so one place decides.
 */
struct KitRequest
{
    QString name;      ///< the kit's name, for messages
    QString directory; ///< absolute kit directory
    QJsonObject args;  ///< kit argument values (--arg NAME=VALUE)
    QJsonArray mixins; ///< the mixins composed with it (absolute directories), or none

    /** {kit, kitArgs}, the parameters every kit-taking daemon method reads. */
    QJsonObject params() const;
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

/** Whether @p domain is a pattern ("*.example.com", "**.example.com") rather than one host. */
bool isWildcardDomain(const QString &domain);

/**
 * The credentials among @p rows (the daemon's `binding.check` rows) whose key would go to a
 * domain not yet approved, in kit order. With @p services non-empty, only those services.
 */
QList<PendingApproval> pendingApprovals(const QJsonArray &rows, const QStringList &services = {});

/**
 * Asks the person at the terminal whether @p kit may use the credentials in @p pending, as `run` and
 * `create` do before a sandbox starts.
 *
 * Each pending credential is shown with its description and the domains its key would be
 * sent to (a wildcard domain carries a warning), then the question
 * "[A]pprove all · [R]eview each · [N]o" is asked; "review" asks once per credential. Each approved
 * service is recorded by the daemon (`binding.approve`) at once, in force when it answers.
 *
 * The prompt goes to stderr and the answers are read from stdin. When stdin is not a terminal
 * nothing is asked and the outcome is NeedsApproval, so a script never hangs on a question.
 */
ApprovalOutcome approveInteractively(const KitRequest &kit, const QList<PendingApproval> &pending);

/** Records through the daemon that @p service's key of @p kit may go to the kit's domains. */
bool approveInDaemon(const KitRequest &kit, const QString &service, QString *error);

/** Asks @p question on stderr and reads one line from stdin, trimmed; nullopt at the end of input. */
std::optional<QString> readAnswer(const QString &question);

/**
 * On a terminal, asks @p question followed by " [y/N] " (readAnswer()) and says whether the answer
 * is y or yes; false without asking when stdin is not a terminal, so a script never hangs.
 */
bool terminalAnswersYes(const QString &question);

/** @p argument quoted for a POSIX shell when it needs it, so printed commands can be pasted. */
QString shellQuote(const QString &argument);

} // namespace paddock::cli

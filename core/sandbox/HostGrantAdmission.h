// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"
#include "policy/HostGrantApprovals.h"
#include "policy/Rule.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

/**
 * Host grants (policy::HostGrant) in sandboxes: a kit whose `permissions.network.allow` reaches
 * this computer or its networks gets a sandbox only once the user approved each such pattern
 * for that kit (host-grants.yaml), and until then those rules are not in force either. Pure
 * functions over the kit's lists and the file, so the daemon, the command line and the window
 * decide the same way.
 */
namespace paddock::sandbox {

/** @brief A kit's host grants checked against host-grants.yaml. */
struct HostGrantCheck
{
    QString kit;
    QList<policy::HostGrant> grants;  ///< every grant of the kit, in kit order
    QList<policy::HostGrant> pending; ///< those not approved for this kit yet

    bool blocksStart() const { return !pending.isEmpty(); }
    /**
     * "sandbox NAME cannot start: ..." naming each pending grant with what it reaches and the
     * command that approves them; empty when nothing is pending.
     */
    QString blockingMessage(const QString &sandbox, const QStringList &kitDirectories) const;
    /** {kit, grants: [{pattern, reaches: [..], approved}], pending: [PATTERN..], blocked}. */
    QJsonObject toJson() const;
};

/** The grants among @p allow of kit @p kitName, and which of them @p approvals lacks. */
HostGrantCheck checkHostGrants(const QString &kitName, const QStringList &allow,
                               const policy::HostGrantApprovals &approvals);

/** The kit folders of `sandbox.create` params: `kit`, then each of `mixins`. */
QStringList kitDirectoriesOf(const QJsonObject &params);

/** `paddock grant approve --kit DIR` (one --kit per kit of a composition), quoted for a shell. */
QString approveGrantsCommand(const QStringList &kitDirectories);

/**
 * Before sandbox @p sandbox of kit @p kitName (its folders @p kitDirectories, its allow list
 * @p allow) is created or started. Reads host-grants.yaml afresh; with @p approve, records the
 * pending grants first, as the user's "approve". Returns nullopt when the sandbox may go on,
 * else the refusal: `host-grants-required` or `policy-failed` (the file cannot be used).
 */
std::optional<api::Reply> admitHostGrants(const QString &sandbox, const QString &kitName,
                                          const QStringList &kitDirectories, const QStringList &allow, bool approve);

/**
 * Takes out of @p rules (kit @p kitName's) each allow rule that is a host grant not approved
 * for the kit, so it decides nothing; returns one note per rule taken out. When host-grants.yaml
 * cannot be read every grant is taken out.
 */
QStringList withholdUnapprovedGrants(QList<policy::Rule> *rules, const QString &kitName);

} // namespace paddock::sandbox

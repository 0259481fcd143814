// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/HostGrant.h"
#include "policy/PolicyStore.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <variant>

namespace paddock::policy {

/** Kit name → the patterns approved for it, canonical and in the order they were approved. */
using ApprovedGrants = QMap<QString, QStringList>;

/**
 * @brief `host-grants.yaml`, beside credentials.yaml: the host grants (HostGrant) the user
 * approved, kit by kit.
 * @code
 * grants:
 *   ollama:
 *     allow: ["localhost:11434"]
 * @endcode
 * An approval is for one kit name (a composition's: its kits' names joined by '+') and one
 * pattern exactly as written (canonical form): it opens nothing for another kit, and a wider pattern needs its own approval. Decoding is
 * strict; a broken file is reported with its line and column and refuses changes until it is
 * fixed. Every change reads the file afresh first, so a hand edit is never lost, and is
 * written atomically (mode 0600).
 */
class HostGrantApprovals
{
public:
    /** Uses `paths::configDir()/host-grants.yaml`. */
    HostGrantApprovals();
    explicit HostGrantApprovals(const QString &path);
    static QString defaultPath();
    QString path() const { return m_path; }

    /** Reads the file; a missing file approves nothing. */
    std::optional<PolicyError> load();
    /** The approvals as last loaded or changed. */
    ApprovedGrants approved() const { return m_approved; }
    bool isApproved(const QString &kit, const HostGrant &grant) const;
    /** Those of @p grants that kit @p kit has not been approved for, in order. */
    QList<HostGrant> pending(const QString &kit, const QList<HostGrant> &grants) const;

    /** Approves @p patterns (any spelling a pattern takes) for kit @p kit. */
    Result<void> approve(const QString &kit, const QStringList &patterns);
    /**
     * Withdraws @p patterns for kit @p kit, or all of the kit's when @p patterns is empty.
     * Gives how many patterns were withdrawn; withdrawing nothing is no error.
     */
    Result<int> revoke(const QString &kit, const QStringList &patterns);

    /** Decodes host-grants.yaml text; @p file is used in errors. */
    static std::variant<ApprovedGrants, PolicyError> parse(const QByteArray &text, const QString &file);
    static QByteArray serialise(const ApprovedGrants &approved);

private:
    Result<void> change(const std::function<Result<void>(ApprovedGrants &)> &edit);

    QString m_path;
    ApprovedGrants m_approved;
};

} // namespace paddock::policy

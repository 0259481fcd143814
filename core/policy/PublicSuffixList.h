// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSet>
#include <QString>

namespace paddock::policy {

/**
 * @brief The public suffix list: which names are shared by unrelated owners (`com`, `co.uk`).
 *
 * Used wherever Paddock widens a host into a wildcard (an Allow of `*.parent`, a learned
 * proposal): a wildcard never spans more than one registrable domain. The list is Debian's
 * `publicsuffix` package (`/usr/share/publicsuffix/public_suffix_list.dat`), or the file named
 * by `$PADDOCK_PUBLIC_SUFFIX_LIST`, read once. Rules are kept in ASCII (IDNA) lower case, the
 * form host names are compared in. Without the file only the implicit rule `*` applies: every
 * top-level domain is a public suffix.
 */
class PublicSuffixList
{
public:
    /** The system's list, loaded on first use. */
    static const PublicSuffixList &system();

    /** Reads @p path; an unreadable file leaves the list empty (isLoaded() false). */
    explicit PublicSuffixList(const QString &path);

    bool isLoaded() const { return m_loaded; }

    /** Whether @p domain (ASCII, lower case) is itself a public suffix; an empty name is. */
    bool isPublicSuffix(const QString &domain) const;

    /** The public suffix plus one label for @p host (`a.b.example.co.uk` → `example.co.uk`), or empty when @p host is a suffix. */
    QString registrableDomain(const QString &host) const;

private:
    QSet<QString> m_exact;      ///< `co.uk`
    QSet<QString> m_wildcards;  ///< `*.ck` stored as `ck`
    QSet<QString> m_exceptions; ///< `!www.ck` stored as `www.ck`
    bool m_loaded = false;
};

} // namespace paddock::policy

// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/Decision.h"

namespace paddock::policy {
namespace {

QString target(const QString &host, std::uint16_t port)
{
    const bool v6 = host.contains(QLatin1Char(':')) && !host.startsWith(QLatin1Char('['));
    return (v6 ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QLatin1Char(':') + QString::number(port);
}

} // namespace

QString Decision::ruleLabel() const
{
    return rule ? rule->id : QStringLiteral("default deny");
}

QString Decision::basisToken() const
{
    switch (basis) {
    case Basis::AllowedByRule:
        return QStringLiteral("allowed");
    case Basis::DeniedByRule:
        return QStringLiteral("denied-by-rule");
    case Basis::NoMatchingRule:
        return QStringLiteral("no-matching-rule");
    case Basis::NonPublicAddress:
        return QStringLiteral("non-public-address");
    case Basis::InvalidHost:
        return QStringLiteral("invalid-host");
    case Basis::RequestsUnseen:
        return QStringLiteral("requests-unseen");
    }
    return {};
}

QString Decision::reason() const
{
    const QString where =
        request.isEmpty() ? target(host, port) : request + QStringLiteral(" on ") + target(host, port);
    switch (basis) {
    case Basis::AllowedByRule:
        return QStringLiteral("%1 is allowed by rule %2: %3").arg(where, rule->id, rule->describe());
    case Basis::DeniedByRule:
        return QStringLiteral("%1 is denied by rule %2: %3").arg(where, rule->id, rule->describe());
    case Basis::NoMatchingRule:
        return QStringLiteral("no rule allows %1 (default deny)").arg(where);
    case Basis::NonPublicAddress: {
        const QString kind = QLatin1String(addressKind ? addressKind : address.nonPublicKind());
        if (literal)
            return QStringLiteral("%1 is a %2 address, on this computer or its networks; it is reached only through a "
                                  "rule that names it or its range, not through %3")
                .arg(where, kind, rule ? rule->describe() : QStringLiteral("the default"));
        return QStringLiteral("%1 leads to %2, a %3 address; an allowed name reaches this computer or its networks "
                              "only through a trusted mapping (paddock policy resolve set), never through a rule for "
                              "another name or address (protection against DNS rebinding)")
            .arg(where, address.toString(), kind);
    }
    case Basis::InvalidHost:
        return QStringLiteral("\"%1\" is not a valid host name or address").arg(host);
    case Basis::RequestsUnseen:
        return QStringLiteral("%1 is covered by rule %2 (%3), which names methods or paths, and Paddock does not see "
                              "the requests of this connection (TLS it does not terminate): it is refused rather than "
                              "let through unchecked")
            .arg(where, rule->id, rule->describe());
    }
    return {};
}

} // namespace paddock::policy

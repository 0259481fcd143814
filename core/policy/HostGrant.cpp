// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/HostGrant.h"

#include "common/HostAlias.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace paddock::policy {
namespace {

/** The names cloud providers give their metadata services. */
constexpr std::array<std::string_view, 5> kMetadataNames{"metadata.google.internal", "metadata.goog", "metadata",
                                                         "instance-data", "instance-data.ec2.internal"};

/** Where those services answer: AWS, GCP and Azure (IPv4 and AWS's IPv6), AWS ECS, Alibaba. */
const std::vector<IpNetwork> &metadataNetworks()
{
    static const std::vector<IpNetwork> networks = [] {
        std::vector<IpNetwork> result;
        for (const char16_t *text :
             {u"169.254.169.254", u"169.254.170.2", u"fd00:ec2::254", u"100.100.100.200", u"168.63.129.16"})
            result.push_back({*IpAddress::parse(text), 128});
        return result;
    }();
    return networks;
}

const std::vector<IpNetwork> &loopbackNetworks()
{
    static const std::vector<IpNetwork> networks{{IpAddress::parse(u"127.0.0.0")->masked(104), 104},
                                                 {*IpAddress::parse(u"::1"), 128}};
    return networks;
}

void addKind(QStringList *kinds, const char *kind)
{
    const QString text = QLatin1String(kind);
    if (!kinds->contains(text))
        kinds->append(text);
}

/** The most telling kinds first: what a person must understand before approving. */
void sortKinds(QStringList *kinds)
{
    static const QStringList order{QStringLiteral("loopback"),       QStringLiteral("this computer's own"),
                                   QStringLiteral("cloud metadata"), QStringLiteral("link-local"),
                                   QStringLiteral("private"),        QStringLiteral("unique-local")};
    std::stable_sort(kinds->begin(), kinds->end(), [](const QString &a, const QString &b) {
        const auto rank = [](const QString &kind) {
            const qsizetype at = order.indexOf(kind);
            return at < 0 ? order.size() : at;
        };
        return rank(a) < rank(b);
    });
}

QStringList reachOfNetwork(const IpNetwork &network, const LocalAddresses &local)
{
    QStringList kinds;
    for (const IpNetwork &metadata : metadataNetworks()) {
        if (network.overlaps(metadata))
            addKind(&kinds, "cloud metadata");
    }
    for (const GuardedRange &range : guardedRanges()) {
        if (network.overlaps(range.network))
            addKind(&kinds, range.kind);
    }
    for (const IpAddress &address : local.addresses()) {
        // Loopback and private addresses of the interfaces are named by their kind already.
        if (!address.isNonPublic() && network.contains(address)) {
            addKind(&kinds, "this computer's own");
            break;
        }
    }
    return kinds;
}

QStringList reachOfName(const HostPattern &pattern)
{
    QStringList kinds;
    if (isLoopbackName(pattern.domain()))
        addKind(&kinds, "loopback");
    else if (!fixedReachOf(pattern.domain()).empty())
        addKind(&kinds, "cloud metadata");
    return kinds;
}

} // namespace

QString HostGrant::describe() const
{
    return QStringLiteral("%1 (%2)").arg(pattern, reaches.join(QStringLiteral(", ")));
}

QString HostGrant::reachPhrase() const
{
    QString kinds = reaches.join(QStringLiteral(", "));
    if (reaches.size() > 1)
        kinds = QStringList(reaches.mid(0, reaches.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ") +
                reaches.last();
    return kinds + QStringLiteral(" addresses");
}

std::optional<IpAddress> legacyIpv4Spelling(std::string_view name)
{
    if (name.empty() || name.size() > 64)
        return std::nullopt;
    const std::string text(name);
    in_addr parsed{};
    if (::inet_aton(text.c_str(), &parsed) == 0)
        return std::nullopt;
    std::array<std::uint8_t, 16> bytes{};
    bytes[10] = bytes[11] = 0xff;
    std::memcpy(bytes.data() + 12, &parsed, 4);
    return IpAddress::fromBytes(bytes);
}

bool isLoopbackName(std::string_view normalisedName)
{
    // RFC 6761: these always mean the loopback interface, whatever a resolver says.
    return normalisedName == "localhost" || normalisedName.ends_with(".localhost") || normalisedName == kHostAlias;
}

std::vector<IpNetwork> fixedReachOf(std::string_view normalisedName)
{
    if (isLoopbackName(normalisedName))
        return loopbackNetworks();
    for (std::string_view name : kMetadataNames) {
        if (normalisedName == name)
            return metadataNetworks();
    }
    return {};
}

std::optional<HostGrant> hostGrantOf(const HostPattern &pattern, const LocalAddresses &local)
{
    QStringList kinds;
    switch (pattern.kind()) {
    case HostPattern::Kind::Network:
        kinds = reachOfNetwork(pattern.network(), local);
        break;
    case HostPattern::Kind::Everything:
        break; // `**` does not name an address: the guard applies to everything it allows
    case HostPattern::Kind::ExactHost:
        if (const std::optional<IpAddress> address = legacyIpv4Spelling(pattern.domain())) {
            kinds = reachOfNetwork({*address, 128}, local);
            break;
        }
        [[fallthrough]];
    case HostPattern::Kind::OneLabelWildcard:
    case HostPattern::Kind::AnyDepthWildcard:
        kinds = reachOfName(pattern);
        break;
    }
    if (kinds.isEmpty())
        return std::nullopt;
    sortKinds(&kinds);
    return HostGrant{pattern.toString(), kinds};
}

std::optional<HostGrant> hostGrantOf(QStringView text, const LocalAddresses &local)
{
    const Result<HostPattern> parsed = HostPattern::parse(text, PatternContext::Allow);
    if (!parsed)
        return std::nullopt;
    return hostGrantOf(parsed.value(), local);
}

QList<HostGrant> hostGrantsOf(const QStringList &allow, const LocalAddresses &local)
{
    QList<HostGrant> grants;
    for (const QString &text : allow) {
        std::optional<HostGrant> grant = hostGrantOf(QStringView(text), local);
        if (grant && !grants.contains(*grant))
            grants.append(std::move(*grant));
    }
    return grants;
}

} // namespace paddock::policy

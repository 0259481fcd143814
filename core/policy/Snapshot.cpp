// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/Snapshot.h"

#include "policy/HostGrant.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace paddock::policy {
namespace {

template<typename Index>
const typename Index::mapped_type *find(const Index &index, std::string_view key)
{
    const auto it = index.find(key);
    return it == index.end() ? nullptr : &it->second;
}

template<typename Entry, typename Target>
const Entry *firstCovering(const std::vector<Entry> *entries, const Target &target)
{
    if (!entries)
        return nullptr;
    for (const Entry &entry : *entries) {
        if (entry.covers(target))
            return &entry;
    }
    return nullptr;
}

QStringView withoutBrackets(QStringView host)
{
    if (host.size() >= 2 && host.front() == QLatin1Char('[') && host.back() == QLatin1Char(']'))
        return host.sliced(1, host.size() - 2);
    return host;
}

const IpAddress &loopbackAddress()
{
    static const IpAddress loopback = *IpAddress::parse(u"127.0.0.1");
    return loopback;
}

} // namespace

std::size_t Snapshot::AddressHash::operator()(const IpAddress &address) const
{
    std::uint64_t high = 0;
    std::uint64_t low = 0;
    std::memcpy(&high, address.bytes().data(), 8);
    std::memcpy(&low, address.bytes().data() + 8, 8);
    return std::hash<std::uint64_t>{}(high * 0x9e3779b97f4a7c15ULL ^ low);
}

void Snapshot::RuleSet::add(const Rule &rule, std::uint32_t index)
{
    const HostPattern &pattern = rule.pattern;
    const Entry entry{pattern.ports(), index, rule.program.toStdString(), rule.verdict == Verdict::Deny};
    switch (pattern.kind()) {
    case HostPattern::Kind::ExactHost:
        exact[pattern.domain()].push_back(entry);
        break;
    case HostPattern::Kind::OneLabelWildcard:
        oneLabel[pattern.domain()].push_back(entry);
        break;
    case HostPattern::Kind::AnyDepthWildcard:
        anyDepth[pattern.domain()].push_back(entry);
        break;
    case HostPattern::Kind::Everything:
        everything.push_back(entry);
        break;
    case HostPattern::Kind::Network: {
        const int length = pattern.network().prefixLength;
        auto table = std::find_if(networks.begin(), networks.end(),
                                  [length](const NetworkTable &t) { return t.prefixLength == length; });
        if (table == networks.end()) {
            networks.push_back({length, {}});
            std::sort(networks.begin(), networks.end(),
                      [](const NetworkTable &a, const NetworkTable &b) { return a.prefixLength > b.prefixLength; });
            table = std::find_if(networks.begin(), networks.end(),
                                 [length](const NetworkTable &t) { return t.prefixLength == length; });
        }
        table->byBase[pattern.network().base].push_back(entry);
        break;
    }
    }
}

const Snapshot::Entry *Snapshot::RuleSet::matchName(std::string_view host, const Target &target) const
{
    if (const Entry *entry = firstCovering(find(exact, host), target))
        return entry;
    const std::size_t firstDot = host.find('.');
    if (firstDot != std::string_view::npos) {
        if (const Entry *entry = firstCovering(find(oneLabel, host.substr(firstDot + 1)), target))
            return entry;
    }
    // `**.example.com` covers every name that ends in ".example.com": try each suffix.
    if (!anyDepth.empty()) {
        for (std::size_t dot = firstDot; dot != std::string_view::npos; dot = host.find('.', dot + 1)) {
            if (const Entry *entry = firstCovering(find(anyDepth, host.substr(dot + 1)), target))
                return entry;
        }
    }
    return matchEverything(target);
}

const Snapshot::Entry *Snapshot::RuleSet::matchAddress(const IpAddress &address, const Target &target) const
{
    for (const NetworkTable &table : networks) {
        const auto it = table.byBase.find(address.masked(table.prefixLength));
        if (it == table.byBase.end())
            continue;
        if (const Entry *entry = firstCovering(&it->second, target))
            return entry;
    }
    return nullptr;
}

const Snapshot::Entry *Snapshot::RuleSet::matchEverything(const Target &target) const
{
    return firstCovering(&everything, target);
}

void Snapshot::add(const Rule &rule)
{
    Bucket *bucket = &m_global;
    if (rule.scope.kind == Scope::Kind::Sandbox)
        bucket = &m_sandboxes[rule.scope.name];
    else if (rule.scope.kind == Scope::Kind::Kit)
        bucket = &m_kits[rule.scope.name];
    const auto index = std::uint32_t(m_rules.size());
    m_rules.push_back(rule);
    if (!rule.request.isEmpty())
        return m_requestRules.add(index);
    (rule.verdict == Verdict::Allow ? bucket->allow : bucket->deny).add(rule, index);
}

std::shared_ptr<const Snapshot> Snapshot::build(const PolicyData &data, const QHash<QString, QList<Rule>> &kitRules,
                                                std::shared_ptr<const LocalAddresses> local)
{
    auto snapshot = std::make_shared<Snapshot>();
    snapshot->m_data = data;
    snapshot->m_local = local ? std::move(local) : LocalAddresses::system();
    for (const Rule &rule : presetRules(data.preset))
        snapshot->add(rule);
    for (const Rule &rule : data.rules)
        snapshot->add(rule);
    for (auto it = kitRules.cbegin(); it != kitRules.cend(); ++it) {
        for (Rule rule : it.value()) {
            rule.scope = Scope::kit(it.key());
            snapshot->add(rule);
        }
    }
    for (auto it = data.resolveOverrides.cbegin(); it != data.resolveOverrides.cend(); ++it) {
        const std::string name = normaliseHostName(it.key());
        if (!name.empty())
            snapshot->m_overrides[name] = IpAddress::fromHostAddress(it.value());
    }
    return snapshot;
}

std::optional<QHostAddress> Snapshot::resolveOverride(QStringView host) const
{
    const auto it = m_overrides.find(normaliseHostName(host));
    if (it == m_overrides.end())
        return std::nullopt;
    return QHostAddress(it->second.toString());
}

Decision Snapshot::refuseNonPublic(Decision decision, const IpAddress &address, const char *kind) const
{
    decision.allowed = false;
    decision.basis = Decision::Basis::NonPublicAddress;
    decision.address = address;
    decision.addressKind = kind;
    return decision;
}

const Snapshot::Entry *Snapshot::findAllow(const Buckets &buckets, const std::optional<IpAddress> &literal,
                                           std::string_view name, const Target &target) const
{
    const Entry *allowed = nullptr;
    if (!literal) {
        for (const Bucket *bucket : buckets) {
            if (bucket && !allowed)
                allowed = bucket->allow.matchName(name, target);
        }
        return allowed;
    }
    // A rule naming the address is looked for in every scope before `**`: only such a rule
    // opens a guarded address, wherever it is.
    for (const Bucket *bucket : buckets) {
        if (bucket && !allowed)
            allowed = bucket->allow.matchAddress(*literal, target);
    }
    for (const Bucket *bucket : buckets) {
        if (bucket && !allowed)
            allowed = bucket->allow.matchEverything(target);
    }
    return allowed;
}

template<typename Visit>
bool Snapshot::Reach::forEachAddress(Visit &&visit) const
{
    if (literal)
        return visit(*literal);
    if (overridden)
        return visit(*overridden);
    if (localhost && visit(loopbackAddress()))
        return true;
    for (const QHostAddress &address : *resolved) {
        if (visit(IpAddress::fromHostAddress(address)))
            return true;
    }
    return false;
}

Snapshot::Buckets Snapshot::bucketsFor(const Request &request) const
{
    Buckets buckets{&m_global, nullptr, nullptr};
    if (const auto it = m_sandboxes.constFind(request.sandbox); !request.sandbox.isEmpty() && it != m_sandboxes.cend())
        buckets[1] = &it.value();
    if (const auto it = m_kits.constFind(request.kit); !request.kit.isEmpty() && it != m_kits.cend())
        buckets[2] = &it.value();
    return buckets;
}

std::optional<Snapshot::Reach> Snapshot::reachOf(const Request &request) const
{
    Reach reach;
    reach.resolved = &request.addresses;
    reach.literal = IpAddress::parse(withoutBrackets(request.host));
    if (reach.literal)
        return reach;
    reach.name = normaliseHostName(request.host);
    if (reach.name.empty() || request.port == 0)
        return std::nullopt;
    // "127.0.0.1.", "127.1" and "0x7f000001" are addresses too: the resolver reads them
    // so, and no top-level domain is numeric.
    if (reach.name.back() >= '0' && reach.name.back() <= '9')
        reach.literal = IpAddress::parse(QString::fromLatin1(reach.name.data(), qsizetype(reach.name.size())));
    if (!reach.literal)
        reach.literal = legacyIpv4Spelling(reach.name);
    if (reach.literal)
        return reach;
    // The addresses the connection may actually reach. A trusted override replaces DNS.
    if (const auto it = m_overrides.find(reach.name); it != m_overrides.end())
        reach.overridden = it->second;
    reach.localhost = !reach.overridden && isLoopbackName(reach.name);
    return reach;
}

const Snapshot::Entry *Snapshot::findDeny(const Buckets &buckets, const Reach &reach, const Target &target) const
{
    for (const Bucket *bucket : buckets) {
        if (!bucket)
            continue;
        const Entry *entry = reach.literal ? bucket->deny.matchAddress(*reach.literal, target)
                                           : bucket->deny.matchName(reach.name, target);
        if (!entry && reach.literal)
            entry = bucket->deny.matchEverything(target);
        if (!entry && !reach.literal) {
            reach.forEachAddress([&](const IpAddress &address) {
                entry = bucket->deny.matchAddress(address, target);
                return entry != nullptr;
            });
        }
        if (entry)
            return entry;
    }
    return nullptr;
}

std::optional<Snapshot::Guarded> Snapshot::firstGuarded(const Reach &reach, const std::vector<IpNetwork> &exempt) const
{
    if (reach.overridden)
        return std::nullopt; // the user's own mapping, trusted
    std::optional<Guarded> found;
    reach.forEachAddress([&](const IpAddress &address) {
        const char *kind = guardedKind(address, *m_local);
        if (!kind || std::any_of(exempt.cbegin(), exempt.cend(),
                                 [&](const IpNetwork &network) { return network.contains(address); }))
            return false;
        found = Guarded{address, kind};
        return true;
    });
    return found;
}

bool Snapshot::reachesGuardedAddress(const Request &request) const
{
    const std::optional<Reach> reach = reachOf(request);
    return reach && firstGuarded(*reach).has_value();
}

Decision Snapshot::guard(Decision decision, const Reach &reach) const
{
    // The guard: a guarded address (this computer, its networks, special-purpose ranges) is
    // reached only through exactly what names it. For an address, a rule naming it or its
    // range; for a name, a trusted override, or a name whose meaning is fixed (localhost) and
    // only its own addresses. A rule for one thing never opens the guard for another, so an
    // allowed name or `**` cannot be pointed at the host's services (DNS rebinding).
    const HostPattern &pattern = decision.rule->pattern;
    if (reach.literal && pattern.isNetwork())
        return decision; // a rule naming the address or its range
    const std::vector<IpNetwork> fixedReach = reach.literal || pattern.kind() == HostPattern::Kind::Everything
                                                  ? std::vector<IpNetwork>()
                                                  : fixedReachOf(pattern.domain());
    if (const std::optional<Guarded> refused = firstGuarded(reach, fixedReach))
        return refuseNonPublic(std::move(decision), refused->address, refused->kind);
    return decision;
}

Decision Snapshot::decide(const Request &request) const
{
    Decision decision;
    decision.host = request.host;
    decision.port = request.port;
    const std::optional<Reach> reach = reachOf(request);
    if (!reach) {
        decision.basis = Decision::Basis::InvalidHost;
        return decision;
    }
    decision.literal = reach->literal.has_value();

    // Deny wins: any deny rule in any applicable scope decides at once.
    const Buckets buckets = bucketsFor(request);
    const Target target{request.port, &request.program};
    if (const Entry *denied = findDeny(buckets, *reach, target)) {
        decision.basis = Decision::Basis::DeniedByRule;
        decision.rule = m_rules[denied->rule];
        return decision;
    }
    if (const Entry *allowed = findAllow(buckets, reach->literal, reach->name, target)) {
        decision.allowed = true;
        decision.basis = Decision::Basis::AllowedByRule;
        decision.rule = m_rules[allowed->rule];
    }
    if (!m_requestRules.empty())
        decision = m_requestRules.apply(std::move(decision), request, m_rules, reach->name, reach->literal);
    if (!decision.allowed)
        return decision;
    return guard(std::move(decision), *reach);
}

} // namespace paddock::policy

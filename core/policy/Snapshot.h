// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Decision.h"
#include "policy/LocalAddresses.h"
#include "policy/PolicyData.h"
#include "policy/RequestRules.h"

#include <QHash>
#include <QList>

#include <array>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace paddock::policy {

/**
 * @brief An immutable, precompiled policy: what PolicyEngine decides against.
 *
 * Rules are indexed once when the policy changes so that a decision is a few hash lookups:
 * exact hosts by name, `*.` wildcards by the name minus its first label, `**.` wildcards by
 * each suffix, and address ranges by prefix length. Nothing is allocated per decision except
 * the normalised host name and the copy of the deciding rule.
 */
class Snapshot
{
public:
    /** @p local: the addresses of this computer, which the rebinding guard refuses like loopback. */
    static std::shared_ptr<const Snapshot>
    build(const PolicyData &data, const QHash<QString, QList<Rule>> &kitRules,
          std::shared_ptr<const LocalAddresses> local = LocalAddresses::system());

    Decision decide(const Request &request) const;
    /** The trusted address configured for @p host (any case, trailing dot, IDNA), if any. */
    std::optional<QHostAddress> resolveOverride(QStringView host) const;
    const PolicyData &data() const { return m_data; }
    /**
     * Whether @p request could reach an address the rebinding guard protects (this computer,
     * its networks, special-purpose ranges): its host as an address in any spelling, a name
     * that always means loopback, or a name resolved to such an address. A trusted override
     * is the user's own mapping and reaches nothing guarded. The one answer to "is this
     * local": decide() refuses by it, and learning and ask mode never open what it names.
     */
    bool reachesGuardedAddress(const Request &request) const;
    /** Every rule in force: the preset's, the stored ones, and the kits'. */
    const std::vector<Rule> &rules() const { return m_rules; }

private:
    /** What an entry is matched against besides the host: the port, and who connects. */
    struct Target
    {
        std::uint16_t port = 0;
        const ClientProgram *program = nullptr;
    };
    struct Entry
    {
        PortRange ports;
        std::uint32_t rule;  ///< index into m_rules
        std::string program; ///< the rule's program condition; empty: any program
        bool deny = false;
        /**
         * A program condition holds for that program; a deny's also when nobody said which
         * program connected, so that not knowing never lets through what a deny names.
         */
        bool covers(const Target &target) const
        {
            return ports.contains(target.port) && programConditionHolds(program, deny, *target.program);
        }
    };
    using Entries = std::vector<Entry>;
    struct StringHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    struct AddressHash
    {
        std::size_t operator()(const IpAddress &address) const;
    };
    using NameIndex = std::unordered_map<std::string, Entries, StringHash, std::equal_to<>>;
    struct NetworkTable
    {
        int prefixLength = 128;
        std::unordered_map<IpAddress, Entries, AddressHash> byBase;
    };

    /** The rules of one verdict in one scope, indexed. */
    struct RuleSet
    {
        NameIndex exact;
        NameIndex oneLabel; ///< key: the domain after "*."
        NameIndex anyDepth; ///< key: the domain after "**."
        Entries everything;
        std::vector<NetworkTable> networks; ///< longest prefix first

        void add(const Rule &rule, std::uint32_t index);
        const Entry *matchName(std::string_view host, const Target &target) const;
        const Entry *matchAddress(const IpAddress &address, const Target &target) const;
        const Entry *matchEverything(const Target &target) const;
    };
    struct Bucket
    {
        RuleSet allow;
        RuleSet deny;
    };

    /** What a request reaches: an address literal, or a name and the addresses it may reach. */
    struct Reach
    {
        std::optional<IpAddress> literal;
        std::string name;                    ///< normalised; empty for a literal
        std::optional<IpAddress> overridden; ///< a trusted override, which replaces DNS
        bool localhost = false;              ///< a name that always means loopback
        const QList<QHostAddress> *resolved = nullptr;

        /** Calls @p visit with each address the connection may reach until it returns true. */
        template<typename Visit>
        bool forEachAddress(Visit &&visit) const;
    };
    using Buckets = std::array<const Bucket *, 3>;

    void add(const Rule &rule);
    /** The global bucket, then the request's sandbox and kit buckets when they have rules. */
    Buckets bucketsFor(const Request &request) const;
    /** The reach of @p request; nullopt when its host is no host name or its port is 0. */
    std::optional<Reach> reachOf(const Request &request) const;
    /** The first deny entry any bucket holds for @p reach. */
    const Entry *findDeny(const Buckets &buckets, const Reach &reach, const Target &target) const;
    /** A guarded address @p reach may connect to, outside @p exempt, and what it is. */
    struct Guarded
    {
        IpAddress address;
        const char *kind = nullptr;
    };
    std::optional<Guarded> firstGuarded(const Reach &reach, const std::vector<IpNetwork> &exempt = {}) const;
    /** Refuses an allowed @p decision whose reach is a guarded address nothing names. */
    Decision guard(Decision decision, const Reach &reach) const;
    Decision refuseNonPublic(Decision decision, const IpAddress &address, const char *kind) const;
    /** The allow entry for @p request, searching @p buckets in order; a literal prefers address rules. */
    const Entry *findAllow(const Buckets &buckets, const std::optional<IpAddress> &literal, std::string_view name,
                           const Target &target) const;

    PolicyData m_data;
    std::vector<Rule> m_rules;
    Bucket m_global;
    QHash<QString, Bucket> m_sandboxes;
    QHash<QString, Bucket> m_kits;
    std::unordered_map<std::string, IpAddress, StringHash, std::equal_to<>> m_overrides;
    std::shared_ptr<const LocalAddresses> m_local;
    RequestRules m_requestRules; ///< rules with methods or paths: not in the host indexes
};

} // namespace paddock::policy

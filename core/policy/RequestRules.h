// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Decision.h"
#include "policy/IpAddress.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace paddock::policy {

/**
 * @brief The rules of a Snapshot that name methods or paths, and how they change what the
 * host rules decided.
 *
 * Few rules have them, so they are kept apart from the host indexes and scanned. Order of
 * precedence, for one request: a host deny rule, then a deny rule matching the request, then
 * a host allow rule, then an allow rule matching the request; nothing: default deny. For a
 * connection: one the proxy will look into is allowed when an allow rule with methods or paths
 * covers its host (each request is then decided again); one it cannot look into is refused
 * when such a rule covers its host (Decision::Basis::RequestsUnseen), since neither kind could
 * be enforced there.
 */
class RequestRules
{
public:
    /** @p index: the rule's place in the snapshot's rule list. */
    void add(std::uint32_t index) { m_rules.push_back(index); }
    bool empty() const { return m_rules.empty(); }

    /**
     * @p decision: what the host rules decided for @p request (allowed, or no matching rule);
     * @p name: the normalised host name, empty for a literal @p literal.
     */
    Decision apply(Decision decision, const Request &request, const std::vector<Rule> &rules, std::string_view name,
                   const std::optional<IpAddress> &literal) const;

private:
    /** The rules whose scope and host cover @p request, in the snapshot's order. */
    std::vector<const Rule *> covering(const Request &request, const std::vector<Rule> &rules, std::string_view name,
                                       const std::optional<IpAddress> &literal) const;

    std::vector<std::uint32_t> m_rules;
};

} // namespace paddock::policy

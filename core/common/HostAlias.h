// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace paddock {

/**
 * The name by which a sandbox reaches this computer's own loopback services: a dev database
 * or a model server on the host. Inside, it resolves like any name (to an address of the
 * sandbox's resolver); the proxy reads it as loopback, and the policy treats it as it treats
 * `localhost`: only a rule naming it opens it, and in a kit or bundle that rule is a host grant
 * the person approves. Nothing else on the host's loopback is reachable by it.
 */
inline constexpr std::string_view kHostAlias = "host.paddock.internal";

} // namespace paddock

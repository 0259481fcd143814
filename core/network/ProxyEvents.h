// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "events/NetworkEvent.h"
#include "proxy/ProxyTypes.h"

#include <optional>

namespace paddock::network {

/**
 * The event-log form of what the proxy reported. An allowed connection is recorded once,
 * when the upstream answers; its `Closed` report has no event of its own (nullopt), so the
 * aggregated Allowed count is one per connection. A connection let through by learning mode
 * (see SandboxModes) becomes a `learned` event naming the rule and reason that would
 * have refused it. A `Request` report becomes a request record (NetworkEvent::request set).
 */
std::optional<events::NetworkEvent> toNetworkEvent(const proxy::ProxyEvent &event);

} // namespace paddock::network

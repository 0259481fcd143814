// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/InjectStream.h"
#include "proxy/InterceptionConfig.h"
#include "proxy/ProxyTypes.h"

#include <QString>

#include <string>

/** The answers an intercepted connection makes itself, instead of the upstream's. */
namespace paddock::proxy {

/** An error answer with @p status, saying @p reason in a header and the body; the connection closes. */
std::string errorResponse(int status, const QString &reason);

/** The 403 for a request a method or path rule refused, naming the rule and how to allow it. */
std::string requestRefusal(const inject::RequestVerdict &verdict, const inject::RequestNote &note,
                           const ProxyEvent &connection);

/** The 403 for a request that carries a known secret value, naming it and how to allow it. */
std::string guardRefusal(const guard::Finding &finding, const InterceptionConfig &config, const ProxyEvent &connection);

} // namespace paddock::proxy

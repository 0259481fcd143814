// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace paddock::policy {

/**
 * What the user may allow of a refused host and port, each a different rule:
 *  - `exact`: this host on this port (`host`, or `host:port` off 443);
 *  - `anyport`: this host on any port (`host:*`);
 *  - `wildcard`: every name one level under the host's parent domain, on this port (`*.parent`);
 *  - `deep`: every name under the parent domain at any depth, on this port (`**.parent`).
 * `hostport` is read as `exact`: both were the same rule. A wildcard is refused for an
 * address and over a public suffix (anyone can register a name there).
 * @return the pattern as policy.yaml spells it, or why it cannot be allowed.
 */
Result<QString> allowChoicePattern(const QString &host, std::uint16_t port, const QString &what);

/**
 * The command that allows @p pattern for @p sandbox (every sandbox when empty): the one
 * sentence a refusal suggests and the Allow dialog copies. A pattern with shell wildcards or
 * brackets is quoted.
 */
QString allowPatternCommand(const QString &pattern, const QString &sandbox);

/**
 * The command doing what `policy.allow` does for a refused @p host and @p port: @p where is
 * sandbox, kit or global, @p what a choice of allowChoicePattern(). For the sandbox and every
 * sandbox it is allowPatternCommand() of the choice's pattern, so the default choice reads as
 * the refusal's own suggestion.
 */
QString allowChoiceCommand(const QString &host, std::uint16_t port, const QString &sandbox, const QString &where,
                           const QString &what);

} // namespace paddock::policy

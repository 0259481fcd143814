// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace paddock::kit {

/**
 * The schemaVersion "2" replacement for a key of v1 or of an earlier v2 draft.
 *
 * @p path is the key's dotted path without list indices ("caps", "sandbox.aiFilename",
 * "sandbox.entrypoint.run", "credentials.oauth.passthroughResponse"). Returns what to
 * write instead, e.g. "`permissions` (caps.network → permissions.network)", or nullopt
 * when the key is simply unknown.
 */
std::optional<QString> legacyKeyReplacement(const QString &path);

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Command.h"

#include <QJsonArray>
#include <QString>

#include <optional>

namespace paddock::cli {

/** `paddock secret set-custom` (CustomSecretCommands.cpp). */
Command setCustomCommand();
/** The custom secrets for `secret ls --json`, without values. */
QJsonArray customSecretsJson();
/** Prints the custom secrets' table for `secret ls`; false when there are none. */
bool printCustomSecrets();
/** `secret rm NAME` for a custom secret: the exit code, or nullopt when NAME is none. */
std::optional<int> removeCustomSecret(const Invocation &call);

} // namespace paddock::cli

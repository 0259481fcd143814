// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Command.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace paddock::cli {

/** `paddock secret set-custom` (CustomSecretCommands.cpp). */
Command setCustomCommand();
/** The custom secrets of @p list (the daemon's `secret.list` answer) for `secret ls --json`, without values. */
QJsonArray customSecretsJson(const QJsonObject &list);
/** Prints the custom secrets' table of @p list for `secret ls`; false when there are none. */
bool printCustomSecrets(const QJsonObject &list);
/** `secret rm NAME` for a custom secret: the exit code, or nullopt when NAME is none. */
std::optional<int> removeCustomSecret(const Invocation &call);

} // namespace paddock::cli

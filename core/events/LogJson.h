// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "events/EventStore.h"

#include <QJsonObject>

namespace paddock::events {

/**
 * The policy log's lines as JSON, the form `events.log` answers and `paddock policy log --json`
 * prints: host, port, sandbox, kit, rule, count, firstSeen and lastSeen (UTC, milliseconds);
 * a refusal adds protocol, reason, program, command and written; an allowed line bytesUp and
 * bytesDown.
 */
QJsonObject toJson(const BlockedEntry &entry);
QJsonObject toJson(const AllowedEntry &entry);
/** {"blocked": [...], "allowed": [...], "failed": [...]}. */
QJsonObject toJson(const PolicyLog &log);

/** Reads what toJson() wrote; a missing field is left empty. */
BlockedEntry blockedEntryFromJson(const QJsonObject &json);
AllowedEntry allowedEntryFromJson(const QJsonObject &json);
PolicyLog policyLogFromJson(const QJsonObject &json);

} // namespace paddock::events

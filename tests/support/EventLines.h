// SPDX-License-Identifier: GPL-3.0-or-later
// Reading back the event log's JSON lines, as `paddock events --json` users do. Header-only: the
// including test links paddock_events.
#pragma once

#include "events/Jsonl.h"
#include "events/NetworkEvent.h"

#include <QBuffer>
#include <QList>

#include <optional>

namespace paddock::test {

/** Every event of the JSON lines @p text, in order; nullopt (and @p error) when one is refused. */
inline std::optional<QList<events::NetworkEvent>> readEventLines(QByteArray text, QString *error)
{
    QBuffer buffer(&text);
    if (!buffer.open(QIODevice::ReadOnly))
        return std::nullopt;
    QList<events::NetworkEvent> read;
    const bool ok = events::readJsonl(
        buffer,
        [&](const events::NetworkEvent &event) {
            read << event;
            return true;
        },
        error);
    return ok ? std::optional(read) : std::nullopt;
}

} // namespace paddock::test

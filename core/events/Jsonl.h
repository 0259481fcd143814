// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "events/EventStore.h"
#include "events/NetworkEvent.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>

#include <functional>

namespace paddock::events {

/**
 * @brief JSON lines: one event per line, the object NetworkEvent::toJson() describes (its
 * field names are stable), keys in alphabetical order, UTF-8, each line ending in `\n`.
 *
 * This is the format of `paddock policy export --jsonl`.
 */
QByteArray toJsonLine(const NetworkEvent &event);

/**
 * Writes the stored events @p filter selects to @p device, one line each, reading them from
 * the database one at a time. Returns the number of lines written, or -1 with @p error set
 * to one sentence.
 */
qint64 writeJsonl(const EventStore &store, const EventFilter &filter, QIODevice &device, QString *error = nullptr);

/**
 * Reads JSON lines from @p device and calls @p sink for each event; blank lines are
 * skipped. Stops at the first malformed line with @p error naming its line number, or
 * when @p sink returns false.
 */
bool readJsonl(QIODevice &device, const std::function<bool(const NetworkEvent &)> &sink, QString *error = nullptr);

} // namespace paddock::events

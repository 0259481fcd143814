// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"

#include <QString>

#include <optional>

namespace paddock::runtime::bwrap {

/**
 * Reads at most @p maxBytes of the log at @p path (with its rotated part and start offset,
 * runtime/SandboxLog.h) from stream offset @p offset. A missing log is an empty one.
 */
std::optional<LogPage> readLogPage(const QString &path, qint64 offset, qint64 maxBytes, QString *error);

/** Where the stream at @p path ends now: the offset the next byte written will have. */
qint64 logEnd(const QString &path);

/** Removes the log at @p path and the files that go with it. */
void removeLog(const QString &path);

} // namespace paddock::runtime::bwrap

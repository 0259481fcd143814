// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string_view>

/// What the proxy reads from an HTTP request target, for rules (policy) and records (proxy).
namespace paddock {

/// The longest path a record keeps; longer ones are cut and end with '…'.
inline constexpr int kMaxRecordedPath = 512;

/// The path a request target is compared by: query and fragment cut off, escaped letters and
/// digits decoded, `.` and `..` segments resolved, doubled slashes collapsed. An absolute URI
/// loses its scheme and authority. Empty when the target is no path.
QString canonicalPath(std::string_view target);
/// @p target as request records keep it: the path as sent, and any query replaced by `?…`, so
/// tokens and keys in it are never stored. At most kMaxRecordedPath characters, controls as '?'.
QString redactedTarget(std::string_view target);

} // namespace paddock

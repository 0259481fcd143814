// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plain C++, no Qt: paddock-init writes the files described here, the runtime reads them.

#include <cstdint>

namespace paddock::runtime::sandboxlog {

/**
 * A detached sandbox's output, kept in at most two files of @ref kFileLimit bytes each:
 *
 * - `log`: the newest output, appended to;
 * - `log.1`: the output before it, once `log` was full (renamed, replacing the older one);
 * - `log.start`: where `log.1` (or `log`, while there is no `log.1`) begins in the whole
 *   stream, as a decimal number padded to @ref kStartWidth characters, rewritten in place.
 *
 * Offsets into the output are offsets into the whole stream since the sandbox was created, so
 * a reader that goes on from where it stopped reads on correctly after a rotation, and learns
 * what it missed from where the stream now starts. The writer holds an exclusive flock() on
 * `log.start` while it rotates; a reader holds a shared one while it opens the files and reads
 * the number, so what it opened matches the number.
 */
constexpr std::int64_t kFileLimit = 8 * 1024 * 1024;
constexpr int kStartWidth = 20;
constexpr const char *kRotatedSuffix = ".1";
constexpr const char *kStartSuffix = ".start";

} // namespace paddock::runtime::sandboxlog

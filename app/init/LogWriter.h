// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace paddock::init {

/**
 * `paddock-init --write-log PATH [--log-limit BYTES]`, run on the host beside a detached
 * sandbox: copies standard input (the read end of the pipe that is the sandbox's stdout and
 * stderr) to PATH, rotating it to PATH.1 whenever PATH would grow past BYTES (the layout is
 * runtime/SandboxLog.h). Returns at the end of input, once every process of the sandbox has
 * closed its end.
 *
 * The limit is kept here, outside the sandbox, rather than by the supervisor inside: whatever
 * runs in the sandbox, and whatever descriptor it gets hold of, writes into a pipe, never into
 * the file, so no process of the sandbox can make the file grow past the limit.
 */
int writeLog(const std::string &path, std::int64_t limit);

} // namespace paddock::init

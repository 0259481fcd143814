// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/docker/HijackedConnection.h"

#include <QString>

namespace paddock::runtime::docker {

/**
 * Copies the caller's input to @p stream and the output back to the caller's fds (split by
 * stream unless @p tty) until the engine ends the stream, which it does once the process has
 * exited and its output is drained. At the end of the input the stream is half-closed only
 * when @p endInput: the engine ends a container attach's output too when its input ends.
 */
bool relayStream(HijackedConnection &stream, const ProcessIo &io, bool forwardInput, bool endInput, bool tty,
                 QString *error);

} // namespace paddock::runtime::docker

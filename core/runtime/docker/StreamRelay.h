// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/docker/HijackedConnection.h"

#include <QString>

#include <cstddef>

#include <termios.h>

namespace paddock::runtime::docker {

/** Writes all of @p data to @p fd; false when it cannot. */
bool writeAll(int fd, const char *data, size_t size);

/** @brief Puts a terminal in raw mode while it lives, so keys reach the container's own terminal. */
class RawTerminal
{
public:
    explicit RawTerminal(int fd);
    ~RawTerminal();
    RawTerminal(const RawTerminal &) = delete;
    RawTerminal &operator=(const RawTerminal &) = delete;

private:
    int m_fd;
    termios m_saved{};
    bool m_active = false;
};

/**
 * Copies the caller's input to @p stream and the output back to the caller's fds (split by
 * stream unless @p tty) until the engine ends the stream, which it does once the process has
 * exited and its output is drained. At the end of the input the stream is half-closed only
 * when @p endInput: the engine ends a container attach's output too when its input ends.
 */
bool relayStream(HijackedConnection &stream, const ProcessIo &io, bool forwardInput, bool endInput, bool tty,
                 QString *error);

} // namespace paddock::runtime::docker

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

#include <termios.h>

// Descriptor-level helpers of the host's side of a session: whole writes, and the caller's
// terminal in raw mode while a session relays it.
namespace paddock::runtime::session {

/** Writes all of @p data to @p fd, again after an interrupted write; false when it cannot. */
bool writeAll(int fd, const char *data, size_t size);

/** As writeAll() on a socket, without a SIGPIPE when the peer has gone. */
bool sendAll(int fd, const char *data, size_t size);

/**
 * @brief Puts the terminal @p fd in raw mode while it lives, so every key reaches the session's
 * own terminal; nothing when @p fd is not a terminal.
 */
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

} // namespace paddock::runtime::session

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <unistd.h>

#include <utility>

namespace paddock {

/**
 * @brief Owns one file descriptor: closes it when destroyed or reset, moves but never copies.
 *
 * A descriptor leaked on an early return stays open in the daemon for its whole life, and one
 * closed twice may close another thread's freshly opened file: ownership in the type rules out
 * both.
 */
class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) noexcept : m_fd(fd) {}
    ~UniqueFd() { reset(); }

    UniqueFd(UniqueFd &&other) noexcept : m_fd(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    /** The descriptor, still owned here; -1 when there is none. */
    int get() const noexcept { return m_fd; }
    bool valid() const noexcept { return m_fd >= 0; }
    explicit operator bool() const noexcept { return valid(); }

    /** Gives the descriptor up without closing it; the caller owns it now. */
    [[nodiscard]] int release() noexcept { return std::exchange(m_fd, -1); }

    /** Closes the descriptor held (if any) and takes @p fd instead. */
    void reset(int fd = -1) noexcept
    {
        const int old = std::exchange(m_fd, fd);
        if (old >= 0 && old != fd)
            ::close(old);
    }

private:
    int m_fd = -1;
};

} // namespace paddock

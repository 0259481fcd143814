// SPDX-License-Identifier: GPL-3.0-or-later
//
// The session channel: how a client on the host (the CLI, the daemon) talks to paddock-init's
// session server inside a running sandbox, to attach a terminal to the agent, start a command,
// or ask how the agent is doing. Plain C++ with no Qt: paddock-init (static, libc only) and the
// host's client share this file.
//
// A connection carries frames: one byte of type, four bytes of payload length (big-endian),
// then the payload (at most kMaxPayload bytes). The first frame from the client is a Hello
// whose payload is a list of "key=value" fields, each ended by a NUL byte:
//
//   op=attach|spawn|status|watch   what the connection is for (required)
//   version=1                      the protocol the client speaks
//   token=T                        the sandbox's session token, where the server has one
//   arg=X (repeated)               spawn: the command; none with agent=1 means the agent's own
//   env=K=V (repeated)             spawn: added to the sandbox's environment
//   cwd=/path                      spawn: the working directory (default: the sandbox's)
//   user=0|UID|root|agent          spawn: who runs it (default: the agent's user)
//   tty=1                          spawn: give the command a terminal of its own
//   rows=N, cols=N                 the client's terminal size
//   agent=1                        spawn: this command becomes the agent session (when one
//                                  runs already, it runs beside it as a command instead)
//   start=1                        attach: start the agent first when it is not running
//   replay=1                       attach: send the agent's recent output first
//
// - attach joins the agent session: Ready, the agent's output as Output frames, Exit when it
//   ends. Closing the connection detaches; the agent keeps running.
// - spawn starts a session: Ready with its pid, Output/ErrorOutput, Exit with its status.
//   Closing the connection before the end hangs it up (SIGHUP to its process group).
// - status answers one Status frame; watch answers one now and another at every change.
// Every refusal is a Failure frame holding one sentence, after which the server closes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace paddock::session {

inline constexpr int kProtocolVersion = 1;
/** No frame is larger; a peer that announces more is dropped. */
inline constexpr uint32_t kMaxPayload = 1u << 20;
/** A Hello is small: a command line and an environment. */
inline constexpr uint32_t kMaxHello = 256u * 1024u;
inline constexpr size_t kHeaderSize = 5;

enum class FrameType : uint8_t {
    // client -> server
    Hello = 'H',
    Input = 'I',    ///< bytes for the session's terminal or standard input
    InputEnd = 'E', ///< standard input is finished (a terminal gets its end-of-file character)
    Window = 'W',   ///< "ROWS COLS": the client's terminal changed size
    Signal = 'S',   ///< "N": send signal N to the session's process group
    // server -> client
    Ready = 'R',       ///< fields: pid=N, session=agent|command
    Output = 'O',      ///< the terminal's output, or standard output
    ErrorOutput = 'e', ///< standard error (sessions without a terminal)
    Exit = 'X',        ///< "N": the exit status as a shell reports it (128 + signal)
    Failure = 'F',     ///< one sentence saying what was refused or failed
    Status = 'T',      ///< fields: agent=none|running|exited, pid, status, started, finished, sessions
};

/** @brief One decoded frame. */
struct Frame
{
    FrameType type = FrameType::Failure;
    std::string payload;
};

/** The bytes of one frame. */
inline std::string encodeFrame(FrameType type, std::string_view payload)
{
    std::string out;
    out.reserve(kHeaderSize + payload.size());
    out.push_back(char(type));
    const uint32_t size = uint32_t(payload.size());
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char((size >> shift) & 0xff));
    out.append(payload);
    return out;
}

/**
 * @brief Cuts a byte stream into frames. feed() what arrived; next() yields whole frames.
 * A frame larger than the limit puts the reader in error: the peer is not speaking this protocol.
 */
class FrameReader
{
public:
    explicit FrameReader(uint32_t limit = kMaxPayload) : m_limit(limit) {}

    void feed(const char *data, size_t size) { m_buffer.append(data, size); }
    void setLimit(uint32_t limit) { m_limit = limit; }
    bool failed() const { return m_failed; }
    /** Bytes received and not yet taken as frames. */
    size_t buffered() const { return m_buffer.size() - m_offset; }

    std::optional<Frame> next()
    {
        if (m_failed || buffered() < kHeaderSize)
            return std::nullopt;
        const unsigned char *head = reinterpret_cast<const unsigned char *>(m_buffer.data() + m_offset);
        const uint32_t size =
            (uint32_t(head[1]) << 24) | (uint32_t(head[2]) << 16) | (uint32_t(head[3]) << 8) | uint32_t(head[4]);
        if (size > m_limit) {
            m_failed = true;
            return std::nullopt;
        }
        if (buffered() < kHeaderSize + size)
            return std::nullopt;
        Frame frame{FrameType(head[0]), m_buffer.substr(m_offset + kHeaderSize, size)};
        m_offset += kHeaderSize + size;
        // Compact now and then rather than on every frame.
        if (m_offset > 64 * 1024 && m_offset * 2 > m_buffer.size()) {
            m_buffer.erase(0, m_offset);
            m_offset = 0;
        }
        return frame;
    }

private:
    std::string m_buffer;
    size_t m_offset = 0;
    uint32_t m_limit;
    bool m_failed = false;
};

/** @brief The "key=value\0" list of Hello, Ready and Status frames. Keys may repeat. */
class Fields
{
public:
    void add(std::string key, std::string value) { m_items.emplace_back(std::move(key), std::move(value)); }

    /** The first value of @p key, or @p fallback. */
    std::string get(std::string_view key, std::string fallback = {}) const
    {
        for (const auto &[k, v] : m_items) {
            if (k == key)
                return v;
        }
        return fallback;
    }
    bool has(std::string_view key) const
    {
        for (const auto &item : m_items) {
            if (item.first == key)
                return true;
        }
        return false;
    }
    bool flag(std::string_view key) const { return get(key) == "1"; }
    /** Every value of @p key, in order. */
    std::vector<std::string> all(std::string_view key) const
    {
        std::vector<std::string> values;
        for (const auto &[k, v] : m_items) {
            if (k == key)
                values.push_back(v);
        }
        return values;
    }
    /** A whole number, or @p fallback when absent or not a number. */
    long long number(std::string_view key, long long fallback) const
    {
        const std::string text = get(key);
        if (text.empty() || text.size() > 18)
            return fallback;
        long long value = 0;
        size_t i = text[0] == '-' ? 1 : 0;
        if (i == text.size())
            return fallback;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9')
                return fallback;
            value = value * 10 + (text[i] - '0');
        }
        return text[0] == '-' ? -value : value;
    }

    std::string encode() const
    {
        std::string out;
        for (const auto &[k, v] : m_items) {
            out.append(k);
            out.push_back('=');
            out.append(v);
            out.push_back('\0');
        }
        return out;
    }
    /** Parses @p payload; false when an entry has no '=' or the list is not NUL-terminated. */
    static bool decode(std::string_view payload, Fields *fields)
    {
        size_t start = 0;
        while (start < payload.size()) {
            const size_t end = payload.find('\0', start);
            if (end == std::string_view::npos)
                return false;
            const std::string_view item = payload.substr(start, end - start);
            const size_t equals = item.find('=');
            if (equals == std::string_view::npos || equals == 0)
                return false;
            fields->add(std::string(item.substr(0, equals)), std::string(item.substr(equals + 1)));
            start = end + 1;
        }
        return true;
    }

    const std::vector<std::pair<std::string, std::string>> &items() const { return m_items; }

private:
    std::vector<std::pair<std::string, std::string>> m_items;
};

} // namespace paddock::session

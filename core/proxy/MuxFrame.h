// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

// The framing of a sandbox's connections to the proxy carried over one byte stream, when the
// sandbox runs on a container engine of another computer: paddock-init's `--proxy-mux` inside
// accepts the connections, the daemon on the desktop joins each to the sandbox's proxy socket.
//
// A frame is a 9-byte head, then its payload:
//
//     type (1 byte) · stream id (4 bytes, big-endian) · payload length (4 bytes, big-endian)
//
// - Open (inside → desktop): a connection was accepted; its id is new and above every earlier one.
// - OpenPort (inside → desktop): the same, for a connection paddock-init's publisher made to the
//   ports socket (a published port: sandbox/PortForwarder.h); the desktop joins it to its own.
// - Data (either way): bytes of the stream, at most MaxPayload.
// - Close (either way): the stream ended; the side that gets it closes its end.
// - Credit (either way): a 4-byte count of the stream's bytes written out since the last credit.
//
// Flow control: each side may have at most Window bytes of a stream sent and not yet credited
// back, so the receiver never holds more than Window bytes of one stream. Either side treats
// anything else (an unknown type, a long payload, data past its credit, an id that is not open)
// as the end of the whole stream.
namespace paddock::proxy::mux {

enum class Type : std::uint8_t {
    Open = 1,
    Data = 2,
    Close = 3,
    Credit = 4,
    OpenPort = 5,
};

inline constexpr std::size_t HeadBytes = 9;
inline constexpr std::size_t MaxPayload = 64 * 1024;
inline constexpr std::size_t Window = 256 * 1024;
/** Streams open at once over one carrier; the inside refuses (closes) connections past it. */
inline constexpr std::size_t MaxStreams = 256;

struct Frame
{
    Type type = Type::Data;
    std::uint32_t id = 0;
    std::string_view payload; ///< points into the reader's buffer until the next feed
};

/** Appends one frame to @p out. */
void append(std::string &out, Type type, std::uint32_t id, std::string_view payload = {});
/** Appends a Credit frame of @p bytes. */
void appendCredit(std::string &out, std::uint32_t id, std::uint32_t bytes);
/** The count of a Credit frame's payload; false when it is not four bytes. */
bool creditOf(const Frame &frame, std::uint32_t *bytes);

/** @brief Frames out of a byte stream, within the bounds above. */
class Reader
{
public:
    enum class Next {
        Frame,    ///< @p frame is set
        NeedMore, ///< no whole frame buffered yet
        Broken,   ///< not this framing: the carrier is to be dropped
    };
    void feed(const char *data, std::size_t size) { m_buffer.append(data, size); }
    /** The next whole frame, valid until the next call of next() or feed(). */
    Next next(Frame *frame);

private:
    std::string m_buffer;
    std::size_t m_offset = 0;
};

} // namespace paddock::proxy::mux

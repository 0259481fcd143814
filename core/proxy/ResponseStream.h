// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/InjectStream.h"

#include <QString>

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace paddock::proxy::inject {

/**
 * The forms in which a credential set into a header as @p value (what replaced %s in the rule's
 * @p format) can come back: the value itself and, for HTTP Basic ("Basic %s"), the password
 * inside base64("user:password") as well.
 */
std::vector<std::string> credentialForms(std::string_view value, const QString &format);

/**
 * @brief The response side of one intercepted connection: takes every credential that went
 * upstream out of what comes back, in heads and bodies alike.
 *
 * An upstream that echoes request headers (an error page, a debugging endpoint, CORS, a request
 * id built from them) would otherwise hand the real key to the sandbox. Each occurrence is
 * overwritten in place by a mask of the same length made from the sentinel ("proxy-managed",
 * padded with '*' or cut to length). Same length, because then nothing about the framing
 * changes: Content-Length, chunk sizes and a stream that is passed on as it arrives all stay
 * right, where a shorter replacement would have to re-frame every message and hold whole bodies
 * back.
 *
 * Bytes are scanned twice: as the raw stream (heads, chunk framing, bodies) and, inside a chunked
 * body, as the body's content alone, so a key split by a chunk boundary is found too. Only the
 * bytes that could still be the start of a credential are held back; the rest goes on at once,
 * so streamed responses stay streamed. At the end of each message everything held goes out (the
 * next message cannot complete a key begun in this one). A key cut short by the upstream itself
 * is not a key and passes.
 */
class ResponseStream
{
public:
    explicit ResponseStream(std::size_t maxHeadBytes);
    ~ResponseStream();
    ResponseStream(const ResponseStream &) = delete;
    ResponseStream &operator=(const ResponseStream &) = delete;

    /** From now on @p secret is masked with @p sentinel in everything that comes back. */
    void addSecret(std::string_view secret, std::string_view sentinel);
    /** A request with @p method went upstream; its response comes in order (HEAD has no body). */
    void expectResponseTo(std::string method);

    /** Takes the next bytes from the upstream; appends what may go to the client now to @p out. */
    void feed(std::string_view data, std::string &out);
    /** The upstream ended: what was held back goes to @p out. */
    void finish(std::string &out);

    /** @brief One response that ended: its status and its bytes (head and body) as received. */
    struct Ended
    {
        int status = 0;
        std::uint64_t bytes = 0;
    };
    /** The responses that ended since the last call, in order (request records pair them). */
    std::vector<Ended> takeEnded() { return std::exchange(m_ended, {}); }

private:
    struct Needle
    {
        std::string text;
        std::string mask;
        std::vector<std::size_t> failure; ///< KMP: longest proper border of each prefix
    };

    /** Where one way of reading the stream stands in each needle, and what it holds back. */
    struct Scanner
    {
        std::vector<std::size_t> matched;  ///< per needle: bytes of it just seen
        std::deque<std::uint64_t> offsets; ///< stream offsets of the last bytes scanned
        void reset();
        std::size_t holding() const;
    };

    enum class State {
        Head,
        Length,
        Chunked,
        UntilClose
    };

    void startBody();
    void endMessage();
    void consume(std::string_view bytes, bool content);
    void scan(Scanner &scanner, std::string_view bytes);
    void step(Scanner &scanner, char c, std::uint64_t offset);
    void release(std::string &out);

    std::size_t m_maxHeadBytes;
    std::vector<Needle> m_needles;
    std::size_t m_longest = 0;
    std::array<bool, 256> m_isFirstByte{}; ///< whether a needle starts with the byte
    std::deque<std::string> m_methods;

    State m_state = State::Head;
    std::string m_head; ///< the head as received, to read its framing; wiped once read
    std::uint64_t m_remaining = 0;
    ChunkedTracker m_chunked;

    Scanner m_raw;
    Scanner m_content;
    std::string m_held;          ///< bytes received but not released, masks already applied
    std::uint64_t m_heldAt = 0;  ///< stream offset of m_held's first byte
    std::uint64_t m_scanned = 0; ///< stream offset of the next byte

    int m_status = 0;                 ///< the final status of the message being read; 0 before its head
    std::uint64_t m_messageBytes = 0; ///< bytes of it (interim answers included)
    std::vector<Ended> m_ended;
};

} // namespace paddock::proxy::inject

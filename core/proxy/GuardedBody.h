// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/SecretGuard.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace paddock::proxy::guard {

/** @brief A value the guard found in one request, for the event and the answer; no secret. */
struct Finding
{
    Value value;           ///< file and name; bytes empty
    bool redacted = false; ///< redact mode: replaced and forwarded
    bool cut = false;      ///< refuse mode: part of the body had gone upstream already
    bool inHead = false;   ///< found in the request line or a header
};

/**
 * @brief The guard on one request's body, between the request head and the end of the message.
 *
 * The head (already rewritten for injection) and the body are held until the message ends or
 * the bound given to begin() is passed. At the end: in refuse mode the message goes as it came
 * unless a value was found; in redact mode too when nothing was found, otherwise the body goes
 * redacted, with its Content-Length, or as a single chunk. A body larger than the bound streams
 * from then on: refuse mode forwards what it has scanned but for the last bytes a value could
 * start in (see GuardConfig::refuseHoldBytes), redact mode re-sends the body chunked (the head's
 * Content-Length replaced by Transfer-Encoding: chunked; trailers are dropped).
 */
class GuardedBody
{
public:
    GuardedBody() = default;
    ~GuardedBody();
    GuardedBody(const GuardedBody &) = delete;
    GuardedBody &operator=(const GuardedBody &) = delete;

    /** Starts a message whose body is chunked or @p chunked false (Content-Length). */
    void begin(std::string head, bool chunked, std::shared_ptr<const Patterns> patterns, Mode mode,
               std::size_t holdBytes);
    bool active() const { return m_active; }

    /** Body data (a chunk's data, or Content-Length bytes); false: a value was found (refuse). */
    bool data(std::string_view bytes, std::string &out);
    /** Chunked framing (sizes, CRLFs, trailers) as it came. */
    void framing(std::string_view bytes, std::string &out);
    /** The message ended; what is held goes to @p out. */
    void end(std::string &out);

    /** What was found in the message so far (refusal or redactions); cleared by take. */
    std::vector<Finding> takeFindings();

private:
    void overflow(std::string &out);
    /** Refuse mode, streaming: @p bytes of data after the scan, all but the last m_keep sent. */
    void forward(std::string_view bytes, std::string &out);
    /** How much of m_held may go: what leaves at least m_keep bytes of data held. */
    std::size_t releasable() const;
    /** The first @p count bytes of m_held to @p out. */
    void release(std::size_t count, std::string &out);
    void appendChunk(std::string_view data, std::string &out) const;
    void reset();

    bool m_active = false;
    bool m_streaming = false;
    bool m_chunked = false;
    Mode m_mode = Mode::Off;
    std::size_t m_holdBytes = 0;
    std::string m_head;
    std::string m_held;     ///< the body as it came, framing included; streaming: its part not sent
    std::size_t m_keep = 0; ///< refuse mode: data bytes held back while streaming
    struct Span
    {
        std::size_t offset;
        std::size_t length;
    };
    std::vector<Span> m_framing; ///< refuse mode: where chunk framing is in m_held
    std::string m_redacted;      ///< redact mode, while holding: the data with markers
    std::optional<Scanner> m_scanner;
    std::vector<Finding> m_findings;
};

/**
 * @p head (a complete request head) with its Content-Length and Transfer-Encoding replaced by
 * Content-Length: @p length, or by Transfer-Encoding: chunked when @p length is empty.
 */
std::string reframedHead(std::string_view head, std::optional<std::uint64_t> length);

} // namespace paddock::proxy::guard

// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/GuardedBody.h"

#include "proxy/HttpParser.h"

#include <openssl/crypto.h>

#include <cstdio>

namespace paddock::proxy::guard {
namespace {

void wipeString(std::string &bytes)
{
    if (!bytes.empty())
        OPENSSL_cleanse(bytes.data(), bytes.size());
    bytes.clear();
}

} // namespace

std::string reframedHead(std::string_view head, std::optional<std::uint64_t> length)
{
    std::string out;
    out.reserve(head.size() + 32);
    std::size_t at = 0;
    bool first = true;
    while (at < head.size()) {
        std::size_t eol = head.find("\r\n", at);
        if (eol == std::string_view::npos)
            eol = head.size();
        const std::string_view line = head.substr(at, eol - at);
        at = eol + 2;
        if (line.empty())
            break;
        if (!first) {
            const std::string_view name = line.substr(0, line.find(':'));
            if (http::equalsIgnoreCase(name, "content-length") || http::equalsIgnoreCase(name, "transfer-encoding"))
                continue;
        }
        first = false;
        out.append(line).append("\r\n");
    }
    if (length)
        out.append("Content-Length: ").append(std::to_string(*length)).append("\r\n");
    else
        out.append("Transfer-Encoding: chunked\r\n");
    out.append("\r\n");
    return out;
}

GuardedBody::~GuardedBody()
{
    reset();
}

void GuardedBody::reset()
{
    wipeString(m_head);
    wipeString(m_held);
    wipeString(m_redacted);
    m_framing.clear();
    m_scanner.reset();
    m_active = m_streaming = false;
}

void GuardedBody::begin(std::string head, bool chunked, std::shared_ptr<const Patterns> patterns, Mode mode,
                        std::size_t holdBytes)
{
    reset();
    m_head = std::move(head);
    m_chunked = chunked;
    m_mode = mode;
    m_holdBytes = holdBytes;
    m_keep = patterns && patterns->longestForm() > 0 ? patterns->longestForm() - 1 : 0;
    m_scanner.emplace(std::move(patterns));
    m_active = true;
}

void GuardedBody::appendChunk(std::string_view data, std::string &out) const
{
    if (data.empty())
        return;
    char size[24];
    const int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    out.append(size, std::size_t(n)).append(data).append("\r\n");
}

bool GuardedBody::data(std::string_view bytes, std::string &out)
{
    if (m_mode == Mode::Refuse) {
        if (m_scanner->scan(bytes)) {
            m_findings.push_back({*m_scanner->found(), false, m_streaming, false});
            reset();
            return false;
        }
        if (m_streaming)
            forward(bytes, out);
        else
            m_held.append(bytes);
    } else if (m_streaming) {
        std::string redacted;
        m_scanner->redact(bytes, redacted);
        appendChunk(redacted, out);
        wipeString(redacted);
    } else {
        m_held.append(bytes);
        m_scanner->redact(bytes, m_redacted);
    }
    if (!m_streaming && m_held.size() > m_holdBytes)
        overflow(out);
    return true;
}

void GuardedBody::framing(std::string_view bytes, std::string &out)
{
    if (m_mode == Mode::Refuse) {
        // Framing goes in its place among the data, after the data held back before it.
        if (!m_framing.empty() && m_framing.back().offset + m_framing.back().length == m_held.size())
            m_framing.back().length += bytes.size();
        else
            m_framing.push_back({m_held.size(), bytes.size()});
        m_held.append(bytes);
        if (m_streaming)
            release(releasable(), out);
    } else if (!m_streaming) {
        m_held.append(bytes);
    }
    // redact mode, streaming: the body is re-chunked, its own framing goes
}

void GuardedBody::forward(std::string_view bytes, std::string &out)
{
    if (m_framing.empty() && bytes.size() >= m_keep) { // a Content-Length body: no copy through m_held
        out.append(m_held).append(bytes.substr(0, bytes.size() - m_keep));
        wipeString(m_held);
        m_held.assign(bytes.substr(bytes.size() - m_keep));
        return;
    }
    m_held.append(bytes);
    release(releasable(), out);
}

std::size_t GuardedBody::releasable() const
{
    std::size_t need = m_keep;
    std::size_t at = m_held.size();
    for (auto span = m_framing.rbegin(); span != m_framing.rend(); ++span) {
        const std::size_t data = at - (span->offset + span->length);
        if (data >= need)
            return at - need;
        need -= data;
        at = span->offset;
    }
    return at > need ? at - need : 0;
}

void GuardedBody::release(std::size_t count, std::string &out)
{
    if (count == 0)
        return;
    out.append(m_held, 0, count);
    OPENSSL_cleanse(m_held.data(), count);
    m_held.erase(0, count);
    std::vector<Span> framing;
    for (const Span &span : m_framing) {
        if (span.offset + span.length <= count)
            continue;
        const std::size_t cut = span.offset < count ? count - span.offset : 0;
        framing.push_back({span.offset + cut - count, span.length - cut});
    }
    m_framing.swap(framing);
}

void GuardedBody::overflow(std::string &out)
{
    m_streaming = true;
    if (m_mode == Mode::Refuse) {
        out.append(m_head);
        wipeString(m_head);
        release(releasable(), out);
        return;
    }
    out.append(m_chunked ? m_head : reframedHead(m_head, std::nullopt));
    appendChunk(m_redacted, out);
    wipeString(m_head);
    wipeString(m_held);
    wipeString(m_redacted);
}

void GuardedBody::end(std::string &out)
{
    if (m_mode == Mode::Redact) {
        std::string tail;
        m_scanner->finishRedaction(tail);
        const bool changed = !m_scanner->redacted().empty();
        for (const std::uint16_t index : m_scanner->redacted())
            m_findings.push_back({m_scanner->valueAt(index), true, false, false});
        if (m_streaming) {
            appendChunk(tail, out);
            out.append("0\r\n\r\n");
        } else if (!changed) {
            out.append(m_head).append(m_held);
        } else {
            m_redacted.append(tail);
            if (m_chunked) {
                out.append(m_head);
                appendChunk(m_redacted, out);
                out.append("0\r\n\r\n");
            } else {
                out.append(reframedHead(m_head, m_redacted.size())).append(m_redacted);
            }
        }
        wipeString(tail);
    } else if (!m_streaming) {
        out.append(m_head).append(m_held);
    } else {
        out.append(m_held); // the bytes held back: the message is complete only now
    }
    reset();
}

std::vector<Finding> GuardedBody::takeFindings()
{
    std::vector<Finding> findings;
    findings.swap(m_findings);
    return findings;
}

} // namespace paddock::proxy::guard

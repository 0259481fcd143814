// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/ResponseStream.h"

#include "proxy/HttpParser.h"

#include <QByteArray>

#include <openssl/crypto.h>

#include <algorithm>
#include <charconv>

namespace paddock::proxy::inject {
namespace {

// "Basic %s" in any case: HTTP Basic, whose value is base64("user:password") (RFC 7617).
bool isBasicFormat(const QString &format)
{
    return format.trimmed().compare(QStringLiteral("Basic %s"), Qt::CaseInsensitive) == 0;
}

std::vector<std::size_t> failureFunction(const std::string &text)
{
    std::vector<std::size_t> failure(text.size(), 0);
    for (std::size_t i = 1, k = 0; i < text.size(); ++i) {
        while (k > 0 && text[i] != text[k])
            k = failure[k - 1];
        if (text[i] == text[k])
            ++k;
        failure[i] = k;
    }
    return failure;
}

// The sentinel cut or padded to @p length: what the sandbox already holds, recognisably.
std::string maskFor(std::string_view sentinel, std::size_t length)
{
    std::string mask(sentinel.substr(0, length));
    mask.resize(length, '*');
    return mask;
}

std::optional<std::uint64_t> contentLength(const http::ResponseHead &head, bool &invalid)
{
    std::optional<std::uint64_t> length;
    for (const http::Header &header : head.headers) {
        if (!http::equalsIgnoreCase(header.name, "content-length"))
            continue;
        std::uint64_t value = 0;
        const char *end = header.value.data() + header.value.size();
        const auto [at, ec] = std::from_chars(header.value.data(), end, value);
        if (ec != std::errc() || at != end || header.value.empty() || (length && *length != value))
            invalid = true;
        length = value;
    }
    return length;
}

} // namespace

std::vector<std::string> credentialForms(std::string_view value, const QString &format)
{
    std::vector<std::string> forms{std::string(value)};
    if (!isBasicFormat(format))
        return forms;
    auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromRawData(value.data(), qsizetype(value.size())),
                                                  QByteArray::AbortOnBase64DecodingErrors);
    const qsizetype colon = decoded.decoded.indexOf(':');
    if (decoded && colon >= 0 && colon + 1 < decoded.decoded.size())
        forms.emplace_back(decoded.decoded.constData() + colon + 1, std::size_t(decoded.decoded.size() - colon - 1));
    wipe(decoded.decoded);
    return forms;
}

ResponseStream::ResponseStream(std::size_t maxHeadBytes) : m_maxHeadBytes(maxHeadBytes) {}

ResponseStream::~ResponseStream()
{
    for (Needle &needle : m_needles)
        wipe(needle.text);
    wipe(m_head);
    wipe(m_held);
}

void ResponseStream::addSecret(std::string_view secret, std::string_view sentinel)
{
    if (secret.empty() ||
        std::any_of(m_needles.begin(), m_needles.end(), [&](const Needle &needle) { return needle.text == secret; }))
        return;
    Needle needle;
    needle.text = std::string(secret);
    needle.mask = maskFor(sentinel, secret.size());
    needle.failure = failureFunction(needle.text);
    m_longest = std::max(m_longest, secret.size());
    m_isFirstByte[static_cast<unsigned char>(secret.front())] = true;
    m_needles.push_back(std::move(needle));
    m_raw.matched.push_back(0);
    m_content.matched.push_back(0);
}

void ResponseStream::expectResponseTo(std::string method)
{
    m_methods.push_back(std::move(method));
}

void ResponseStream::Scanner::reset()
{
    std::fill(matched.begin(), matched.end(), 0);
    offsets.clear();
}

std::size_t ResponseStream::Scanner::holding() const
{
    return matched.empty() ? 0 : *std::max_element(matched.begin(), matched.end());
}

void ResponseStream::feed(std::string_view data, std::string &out)
{
    while (!data.empty()) {
        switch (m_state) {
        case State::Head: {
            // Only the head's own bytes here: what follows it is body, read by its framing.
            const std::size_t before = m_head.size();
            m_head.append(data.substr(0, std::min(data.size(), m_maxHeadBytes + 1 - before)));
            const std::size_t end = m_head.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
            std::size_t take = m_head.size() - before;
            if (end != std::string::npos) {
                take = end + 4 - before;
                OPENSSL_cleanse(m_head.data() + end + 4, m_head.size() - end - 4); // no copy of the body
                m_head.resize(end + 4);
            }
            consume(data.substr(0, take), false);
            data.remove_prefix(take);
            if (end != std::string::npos) {
                startBody();
            } else if (m_head.size() > m_maxHeadBytes) {
                wipe(m_head); // no head this stream can frame: its bytes are scanned as they come
                m_state = State::UntilClose;
            }
            break;
        }
        case State::Length: {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(m_remaining, data.size()));
            consume(data.substr(0, take), false);
            data.remove_prefix(take);
            m_remaining -= take;
            if (m_remaining == 0)
                endMessage();
            break;
        }
        case State::Chunked: {
            // Chunk data is scanned as one content across chunks; sizes and trailers as bytes.
            const std::uint64_t dataLeft = m_chunked.dataLeft();
            const std::size_t step = dataLeft > 0 ? std::size_t(std::min<std::uint64_t>(dataLeft, data.size())) : 1;
            const std::size_t used = m_chunked.consume(data.substr(0, step));
            if (m_chunked.failed()) {
                m_state = State::UntilClose;
                break;
            }
            consume(data.substr(0, used), dataLeft > 0);
            data.remove_prefix(used);
            if (m_chunked.done())
                endMessage();
            break;
        }
        case State::UntilClose:
            consume(data, false);
            data = {};
            break;
        }
    }
    release(out);
}

void ResponseStream::finish(std::string &out)
{
    if (m_status != 0)
        m_ended.push_back({std::exchange(m_status, 0), std::exchange(m_messageBytes, 0)});
    m_raw.reset();
    m_content.reset();
    release(out);
}

void ResponseStream::startBody()
{
    http::ResponseHead head;
    const http::ParseStatus status = http::parseResponseHead(m_head, m_maxHeadBytes, head);
    wipe(m_head);
    if (status != http::ParseStatus::Complete) {
        m_state = State::UntilClose;
        return;
    }
    if (head.status >= 200 || head.status == 101)
        m_status = head.status;
    if (head.status == 101) { // what follows is no longer HTTP
        m_state = State::UntilClose;
        return;
    }
    if (head.status < 200) // an interim answer; the final one follows for the same request
        return endMessage();
    const std::string method = m_methods.empty() ? std::string() : std::move(m_methods.front());
    if (!m_methods.empty())
        m_methods.pop_front();
    if (method == "HEAD" || head.status == 204 || head.status == 304)
        return endMessage();
    bool chunked = false;
    bool otherCoding = false;
    for (const http::Header &header : head.headers) {
        if (http::equalsIgnoreCase(header.name, "transfer-encoding")) {
            chunked = http::lastCodingIsChunked(header.value);
            otherCoding = !chunked;
        }
    }
    bool invalidLength = false;
    const std::optional<std::uint64_t> length = contentLength(head, invalidLength);
    if (chunked) {
        m_chunked = ChunkedTracker();
        m_content.reset();
        m_state = State::Chunked;
    } else if (otherCoding || invalidLength || !length) {
        m_state = State::UntilClose;
    } else if (*length > 0) {
        m_remaining = *length;
        m_state = State::Length;
    } else {
        endMessage();
    }
}

void ResponseStream::endMessage()
{
    // A key cannot run from one message into the next: what was held for one goes out now, so
    // the end of a response never waits for the start of another.
    m_raw.reset();
    m_content.reset();
    m_state = State::Head;
    if (m_status != 0)
        m_ended.push_back({std::exchange(m_status, 0), std::exchange(m_messageBytes, 0)});
}

void ResponseStream::consume(std::string_view bytes, bool content)
{
    m_messageBytes += bytes.size();
    m_held.append(bytes);
    if (m_needles.empty()) {
        m_scanned += bytes.size();
        return;
    }
    scan(m_raw, bytes);
    if (content)
        scan(m_content, bytes);
    m_scanned += bytes.size();
}

void ResponseStream::scan(Scanner &scanner, std::string_view bytes)
{
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        // Outside any partial match only a needle's first byte matters: skip to the next one.
        if (scanner.holding() == 0) {
            while (i < bytes.size() && !m_isFirstByte[static_cast<unsigned char>(bytes[i])])
                ++i;
            if (i == bytes.size())
                return;
        }
        step(scanner, bytes[i], m_scanned + i);
    }
}

void ResponseStream::step(Scanner &scanner, char c, std::uint64_t offset)
{
    scanner.offsets.push_back(offset);
    if (scanner.offsets.size() > m_longest)
        scanner.offsets.pop_front();
    for (std::size_t i = 0; i < m_needles.size(); ++i) {
        const Needle &needle = m_needles[i];
        std::size_t k = scanner.matched[i];
        while (k > 0 && needle.text[k] != c)
            k = needle.failure[k - 1];
        if (needle.text[k] == c)
            ++k;
        if (k == needle.text.size()) {
            // Every byte of the occurrence is still held: it could be a key's start until now.
            const std::size_t first = scanner.offsets.size() - k;
            for (std::size_t j = 0; j < k; ++j)
                m_held[std::size_t(scanner.offsets[first + j] - m_heldAt)] = needle.mask[j];
            k = needle.failure[k - 1];
        }
        scanner.matched[i] = k;
    }
}

void ResponseStream::release(std::string &out)
{
    std::uint64_t until = m_scanned;
    for (const Scanner *scanner : {&m_raw, &m_content}) {
        const std::size_t holding = std::min(scanner->holding(), scanner->offsets.size());
        if (holding > 0)
            until = std::min(until, scanner->offsets[scanner->offsets.size() - holding]);
    }
    const std::size_t count = std::size_t(until - m_heldAt);
    if (count == 0)
        return;
    out.append(m_held, 0, count);
    m_held.erase(0, count);
    m_heldAt = until;
}

} // namespace paddock::proxy::inject

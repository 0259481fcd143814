// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/InjectStream.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <charconv>

namespace paddock::proxy::inject {
namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// A chunk-size line with extensions, and each trailer line, stay far below this.
constexpr std::size_t MaxControlLine = 4096;

// Replaces every occurrence of @p from in @p text by @p to; true when there was one.
bool replaceAll(std::string &text, std::string_view from, std::string_view to)
{
    if (from.empty())
        return false;
    bool replaced = false;
    std::string result;
    std::size_t start = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, start)) {
        result.append(text, start, at - start);
        result.append(to);
        start = at + from.size();
        replaced = true;
    }
    if (!replaced)
        return false;
    result.append(text, start);
    wipe(text);
    text.swap(result);
    return true;
}

// The message's host: the absolute target's authority when there is one, otherwise Host.
std::optional<std::string> requestHost(const http::RequestHead &head, std::string &problem)
{
    const http::Header *host = nullptr;
    for (const http::Header &header : head.headers) {
        if (!equalsIgnoreCase(header.name, "host"))
            continue;
        if (host) {
            problem = "more than one Host header";
            return std::nullopt;
        }
        host = &header;
    }
    std::optional<http::Authority> fromHeader;
    if (host) {
        fromHeader = http::parseAuthority(host->value, 443);
        if (!fromHeader) {
            problem = "invalid Host header";
            return std::nullopt;
        }
    }
    std::string_view target = head.target;
    for (std::string_view scheme : {"https://", "http://"}) {
        if (target.size() > scheme.size() && equalsIgnoreCase(target.substr(0, scheme.size()), scheme)) {
            target.remove_prefix(scheme.size());
            const auto authority = http::parseAuthority(target.substr(0, target.find_first_of("/?#")), 443);
            if (!authority || (fromHeader && fromHeader->host != authority->host)) {
                problem = "the Host header does not match the request target";
                return std::nullopt;
            }
            return authority->host;
        }
    }
    if (!fromHeader) {
        if (head.minorVersion >= 1) {
            problem = "no Host header";
            return std::nullopt;
        }
        return std::string(); // HTTP/1.0 without Host: no host, so no credential
    }
    return fromHeader->host;
}

// A pasted key often ends with a newline: surrounding whitespace goes. Any other control
// character would let the secret end the header and start another, so it is refused.
bool usableSecret(QByteArray &secret)
{
    qsizetype begin = 0;
    qsizetype end = secret.size();
    while (begin < end &&
           (secret[begin] == ' ' || secret[begin] == '\t' || secret[begin] == '\r' || secret[begin] == '\n'))
        ++begin;
    while (end > begin &&
           (secret[end - 1] == ' ' || secret[end - 1] == '\t' || secret[end - 1] == '\r' || secret[end - 1] == '\n'))
        --end;
    if (begin > 0 || end < secret.size()) {
        QByteArray trimmed(secret.constData() + begin, end - begin);
        wipe(secret);
        secret = std::move(trimmed);
    }
    return !secret.isEmpty() && std::none_of(secret.begin(), secret.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

} // namespace

bool domainMatches(const QString &domain, std::string_view host)
{
    const std::string pattern = domain.toLower().toStdString();
    if (pattern.rfind("*.", 0) == 0) {
        const std::string_view suffix = std::string_view(pattern).substr(1); // ".example.com"
        return host.size() > suffix.size() && host.substr(host.size() - suffix.size()) == suffix;
    }
    return !pattern.empty() && host == pattern;
}

void wipe(std::string &bytes)
{
    if (!bytes.empty())
        OPENSSL_cleanse(bytes.data(), bytes.size());
    bytes.clear();
}

void wipe(QByteArray &bytes)
{
    if (!bytes.isEmpty())
        OPENSSL_cleanse(bytes.data(), std::size_t(bytes.size()));
    bytes.clear();
}

std::size_t ChunkedTracker::consume(std::string_view data)
{
    std::size_t used = 0;
    while (used < data.size() && m_state != State::Done && m_state != State::Failed) {
        const char c = data[used];
        switch (m_state) {
        case State::Size:
            if (const int digit = hexValue(c); digit >= 0) {
                if (++m_digits > 15) { // 2^60 bytes: no real body, and no overflow
                    m_state = State::Failed;
                    return 0;
                }
                m_remaining = m_remaining * 16 + std::uint64_t(digit);
            } else if (m_digits > 0 && (c == ';' || c == ' ' || c == '\t')) {
                m_state = State::Extension;
            } else if (m_digits > 0 && c == '\r') {
                m_state = State::SizeLf;
            } else {
                m_state = State::Failed;
                return 0;
            }
            break;
        case State::Extension:
            if (c == '\r')
                m_state = State::SizeLf;
            else if (c == '\n' || ++m_lineBytes > MaxControlLine)
                m_state = State::Failed;
            break;
        case State::SizeLf:
            if (c != '\n') {
                m_state = State::Failed;
                return 0;
            }
            m_digits = 0;
            m_lineBytes = 0;
            m_state = m_remaining == 0 ? State::TrailerStart : State::Data;
            break;
        case State::Data: {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(m_remaining, data.size() - used));
            m_remaining -= take;
            used += take;
            if (m_remaining == 0)
                m_state = State::DataCr;
            continue;
        }
        case State::DataCr:
            m_state = c == '\r' ? State::DataLf : State::Failed;
            break;
        case State::DataLf:
            m_state = c == '\n' ? State::Size : State::Failed;
            break;
        case State::TrailerStart: // an empty line ends the message; anything else is a trailer field
            m_state = c == '\r' ? State::LastLf : State::TrailerLine;
            m_lineBytes = 0;
            break;
        case State::TrailerLine:
            if (c == '\r')
                m_state = State::TrailerLf;
            else if (c == '\n' || ++m_lineBytes > MaxControlLine)
                m_state = State::Failed;
            break;
        case State::TrailerLf:
            m_state = c == '\n' ? State::TrailerStart : State::Failed;
            break;
        case State::LastLf:
            m_state = c == '\n' ? State::Done : State::Failed;
            break;
        case State::Done:
        case State::Failed:
            break;
        }
        if (m_state == State::Failed)
            return 0;
        ++used;
    }
    return used;
}

RequestStream::RequestStream(std::string tunnelHost, const std::vector<InjectRule> *rules, std::size_t maxHeadBytes)
    : m_tunnelHost(std::move(tunnelHost)), m_rules(rules), m_maxHeadBytes(maxHeadBytes)
{}

RequestStream::~RequestStream()
{
    wipe(m_head);
}

bool RequestStream::fail(int status, std::string reason)
{
    m_error = {status, std::move(reason)};
    return false;
}

bool RequestStream::feed(std::string_view data, std::string &out, std::vector<RequestNote> &notes)
{
    std::string carry;
    while (!data.empty()) {
        switch (m_state) {
        case State::Head: {
            m_head.append(data);
            data = {};
            // Heads without a body may follow each other (pipelining); each is forwarded in turn.
            while (m_state == State::Head && !m_head.empty()) {
                const std::size_t before = m_head.size();
                if (!startMessage(out, notes))
                    return false;
                if (m_head.size() == before)
                    return true; // incomplete: wait for more
            }
            // A body (or an upgraded stream) starts: what follows the head goes through the
            // body states from carry, which keeps the bytes alive while data points into them.
            carry.swap(m_head);
            m_head.clear();
            data = carry;
            break;
        }
        case State::Length: {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(m_remaining, data.size()));
            out.append(data.substr(0, take));
            data.remove_prefix(take);
            m_remaining -= take;
            if (m_remaining == 0)
                m_state = State::Head;
            break;
        }
        case State::Chunked: {
            const std::size_t take = m_chunked.consume(data);
            if (m_chunked.failed())
                return fail(400, "invalid chunked request body");
            out.append(data.substr(0, take));
            data.remove_prefix(take);
            if (m_chunked.done())
                m_state = State::Head;
            break;
        }
        case State::Raw:
            out.append(data);
            data = {};
            break;
        }
    }
    return true;
}

bool RequestStream::startMessage(std::string &out, std::vector<RequestNote> &notes)
{
    http::RequestHead head;
    switch (http::parseRequestHead(m_head, m_maxHeadBytes, head)) {
    case http::ParseStatus::Incomplete:
        return true;
    case http::ParseStatus::TooLarge:
        return fail(431, "the request head is larger than " + std::to_string(m_maxHeadBytes) + " bytes");
    case http::ParseStatus::Invalid:
        return fail(400, "malformed request head");
    case http::ParseStatus::Complete:
        break;
    }
    std::string problem;
    const std::optional<std::string> host = requestHost(head, problem);
    if (!host)
        return fail(400, problem);

    // Framing, strictly: a request with both lengths, or a coding that does not end in chunked,
    // could be read differently by the upstream, and the next head would be misplaced.
    bool chunked = false;
    bool hasTransferEncoding = false;
    std::optional<std::uint64_t> length;
    bool upgrade = false;
    for (const http::Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "transfer-encoding")) {
            hasTransferEncoding = true;
            std::string_view value = header.value;
            const std::size_t comma = value.rfind(',');
            if (comma != std::string_view::npos)
                value.remove_prefix(comma + 1);
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
                value.remove_prefix(1);
            chunked = equalsIgnoreCase(value, "chunked");
        } else if (equalsIgnoreCase(header.name, "content-length")) {
            std::uint64_t value = 0;
            const auto [end, ec] =
                std::from_chars(header.value.data(), header.value.data() + header.value.size(), value);
            if (ec != std::errc() || end != header.value.data() + header.value.size() || header.value.empty() ||
                (length && *length != value))
                return fail(400, "invalid Content-Length");
            length = value;
        } else if (equalsIgnoreCase(header.name, "upgrade")) {
            upgrade = true;
        }
    }
    if (hasTransferEncoding && (length || !chunked))
        return fail(400, "ambiguous request body framing");

    // Which rules apply: the request goes to the tunnel's host, so only that host's credential
    // may be added, whatever the Host header says.
    std::vector<const InjectRule *> rules;
    if (!host->empty() && *host == m_tunnelHost && m_rules) {
        for (const InjectRule &rule : *m_rules) {
            if (domainMatches(rule.domain, *host))
                rules.push_back(&rule);
        }
    }

    RequestNote note;
    note.host = *host;
    note.method = head.method;
    std::string rewritten;
    rewritten.reserve(head.size + 256);
    rewritten.append(m_head, 0, m_head.find("\r\n") + 2); // the request line, as sent
    std::vector<QByteArray> secrets;
    secrets.reserve(rules.size());
    bool ok = true;
    for (const InjectRule *rule : rules) {
        QByteArray secret = rule->secret ? rule->secret() : QByteArray();
        if (ok && !usableSecret(secret)) {
            ok = false;
            m_error = {503, secret.isEmpty() ? "the credential for " + rule->domain.toStdString() + " is not available"
                                             : "the credential for " + rule->domain.toStdString() +
                                                   " contains characters a header cannot carry"};
        }
        secrets.push_back(std::move(secret));
    }
    if (ok) {
        for (const http::Header &header : head.headers) {
            const bool replaced = std::any_of(rules.begin(), rules.end(), [&](const InjectRule *rule) {
                return !rule->header.isEmpty() && equalsIgnoreCase(header.name, rule->header.toStdString());
            });
            if (replaced)
                continue;
            std::string value = header.value;
            for (std::size_t i = 0; i < rules.size(); ++i) {
                if (replaceAll(value, rules[i]->sentinel.toStdString(),
                               std::string_view(secrets[i].constData(), std::size_t(secrets[i].size()))))
                    note.sentinelReplaced = true;
            }
            rewritten.append(header.name).append(": ").append(value).append("\r\n");
            wipe(value);
        }
        for (std::size_t i = 0; i < rules.size(); ++i) {
            const InjectRule &rule = *rules[i];
            if (rule.header.isEmpty())
                continue;
            const std::string format = rule.format.toStdString();
            const std::size_t slot = format.find("%s");
            rewritten.append(rule.header.toStdString()).append(": ");
            rewritten.append(format, 0, slot);
            if (slot != std::string::npos) {
                rewritten.append(secrets[i].constData(), std::size_t(secrets[i].size()));
                rewritten.append(format, slot + 2);
            }
            rewritten.append("\r\n");
            note.injectedHeaders.push_back(rule.header);
            note.ruleDomain = rule.domain;
        }
        if (note.ruleDomain.isEmpty() && note.sentinelReplaced)
            note.ruleDomain = rules.front()->domain;
        rewritten.append("\r\n");
    }
    for (QByteArray &secret : secrets)
        wipe(secret);
    if (!ok) {
        wipe(rewritten);
        return false;
    }
    if (rules.empty()) {
        wipe(rewritten);
        out.append(m_head, 0, head.size); // not ours to touch: the head goes as it came
    } else {
        out.append(rewritten);
        wipe(rewritten);
    }
    m_head.erase(0, head.size);
    notes.push_back(std::move(note));

    if (upgrade) {
        m_state = State::Raw;
    } else if (chunked) {
        m_chunked = ChunkedTracker();
        m_state = State::Chunked;
    } else if (length.value_or(0) > 0) {
        m_remaining = *length;
        m_state = State::Length;
    } else {
        m_state = State::Head;
    }
    return true;
}

} // namespace paddock::proxy::inject

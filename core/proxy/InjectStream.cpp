// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/InjectStream.h"

#include "proxy/ResponseStream.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <charconv>

namespace paddock::proxy::inject {
namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

using http::equalsIgnoreCase;

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = lower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// A body whose placeholders are replaced is held up to this, then re-sent chunked.
constexpr std::size_t kPlaceholderHoldBytes = 8 * 1024 * 1024;

// A chunk-size line with extensions, and each trailer line, stay far below this.
constexpr std::size_t MaxControlLine = 4096;

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

struct Framing
{
    bool chunked = false;
    std::optional<std::uint64_t> length;
    bool upgrade = false;
};

// Framing, strictly: a request with both lengths, or a coding that does not end in chunked, could
// be read differently by the upstream, and the next head would be misplaced.
bool readFraming(const http::RequestHead &head, Framing &framing, std::string &problem)
{
    bool hasTransferEncoding = false;
    for (const http::Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "transfer-encoding")) {
            hasTransferEncoding = true;
            framing.chunked = http::lastCodingIsChunked(header.value);
        } else if (equalsIgnoreCase(header.name, "content-length")) {
            std::uint64_t value = 0;
            const char *end = header.value.data() + header.value.size();
            const auto [at, ec] = std::from_chars(header.value.data(), end, value);
            if (ec != std::errc() || at != end || header.value.empty() ||
                (framing.length && *framing.length != value)) {
                problem = "invalid Content-Length";
                return false;
            }
            framing.length = value;
        } else if (equalsIgnoreCase(header.name, "upgrade")) {
            framing.upgrade = true;
        }
    }
    if (hasTransferEncoding && (framing.length || !framing.chunked)) {
        problem = "ambiguous request body framing";
        return false;
    }
    return true;
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

RequestStream::RequestStream(std::string tunnelHost, const std::vector<InjectRule> *rules, std::size_t maxHeadBytes,
                             ResponseStream *responses)
    : m_tunnelHost(std::move(tunnelHost)), m_rules(rules), m_maxHeadBytes(maxHeadBytes), m_responses(responses)
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
            if (!bodyData(data.substr(0, take), out))
                return false;
            data.remove_prefix(take);
            m_remaining -= take;
            if (m_remaining == 0) {
                if (m_placeholders.active())
                    m_placeholders.end(out);
                else if (m_body.active())
                    m_body.end(out);
                m_state = State::Head;
            }
            break;
        }
        case State::Chunked: {
            if (m_body.active() || m_placeholders.active()) {
                if (!feedGuardedChunks(data, out))
                    return false;
                break;
            }
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

bool RequestStream::failGuard(guard::Finding finding)
{
    const std::string what = finding.value.name.toStdString() + " from " + finding.value.file.toStdString();
    m_guardRefusal = std::move(finding);
    return fail(403, "the request contains the value of " + what);
}

bool RequestStream::feedGuardedChunks(std::string_view &data, std::string &out)
{
    while (!data.empty() && !m_chunked.done()) {
        if (const std::uint64_t left = m_chunked.dataLeft(); left > 0) {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(left, data.size()));
            m_chunked.consume(data.substr(0, take));
            if (!bodyData(data.substr(0, take), out))
                return false;
            data.remove_prefix(take);
            continue;
        }
        // Framing, a byte at a time: sizes and CRLFs are a few bytes a chunk.
        if (m_chunked.consume(data.substr(0, 1)) != 1 || m_chunked.failed())
            return fail(400, "invalid chunked request body");
        if (!m_placeholders.active()) // a rewritten body is framed anew
            m_body.framing(data.substr(0, 1), out);
        data.remove_prefix(1);
    }
    if (m_chunked.done()) {
        if (m_placeholders.active())
            m_placeholders.end(out);
        else
            m_body.end(out);
        m_state = State::Head;
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
    Framing framing;
    if (!readFraming(head, framing, problem))
        return fail(400, problem);

    RequestNote note;
    note.host = *host;
    note.method = head.method;
    note.target = head.target;
    if (m_check) {
        RequestVerdict verdict = m_check(head.method, head.target);
        note.rule = verdict.rule;
        if (!verdict.allowed) {
            note.refused = true;
            notes.push_back(std::move(note));
            m_refusal = std::move(verdict);
            return fail(403, m_refusal->reason);
        }
    }
    guard::GuardState guardState;
    if (m_guard && m_guard->current)
        guardState = m_guard->current();
    std::shared_ptr<const guard::Patterns> patterns =
        guardState.mode != guard::Mode::Off ? std::move(guardState.patterns) : nullptr;
    if (patterns && !patterns->empty()) {
        // What the client sent, before any credential is set: the injected key is not its.
        guard::Scanner scanner(patterns);
        if (scanner.scan(std::string_view(m_head).substr(0, head.size))) {
            note.refused = true;
            notes.push_back(std::move(note));
            return failGuard({*scanner.found(), false, false, true});
        }
    }
    const bool hasBody = !framing.upgrade && (framing.chunked || framing.length.value_or(0) > 0);
    const bool guardBody = patterns && !patterns->empty() && hasBody;
    std::string guardedHead;
    std::string &headOut = guardBody ? guardedHead : out;
    if (!writeHead(head, *host, hasBody, headOut, note))
        return false;
    m_placeholderScan.reset();
    if (guardBody && m_placeholders.active()) // the rewritten body is scanned as it came, to refuse
        m_placeholderScan.emplace(std::move(patterns));
    else if (guardBody)
        m_body.begin(std::move(guardedHead), framing.chunked, std::move(patterns), guardState.mode,
                     guardState.mode == guard::Mode::Refuse ? m_guard->refuseHoldBytes : m_guard->holdBytes);
    if (m_responses)
        m_responses->expectResponseTo(head.method);
    m_head.erase(0, head.size);
    notes.push_back(std::move(note));

    if (framing.upgrade) {
        m_state = State::Raw;
    } else if (framing.chunked) {
        m_chunked = ChunkedTracker();
        m_state = State::Chunked;
    } else if (framing.length.value_or(0) > 0) {
        m_remaining = *framing.length;
        m_state = State::Length;
    } else {
        m_state = State::Head;
    }
    return true;
}

std::vector<const InjectRule *> RequestStream::rulesFor(const std::string &host) const
{
    // The request goes to the tunnel's host, so only that host's credential may be added,
    // whatever the Host header says.
    std::vector<const InjectRule *> rules;
    if (host.empty() || host != m_tunnelHost || !m_rules)
        return rules;
    for (const InjectRule &rule : *m_rules) {
        if ((!rule.header.isEmpty() || !rule.placeholder.empty()) && domainMatches(rule.domain, host))
            rules.push_back(&rule);
    }
    return rules;
}

bool RequestStream::bodyData(std::string_view data, std::string &out)
{
    if (m_placeholders.active()) {
        if (m_placeholderScan && m_placeholderScan->scan(data))
            return failGuard({*m_placeholderScan->found(), false, false, false});
        m_placeholders.data(data, out);
        return true;
    }
    if (!m_body.active()) {
        out.append(data);
        return true;
    }
    if (!m_body.data(data, out))
        return failGuard(m_body.takeFindings().front());
    return true;
}

bool RequestStream::writeHead(const http::RequestHead &head, const std::string &host, bool hasBody, std::string &out,
                              RequestNote &note)
{
    if (m_rules)
        note.placeholdersElsewhere =
            placeholdersElsewhere(std::string_view(m_head).substr(0, head.size), *m_rules, host);
    std::vector<const InjectRule *> credentials;
    std::vector<const InjectRule *> placeholders;
    for (const InjectRule *rule : rulesFor(host))
        (rule->placeholder.empty() ? credentials : placeholders).push_back(rule);
    if (credentials.empty() && placeholders.empty()) {
        out.append(m_head, 0, head.size); // not ours to touch: the head goes as it came
        return true;
    }
    std::string written;
    if (credentials.empty())
        written.assign(m_head, 0, head.size);
    else if (!writeWithCredentials(head, credentials, written, note))
        return false;
    std::vector<Replacement> replacements;
    if (!readReplacements(placeholders, replacements)) {
        wipe(written);
        return false;
    }
    replaceInHead(written, placeholders, replacements, note.placeholdersReplaced);
    const bool rewriteBody =
        hasBody && replaceableBody(head) &&
        std::any_of(replacements.begin(), replacements.end(), [](const Replacement &r) { return r.body; });
    if (rewriteBody) {
        for (const InjectRule *rule : placeholders) {
            if (rule->body && !note.placeholdersReplaced.contains(rule->credential))
                note.placeholdersReplaced << rule->credential;
        }
        m_placeholders.begin(std::move(written), std::move(replacements), kPlaceholderHoldBytes);
        return true;
    }
    wipe(replacements);
    out.append(written);
    wipe(written);
    return true;
}

bool RequestStream::readReplacements(const std::vector<const InjectRule *> &rules,
                                     std::vector<Replacement> &replacements)
{
    for (const InjectRule *rule : rules) {
        QByteArray value = rule->secret ? rule->secret() : QByteArray();
        if (!usableSecret(value)) {
            m_error = {503, value.isEmpty()
                                ? "the custom secret " + rule->credential.toStdString() + " is not available"
                                : "the custom secret " + rule->credential.toStdString() +
                                      " contains characters a header cannot carry"};
            wipe(value);
            wipe(replacements);
            return false;
        }
        replacements.push_back(
            {rule->placeholder, std::string(value.constData(), std::size_t(value.size())), rule->body});
        if (m_responses)
            m_responses->addSecret(replacements.back().value, rule->sentinel.toStdString());
        wipe(value);
    }
    return true;
}

bool RequestStream::writeWithCredentials(const http::RequestHead &head, const std::vector<const InjectRule *> &rules,
                                         std::string &out, RequestNote &note)
{
    std::vector<QByteArray> secrets;
    const auto wipeSecrets = [&secrets] {
        for (QByteArray &secret : secrets)
            wipe(secret);
    };
    for (const InjectRule *rule : rules) {
        secrets.push_back(rule->secret ? rule->secret() : QByteArray());
        if (!usableSecret(secrets.back())) {
            const std::string domain = rule->domain.toStdString();
            m_error = {503, secrets.back().isEmpty()
                                ? "the credential for " + domain + " is not available"
                                : "the credential for " + domain + " contains characters a header cannot carry"};
            wipeSecrets();
            return false;
        }
    }
    std::string rewritten;
    rewritten.reserve(head.size + 256);
    rewritten.append(m_head, 0, m_head.find("\r\n") + 2); // the request line, as sent
    // Every other header exactly as the client sent it: a sentinel anywhere else stays the
    // sentinel, so no header an upstream might echo back (CORS, errors, request ids) holds the key.
    for (const http::Header &header : head.headers) {
        const bool set = std::any_of(rules.begin(), rules.end(), [&](const InjectRule *rule) {
            return http::equalsIgnoreCase(header.name, rule->header.toStdString());
        });
        if (!set)
            rewritten.append(header.name).append(": ").append(header.value).append("\r\n");
    }
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const InjectRule &rule = *rules[i];
        const std::string_view secret(secrets[i].constData(), std::size_t(secrets[i].size()));
        const std::string format = rule.format.toStdString();
        const std::size_t slot = format.find("%s");
        rewritten.append(rule.header.toStdString()).append(": ").append(format, 0, slot);
        if (slot != std::string::npos)
            rewritten.append(secret).append(format, slot + 2);
        rewritten.append("\r\n");
        note.injectedHeaders.push_back(rule.header);
        note.ruleDomain = rule.domain;
        if (m_responses) {
            for (std::string &form : credentialForms(secret, rule.format)) {
                m_responses->addSecret(form, rule.sentinel.toStdString());
                wipe(form);
            }
        }
    }
    rewritten.append("\r\n");
    wipeSecrets();
    out.append(rewritten);
    wipe(rewritten);
    return true;
}

} // namespace paddock::proxy::inject

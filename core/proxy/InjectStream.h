// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/GuardedBody.h"
#include "proxy/HttpParser.h"
#include "proxy/InterceptionConfig.h"
#include "proxy/Placeholders.h"

#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * Header injection on the decrypted byte stream from a sandbox: every request head is found,
 * rewritten and passed on; bodies pass through as they arrive. Pure (no sockets), so tests and
 * a fuzzer can drive exactly what the intercepted connection runs.
 */
namespace paddock::proxy::inject {

class ResponseStream;

/** Whether @p host (lower case) is covered by @p domain ("api.x.com" or "*.x.com"). */
bool domainMatches(const QString &domain, std::string_view host);

/** Overwrites @p bytes with zeros in a way the compiler keeps. */
void wipe(std::string &bytes);
void wipe(QByteArray &bytes);

/**
 * @brief Follows a chunked body byte by byte through sizes, data, CRLFs and trailers, so the
 * end of the message is known without holding the body.
 */
class ChunkedTracker
{
public:
    /** How many bytes at the start of @p data belong to the body; 0 with failed() on bad framing. */
    std::size_t consume(std::string_view data);
    bool done() const { return m_state == State::Done; }
    /** Inside a chunk's data: how many of its bytes are still to come; 0 anywhere else. */
    std::uint64_t dataLeft() const { return m_state == State::Data ? m_remaining : 0; }
    bool failed() const { return m_state == State::Failed; }

private:
    enum class State {
        Size,
        Extension,
        SizeLf,
        Data,
        DataCr,
        DataLf,
        TrailerStart,
        TrailerLine,
        TrailerLf,
        LastLf,
        Done,
        Failed
    };
    State m_state = State::Size;
    std::uint64_t m_remaining = 0;
    int m_digits = 0;
    std::size_t m_lineBytes = 0;
};

/** @brief What happened to one request head; carries no header values. */
struct RequestNote
{
    std::string host; ///< from the Host header (or the absolute target)
    std::string method;
    QStringList injectedHeaders; ///< names set from a rule
    QString ruleDomain;          ///< the rule's domain when injected
    std::string target;          ///< the request target as sent; records keep only its redacted form
    /** The policy's answer when RequestStream::setCheck() is used; empty rule otherwise. */
    std::string rule;
    bool refused = false;              ///< the check refused it: it did not go upstream
    QStringList placeholdersReplaced;  ///< custom secrets whose placeholder was replaced
    QStringList placeholdersElsewhere; ///< custom secrets whose placeholder went to a host not theirs
};

/** @brief The policy's answer for one request (RequestStream::setCheck()); carries no secret. */
struct RequestVerdict
{
    bool allowed = true;
    std::string rule;   ///< the rule that decided
    std::string reason; ///< one sentence, for a refusal
    std::string fix;    ///< the command that would allow it, for a refusal
};

/** Decides one request from its method and target (origin-form, as sent). Thread-safe. */
using RequestCheck = std::function<RequestVerdict(const std::string &method, const std::string &target)>;

/**
 * @brief The request side of one intercepted connection.
 *
 * Requests whose host (Host header, or the target in absolute form) is the tunnel's host and
 * matches a rule get the rule's header set (any earlier value of it removed). That header is the
 * only place the key goes: every other header, and the body, keeps what the client sent, a
 * sentinel included, since an upstream may echo any of them back. Any other request passes
 * unchanged. After a request that asks for an Upgrade the stream is passed through as is: what
 * follows is no longer HTTP.
 */
class RequestStream
{
public:
    /**
     * @p responses, when given, learns each request's method and every credential set, so that it
     * can take the credential out of what comes back.
     */
    RequestStream(std::string tunnelHost, const std::vector<InjectRule> *rules, std::size_t maxHeadBytes,
                  ResponseStream *responses = nullptr);
    ~RequestStream();
    RequestStream(const RequestStream &) = delete;
    RequestStream &operator=(const RequestStream &) = delete;

    /**
     * Takes the next bytes from the client and appends what goes upstream to @p out; one note
     * per request head completed. False when the stream cannot be forwarded: see error().
     */
    bool feed(std::string_view data, std::string &out, std::vector<RequestNote> &notes);

    /** From now on every request head is decided by @p check first; a refused one is not forwarded. */
    void setCheck(RequestCheck check) { m_check = std::move(check); }
    /**
     * From now on every request is looked through for the known secret values of @p guard
     * (see guard::GuardedBody); one found in refuse mode fails feed() with 403 and guardRefusal().
     */
    void setGuard(std::shared_ptr<const guard::GuardConfig> guard) { m_guard = std::move(guard); }
    /** After feed() failed because the guard found a value: which, and where. */
    const std::optional<guard::Finding> &guardRefusal() const { return m_guardRefusal; }
    /** The values redacted since the last call. */
    std::vector<guard::Finding> takeFindings() { return m_body.takeFindings(); }
    /** The status and reason to answer after feed() failed. */
    const http::RequestError &error() const { return m_error; }
    /** After feed() failed because the check refused a request: its answer. */
    const std::optional<RequestVerdict> &refusal() const { return m_refusal; }
    /** Between two messages: nothing of a request is held or half forwarded. */
    bool betweenMessages() const { return m_state == State::Head && m_head.empty(); }

private:
    enum class State {
        Head,
        Length,
        Chunked,
        Raw
    };
    bool startMessage(std::string &out, std::vector<RequestNote> &notes);
    std::vector<const InjectRule *> rulesFor(const std::string &host) const;
    /** The head as it goes upstream: credentials set, placeholders replaced; a body to rewrite begun. */
    bool writeHead(const http::RequestHead &head, const std::string &host, bool hasBody, std::string &out,
                   RequestNote &note);
    /** Reads the values of @p rules' custom secrets; false (503) when one cannot be used. */
    bool readReplacements(const std::vector<const InjectRule *> &rules, std::vector<Replacement> &replacements);
    /** Body data to the guard, the placeholder body, or as it is. */
    bool bodyData(std::string_view data, std::string &out);
    bool writeWithCredentials(const http::RequestHead &head, const std::vector<const InjectRule *> &rules,
                              std::string &out, RequestNote &note);
    bool fail(int status, std::string reason);
    bool failGuard(guard::Finding finding);
    /** A chunked body under the guard: data and framing told apart. */
    bool feedGuardedChunks(std::string_view &data, std::string &out);

    std::string m_tunnelHost;
    const std::vector<InjectRule> *m_rules;
    std::size_t m_maxHeadBytes;
    State m_state = State::Head;
    std::string m_head;
    std::uint64_t m_remaining = 0;
    ChunkedTracker m_chunked;
    http::RequestError m_error;
    ResponseStream *m_responses;
    RequestCheck m_check;
    std::optional<RequestVerdict> m_refusal;
    std::shared_ptr<const guard::GuardConfig> m_guard;
    guard::GuardedBody m_body;
    std::optional<guard::Finding> m_guardRefusal;
    PlaceholderBody m_placeholders;
    /** While m_placeholders is active: the guard's scan of the body, which only refuses. */
    std::optional<guard::Scanner> m_placeholderScan;
};

} // namespace paddock::proxy::inject

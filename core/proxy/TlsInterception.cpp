// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/TlsInterception.h"

#include "proxy/InjectStream.h"
#include "proxy/InterceptionAnswers.h"
#include "proxy/Refusal.h"
#include "proxy/RequestRecorder.h"
#include "proxy/ResponseStream.h"
#include "proxy/SocketAddress.h"

#include <QLoggingCategory>

#include "common/RequestTarget.h"

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <climits>

Q_LOGGING_CATEGORY(lcIntercept, "paddock.proxy.intercept")

namespace paddock::proxy {
namespace {

using Clock = std::chrono::steady_clock;
using Kind = ProxyEvent::Kind;

constexpr std::size_t ReadChunk = 16 * 1024;
constexpr std::string_view Http11 = "http/1.1";
const unsigned char Http11Alpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

/** Everything on this thread's OpenSSL error queue, as one line; the queue is emptied. */
QString takeErrors()
{
    QStringList parts;
    while (const unsigned long code = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(code, text, sizeof text);
        parts << QString::fromLatin1(text);
    }
    return parts.join(QStringLiteral("; "));
}

// Towards the sandbox only HTTP/1.1 is spoken: the injector reads HTTP/1.1 heads.
int selectAlpn(SSL *, const unsigned char **out, unsigned char *outLength, const unsigned char *in,
               unsigned int inLength, void *)
{
    for (unsigned int i = 0; i < inLength;) {
        const unsigned int length = in[i];
        if (i + 1 + length > inLength)
            break;
        if (std::string_view(reinterpret_cast<const char *>(in + i + 1), length) == Http11) {
            *out = in + i + 1;
            *outLength = static_cast<unsigned char>(length);
            return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + length;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

/** What the server-name callback learns about the sandbox's ClientHello. */
struct ServerNameCheck
{
    std::string expected;
    std::string seen;
    bool mismatch = false;
};

// The leaf is for the CONNECT host; a ClientHello naming another host is refused, as the
// end-to-end tunnel refuses it. Without a name there is nothing to compare.
int checkServerName(SSL *ssl, int *alert, void *)
{
    auto *check = static_cast<ServerNameCheck *>(SSL_get_app_data(ssl));
    const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    if (!check || !name)
        return SSL_TLSEXT_ERR_OK;
    std::string seen = QString::fromLatin1(name).toLower().toStdString();
    if (!seen.empty() && seen.back() == '.')
        seen.pop_back();
    check->seen = seen;
    if (seen == check->expected)
        return SSL_TLSEXT_ERR_OK;
    check->mismatch = true;
    *alert = SSL_AD_UNRECOGNIZED_NAME;
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

void configureCommon(SSL_CTX *context)
{
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    // A peer that closes without close_notify ends its direction like a clean close: HTTP
    // framing, not the TLS layer, says whether a message was cut short.
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_mode(context, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
}

} // namespace

Result<std::shared_ptr<const Interception>> Interception::create(InterceptionConfig config)
{
    if (!config.leafFor)
        return fail(QStringLiteral("no certificate issuer for intercepted connections"));
    for (const InjectRule &rule : config.rules) {
        if (rule.domain.isEmpty())
            return fail(QStringLiteral("an inject rule has no domain"));
        if (rule.header.isEmpty() && !(rule.anywhere && !rule.placeholder.empty()))
            return fail(QStringLiteral("the inject rule for %1 names no header to set").arg(rule.domain));
        if (rule.format.count(QStringLiteral("%s")) != 1)
            return fail(
                QStringLiteral("the format for %1 on %2 must contain %s exactly once").arg(rule.header, rule.domain));
        if (!rule.secret)
            return fail(QStringLiteral("the inject rule for %1 has no secret").arg(rule.domain));
        if (rule.sentinel.isEmpty())
            return fail(QStringLiteral("the inject rule for %1 has an empty sentinel").arg(rule.domain));
    }
    std::shared_ptr<Interception> made(new Interception);
    made->m_config = std::move(config);

    made->m_server = SSL_CTX_new(TLS_server_method());
    made->m_client = SSL_CTX_new(TLS_client_method());
    if (!made->m_server || !made->m_client)
        return fail(QStringLiteral("cannot create a TLS context: %1").arg(takeErrors()));
    configureCommon(made->m_server);
    SSL_CTX_set_alpn_select_cb(made->m_server, selectAlpn, nullptr);
    SSL_CTX_set_tlsext_servername_callback(made->m_server, checkServerName);

    configureCommon(made->m_client);
    SSL_CTX_set_verify(made->m_client, SSL_VERIFY_PEER, nullptr);
    const QByteArray bundle = made->m_config.upstreamCaBundlePath.toLocal8Bit();
    if (bundle.isEmpty() || SSL_CTX_load_verify_locations(made->m_client, bundle.constData(), nullptr) != 1)
        return fail(QStringLiteral("cannot load the upstream trust bundle %1: %2")
                        .arg(made->m_config.upstreamCaBundlePath, takeErrors()));
    SSL_CTX_set_alpn_protos(made->m_client, Http11Alpn, sizeof Http11Alpn);
    return std::shared_ptr<const Interception>(std::move(made));
}

Interception::~Interception()
{
    SSL_CTX_free(m_server);
    SSL_CTX_free(m_client);
}

bool Interception::intercepts(const std::string &host) const
{
    for (const InjectRule &rule : m_config.rules) {
        if (inject::domainMatches(rule.domain, host))
            return true;
    }
    return false;
}

bool Interception::injectsAlike(const Interception *other, const std::string &host) const
{
    const auto injected = [&host](const InterceptionConfig &config) {
        std::vector<std::array<QString, 5>> found;
        for (const InjectRule &rule : config.rules) {
            if (inject::domainMatches(rule.domain, host))
                found.push_back({rule.credential, rule.domain, rule.header, rule.format,
                                 rule.sentinel + QString::fromStdString(rule.placeholder) +
                                     (rule.anywhere ? QStringLiteral(" anywhere") : QString()) +
                                     (rule.body ? QStringLiteral(" body") : QString())});
        }
        return found;
    };
    return other && injected(m_config) == injected(other->m_config);
}

/** @brief The state of one run(): both TLS objects and where the protocol stands. */
struct InterceptedConnection::Session
{
    enum class Wait {
        Ready,
        TimedOut,
        Stopped
    };

    /** One TLS endpoint and what its last operation waits for. */
    struct Side
    {
        SSL *ssl = nullptr;
        int fd = -1;
        bool wantRead = false;
        bool wantWrite = false;
        /** In relay(): what its blocked read and write wait for (poll() events); retried once the socket is ready. */
        short readWaits = 0;
        short writeWaits = 0;
    };

    /** One direction: plaintext read from one side, waiting to be written to the other. */
    struct Direction
    {
        std::string pending;
        std::size_t sent = 0;
        bool sourceEnded = false;
        bool closeSent = false;
    };

    enum class Io {
        Idle,
        Progress,
        Ended,
        Failed
    };

    InterceptedConnection &owner;
    const InterceptedSetup &setup;
    Side client;
    Side upstream;
    ServerNameCheck serverName;

    Session(InterceptedConnection &o, const InterceptedSetup &s) : owner(o), setup(s) {}
    ~Session()
    {
        SSL_free(client.ssl);
        SSL_free(upstream.ssl);
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    void report(Kind kind, const QString &reason, const QString &rule = {}) const
    {
        ProxyEvent event = setup.eventTemplate;
        event.time = QDateTime::currentDateTimeUtc();
        event.kind = kind;
        if (!rule.isEmpty())
            event.rule = rule;
        event.reason = reason;
        event.bytesUp = owner.m_bytesUp.load();
        event.bytesDown = owner.m_bytesDown.load();
        if (setup.report)
            setup.report(std::move(event));
    }

    /**
     * Waits until a side is ready for what it wants, the deadline passes or stop() is called;
     * @p aReady and @p bReady, when given, say whether their side's socket became ready.
     */
    Wait waitFor(const Side *a, const Side *b, Clock::time_point deadline, bool *aReady = nullptr,
                 bool *bReady = nullptr) const
    {
        pollfd fds[3] = {{owner.m_stopFd.get(), POLLIN, 0}, {-1, 0, 0}, {-1, 0, 0}};
        for (int i = 0; i < 2; ++i) {
            const Side *side = i == 0 ? a : b;
            if (side && (side->wantRead || side->wantWrite))
                fds[i + 1] = {side->fd, short((side->wantRead ? POLLIN : 0) | (side->wantWrite ? POLLOUT : 0)), 0};
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return Wait::TimedOut;
        const int ready = ::poll(fds, 3, int(std::min<long long>(left, INT_MAX))); // poll() skips fd -1
        if (fds[0].revents)
            return Wait::Stopped;
        if (ready == 0)
            return Wait::TimedOut;
        if (aReady)
            *aReady = fds[1].revents != 0;
        if (bReady)
            *bReady = fds[2].revents != 0;
        return Wait::Ready; // EINTR too: the caller retries its operation
    }

    /** What @p side's last operation waited for, as poll() events; its wants are cleared. */
    static short takeWaits(Side &side)
    {
        const short waits = short((side.wantRead ? POLLIN : 0) | (side.wantWrite ? POLLOUT : 0));
        side.wantRead = side.wantWrite = false;
        return waits;
    }

    /** Polls for what the blocked operations of both sides wait for; a side found ready may try them again. */
    Wait waitForBlocked(Clock::time_point deadline)
    {
        for (Side *side : {&client, &upstream}) {
            const short waits = side->readWaits | side->writeWaits;
            side->wantRead = waits & POLLIN;
            side->wantWrite = waits & POLLOUT;
        }
        bool clientReady = false;
        bool upstreamReady = false;
        const Wait wait = waitFor(&client, &upstream, deadline, &clientReady, &upstreamReady);
        if (clientReady || wait != Wait::Ready) // EINTR: every operation is tried again
            client.readWaits = client.writeWaits = 0;
        if (upstreamReady || wait != Wait::Ready)
            upstream.readWaits = upstream.writeWaits = 0;
        return wait;
    }

    /** Records what @p side waits for after @p result; false when the operation failed for good. */
    static bool noteWant(Side &side, int result)
    {
        switch (SSL_get_error(side.ssl, result)) {
        case SSL_ERROR_WANT_READ:
            side.wantRead = true;
            return true;
        case SSL_ERROR_WANT_WRITE:
            side.wantWrite = true;
            return true;
        default:
            return false;
        }
    }

    bool handshake(Side &side, Clock::time_point deadline, QString &why)
    {
        for (;;) {
            side.wantRead = side.wantWrite = false;
            ERR_clear_error();
            const int result = SSL_do_handshake(side.ssl);
            if (result == 1)
                return true;
            if (!noteWant(side, result)) {
                why = takeErrors();
                if (why.isEmpty())
                    why = QStringLiteral("the connection closed during the handshake");
                return false;
            }
            const Wait wait = waitFor(&side, nullptr, deadline);
            if (wait != Wait::Ready) {
                why = wait == Wait::TimedOut ? QStringLiteral("the TLS handshake timed out")
                                             : QStringLiteral("the proxy is stopping");
                return false;
            }
        }
    }

    /** Writes all of @p bytes before the deadline (an answer the proxy makes itself). */
    bool writeAll(Side &side, std::string_view bytes, Clock::time_point deadline)
    {
        while (!bytes.empty()) {
            side.wantRead = side.wantWrite = false;
            ERR_clear_error();
            const int n = SSL_write(side.ssl, bytes.data(), int(std::min<std::size_t>(bytes.size(), INT_MAX)));
            if (n > 0) {
                bytes.remove_prefix(std::size_t(n));
                continue;
            }
            if (!noteWant(side, n) || waitFor(&side, nullptr, deadline) != Wait::Ready)
                return false;
        }
        return true;
    }

    /** Reads until a request head is complete, so an error answer replaces a real response. */
    void awaitRequestHead(Side &side, Clock::time_point deadline)
    {
        std::string head;
        char buffer[ReadChunk];
        while (head.find("\r\n\r\n") == std::string::npos && head.size() < setup.limits.maxRequestHeaderBytes) {
            side.wantRead = side.wantWrite = false;
            ERR_clear_error();
            const int n = SSL_read(side.ssl, buffer, int(sizeof buffer));
            if (n > 0) {
                head.append(buffer, std::size_t(n));
                continue;
            }
            if (!noteWant(side, n) || waitFor(&side, nullptr, deadline) != Wait::Ready)
                break;
        }
        inject::wipe(head);
    }

    /** Answers the sandbox with an error once it has asked, closes TLS and reports. */
    void answerAndEnd(int status, Kind kind, const QString &rule, const QString &reason)
    {
        const Clock::time_point deadline = Clock::now() + setup.limits.headerTimeout;
        awaitRequestHead(client, deadline);
        writeAll(client, errorResponse(status, reason), deadline);
        SSL_shutdown(client.ssl);
        report(kind, reason, rule);
    }

    Io write(Side &to, Direction &direction, std::atomic<quint64> &counter)
    {
        Io io = Io::Idle;
        while (direction.sent < direction.pending.size()) {
            ERR_clear_error();
            const std::size_t left = direction.pending.size() - direction.sent;
            const int n =
                SSL_write(to.ssl, direction.pending.data() + direction.sent, int(std::min<std::size_t>(left, INT_MAX)));
            if (n <= 0) {
                if (!noteWant(to, n))
                    return Io::Failed;
                to.writeWaits = takeWaits(to);
                return io;
            }
            direction.sent += std::size_t(n);
            counter += quint64(n);
            io = Io::Progress;
        }
        // Request heads carried the secret: nothing sent is left behind in memory.
        inject::wipe(direction.pending);
        direction.sent = 0;
        return io;
    }

    Io read(Side &from, char *buffer, std::size_t &length)
    {
        ERR_clear_error();
        const int n = SSL_read(from.ssl, buffer, int(ReadChunk));
        if (n > 0) {
            length = std::size_t(n);
            return Io::Progress;
        }
        const int error = SSL_get_error(from.ssl, n);
        if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && (errno == 0 || errno == ECONNRESET)))
            return Io::Ended;
        if (!noteWant(from, n))
            return Io::Failed;
        from.readWaits = takeWaits(from);
        return Io::Idle;
    }

    void emitNotes(std::vector<inject::RequestNote> &notes, RequestRecorder &records,
                   const inject::RequestStream &requests) const
    {
        for (const inject::RequestNote &note : notes) {
            if (note.refused) { // the refusal itself is reported where it is answered
                records.started(note, qs(requests.refusal() ? requests.refusal()->reason : std::string()));
                continue;
            }
            records.started(note);
            for (const QString &name : note.placeholdersElsewhere)
                report(Kind::Allowed,
                       QStringLiteral("placeholder of %1 sent to %2; not replaced").arg(name, qs(note.host)),
                       QStringLiteral("custom-secret: placeholder of %1 not replaced").arg(name));
            report(Kind::Allowed, inject::requestReason(note));
        }
        notes.clear();
    }

    /** A request that cannot be forwarded (refused, malformed): answered, and the connection ends once it is sent. */
    void answerUnforwarded(const inject::RequestStream &requests, inject::ResponseStream &responses,
                           RequestRecorder &records, std::vector<inject::RequestNote> &notes, Direction &up,
                           Direction &down) const
    {
        const http::RequestError &error = requests.error();
        const std::optional<inject::RequestNote> refused =
            !notes.empty() && notes.back().refused ? std::optional(notes.back()) : std::nullopt;
        emitNotes(notes, records, requests);
        responses.finish(down.pending);
        records.ended(responses.takeEnded());
        if (const std::optional<guard::Finding> &found = requests.guardRefusal()) {
            report(
                Kind::Denied,
                QStringLiteral("%1 refused: it contains the value of %2 from %3%4")
                    .arg(refused ? qs(refused->method) + QStringLiteral(" request") : QStringLiteral("request"),
                         found->value.name, found->value.file,
                         found->cut ? QStringLiteral("; the body had partly gone, the connection was cut") : QString()),
                QStringLiteral("secret-guard: %1 %2").arg(found->value.file, found->value.name));
            down.pending += guardRefusal(*found, setup.interception->config(), setup.eventTemplate);
            // Part of the body went: the upstream gets a reset, no close_notify that would end it cleanly.
            up.closeSent = found->cut && resetOnClose(upstream.fd);
        } else if (refused && requests.refusal()) {
            report(Kind::Denied, qs(error.reason), qs(requests.refusal()->rule));
            down.pending += requestRefusal(*requests.refusal(), *refused, setup.eventTemplate);
        } else {
            report(error.status == 503 ? Kind::UpstreamFailed : Kind::Denied, qs(error.reason),
                   error.status == 503 ? QString() : QString(Refusal::ProtocolRule));
            down.pending += errorResponse(error.status, qs(error.reason));
        }
        up.sourceEnded = down.sourceEnded = true;
        inject::wipe(up.pending);
    }

    /** Relays both directions until one side ends, the connection idles out or stop(). */
    void relay()
    {
        const InterceptionConfig &config = setup.interception->config();
        inject::ResponseStream responses(setup.limits.maxResponseHeaderBytes);
        inject::RequestStream requests(setup.host, &config.rules, setup.limits.maxRequestHeaderBytes, &responses);
        if (setup.checkRequest)
            requests.setCheck(setup.checkRequest);
        requests.setGuard(config.guard);
        RequestRecorder records(setup.eventTemplate, setup.report); // reports what is open when it goes
        std::vector<inject::RequestNote> notes;
        Direction up;
        Direction down;
        char buffer[ReadChunk];
        Clock::time_point idleDeadline = Clock::now() + setup.limits.idleTimeout;
        for (;;) {
            client.wantRead = client.wantWrite = upstream.wantRead = upstream.wantWrite = false;
            bool progress = false;

            // Sandbox to upstream: request heads rewritten, bodies as they come.
            Io io = upstream.writeWaits ? Io::Idle : write(upstream, up, owner.m_bytesUp);
            if (io == Io::Failed)
                return;
            progress |= io == Io::Progress;
            if (up.pending.empty() && !up.sourceEnded && !client.readWaits) {
                std::size_t length = 0;
                io = read(client, buffer, length);
                if (io == Io::Failed)
                    return;
                if (io == Io::Ended)
                    up.sourceEnded = true;
                if (io == Io::Progress && !requests.feed(std::string_view(buffer, length), up.pending, notes))
                    answerUnforwarded(requests, responses, records, notes, up, down);
                emitNotes(notes, records, requests);
                for (const guard::Finding &finding : requests.takeFindings()) // the rule is what the log keeps of it
                    report(Kind::Allowed,
                           QStringLiteral("the value of %1 from %2 was redacted from a request")
                               .arg(finding.value.name, finding.value.file),
                           QStringLiteral("secret-guard: %1 %2 redacted").arg(finding.value.file, finding.value.name));
                if (io == Io::Progress)
                    records.sentUp(length);
                progress |= io != Io::Idle;
            }
            if (up.sourceEnded && up.pending.empty() && !up.closeSent) {
                SSL_shutdown(upstream.ssl);
                up.closeSent = true;
            }

            // Upstream to sandbox: passed on as read, so streamed responses stay streamed, but for
            // the credential, masked, and the few bytes that might be its start.
            io = client.writeWaits ? Io::Idle : write(client, down, owner.m_bytesDown);
            if (io == Io::Failed)
                return;
            progress |= io == Io::Progress;
            if (down.pending.empty() && !down.sourceEnded && !upstream.readWaits) {
                std::size_t length = 0;
                io = read(upstream, buffer, length);
                if (io == Io::Failed)
                    return;
                if (io == Io::Progress)
                    responses.feed(std::string_view(buffer, length), down.pending);
                if (io == Io::Ended) {
                    down.sourceEnded = true;
                    responses.finish(down.pending);
                }
                records.ended(responses.takeEnded());
                progress |= io != Io::Idle;
            }
            if (down.sourceEnded && down.pending.empty()) {
                SSL_shutdown(client.ssl);
                return;
            }

            if (progress) {
                idleDeadline = Clock::now() + setup.limits.idleTimeout;
                continue;
            }
            if (waitForBlocked(idleDeadline) != Wait::Ready)
                return;
        }
    }

    void run()
    {
        const Clock::time_point handshakeDeadline = Clock::now() + setup.limits.headerTimeout;
        const Interception &interception = *setup.interception;

        // The tunnel's "200 Connection established" goes first, in clear.
        std::string_view greeting = setup.greeting;
        while (!greeting.empty()) {
            const ssize_t n = ::send(setup.client, greeting.data(), greeting.size(), MSG_NOSIGNAL);
            if (n > 0) {
                greeting.remove_prefix(std::size_t(n));
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                return;
            Side waiting{nullptr, setup.client, false, true};
            if (waitFor(&waiting, nullptr, handshakeDeadline) != Wait::Ready)
                return;
        }

        qCDebug(lcIntercept) << "terminating TLS to" << qs(setup.host) << "for sandbox" << setup.eventTemplate.sandbox;
        const Result<TlsLeaf> leaf = interception.config().leafFor(qs(setup.host));
        QString why = leaf.errorText();
        if (!leaf || !leaf->certificate || !leaf->key) {
            qCWarning(lcIntercept) << "no certificate for" << qs(setup.host) << why;
            return report(Kind::UpstreamFailed, QStringLiteral("no certificate for %1: %2").arg(qs(setup.host), why));
        }
        client.fd = setup.client;
        client.ssl = SSL_new(interception.serverContext());
        serverName.expected = setup.host;
        if (!client.ssl || SSL_set_fd(client.ssl, client.fd) != 1 ||
            SSL_use_certificate(client.ssl, leaf->certificate.get()) != 1 ||
            SSL_use_PrivateKey(client.ssl, leaf->key.get()) != 1)
            return report(Kind::UpstreamFailed, QStringLiteral("cannot set up TLS: %1").arg(takeErrors()));
        SSL_set_app_data(client.ssl, &serverName);
        SSL_set_accept_state(client.ssl);
        if (!handshake(client, handshakeDeadline, why)) {
            if (serverName.mismatch)
                return report(Kind::Denied,
                              QStringLiteral("SNI mismatch: the TLS server name is %1 but the tunnel goes to %2")
                                  .arg(qs(serverName.seen), qs(setup.host)),
                              Refusal::SniRule);
            return report(Kind::Denied, QStringLiteral("TLS handshake with the sandbox failed: %1").arg(why),
                          Refusal::TlsRule);
        }

        // The real host, verified by name against the upstream bundle, before any key is sent.
        upstream.fd = setup.upstream;
        upstream.ssl = SSL_new(interception.clientContext());
        const QByteArray host = qs(setup.host).toLatin1();
        bool named = upstream.ssl && SSL_set_fd(upstream.ssl, upstream.fd) == 1;
        if (named && setup.hostIsAddress) {
            named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(upstream.ssl), host.constData()) == 1;
        } else if (named) {
            named = SSL_set_tlsext_host_name(upstream.ssl, host.constData()) == 1 &&
                    SSL_set1_host(upstream.ssl, host.constData()) == 1;
        }
        if (!named)
            return answerAndEnd(502, Kind::UpstreamFailed, {},
                                QStringLiteral("cannot set up TLS to %1: %2").arg(qs(setup.host), takeErrors()));
        SSL_set_connect_state(upstream.ssl);
        if (!handshake(upstream, Clock::now() + setup.limits.connectTimeout, why)) {
            const long verify = SSL_get_verify_result(upstream.ssl);
            const QString reason =
                verify != X509_V_OK
                    ? QStringLiteral("the certificate of %1 is not trusted: %2")
                          .arg(qs(setup.host), QString::fromLatin1(X509_verify_cert_error_string(verify)))
                    : QStringLiteral("TLS handshake with %1 failed: %2").arg(qs(setup.host), why);
            return answerAndEnd(502, Kind::UpstreamFailed, {}, reason);
        }
        relay();
    }
};

InterceptedConnection::InterceptedConnection(InterceptedSetup setup)
    : m_setup(std::move(setup)), m_stopFd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    m_thread = std::thread([this] { run(); });
}

InterceptedConnection::~InterceptedConnection()
{
    stop();
}

void InterceptedConnection::stop()
{
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_stopFd.get(), &one, sizeof one);
    if (m_thread.joinable())
        m_thread.join();
}

void InterceptedConnection::run()
{
    // OpenSSL writes to the sockets with write(2): a peer that left must be EPIPE, not a signal.
    sigset_t pipeSignal;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);
    {
        Session session(*this, m_setup);
        try {
            session.run();
        } catch (const std::exception &error) { // from a leaf issuer or a secret source
            session.report(Kind::UpstreamFailed,
                           QStringLiteral("interception failed: %1").arg(QString::fromLocal8Bit(error.what())));
        } catch (...) {
            session.report(Kind::UpstreamFailed, QStringLiteral("interception failed"));
        }
    }
    ERR_clear_error();
    qCDebug(lcIntercept) << "intercepted connection to" << qs(m_setup.host) << "ended:" << m_bytesUp.load()
                         << "bytes up," << m_bytesDown.load() << "bytes down";
    if (m_setup.finished)
        m_setup.finished();
}

} // namespace paddock::proxy

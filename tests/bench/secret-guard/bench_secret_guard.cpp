// SPDX-License-Identifier: GPL-3.0-or-later
// Figures for the secret-egress guard: 1 MiB and 10 MiB request bodies POSTed through Paddock's
// TLS interception (the key injected) with the guard in refuse mode looking for 24 values, beside
// the same interception without the guard, in the same run, against one local HTTPS upstream that
// reads each body and answers. BENCH_ROUNDS rounds (default 5) of BENCH_POSTS POSTs (default 5)
// each, the two endpoints alternating POST by POST; each round's ratio is the median with the
// guard over the median without, and the figures are the medians of the rounds with the spread
// of the ratios. Also the scanner alone, in MiB/s, on the same bodies.
#include "InjectTestSupport.h"

#include "proxy/ProxyEngine.h"
#include "proxy/SecretGuard.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <curl/curl.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace paddock::proxy;
using paddock::Result;
using Clock = std::chrono::steady_clock;

namespace {

const std::string Key = "sk-bench-5b1f09d2e4";

int envInt(const char *name, int fallback)
{
    const char *text = std::getenv(name);
    const int value = text ? std::atoi(text) : 0;
    return value > 0 ? value : fallback;
}

double medianOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/** An HTTPS server on 127.0.0.1 that reads each request's Content-Length body and answers 200. */
class Upstream
{
public:
    bool start(const QString &certificate, const QString &key)
    {
        m_context = SSL_CTX_new(TLS_server_method());
        if (SSL_CTX_use_certificate_chain_file(m_context, certificate.toLocal8Bit().constData()) != 1 ||
            SSL_CTX_use_PrivateKey_file(m_context, key.toLocal8Bit().constData(), SSL_FILETYPE_PEM) != 1)
            return false;
        m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_listener, 16) != 0 ||
            ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length) != 0)
            return false;
        port = ntohs(address.sin_port);
        std::thread([this] {
            for (int fd; (fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;)
                std::thread([this, fd] { serve(fd); }).detach();
        }).detach();
        return true;
    }

    quint16 port = 0;

private:
    void serve(int fd)
    {
        SSL *ssl = SSL_new(m_context);
        SSL_set_fd(ssl, fd);
        std::string buffer;
        std::vector<char> chunk(64 * 1024);
        const auto fill = [&] {
            const int n = SSL_read(ssl, chunk.data(), int(chunk.size()));
            if (n > 0)
                buffer.append(chunk.data(), std::size_t(n));
            return n > 0;
        };
        while (SSL_accept(ssl) == 1) {
            std::size_t end;
            while ((end = buffer.find("\r\n\r\n")) == std::string::npos)
                if (!fill())
                    goto done;
            const std::size_t at = buffer.find("Content-Length: ");
            std::size_t length = at < end ? std::stoul(buffer.substr(at + 16)) : 0;
            buffer.erase(0, end + 4);
            while (buffer.size() < length) {
                length -= buffer.size();
                buffer.clear();
                if (!fill())
                    goto done;
            }
            buffer.erase(0, length);
            const std::string response = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n";
            if (SSL_write(ssl, response.data(), int(response.size())) <= 0)
                break;
            for (;;) { // the next request on the kept-alive connection
                std::size_t next;
                while ((next = buffer.find("\r\n\r\n")) == std::string::npos)
                    if (!fill())
                        goto done;
                const std::size_t cl = buffer.find("Content-Length: ");
                std::size_t left = cl < next ? std::stoul(buffer.substr(cl + 16)) : 0;
                buffer.erase(0, next + 4);
                while (buffer.size() < left) {
                    left -= buffer.size();
                    buffer.clear();
                    if (!fill())
                        goto done;
                }
                buffer.erase(0, left);
                if (SSL_write(ssl, response.data(), int(response.size())) <= 0)
                    goto done;
            }
        }
    done:
        SSL_free(ssl);
        ::close(fd);
    }

    SSL_CTX *m_context = nullptr;
    int m_listener = -1;
};

std::size_t discard(char *, std::size_t size, std::size_t count, void *)
{
    return size * count;
}

/** The seconds one POST of @p body takes through @p curl's proxy; negative when it fails. */
double post(CURL *curl, const std::string &body)
{
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
    const auto before = Clock::now();
    long status = 0;
    const CURLcode result = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (result != CURLE_OK || status != 200) {
        std::fprintf(stderr, "  POST: %s, status %ld\n", curl_easy_strerror(result), status);
        return -1;
    }
    return std::chrono::duration<double>(Clock::now() - before).count();
}

struct Round
{
    double without = 0;
    double with = 0;
};

/** @p posts POSTs on each client, alternating, which one goes first changing every round. */
Round round(CURL *plain, CURL *guarded, const std::string &body, int posts, bool guardedFirst)
{
    std::vector<double> without;
    std::vector<double> with;
    for (int i = 0; i < posts; ++i) {
        const bool first = (i % 2 == 0) == guardedFirst;
        const double a = post(first ? guarded : plain, body);
        const double b = post(first ? plain : guarded, body);
        if (a <= 0 || b <= 0)
            return {};
        with.push_back(first ? a : b);
        without.push_back(first ? b : a);
    }
    return {medianOf(without), medianOf(with)};
}

CURL *client(quint16 proxyPort, const std::string &ca, const std::string &url, curl_slist *headers)
{
    CURL *curl = curl_easy_init();
    const std::string proxy = "http://127.0.0.1:" + std::to_string(proxyPort);
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROXY, proxy.c_str());
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
    curl_easy_setopt(curl, CURLOPT_CAINFO, ca.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    return curl;
}

std::shared_ptr<const guard::GuardConfig> benchGuard()
{
    std::vector<guard::Value> values;
    std::mt19937_64 random(7);
    for (int i = 0; i < 23; ++i)
        values.push_back({"value-" + std::to_string(random()) + "-" + std::to_string(random()), QStringLiteral(".env"),
                          QStringLiteral("VAR_%1").arg(i)});
    values.push_back({Key, QStringLiteral("keychain"), QStringLiteral("llm")});
    std::shared_ptr<const guard::Patterns> patterns = guard::Patterns::build(values);
    auto config = std::make_shared<guard::GuardConfig>();
    config->current = [patterns] { return guard::GuardState{guard::Mode::Refuse, patterns}; };
    return config;
}

/** JSON-like text without any of the values: what a model request's body looks like. */
std::string bodyOf(std::size_t size)
{
    static const char words[] = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 {}\":,";
    std::mt19937 random(11);
    std::string body;
    body.reserve(size);
    while (body.size() < size)
        body += words[random() % (sizeof words - 1)];
    return body;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.*=false"));
    curl_global_init(CURL_GLOBAL_ALL);
    QTemporaryDir dir;
    testing::CertificateFactory certs(dir.path());
    if (!certs.makeAuthority(QStringLiteral("paddock-ca"), QStringLiteral("Paddock Bench CA")) ||
        !certs.makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Upstream Bench CA")) ||
        !certs.makeLeaf(QStringLiteral("leaf-localhost"), QStringLiteral("localhost"), QStringLiteral("paddock-ca")) ||
        !certs.makeLeaf(QStringLiteral("upstream"), QStringLiteral("localhost"), QStringLiteral("upstream-ca"))) {
        std::fprintf(stderr, "cannot make the certificates\n");
        return 1;
    }
    Upstream upstream;
    if (!upstream.start(certs.path(QStringLiteral("upstream.pem")), certs.path(QStringLiteral("upstream.key")))) {
        std::fprintf(stderr, "cannot start the upstream\n");
        return 1;
    }
    const std::string url = "https://localhost:" + std::to_string(upstream.port) + "/v1/messages";

    // One proxy, two endpoints: the same interception with and without the guard.
    ProxyEngine engine;
    engine.setDecider([](const ConnectionQuery &) { return Verdict{true, QStringLiteral("allow all"), {}, {}}; });
    engine.setEventSink([](const ProxyEvent &) {});
    QString error;
    quint16 plainPort = 0;
    quint16 guardedPort = 0;
    ProxyEngine::EndpointId plain = 0;
    ProxyEngine::EndpointId guarded = 0;
    const auto endpointOf = [&error](const Result<ProxyEngine::EndpointId> &added) {
        if (!added)
            error = added.error().text();
        return added.valueOr(0);
    };
    if (const Result<void> started = engine.start(); !started)
        error = started.error().text();
    else {
        plain = endpointOf(engine.addTcpEndpoint(QHostAddress::LocalHost, 0,
                                                 {QStringLiteral("plain"), QStringLiteral("bench")}, &plainPort));
        guarded = endpointOf(engine.addTcpEndpoint(QHostAddress::LocalHost, 0,
                                                   {QStringLiteral("guarded"), QStringLiteral("bench")}, &guardedPort));
    }
    const auto intercepted = [&](ProxyEngine::EndpointId id, InterceptionConfig withConfig) {
        const Result<void> set = engine.setInterception(id, std::move(withConfig));
        if (!set)
            error = set.error().text();
        return set.ok();
    };
    engine.resolveOverrides().set(QStringLiteral("localhost"), 0, {QHostAddress(QHostAddress::LocalHost)});
    InterceptionConfig config;
    config.leafFor = certs.leafIssuer();
    config.upstreamCaBundlePath = certs.path(QStringLiteral("upstream-ca.pem"));
    InjectRule rule;
    rule.domain = QStringLiteral("localhost");
    rule.header = QStringLiteral("Authorization");
    rule.format = QStringLiteral("Bearer %s");
    rule.secret = [] { return QByteArray::fromStdString(Key); };
    config.rules.push_back(rule);
    InterceptionConfig withGuard = config;
    withGuard.guard = benchGuard();
    if (!plain || !guarded || !intercepted(plain, config) || !intercepted(guarded, withGuard)) {
        std::fprintf(stderr, "cannot start Paddock's proxy: %s\n", qPrintable(error));
        return 1;
    }

    curl_slist *headers = curl_slist_append(nullptr, "Authorization: Bearer proxy-managed");
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Expect:"); // the body follows the head at once, as API clients send it
    const std::string ca = certs.path(QStringLiteral("paddock-ca.pem")).toStdString();
    CURL *plainClient = client(plainPort, ca, url, headers);
    CURL *guardedClient = client(guardedPort, ca, url, headers);
    const int rounds = envInt("BENCH_ROUNDS", 5);
    const int posts = envInt("BENCH_POSTS", 5);
    std::printf("secret guard (refuse, 24 values) on POST bodies through TLS interception with injection; %d rounds "
                "of %d POSTs on each endpoint, alternating, one kept-alive connection each\n",
                rounds, posts);
    std::printf("  %-8s %14s %14s %8s %15s %s\n", "body", "without guard", "with guard", "ratio", "ratio spread",
                "target");
    for (const std::size_t mib : {std::size_t(1), std::size_t(10)}) {
        const std::string body = bodyOf(mib * 1024 * 1024);
        round(plainClient, guardedClient, body, 2, false); // warm: connections, handshakes
        std::vector<double> without;
        std::vector<double> with;
        std::vector<double> ratios;
        for (int r = 0; r < rounds; ++r) {
            const Round times = round(plainClient, guardedClient, body, posts, r % 2 == 1);
            if (times.without <= 0)
                break;
            without.push_back(times.without);
            with.push_back(times.with);
            ratios.push_back(times.with / times.without);
        }
        if (int(ratios.size()) < rounds) {
            std::printf("  %zu MiB: a POST failed\n", mib);
            continue;
        }
        std::printf("  %3zu MiB   %11.1f ms %11.1f ms %8.2f %7.2f-%-7.2f <= 1.10\n", mib, medianOf(without) * 1000,
                    medianOf(with) * 1000, medianOf(ratios), *std::min_element(ratios.begin(), ratios.end()),
                    *std::max_element(ratios.begin(), ratios.end()));
    }

    // The scanner alone, for scale.
    const std::string body = bodyOf(10 * 1024 * 1024);
    const std::shared_ptr<const guard::Patterns> patterns = benchGuard()->current().patterns;
    std::vector<double> speeds;
    bool found = false;
    for (int r = 0; r < rounds; ++r) {
        const auto before = Clock::now();
        guard::Scanner scanner(patterns);
        for (std::size_t at = 0; at < body.size(); at += 16384)
            scanner.scan(std::string_view(body).substr(at, 16384));
        speeds.push_back(10 / std::chrono::duration<double>(Clock::now() - before).count());
        found |= scanner.found() != nullptr;
    }
    std::printf("  scanner alone: %.0f MiB/s (%.0f-%.0f) over 10 MiB in 16 KiB reads (%s)\n", medianOf(speeds),
                *std::min_element(speeds.begin(), speeds.end()), *std::max_element(speeds.begin(), speeds.end()),
                found ? "found a value: wrong" : "nothing found");
    curl_easy_cleanup(plainClient);
    curl_easy_cleanup(guardedClient);
    curl_slist_free_all(headers);
    engine.stop();
    curl_global_cleanup();
    return 0;
}

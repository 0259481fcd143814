// SPDX-License-Identifier: GPL-3.0-or-later
// Figures for header injection: requests per second and latency through Paddock's TLS
// interception, and through mitmproxy with an addon that sets the same header, against the
// same local HTTPS upstream in the same run. Clients are libcurl handles on kept-alive
// connections, as an agent's API client uses them.
#include "InjectTestSupport.h"

#include "proxy/ProxyEngine.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <curl/curl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace paddock::proxy;
using Clock = std::chrono::steady_clock;

namespace {

const std::string Key = "sk-bench-7d3e91c0a5";
constexpr int Clients = 4;
constexpr auto RunTime = std::chrono::seconds(5);

/**
 * An HTTPS server on 127.0.0.1, a thread per connection, answering each request with whether
 * it carried the key: small and quick, so the proxies are what is measured.
 */
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
            ::listen(m_listener, 128) != 0 ||
            ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &length) != 0)
            return false;
        port = ntohs(address.sin_port);
        std::thread([this] { acceptLoop(); }).detach();
        return true;
    }

    quint16 port = 0;

private:
    void acceptLoop()
    {
        for (;;) {
            const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                return;
            std::thread([this, fd] { serve(fd); }).detach();
        }
    }

    void serve(int fd)
    {
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        SSL *ssl = SSL_new(m_context);
        SSL_set_fd(ssl, fd);
        std::string buffer;
        char chunk[16384];
        if (SSL_accept(ssl) == 1) {
            for (;;) {
                const std::size_t end = buffer.find("\r\n\r\n");
                if (end == std::string::npos) {
                    const int n = SSL_read(ssl, chunk, sizeof chunk);
                    if (n <= 0)
                        break;
                    buffer.append(chunk, std::size_t(n));
                    continue;
                }
                const bool keyed = buffer.substr(0, end).find("Bearer " + Key) != std::string::npos;
                buffer.erase(0, end + 4);
                const std::string body = keyed ? "key-present\n" : "key-missing\n";
                const std::string response =
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
                    "\r\n\r\n" + body;
                if (SSL_write(ssl, response.data(), int(response.size())) <= 0)
                    break;
            }
        }
        SSL_free(ssl);
        ::close(fd);
    }

    SSL_CTX *m_context = nullptr;
    int m_listener = -1;
};

struct Figures
{
    double requestsPerSecond = 0;
    double p50 = 0; ///< milliseconds
    double p99 = 0;
    long total = 0;
    long keyed = 0;
    long failed = 0;
};

std::size_t collect(char *data, std::size_t size, std::size_t count, void *target)
{
    static_cast<std::string *>(target)->append(data, size * count);
    return size * count;
}

/** Clients on kept-alive connections through @p proxy for RunTime; the first request of each is not timed. */
Figures measure(const std::string &proxy, const std::string &caFile, const std::string &url)
{
    std::mutex mutex;
    std::vector<double> latencies;
    std::atomic<long> keyed{0};
    std::atomic<long> failed{0};
    std::vector<std::thread> threads;
    std::atomic<int> ready{0};
    Clock::time_point start;
    Clock::time_point end;
    std::atomic<bool> go{false};
    for (int i = 0; i < Clients; ++i) {
        threads.emplace_back([&] {
            CURL *curl = curl_easy_init();
            std::string body;
            curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
            curl_easy_setopt(curl, CURLOPT_PROXY, proxy.c_str());
            curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
            curl_easy_setopt(curl, CURLOPT_CAINFO, caFile.c_str());
            curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
            curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
            curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
            curl_slist *headers = curl_slist_append(nullptr, "Authorization: Bearer proxy-managed");
            curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
            // The connection (CONNECT, both handshakes) is made before the clock starts.
            if (curl_easy_perform(curl) != CURLE_OK)
                ++failed;
            ++ready;
            while (!go)
                std::this_thread::yield();
            std::vector<double> mine;
            while (Clock::now() < end) {
                body.clear();
                const auto before = Clock::now();
                const CURLcode result = curl_easy_perform(curl);
                const auto after = Clock::now();
                if (result != CURLE_OK) {
                    ++failed;
                    continue;
                }
                mine.push_back(std::chrono::duration<double, std::milli>(after - before).count());
                if (body == "key-present\n")
                    ++keyed;
            }
            curl_slist_free_all(headers);
            curl_easy_cleanup(curl);
            const std::lock_guard lock(mutex);
            latencies.insert(latencies.end(), mine.begin(), mine.end());
        });
    }
    while (ready < Clients)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    start = Clock::now();
    end = start + RunTime;
    go = true;
    for (std::thread &thread : threads)
        thread.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    Figures figures;
    std::sort(latencies.begin(), latencies.end());
    figures.total = long(latencies.size());
    figures.keyed = keyed;
    figures.failed = failed;
    figures.requestsPerSecond = double(latencies.size()) / seconds;
    if (!latencies.empty()) {
        figures.p50 = latencies[latencies.size() / 2];
        figures.p99 = latencies[std::min(latencies.size() - 1, latencies.size() * 99 / 100)];
    }
    return figures;
}

void print(const char *name, const Figures &figures)
{
    std::printf("%-10s %9.0f req/s   p50 %7.3f ms   p99 %7.3f ms   (%ld requests, %ld with the key, %ld failed)\n",
                name, figures.requestsPerSecond, figures.p50, figures.p99, figures.total, figures.keyed,
                figures.failed);
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

bool waitForPort(quint16 port, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(200))
            return true;
        QThread::msleep(100);
    }
    return false;
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
    std::printf("header injection, %d kept-alive clients for %lld s each, upstream %s\n", Clients,
                static_cast<long long>(RunTime.count()), url.c_str());

    // Paddock.
    ProxyEngine engine;
    engine.setDecider([](const ConnectionQuery &) { return Verdict{true, QStringLiteral("allow all"), {}, {}}; });
    engine.setEventSink([](const ProxyEvent &) {});
    QString error;
    quint16 paddockPort = 0;
    ProxyEngine::EndpointId endpoint = 0;
    if (const paddock::Result<void> started = engine.start(); !started)
        error = started.error().text();
    else if (const paddock::Result<ProxyEngine::EndpointId> added = engine.addTcpEndpoint(
                 QHostAddress::LocalHost, 0, {QStringLiteral("bench"), QStringLiteral("none")}, &paddockPort);
             !added)
        error = added.error().text();
    else
        endpoint = *added;
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
    if (const paddock::Result<void> set = endpoint ? engine.setInterception(endpoint, config) : paddock::fail(error);
        !set) {
        error = set.error().text();
        std::fprintf(stderr, "cannot start Paddock's proxy: %s\n", qPrintable(error));
        return 1;
    }
    const Figures paddock = measure("http://127.0.0.1:" + std::to_string(paddockPort),
                                    certs.path(QStringLiteral("paddock-ca.pem")).toStdString(), url);
    print("Paddock", paddock);
    engine.stop();

    // mitmproxy, if installed, with an addon doing the same.
    const QString mitmdump = QStringLiteral("/usr/bin/mitmdump");
    if (!QFile::exists(mitmdump)) {
        std::printf("mitmproxy is not installed (apt-get install mitmproxy): Paddock's figures alone\n");
        return 0;
    }
    QFile addon(dir.filePath(QStringLiteral("inject.py")));
    addon.open(QIODevice::WriteOnly);
    addon.write(QByteArray("def request(flow):\n"
                           "    if flow.request.pretty_host == 'localhost':\n"
                           "        flow.request.headers['Authorization'] = 'Bearer ") +
                QByteArray::fromStdString(Key) + "'\n");
    addon.close();
    const quint16 mitmPort = freePort();
    QProcess mitm;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());
    mitm.setProcessEnvironment(env);
    mitm.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    mitm.setStandardOutputFile(dir.filePath(QStringLiteral("mitm.log")));
    mitm.start(mitmdump,
               {QStringLiteral("-q"), QStringLiteral("--listen-host"), QStringLiteral("127.0.0.1"),
                QStringLiteral("--listen-port"), QString::number(mitmPort), QStringLiteral("--set"),
                QStringLiteral("confdir=") + dir.filePath(QStringLiteral("mitm")), QStringLiteral("--set"),
                QStringLiteral("ssl_verify_upstream_trusted_ca=") + certs.path(QStringLiteral("upstream-ca.pem")),
                QStringLiteral("-s"), addon.fileName()});
    const QString mitmCa = dir.filePath(QStringLiteral("mitm/mitmproxy-ca-cert.pem"));
    if (!mitm.waitForStarted() || !waitForPort(mitmPort, 30000) || !QFile::exists(mitmCa)) {
        std::printf("mitmproxy did not start: Paddock's figures alone\n");
        return 0;
    }
    const Figures reference = measure("http://127.0.0.1:" + std::to_string(mitmPort), mitmCa.toStdString(), url);
    print("mitmproxy", reference);
    mitm.terminate();
    mitm.waitForFinished(5000);
    if (reference.requestsPerSecond > 0)
        std::printf("Paddock / mitmproxy: %.1fx the requests per second (target >= 5x), %.1fx lower median latency\n",
                    paddock.requestsPerSecond / reference.requestsPerSecond,
                    paddock.p50 > 0 ? reference.p50 / paddock.p50 : 0.0);
    curl_global_cleanup();
    return 0;
}

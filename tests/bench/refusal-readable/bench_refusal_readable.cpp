// SPDX-License-Identifier: GPL-3.0-or-later
// How soon a refusal a client has seen is readable in the event log: the proxy refuses a
// plain-HTTP request (403), the client reads its answer, and a reader asks for what happened
// as `paddock policy log` does (the proxy's turn ended, its events drained, the hub flushed,
// then a query). The reference in the same run: a reader that does not ask, and polls the
// database every millisecond until the refusal is there (what the log had before).
// Goal: readable at most 20 ms after the client has its 403, at the 99th percentile.
#include "events/EventHub.h"
#include "events/EventStore.h"
#include "network/ProxyEvents.h"
#include "proxy/ProxyEngine.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace paddock;
using Clock = std::chrono::steady_clock;

namespace {

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5))];
}

/** A client asking the proxy for @p host; true once it has the 403. */
bool refused(quint16 port, const std::string &host)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return false;
    }
    const std::string request = "GET http://" + host + "/ HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    bool answered = ::send(fd, request.data(), request.size(), 0) == ssize_t(request.size());
    char buffer[512];
    const ssize_t n = answered ? ::recv(fd, buffer, sizeof buffer, 0) : -1;
    answered = n > 12 && std::string(buffer, 12) == "HTTP/1.1 403";
    ::close(fd);
    return answered;
}

bool inLog(events::EventStore &store, const QString &host)
{
    events::LogFilter filter;
    filter.sandbox = QStringLiteral("bench");
    const events::PolicyLog log = store.log(filter);
    return std::any_of(log.blocked.cbegin(), log.blocked.cend(),
                       [&host](const events::BlockedEntry &entry) { return entry.host == host; });
}

/** Milliseconds from each client's 403 to its refusal in the log, @p ask: the reader asks first. */
std::vector<double> measure(proxy::ProxyEngine &engine, events::EventHub &hub, quint16 port, bool ask, int rounds)
{
    events::EventStore store(hub.databasePath());
    store.open();
    std::vector<double> latencies;
    static int serial = 0;
    for (int i = 0; i < rounds; ++i) {
        const QString host = QStringLiteral("refused-%1.test").arg(++serial);
        if (!refused(port, host.toStdString()))
            continue;
        const auto seen = Clock::now();
        if (ask) {
            engine.drainEvents();
            hub.flush();
        }
        while (!inLog(store, host) && Clock::now() - seen < std::chrono::seconds(5))
            ::usleep(1000);
        latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - seen).count());
    }
    return latencies;
}

void print(const char *what, const std::vector<double> &ms)
{
    std::printf("  %-44s n=%zu  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", what, ms.size(), percentile(ms, 0.5),
                percentile(ms, 0.99), ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end()));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.*.info=false\npaddock.*.debug=false"));
    QTemporaryDir dir;
    events::EventHub::Options options;
    options.databasePath = dir.filePath(QStringLiteral("events.sqlite"));
    events::EventHub hub(options);
    proxy::ProxyEngine engine;
    engine.setDecider([](const proxy::ConnectionQuery &query) {
        return proxy::Verdict{false, QStringLiteral("default deny"),
                              QStringLiteral("%1 is not allowed by any rule").arg(query.host), QStringLiteral("-")};
    });
    engine.setEventSink([&hub](const proxy::ProxyEvent &event) {
        if (const std::optional<events::NetworkEvent> e = network::toNetworkEvent(event))
            hub.publish(*e);
    });
    quint16 port = 0;
    Result<void> started = engine.start();
    if (started.ok()) {
        const Result<proxy::ProxyEngine::EndpointId> added =
            engine.addTcpEndpoint(QHostAddress::LocalHost, 0, {QStringLiteral("bench"), QStringLiteral("kit")}, &port);
        if (!added)
            started = added.error();
    }
    if (!started) {
        std::fprintf(stderr, "the proxy did not start: %s\n", qPrintable(started.error().text()));
        return 1;
    }
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
    std::printf("refusal → readable in the event log, %d refusals each (flush interval %lld ms)\n\n", rounds,
                static_cast<long long>(options.flushInterval.count()));
    // Alternating halves, so that a noisy moment of the machine falls on both.
    std::vector<double> asked, polled;
    for (int half = 0; half < 2; ++half) {
        const std::vector<double> a = measure(engine, hub, port, true, rounds / 2);
        const std::vector<double> p = measure(engine, hub, port, false, rounds / 2);
        asked.insert(asked.end(), a.begin(), a.end());
        polled.insert(polled.end(), p.begin(), p.end());
    }
    print("the reader asks first (policy log, window)", asked);
    print("reference: the reader polls, does not ask", polled);
    std::printf("\n  p99 %.2f ms against the goal of 20 ms; %.1fx sooner than polling at the p99\n",
                percentile(asked, 0.99), percentile(polled, 0.99) / std::max(0.001, percentile(asked, 0.99)));
    engine.stop();
    return 0;
}

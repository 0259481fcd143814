// SPDX-License-Identifier: GPL-3.0-or-later
// Load generator for the proxy benchmarks (tests/bench/proxy/run.sh). Plain sockets and
// threads, so the client costs the same whichever proxy it measures.
//
//   proxy-bench rate --proxy H:P --target H:P --path /small --clients 32 --count 4000
//       CONNECT + one GET per connection (no keep-alive): requests/s, p50/p99 latency.
//   proxy-bench idle --proxy H:P --target H:P --count 2000 --pid PID
//       holds COUNT idle tunnels open; the proxy's RSS and the kernel's TCP memory before/after.
//   proxy-bench deny --proxy H:P --jsonl FILE --count 200
//       refused CONNECTs one at a time; time from sending each to its line in the JSONL file.
//
// Every loop is bounded by a count and by --seconds (default 60).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options
{
    std::string mode;
    std::string proxy;
    std::string target;
    std::string path = "/small";
    std::string jsonl;
    int clients = 32;
    int count = 1000;
    int pid = 0;
    int seconds = 60;
};

bool parseOptions(int argc, char **argv, Options *options)
{
    if (argc < 2)
        return false;
    options->mode = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const std::string value = argv[i + 1];
        if (key == "--proxy")
            options->proxy = value;
        else if (key == "--target")
            options->target = value;
        else if (key == "--path")
            options->path = value;
        else if (key == "--jsonl")
            options->jsonl = value;
        else if (key == "--clients")
            options->clients = std::atoi(value.c_str());
        else if (key == "--count")
            options->count = std::atoi(value.c_str());
        else if (key == "--pid")
            options->pid = std::atoi(value.c_str());
        else if (key == "--seconds")
            options->seconds = std::atoi(value.c_str());
        else
            return false;
    }
    return !options->proxy.empty();
}

/** Connects to an IPv4 "host:port"; -1 on failure. */
int connectTo(const std::string &hostPort)
{
    const auto colon = hostPort.rfind(':');
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(std::atoi(hostPort.c_str() + colon + 1)));
    if (inet_pton(AF_INET, hostPort.substr(0, colon).c_str(), &address.sin_addr) != 1)
        return -1;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const std::string &data)
{
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return true;
}

/** Reads until the end of a response head; returns the status code, or 0. */
int readHead(int fd, int timeoutMs)
{
    std::string head;
    char buffer[1024];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, timeoutMs) <= 0)
            return 0;
        // Peek first so no byte after the head is consumed: the tunnel's data follows it.
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_PEEK);
        if (n <= 0)
            return 0;
        const std::string chunk(buffer, std::size_t(n));
        const std::string joined = head + chunk;
        const auto end = joined.find("\r\n\r\n");
        const std::size_t take = end == std::string::npos ? std::size_t(n) : end + 4 - head.size();
        if (::recv(fd, buffer, take, 0) != ssize_t(take))
            return 0;
        head.append(buffer, take);
    }
    if (head.size() < 12 || head.compare(0, 5, "HTTP/") != 0)
        return 0;
    return std::atoi(head.c_str() + head.find(' ') + 1);
}

/** Reads to EOF; returns the bytes read, -1 on error or timeout. */
long drain(int fd, int timeoutMs)
{
    long total = 0;
    char buffer[16384];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, timeoutMs) <= 0)
            return -1;
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n == 0)
            return total;
        if (n < 0)
            return -1;
        total += n;
    }
}

std::string connectRequest(const std::string &target)
{
    return "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n";
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t index = std::min(values.size() - 1, std::size_t(p / 100.0 * double(values.size())));
    return values[index];
}

int runRate(const Options &o)
{
    const std::string connect = connectRequest(o.target);
    const std::string get = "GET " + o.path + " HTTP/1.1\r\nHost: " + o.target + "\r\nConnection: close\r\n\r\n";
    const auto deadline = Clock::now() + std::chrono::seconds(o.seconds);
    std::atomic<int> next{0};
    std::atomic<int> errors{0};
    std::mutex mutex;
    std::vector<double> latencies;
    latencies.reserve(std::size_t(o.count));
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < o.clients; ++c) {
        threads.emplace_back([&] {
            std::vector<double> mine;
            while (next.fetch_add(1) < o.count && Clock::now() < deadline) {
                const auto t0 = Clock::now();
                const int fd = connectTo(o.proxy);
                bool ok = fd >= 0 && sendAll(fd, connect) && readHead(fd, 10000) == 200 && sendAll(fd, get) &&
                          readHead(fd, 10000) == 200 && drain(fd, 10000) >= 0;
                if (fd >= 0)
                    ::close(fd);
                if (!ok) {
                    ++errors;
                    continue;
                }
                mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            const std::lock_guard lock(mutex);
            latencies.insert(latencies.end(), mine.begin(), mine.end());
        });
    }
    for (std::thread &t : threads)
        t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("ok=%zu errors=%d seconds=%.2f rps=%.0f p50_ms=%.2f p99_ms=%.2f\n", latencies.size(), errors.load(),
                seconds, double(latencies.size()) / seconds, percentile(latencies, 50), percentile(latencies, 99));
    return errors.load() == 0 ? 0 : 1;
}

long rssKiB(int pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atol(line.c_str() + 6);
    }
    return -1;
}

/** The kernel's TCP buffer memory in pages (the "mem" field of /proc/net/sockstat). */
long tcpMemPages()
{
    std::ifstream sockstat("/proc/net/sockstat");
    std::string line;
    while (std::getline(sockstat, line)) {
        if (line.rfind("TCP:", 0) == 0) {
            const auto at = line.find(" mem ");
            return at == std::string::npos ? -1 : std::atol(line.c_str() + at + 5);
        }
    }
    return -1;
}

int runIdle(const Options &o)
{
    const std::string connect = connectRequest(o.target);
    const auto deadline = Clock::now() + std::chrono::seconds(o.seconds);
    const long rssBefore = rssKiB(o.pid);
    const long memBefore = tcpMemPages();
    std::vector<int> tunnels;
    int errors = 0;
    for (int i = 0; i < o.count && Clock::now() < deadline; ++i) {
        const int fd = connectTo(o.proxy);
        if (fd >= 0 && sendAll(fd, connect) && readHead(fd, 10000) == 200) {
            tunnels.push_back(fd);
            continue;
        }
        ++errors;
        if (fd >= 0)
            ::close(fd);
    }
    // Let the proxy settle (lazy buffers, the allocator) before reading its size.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const long rssAfter = rssKiB(o.pid);
    const long memAfter = tcpMemPages();
    // Every tunnel must still be open: a closed one reads EOF at once.
    int stillOpen = 0;
    for (int fd : tunnels) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 0) == 0)
            ++stillOpen;
    }
    for (int fd : tunnels)
        ::close(fd);
    const double perTunnel = tunnels.empty() ? 0 : double(rssAfter - rssBefore) / double(tunnels.size());
    std::printf("requested=%d held=%d still_open=%d errors=%d rss_before_kib=%ld rss_after_kib=%ld "
                "kib_per_tunnel=%.1f tcp_mem_pages_delta=%ld\n",
                o.count, int(tunnels.size()), stillOpen, errors, rssBefore, rssAfter, perTunnel, memAfter - memBefore);
    return errors == 0 && stillOpen == o.count ? 0 : 1;
}

int runDeny(const Options &o)
{
    const int notify = ::inotify_init1(IN_CLOEXEC);
    if (notify < 0 || ::inotify_add_watch(notify, o.jsonl.c_str(), IN_MODIFY) < 0) {
        std::fprintf(stderr, "proxy-bench: cannot watch %s\n", o.jsonl.c_str());
        return 1;
    }
    std::ifstream file(o.jsonl);
    file.seekg(0, std::ios::end);
    std::string pending;
    const auto deadline = Clock::now() + std::chrono::seconds(o.seconds);
    std::vector<double> latencies;
    int errors = 0;
    for (int i = 0; i < o.count && Clock::now() < deadline; ++i) {
        const std::string host = "refused-" + std::to_string(i) + ".bench.test";
        const int fd = connectTo(o.proxy);
        const auto t0 = Clock::now();
        if (fd < 0 || !sendAll(fd, connectRequest(host + ":443")) || readHead(fd, 5000) != 403) {
            ++errors;
            if (fd >= 0)
                ::close(fd);
            continue;
        }
        ::close(fd);
        bool seen = false;
        const auto giveUp = Clock::now() + std::chrono::seconds(2);
        while (!seen && Clock::now() < giveUp) {
            std::string line;
            file.clear();
            while (std::getline(file, line)) {
                if (file.eof()) { // a partial line: keep it for the next read
                    pending += line;
                    break;
                }
                line = pending + line;
                pending.clear();
                if (line.find("\"" + host + "\"") != std::string::npos)
                    seen = true;
            }
            if (seen)
                break;
            pollfd p{notify, POLLIN, 0};
            if (::poll(&p, 1, 50) > 0) {
                char events[4096];
                [[maybe_unused]] const ssize_t n = ::read(notify, events, sizeof events);
            }
        }
        if (!seen) {
            ++errors;
            continue;
        }
        latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    ::close(notify);
    std::printf("refusals=%zu errors=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n", latencies.size(), errors,
                percentile(latencies, 50), percentile(latencies, 99), percentile(latencies, 100));
    return errors == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    if (!parseOptions(argc, argv, &options)) {
        std::fprintf(stderr, "usage: proxy-bench rate|idle|deny --proxy HOST:PORT [--target HOST:PORT] [--path P] "
                             "[--clients N] [--count N] [--pid PID] [--jsonl FILE] [--seconds S]\n");
        return 2;
    }
    // Idle tunnels need a descriptor each.
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (options.mode == "rate")
        return runRate(options);
    if (options.mode == "idle")
        return runIdle(options);
    if (options.mode == "deny")
        return runDeny(options);
    std::fprintf(stderr, "proxy-bench: unknown mode %s\n", options.mode.c_str());
    return 2;
}

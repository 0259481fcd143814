// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxNetwork.h"
#include "Capture.h"
#include "Refusals.h"

#include <cstdio>
#include <thread>

#include <unistd.h>

namespace paddock::init {

CapturedNetwork prepareCapture(const NetworkOptions &options)
{
    CapturedNetwork captured;
    if (!options.capture || options.relays.empty())
        return captured;
    CaptureSettings settings;
    std::string error;
    if (!captureConnections(settings, &error)) {
        std::fprintf(stderr,
                     "paddock-init: connections that do not use the proxy are not captured in this sandbox (%s); "
                     "they have no way out, and only the names looked up are logged\n",
                     error.c_str());
        // Names are still answered (refused), so each one looked up is reported.
        std::string ignored;
        openNameServer(settings.dnsPort, &captured.nameServer, &ignored);
        return captured;
    }
    if (!openNameServer(settings.dnsPort, &captured.nameServer, &error)) {
        std::fprintf(stderr, "paddock-init: names are not answered in this sandbox: %s\n", error.c_str());
        return captured;
    }
    captured.names = std::make_shared<NameTable>();
    captured.ipv6 = hasIpv6Loopback();
    captured.refusedDatagrams = openRefusedDatagrams(settings.logGroup, &error);
    if (captured.refusedDatagrams < 0)
        std::fprintf(stderr, "paddock-init: refused datagrams are not reported (%s)\n", error.c_str());
    return captured;
}

std::optional<int> startNetwork(const NetworkOptions &options, const CapturedNetwork &captured,
                                std::vector<int> *listeners)
{
    std::vector<RelaySpec> relays = options.relays;
    // Capture brings every connection to a port of its own, on 127.0.0.1 and ::1, relayed to the
    // same proxy socket as the proxy's clients.
    if (captured.names && !relays.empty()) {
        const CaptureSettings settings;
        relays.push_back(RelaySpec{"127.0.0.1", settings.capturePort, relays.front().socketPath, false, true});
        if (captured.ipv6)
            relays.push_back(RelaySpec{"::1", settings.capturePort, relays.front().socketPath, false, true});
    }
    for (auto &spec : relays) {
        spec.handOver = options.handOver;
        std::string error;
        const int fd = listenOn(spec, &error);
        if (fd < 0) {
            std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
            return 1;
        }
        listeners->push_back(fd);
    }
    if (!listeners->empty())
        std::thread([relays, fds = *listeners, names = captured.names] { runRelay(relays, fds, names); }).detach();
    if (captured.nameServer.ipv4 >= 0) {
        auto reporter = std::make_shared<RefusalReporter>(relays.front().socketPath);
        std::thread([server = captured.nameServer, names = captured.names, reporter] {
            runNameServer(server, names, reporter);
        }).detach();
        if (captured.refusedDatagrams >= 0)
            std::thread([fd = captured.refusedDatagrams, names = captured.names, reporter] {
                runDatagramReports(fd, names, reporter);
            }).detach();
    }
    if (!options.publishes.empty())
        std::thread([publishes = options.publishes] { runPublisher(publishes); }).detach();
    return std::nullopt;
}

} // namespace paddock::init

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ClientOwner.h"
#include "NameTable.h"
#include "common/ClientProgram.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace paddock::init {

/**
 * @brief Tells the proxy about what the sandbox's capture refused on its own: a datagram, a
 * name the resolver could not answer. Each is one connection to the proxy's socket carrying a
 * report line (common/ClientProgram.h, version 3), so it becomes an event like any refusal.
 *
 * A loop inside cannot flood the proxy with them: one report per destination per second, and
 * at most @ref kPerSecond in all; the rest are counted in the next report of their destination.
 * Thread-safe.
 */
class RefusalReporter
{
public:
    static constexpr int kPerSecond = 20;

    explicit RefusalReporter(std::string proxySocket) : m_proxySocket(std::move(proxySocket)) {}

    /** Reports @p to, refused for @p program, unless the limits say it was reported just now. */
    void report(const ClientProgram &program, const preamble::Destination &to);

private:
    using Clock = std::chrono::steady_clock;
    bool admit(const std::string &key, Clock::time_point now);

    std::string m_proxySocket;
    std::mutex m_mutex;
    std::map<std::string, Clock::time_point> m_lastSent;
    Clock::time_point m_window;
    int m_sentInWindow = 0;
};

/** Reads the datagrams capture refused from @p fd (Capture.h) and reports each; never returns. */
void runDatagramReports(int fd, std::shared_ptr<NameTable> names, std::shared_ptr<RefusalReporter> reporter);

} // namespace paddock::init

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QHostAddress>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace paddock::proxy {

/**
 * @brief Trusted name-to-address mappings consulted before DNS, like curl's
 * `--resolve HOST:PORT:ADDRESS`. Port 0 matches every port. Thread-safe.
 */
class ResolveOverrides
{
public:
    void set(const QString &host, quint16 port, std::vector<QHostAddress> addresses);
    void remove(const QString &host, quint16 port);
    void clear();
    /** The addresses for @p host (lower case, no trailing dot) and @p port, if mapped. */
    std::optional<std::vector<QHostAddress>> lookup(const std::string &host, quint16 port) const;

    /** Parses `HOST:PORT:ADDRESS[,ADDRESS...]` (port may be `*`) and adds it. */
    Result<void> addCurlStyle(const QString &entry);

private:
    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, quint16>, std::vector<QHostAddress>> m_entries;
};

/**
 * @brief getaddrinfo on a few worker threads, so a slow lookup holds up only the connection
 * that needs it, never the relay loop. Results are collected by the loop after @p wake.
 *
 * Every endpoint (sandbox) has a queue of its own, and the threads take from the queues in
 * turn, each endpoint with at most @ref Limits::perEndpoint lookups running and
 * @ref Limits::queuedPerEndpoint waiting: a sandbox that asks for many names that are slow to
 * resolve waits behind its own lookups, while the others' go on.
 */
class ResolverPool
{
public:
    struct Limits
    {
        int threads = 8;
        int perEndpoint = 2;
        std::size_t queuedPerEndpoint = 64;
    };
    struct Result
    {
        std::uint64_t ticket = 0;
        std::vector<QHostAddress> addresses;
        std::string error; ///< set when the name did not resolve
    };

    ResolverPool(Limits limits, std::function<void()> wake);
    ~ResolverPool();
    ResolverPool(const ResolverPool &) = delete;
    ResolverPool &operator=(const ResolverPool &) = delete;

    /** Queues a lookup of @p host for @p endpoint; false when that endpoint's queue is full. */
    bool submit(std::uint64_t endpoint, std::uint64_t ticket, std::string host);
    /** Drops a queued lookup (its connection has gone); one already running still ends. */
    void cancel(std::uint64_t endpoint, std::uint64_t ticket);
    std::vector<Result> takeResults();

private:
    struct Job
    {
        std::uint64_t endpoint = 0;
        std::uint64_t ticket = 0;
        std::string host;
    };
    struct Queue
    {
        std::deque<Job> jobs;
        int running = 0;
    };

    void work();
    /** The next job in turn whose endpoint may run one more; under the lock. */
    std::optional<Job> nextJob();
    static Result lookUp(const Job &job);

    Limits m_limits;
    std::function<void()> m_wake;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::map<std::uint64_t, Queue> m_queues;
    std::uint64_t m_lastServed = 0; ///< the endpoint served last: the turn goes on after it
    std::vector<Result> m_results;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace paddock::proxy

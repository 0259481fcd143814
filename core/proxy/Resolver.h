// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    bool addCurlStyle(const QString &entry, QString *error = nullptr);

private:
    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, quint16>, std::vector<QHostAddress>> m_entries;
};

/**
 * @brief getaddrinfo on a few worker threads, so a slow lookup holds up only the connection
 * that needs it, never the relay loop. Results are collected by the loop after @p wake.
 */
class ResolverPool
{
public:
    struct Result
    {
        std::uint64_t ticket = 0;
        std::vector<QHostAddress> addresses;
        std::string error; ///< set when the name did not resolve
    };

    ResolverPool(int threads, std::function<void()> wake);
    ~ResolverPool();
    ResolverPool(const ResolverPool &) = delete;
    ResolverPool &operator=(const ResolverPool &) = delete;

    void submit(std::uint64_t ticket, std::string host);
    std::vector<Result> takeResults();

private:
    void work();

    std::function<void()> m_wake;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<std::pair<std::uint64_t, std::string>> m_jobs;
    std::vector<Result> m_results;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace paddock::proxy

// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Resolver.h"

#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>

namespace paddock::proxy {
namespace {

std::string normalised(const QString &host)
{
    std::string text = host.trimmed().toLower().toStdString();
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    return text;
}

} // namespace

void ResolveOverrides::set(const QString &host, quint16 port, std::vector<QHostAddress> addresses)
{
    const std::lock_guard lock(m_mutex);
    m_entries[{normalised(host), port}] = std::move(addresses);
}

void ResolveOverrides::remove(const QString &host, quint16 port)
{
    const std::lock_guard lock(m_mutex);
    m_entries.erase({normalised(host), port});
}

void ResolveOverrides::clear()
{
    const std::lock_guard lock(m_mutex);
    m_entries.clear();
}

std::optional<std::vector<QHostAddress>> ResolveOverrides::lookup(const std::string &host, quint16 port) const
{
    const std::lock_guard lock(m_mutex);
    if (m_entries.empty())
        return std::nullopt;
    auto it = m_entries.find({host, port});
    if (it == m_entries.end())
        it = m_entries.find({host, quint16(0)});
    if (it == m_entries.end())
        return std::nullopt;
    return it->second;
}

Result<void> ResolveOverrides::addCurlStyle(const QString &entry)
{
    // HOST:PORT:ADDRESS[,ADDRESS]; an IPv6 address may be bracketed.
    const qsizetype first = entry.indexOf(QLatin1Char(':'));
    const qsizetype second = first < 0 ? -1 : entry.indexOf(QLatin1Char(':'), first + 1);
    if (second < 0)
        return fail(QStringLiteral("expected HOST:PORT:ADDRESS, got \"%1\"").arg(entry));
    const QString host = entry.left(first);
    const QString portText = entry.mid(first + 1, second - first - 1);
    bool ok = portText == QLatin1String("*");
    const uint port = ok ? 0 : portText.toUInt(&ok);
    if (host.isEmpty() || !ok || port > 65535)
        return fail(QStringLiteral("invalid host or port in \"%1\"").arg(entry));
    std::vector<QHostAddress> addresses;
    for (QString text : entry.mid(second + 1).split(QLatin1Char(','))) {
        if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
            text = text.mid(1, text.size() - 2);
        const QHostAddress address(text);
        if (address.isNull())
            return fail(QStringLiteral("\"%1\" is not an IP address").arg(text));
        addresses.push_back(address);
    }
    set(host, quint16(port), std::move(addresses));
    return {};
}

ResolverPool::ResolverPool(Limits limits, std::function<void()> wake) : m_limits(limits), m_wake(std::move(wake))
{
    m_limits.perEndpoint = std::max(1, m_limits.perEndpoint);
    for (int i = 0; i < std::max(1, m_limits.threads); ++i)
        m_threads.emplace_back([this] { work(); });
}

ResolverPool::~ResolverPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_queues.clear();
    }
    m_ready.notify_all();
    for (std::thread &thread : m_threads)
        thread.join();
}

bool ResolverPool::submit(std::uint64_t endpoint, std::uint64_t ticket, std::string host)
{
    {
        const std::lock_guard lock(m_mutex);
        Queue &queue = m_queues[endpoint];
        if (queue.jobs.size() >= m_limits.queuedPerEndpoint)
            return false;
        queue.jobs.push_back({endpoint, ticket, std::move(host)});
    }
    m_ready.notify_one();
    return true;
}

void ResolverPool::cancel(std::uint64_t endpoint, std::uint64_t ticket)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_queues.find(endpoint);
    if (it == m_queues.end())
        return;
    std::deque<Job> &jobs = it->second.jobs;
    jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [ticket](const Job &job) { return job.ticket == ticket; }),
               jobs.end());
    if (jobs.empty() && it->second.running == 0)
        m_queues.erase(it);
}

std::vector<ResolverPool::Result> ResolverPool::takeResults()
{
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_results, {});
}

std::optional<ResolverPool::Job> ResolverPool::nextJob()
{
    // Round robin over the endpoints, starting after the one served last.
    auto it = m_queues.upper_bound(m_lastServed);
    for (std::size_t seen = 0; seen < m_queues.size(); ++seen, ++it) {
        if (it == m_queues.end())
            it = m_queues.begin();
        Queue &queue = it->second;
        if (queue.jobs.empty() || queue.running >= m_limits.perEndpoint)
            continue;
        Job job = std::move(queue.jobs.front());
        queue.jobs.pop_front();
        ++queue.running;
        m_lastServed = it->first;
        return job;
    }
    return std::nullopt;
}

ResolverPool::Result ResolverPool::lookUp(const Job &job)
{
    Result result;
    result.ticket = job.ticket;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *list = nullptr;
    const int status = getaddrinfo(job.host.c_str(), nullptr, &hints, &list);
    if (status != 0) {
        result.error = gai_strerror(status);
        return result;
    }
    for (const addrinfo *entry = list; entry; entry = entry->ai_next) {
        const QHostAddress address(entry->ai_addr);
        if (!address.isNull() &&
            std::find(result.addresses.begin(), result.addresses.end(), address) == result.addresses.end())
            result.addresses.push_back(address);
    }
    freeaddrinfo(list);
    if (result.addresses.empty())
        result.error = "no address";
    return result;
}

void ResolverPool::work()
{
    while (true) {
        std::optional<Job> job;
        {
            std::unique_lock lock(m_mutex);
            m_ready.wait(lock, [this, &job] { return m_stopping || (job = nextJob()); });
            if (m_stopping)
                return;
        }
        Result result = lookUp(*job);
        {
            const std::lock_guard lock(m_mutex);
            if (m_stopping)
                return;
            const auto it = m_queues.find(job->endpoint);
            if (it != m_queues.end() && --it->second.running == 0 && it->second.jobs.empty())
                m_queues.erase(it);
            m_results.push_back(std::move(result));
        }
        // The endpoint may run another lookup now, which a thread waiting may take.
        m_ready.notify_one();
        m_wake();
    }
}

} // namespace paddock::proxy

// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/EventDispatcher.h"

namespace paddock::proxy {

QString protocolName(Protocol protocol)
{
    switch (protocol) {
    case Protocol::Connect:
        return QStringLiteral("connect");
    case Protocol::Http:
        return QStringLiteral("http");
    case Protocol::Socks:
        return QStringLiteral("socks");
    case Protocol::Tcp:
        return QStringLiteral("tcp");
    case Protocol::Udp:
        return QStringLiteral("udp");
    case Protocol::Dns:
        return QStringLiteral("dns");
    }
    return {};
}

QString eventKindName(ProxyEvent::Kind kind)
{
    switch (kind) {
    case ProxyEvent::Kind::Allowed:
        return QStringLiteral("allowed");
    case ProxyEvent::Kind::Denied:
        return QStringLiteral("denied");
    case ProxyEvent::Kind::UpstreamFailed:
        return QStringLiteral("upstream-failed");
    case ProxyEvent::Kind::Closed:
        return QStringLiteral("closed");
    case ProxyEvent::Kind::Held:
        return QStringLiteral("held");
    case ProxyEvent::Kind::Request:
        return QStringLiteral("request");
    case ProxyEvent::Kind::HoldEnded:
        return QStringLiteral("hold-ended");
    }
    return {};
}

EventDispatcher::EventDispatcher(EventSink sink) : m_sink(std::move(sink)), m_thread([this] { run(); }) {}

EventDispatcher::~EventDispatcher()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_ready.notify_one();
    m_thread.join();
}

void EventDispatcher::enqueueLocked(ProxyEvent &&event)
{
    if (m_queue.size() >= MaxPending) {
        m_queue.pop_front();
        ++m_dropped;
    }
    m_queue.push_back(std::move(event));
}

void EventDispatcher::post(ProxyEvent event)
{
    {
        const std::lock_guard lock(m_mutex);
        enqueueLocked(std::move(event));
    }
    m_ready.notify_one();
}

void EventDispatcher::post(std::vector<ProxyEvent> &events)
{
    if (events.empty())
        return;
    bool wasEmpty = false;
    {
        const std::lock_guard lock(m_mutex);
        wasEmpty = m_queue.empty();
        for (ProxyEvent &event : events)
            enqueueLocked(std::move(event));
    }
    events.clear();
    // A queue that held events already has the thread awake, or about to take them.
    if (wasEmpty)
        m_ready.notify_one();
}

void EventDispatcher::run()
{
    std::unique_lock lock(m_mutex);
    while (true) {
        m_ready.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty())
            return; // stopping, and everything was delivered
        std::deque<ProxyEvent> batch;
        batch.swap(m_queue);
        m_delivering = true;
        lock.unlock();
        if (m_sink) {
            for (const ProxyEvent &event : batch)
                m_sink(event);
        }
        lock.lock();
        m_delivering = false;
        if (m_queue.empty())
            m_idle.notify_all();
    }
}

bool EventDispatcher::drain(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    return m_idle.wait_for(lock, timeout, [this] { return m_queue.empty() && !m_delivering; });
}

} // namespace paddock::proxy

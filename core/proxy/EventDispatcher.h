// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/ProxyTypes.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace paddock::proxy {

/**
 * @brief Hands events from the relay loop to the sink on a thread of its own, so a slow sink
 * (a database insert, a queued Qt signal) never stalls the relay. The queue is bounded: past
 * @ref MaxPending events the oldest are dropped and counted.
 */
class EventDispatcher
{
public:
    static constexpr std::size_t MaxPending = 65536;

    explicit EventDispatcher(EventSink sink);
    /** Delivers what is queued, then stops. */
    ~EventDispatcher();
    EventDispatcher(const EventDispatcher &) = delete;
    EventDispatcher &operator=(const EventDispatcher &) = delete;

    void post(ProxyEvent event);
    /** Posts several at once: one lock and at most one wake-up for all of them. */
    void post(std::vector<ProxyEvent> &events);
    quint64 dropped() const { return m_dropped.load(); }
    /**
     * Waits until every event posted before the call has reached the sink, at most @p timeout.
     * False when it timed out.
     */
    bool drain(std::chrono::milliseconds timeout);

private:
    void run();
    /** Appends under @ref m_mutex, dropping the oldest past MaxPending. */
    void enqueueLocked(ProxyEvent &&event);

    EventSink m_sink;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_idle; ///< the queue is empty and nothing is being delivered
    bool m_delivering = false;
    std::deque<ProxyEvent> m_queue;
    bool m_stopping = false;
    std::atomic<quint64> m_dropped{0};
    std::thread m_thread;
};

} // namespace paddock::proxy

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/InjectStream.h"
#include "proxy/ProxyTypes.h"
#include "proxy/ResponseStream.h"

#include <chrono>
#include <deque>
#include <functional>
#include <vector>

namespace paddock::proxy {

/**
 * @brief Pairs the requests of one intercepted connection with their responses, in order,
 * and reports a record (ProxyEvent::Kind::Request) for each: method, path with the query
 * redacted, status, bytes each way, duration and the rule that decided. Header values never
 * reach it: it sees RequestNote and ResponseStream::Ended only.
 */
class RequestRecorder
{
public:
    using Clock = std::chrono::steady_clock;

    /** @p eventTemplate: identity, host, port, protocol and the connection's rule. */
    RequestRecorder(ProxyEvent eventTemplate, std::function<void(ProxyEvent)> report);
    /** finish(): what is still open is reported. */
    ~RequestRecorder() { finish(); }
    RequestRecorder(const RequestRecorder &) = delete;
    RequestRecorder &operator=(const RequestRecorder &) = delete;

    /** A request head was read: forwarded (it waits for its response) or refused (reported now). */
    void started(const inject::RequestNote &note, const QString &refusalReason = {});
    /** @p bytes more from the sandbox went upstream; counted to the newest request. */
    void sentUp(std::uint64_t bytes);
    /** These responses ended: the oldest waiting requests are reported with them. */
    void ended(const std::vector<inject::ResponseStream::Ended> &responses);
    /** The connection ended: requests still waiting are reported with status 0. */
    void finish();

private:
    struct Open
    {
        QString method;
        QString path;
        QString rule;
        Clock::time_point started;
        std::uint64_t bytesUp = 0;
    };
    void report(const Open &open, int status, std::uint64_t bytesDown, bool refused, const QString &reason) const;

    ProxyEvent m_template;
    std::function<void(ProxyEvent)> m_report;
    std::deque<Open> m_open;
};

} // namespace paddock::proxy

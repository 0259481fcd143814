// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/RequestRecorder.h"

#include "common/RequestTarget.h"

namespace paddock::proxy {

RequestRecorder::RequestRecorder(ProxyEvent eventTemplate, std::function<void(ProxyEvent)> report)
    : m_template(std::move(eventTemplate)), m_report(std::move(report))
{}

void RequestRecorder::started(const inject::RequestNote &note, const QString &refusalReason)
{
    Open open;
    open.method = QString::fromStdString(note.method);
    open.path = redactedTarget(note.target);
    open.rule = note.rule.empty() ? m_template.rule : QString::fromStdString(note.rule);
    open.started = Clock::now();
    if (note.refused)
        return report(open, 403, 0, true, refusalReason);
    m_open.push_back(std::move(open));
}

void RequestRecorder::sentUp(std::uint64_t bytes)
{
    if (!m_open.empty())
        m_open.back().bytesUp += bytes;
}

void RequestRecorder::ended(const std::vector<inject::ResponseStream::Ended> &responses)
{
    for (const inject::ResponseStream::Ended &response : responses) {
        if (m_open.empty())
            return; // a response to nothing the sandbox asked: not a request of its own
        report(m_open.front(), response.status, response.bytes, false, {});
        m_open.pop_front();
    }
}

void RequestRecorder::finish()
{
    for (const Open &open : m_open)
        report(open, 0, 0, false, QStringLiteral("no response came"));
    m_open.clear();
}

void RequestRecorder::report(const Open &open, int status, std::uint64_t bytesDown, bool refused,
                             const QString &reason) const
{
    if (!m_report)
        return;
    ProxyEvent event = m_template;
    event.time = QDateTime::currentDateTimeUtc();
    event.kind = ProxyEvent::Kind::Request;
    event.rule = open.rule;
    event.reason = reason;
    event.method = open.method;
    event.path = open.path;
    event.status = status;
    event.refused = refused;
    event.bytesUp = refused ? 0 : open.bytesUp;
    event.bytesDown = bytesDown;
    event.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - open.started);
    m_report(std::move(event));
}

} // namespace paddock::proxy

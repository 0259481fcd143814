// SPDX-License-Identifier: GPL-3.0-or-later
// Connections held while a person decides (Verdict::ask): holding, answering, a rule that
// answers meanwhile, and the end of a hold whatever ends it.
#include "proxy/ProxyLoopInternal.h"

namespace paddock::proxy {

using namespace loop;

void ProxyLoop::answer(std::vector<quint64> connections, HoldAnswer answer)
{
    if (!m_running)
        return;
    post([this, connections = std::move(connections), answer = std::move(answer)] {
        for (const quint64 id : connections) {
            const auto it = m_connections.find(id);
            if (it == m_connections.end() || it->second->phase != Phase::Held)
                continue; // answered by a rule meanwhile, timed out, or the client left
            Connection &c = *it->second;
            if (answer.allow) {
                c.answeredAllow = true;
                resumeHeld(c, answer.rule);
            } else {
                refuse(c, Refusal::policy(Verdict{false, answer.rule, answer.reason, answer.fix}));
            }
        }
    });
}

void ProxyLoop::hold(Connection &c, const Verdict &verdict)
{
    Q_ASSERT(isLoopThread());
    // A sandbox cannot bury the person under questions, nor hold descriptors without end.
    if (c.endpoint->held >= m_limits.maxHeldPerEndpoint)
        return refuse(c,
                      Refusal::limit(503, QStringLiteral("sandbox %1 already has %2 connections waiting for an answer")
                                              .arg(c.endpoint->identity.sandbox)
                                              .arg(m_limits.maxHeldPerEndpoint)));
    ++c.endpoint->held;
    c.phase = Phase::Held;
    c.held = verdict;
    const std::chrono::milliseconds wait = verdict.askFor.count() > 0 ? verdict.askFor : m_limits.askTimeout;
    c.deadline = m_now + wait;
    ProxyEvent event = eventOf(c, Kind::Held, verdict.rule, verdict.reason);
    event.deadline = event.time.addMSecs(wait.count());
    postEvent(std::move(event));
    c.holdReported = true;
    updateInterest(c);
}

void ProxyLoop::endHold(Connection &c)
{
    if (!c.holdReported)
        return;
    c.holdReported = false;
    --c.endpoint->held;
    emitEvent(c, Kind::HoldEnded, c.held.rule, {});
}

void ProxyLoop::resumeHeld(Connection &c, const QString &rule)
{
    endHold(c);
    c.allowRule = rule;
    // Held before its name was looked up, or (an address, or a name whose addresses were
    // asked about) after.
    if (c.addresses.empty())
        return lookUp(c);
    afterResolution(c);
}

void ProxyLoop::holdExpired(Connection &c)
{
    if (c.held.allowUnanswered) {
        c.answeredAllow = true;
        return resumeHeld(c, c.held.rule + QStringLiteral(" (unanswered: allowed)"));
    }
    const std::chrono::milliseconds wait = c.held.askFor.count() > 0 ? c.held.askFor : m_limits.askTimeout;
    const qint64 seconds = (wait.count() + 999) / 1000; // a wait under a second still reads "1 s"
    refuse(c, Refusal::policy(Verdict{false, c.held.rule,
                                      QStringLiteral("nobody answered within %1 s; %2").arg(seconds).arg(c.held.reason),
                                      c.held.fix}));
}

void ProxyLoop::recheckHeld(Connection &c)
{
    const Verdict verdict = ask(c);
    if (verdict.ask)
        return; // still nobody's rule: the person decides
    if (!verdict.allowed)
        return refuse(c, Refusal::policy(verdict));
    resumeHeld(c, verdict.rule);
}

} // namespace paddock::proxy

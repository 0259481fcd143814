// SPDX-License-Identifier: GPL-3.0-or-later
#include "network/ProxyEvents.h"

#include "network/PolicyDecider.h"

#include <QLoggingCategory>

#include <functional>
#include <string_view>

Q_LOGGING_CATEGORY(lcProxyEvents, "paddock.network.events")

namespace paddock::network {
namespace {

/**
 * @p program's command line, as ClientProgram::commandLine() shows it. Each request of an
 * intercepted connection is an event of the same program, so the last one made on this thread
 * is kept, known by the program's process, file and a hash of its arguments (not the arguments
 * themselves, which may hold a token).
 */
QString commandOf(const ClientProgram &program)
{
    thread_local long lastPid = 0;
    thread_local std::size_t lastHash = 0;
    thread_local std::string lastExe;
    thread_local QString lastCommand;
    std::size_t hash = std::hash<bool>()(program.truncated);
    for (const std::string &arg : program.args)
        hash = hash * 1000003u ^ std::hash<std::string_view>()(arg);
    if (lastCommand.isNull() || program.pid != lastPid || hash != lastHash || program.exe != lastExe) {
        lastCommand = QString::fromStdString(program.commandLine());
        lastPid = program.pid;
        lastHash = hash;
        lastExe = program.exe;
    }
    return lastCommand;
}

} // namespace

std::optional<events::NetworkEvent> toNetworkEvent(const proxy::ProxyEvent &event)
{
    events::NetworkEvent result;
    switch (event.kind) {
    case proxy::ProxyEvent::Kind::Allowed:
        result.outcome = events::NetworkEvent::Outcome::Allowed;
        break;
    case proxy::ProxyEvent::Kind::Denied:
        result.outcome = events::NetworkEvent::Outcome::Denied;
        break;
    case proxy::ProxyEvent::Kind::UpstreamFailed:
        result.outcome = events::NetworkEvent::Outcome::UpstreamFailed;
        break;
    case proxy::ProxyEvent::Kind::Request:
        result.outcome = event.refused ? events::NetworkEvent::Outcome::Denied : events::NetworkEvent::Outcome::Allowed;
        result.request = events::RequestDetail{event.method, event.path, event.status, qint64(event.duration.count())};
        break;
    case proxy::ProxyEvent::Kind::Closed:
    case proxy::ProxyEvent::Kind::Held: // waiting connections are the ask registry's, not the log's
    case proxy::ProxyEvent::Kind::HoldEnded:
        return std::nullopt;
    }
    // Events keep millisecond precision; the proxy's time may be finer.
    const QDateTime time = event.time.isValid() ? event.time.toUTC() : events::currentEventTime();
    result.time = QDateTime::fromMSecsSinceEpoch(time.toMSecsSinceEpoch(), Qt::UTC);
    result.sandbox = event.sandbox;
    result.kit = event.kit;
    result.host = event.host;
    result.port = event.port;
    result.protocol = proxy::protocolName(event.protocol);
    result.rule = event.rule;
    result.reason = event.reason;
    // A connection let through by learning mode: recorded with what would have refused it.
    if (const std::optional<LearnedRefusal> learned = LearnedRefusal::fromLabel(event.rule)) {
        if (result.outcome == events::NetworkEvent::Outcome::Allowed)
            result.outcome = events::NetworkEvent::Outcome::Learned;
        result.rule = learned->rule;
        if (result.reason.isEmpty() || result.outcome == events::NetworkEvent::Outcome::Learned)
            result.reason = learned->reason;
    }
    result.bytesUp = qint64(event.bytesUp);
    result.bytesDown = qint64(event.bytesDown);
    if (event.program.known()) {
        result.pid = event.program.pid;
        result.program = QString::fromStdString(event.program.name());
        result.exe = QString::fromStdString(event.program.exe);
        result.command = commandOf(event.program);
        result.written = QString::fromStdString(event.program.writtenWhere);
    }
    qCDebug(lcProxyEvents).noquote() << events::outcomeToken(result.outcome) << result.host << result.port;
    return result;
}

} // namespace paddock::network

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the proxy's integration tests share: a Decider over a mutable allow list, an event log
// the tests can wait on, the engine on a TCP listener, and real local upstreams and clients.

#include "IsolatedHome.h"
#include "LocalUpstream.h"
#include "ProcessRun.h"

#include "proxy/ProxyEngine.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <mutex>
#include <set>

namespace paddock::proxy::testing {

/** @brief A Decider over a set of allowed host names, changeable while the proxy runs. */
class AllowList
{
public:
    void allow(const QString &host)
    {
        const std::lock_guard lock(m_mutex);
        m_allowed.insert(host);
    }
    void revoke(const QString &host)
    {
        const std::lock_guard lock(m_mutex);
        m_allowed.erase(host);
    }
    /** @p host, while not allowed, is asked about (Verdict::ask) rather than refused. */
    void ask(const QString &host)
    {
        const std::lock_guard lock(m_mutex);
        m_asked.insert(host);
    }
    std::vector<ConnectionQuery> queries() const
    {
        const std::lock_guard lock(m_mutex);
        return m_queries;
    }
    Decider decider()
    {
        return [this](const ConnectionQuery &query) {
            const std::lock_guard lock(m_mutex);
            m_queries.push_back(query);
            if (m_allowed.count(query.host))
                return Verdict{true, QStringLiteral("allow %1").arg(query.host), {}, {}};
            Verdict verdict{
                false, QStringLiteral("default deny"), QStringLiteral("%1 is not in the allowlist").arg(query.host),
                QStringLiteral("paddock policy allow network %1 --sandbox %2").arg(query.host, query.sandbox)};
            if (m_asked.count(query.host)) {
                verdict.ask = true;
                verdict.rule = QStringLiteral("ask");
            }
            return verdict;
        };
    }

private:
    mutable std::mutex m_mutex;
    std::set<QString> m_allowed;
    std::set<QString> m_asked;
    std::vector<ConnectionQuery> m_queries;
};

/** @brief Every event the proxy sent, in order. */
class EventLog
{
public:
    EventSink sink()
    {
        return [this](const ProxyEvent &event) {
            const std::lock_guard lock(m_mutex);
            m_events.push_back(event);
        };
    }
    std::vector<ProxyEvent> events() const
    {
        const std::lock_guard lock(m_mutex);
        return m_events;
    }
    /** The first event for @p host of @p kind, if any arrived. */
    std::optional<ProxyEvent> find(const QString &host, ProxyEvent::Kind kind) const
    {
        const std::lock_guard lock(m_mutex);
        for (const ProxyEvent &event : m_events) {
            if (event.host == host && event.kind == kind)
                return event;
        }
        return std::nullopt;
    }
    int count(const QString &host, ProxyEvent::Kind kind) const
    {
        const std::lock_guard lock(m_mutex);
        return int(std::count_if(m_events.begin(), m_events.end(),
                                 [&](const ProxyEvent &e) { return e.host == host && e.kind == kind; }));
    }

private:
    mutable std::mutex m_mutex;
    std::vector<ProxyEvent> m_events;
};

inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

/** An environment for child processes: no inherited proxy settings, XDG dirs in @p home. */
inline QProcessEnvironment isolatedEnvironment(const QString &home)
{
    QProcessEnvironment env = test::isolatedEnvironment(home);
    test::removeProxySettings(env);
    env.insert(QStringLiteral("HOME"), home);
    return env;
}

/** @brief The result of running a client program. */
using RunResult = test::ProcessOutput;

inline RunResult run(const QString &program, const QStringList &arguments, const QString &home, int timeoutMs = 60000)
{
    test::ProcessOptions options;
    options.environment = isolatedEnvironment(home);
    options.timeoutMs = timeoutMs;
    return test::runProcess(program, arguments, options);
}

/** Waits until something accepts TCP connections on 127.0.0.1:@p port. */
inline bool waitForListener(quint16 port, int timeoutMs = 15000)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(500))
            return true;
        QThread::msleep(50);
    }
    return false;
}

using test::LocalUpstream;

/** @brief The engine on a TCP listener for sandbox "web" running kit "node". */
struct ProxyUnderTest
{
    explicit ProxyUnderTest(ProxyLimits limits = {}) : engine(std::move(limits))
    {
        engine.setDecider(allowList.decider());
        engine.setEventSink(log.sink());
    }
    bool start()
    {
        if (const Result<void> started = engine.start(); !started) {
            qWarning() << started.error().text();
            return false;
        }
        const Result<ProxyEngine::EndpointId> added =
            engine.addTcpEndpoint(QHostAddress::LocalHost, 0, {QStringLiteral("web"), QStringLiteral("node")}, &port);
        if (!added) {
            qWarning() << added.error().text();
            return false;
        }
        endpoint = *added;
        return true;
    }
    /** Maps @p host (any port) to 127.0.0.1, as a test's private DNS. */
    void mapToLoopback(const QString &host)
    {
        engine.resolveOverrides().set(host, 0, {QHostAddress(QHostAddress::LocalHost)});
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port); }

    AllowList allowList;
    EventLog log;
    ProxyEngine engine;
    ProxyEngine::EndpointId endpoint = 0;
    quint16 port = 0;
};

/** The value of header @p name in a raw HTTP response, or empty. */
inline QByteArray headerValue(const QByteArray &response, const QByteArray &name)
{
    const QByteArray head = response.left(response.indexOf("\r\n\r\n"));
    for (const QByteArray &line : head.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace paddock::proxy::testing

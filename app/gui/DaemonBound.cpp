// SPDX-License-Identifier: GPL-3.0-or-later
#include "DaemonBound.h"

#include <QTimer>

#include <utility>

namespace paddock::gui {

QString DaemonLink::notConnectedMessage()
{
    return DaemonBound::tr("The daemon is not connected.");
}

DaemonLink::DaemonLink(QObject *self) : m_self(self) {}

DaemonLink::~DaemonLink()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        QObject::disconnect(connection);
    QObject::disconnect(m_following);
}

void DaemonLink::setDaemon(DaemonStatus *daemon)
{
    QObject::disconnect(std::exchange(m_following, {}));
    bind(daemon, daemon ? daemon->client() : nullptr);
}

void DaemonLink::setClient(api::DaemonClient *client)
{
    QObject::disconnect(std::exchange(m_following, {}));
    bind(nullptr, client);
}

void DaemonLink::followDaemonOf(DaemonBound *source)
{
    QObject::disconnect(std::exchange(m_following, {}));
    if (source)
        m_following = QObject::connect(source, &DaemonBound::daemonChanged, m_self,
                                       [this, source] { bind(source->daemon(), source->boundClient()); });
    bind(source ? source->daemon() : nullptr, source ? source->boundClient() : nullptr);
}

api::DaemonClient *DaemonLink::client() const
{
    return m_client && m_client->isConnected() ? m_client.data() : nullptr;
}

void DaemonLink::followTopics(const QStringList &topics)
{
    for (const QString &topic : topics) {
        if (m_topics.contains(topic))
            continue;
        m_topics << topic;
        if (api::DaemonClient *connection = m_up ? client() : nullptr)
            connection->subscribe({topic});
    }
}

void DaemonLink::bind(DaemonStatus *daemon, api::DaemonClient *client)
{
    if (daemon == m_daemon && client == m_client)
        return;
    m_daemon = daemon;
    if (client != m_client) {
        for (const QMetaObject::Connection &connection : std::as_const(m_connections))
            QObject::disconnect(connection);
        m_connections.clear();
        // The connection left behind is no longer this model's: as if it had closed.
        onDisconnected();
        m_client = client;
        if (m_client) {
            m_connections << QObject::connect(m_client, &api::DaemonClient::connected, m_self,
                                              [this] { onConnected(); })
                          << QObject::connect(m_client, &api::DaemonClient::disconnected, m_self,
                                              [this] { onDisconnected(); })
                          << QObject::connect(m_client, &api::DaemonClient::eventReceived, m_self,
                                              [this](const QString &topic, const QJsonObject &data) {
                                                  if (m_topics.contains(topic))
                                                      daemonEvent(topic, data);
                                              });
        }
    }
    bindingChanged();
    if (m_client && m_client->isConnected() && !m_up)
        onConnected();
}

void DaemonLink::onConnected()
{
    if (m_up)
        return;
    m_up = true;
    // Subscribed first: a read made in daemonConnected() then misses no event.
    for (const QString &topic : std::as_const(m_topics))
        m_client->subscribe({topic});
    connectionChanged();
    daemonConnected();
}

void DaemonLink::onDisconnected()
{
    if (!m_up)
        return;
    m_up = false;
    connectionChanged();
    daemonDisconnected();
}

void DaemonLink::daemonEvent(const QString &topic, const QJsonObject &data)
{
    Q_UNUSED(topic)
    Q_UNUSED(data)
}

DaemonLink::Callback DaemonLink::guarded(Callback done) const
{
    return [self = QPointer<QObject>(m_self), done = std::move(done)](const api::Reply &reply) {
        if (!self || !done)
            return;
        // The client says how the connection ended; the user is told one thing whatever it was.
        if (reply.isError() && reply.errorCode() == QLatin1String(api::errors::kDisconnected))
            return done(api::Reply::failure(reply.errorCode(), notConnectedMessage()));
        done(reply);
    };
}

bool DaemonLink::request(const QString &method, const QJsonObject &params, Callback done)
{
    api::DaemonClient *connection = client();
    if (!connection)
        return false;
    connection->call(method, params, guarded(std::move(done)));
    return true;
}

void DaemonLink::act(const QString &method, const QJsonObject &params, Callback done)
{
    if (api::DaemonClient *connection = client()) {
        connection->call(method, params, guarded(std::move(done)));
        return;
    }
    // Answered from the event loop, as the client answers what it cannot send.
    QTimer::singleShot(0, m_self, [done = guarded(std::move(done))] {
        done(api::Reply::failure(QLatin1String(api::errors::kDisconnected), notConnectedMessage()));
    });
}

DaemonBound::DaemonBound(QObject *parent) : QObject(parent), DaemonLink(this) {}

void DaemonBound::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

} // namespace paddock::gui

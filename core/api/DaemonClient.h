// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/DaemonConnection.h"
#include "api/Protocol.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QLocalSocket;
class QTimer;

namespace paddock::api {

/**
 * @brief The asynchronous client of paddockd, for the GUI: nothing in it ever blocks.
 *
 * connectToDaemon() connects and exchanges hellos; with start on demand it also starts
 * paddockd when nothing answers and keeps trying for kDaemonStartTimeoutMs. Calls made
 * while connecting are sent once connected. Every call is answered exactly once, through
 * its callback and replied(): by the daemon, or with a `disconnected` error when the
 * connection fails or closes first.
 */
class DaemonClient : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Disconnected,
        Connecting,
        Connected
    };
    Q_ENUM(State)
    using Callback = std::function<void(const Reply &reply)>;

    explicit DaemonClient(QObject *parent = nullptr);
    ~DaemonClient() override;

    /** The daemon socket; paths::daemonSocket() unless changed. */
    void setSocketPath(const QString &path) { m_socketPath = path; }
    QString socketPath() const { return m_socketPath; }
    /** Start paddockd when nothing answers (off by default). */
    void setStartOnDemand(bool start) { m_startOnDemand = start; }

    void connectToDaemon();
    void disconnectFromDaemon();
    State state() const { return m_state; }
    bool isConnected() const { return m_state == State::Connected; }
    const ServerInfo &server() const { return m_server; }

    /** Sends a request; returns its id, also passed to replied(). */
    qint64 call(const QString &method, const QJsonObject &params = {}, Callback callback = {});
    /** Subscribes to event @p topics; events then arrive through eventReceived(). */
    qint64 subscribe(const QStringList &topics, Callback callback = {});

Q_SIGNALS:
    void connected();
    /** An established connection closed (the daemon stopped, or disconnectFromDaemon()). */
    void disconnected();
    /** Connecting (or starting the daemon) failed; @p message is one sentence. */
    void connectionFailed(const QString &message);
    void replied(qint64 id, const paddock::api::Reply &reply);
    void eventReceived(const QString &topic, const QJsonObject &data);
    void stateChanged(paddock::api::DaemonClient::State state);

private:
    struct Call
    {
        qint64 id;
        QString method;
        QJsonObject params;
        Callback callback;
    };

    void attempt();
    void onConnected();
    void onSocketError();
    void onReadyRead();
    void onSocketClosed();
    void handleMessage(const Message &message);
    void fail(const QString &message);
    void finish(qint64 id, const Reply &reply);
    void failAllCalls(const QString &message);
    void setState(State state);
    void resetSocket();

    QString m_socketPath;
    bool m_startOnDemand = false;
    bool m_startedDaemon = false;
    State m_state = State::Disconnected;
    bool m_helloDone = false;
    QLocalSocket *m_socket = nullptr;
    QTimer *m_retryTimer = nullptr;
    QDeadlineTimer m_startDeadline;
    std::unique_ptr<LineBuffer> m_lines;
    ServerInfo m_server;
    QList<Call> m_queued;           ///< made before the hello completed
    QHash<qint64, Callback> m_sent; ///< awaiting an answer
    qint64 m_nextId = 1;
};

} // namespace paddock::api

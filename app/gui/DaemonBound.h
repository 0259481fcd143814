// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonStatus.h"
#include "api/DaemonClient.h"

#include <QJsonObject>
#include <QList>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <functional>

namespace paddock::gui {

class DaemonBound;

/**
 * @brief The daemon side of a view model, written once: the connection it uses, what it does
 * when that connection comes up, goes down or comes back, the topics it follows, and calls
 * whose answers never reach an object that is gone.
 *
 * Not a QObject, so that both bases of the window's view models carry it: DaemonBound (an
 * object) and RowListModel (a list), which show it to QML as their `daemon` property.
 *
 * A model says what to do in daemonConnected() (on the first connection and every one after),
 * daemonDisconnected() and daemonEvent() (the events of the topics it follows, subscribed
 * before daemonConnected() runs, so a read made there misses nothing). It calls the daemon in
 * two ways: request() reads, and does nothing while there is no daemon (the next connection
 * reads again); act() does what the user asked for, and without a daemon its callback gets the
 * one failure every action reports, notConnectedMessage(), as it gets any refusal. A call cut
 * off by the connection closing is answered with that failure too. Either callback runs only
 * while the model exists, and never inside the call.
 */
class DaemonLink
{
public:
    using Callback = std::function<void(const api::Reply &reply)>;

    /** The sentence an action reports when there is no daemon to do it. */
    static QString notConnectedMessage();

    DaemonStatus *daemon() const { return m_daemon; }
    /** Uses the window's connection (`daemon: DaemonStatus` in QML). */
    void setDaemon(DaemonStatus *daemon);
    /** Uses @p client directly (tests, and anything without the window's DaemonStatus). */
    void setClient(api::DaemonClient *client);
    /** Uses the connection of @p source, now and whenever it changes. */
    void followDaemonOf(DaemonBound *source);
    /** The connection when it is up, else nullptr. */
    api::DaemonClient *client() const;
    /** The connection used, up or not. */
    api::DaemonClient *boundClient() const { return m_client; }
    bool connected() const { return client() != nullptr; }

protected:
    explicit DaemonLink(QObject *self);
    virtual ~DaemonLink();
    DaemonLink(const DaemonLink &) = delete;
    DaemonLink &operator=(const DaemonLink &) = delete;

    /** Topics subscribed on every connection, each on its own (a daemon may refuse one). */
    void followTopics(const QStringList &topics);
    /** Reads: sends when connected and returns true, else does nothing and returns false. */
    bool request(const QString &method, const QJsonObject &params, Callback done);
    /** Does what the user asked: without a daemon, @p done gets the not-connected failure. */
    void act(const QString &method, const QJsonObject &params, Callback done);

    virtual void daemonConnected() {}
    virtual void daemonDisconnected() {}
    virtual void daemonEvent(const QString &topic, const QJsonObject &data);
    /** The daemon or the connection used changed: the object tells QML. */
    virtual void bindingChanged() = 0;
    /** The connection came up or went down: the object tells QML. */
    virtual void connectionChanged() = 0;

private:
    void bind(DaemonStatus *daemon, api::DaemonClient *client);
    void onConnected();
    void onDisconnected();
    Callback guarded(Callback done) const;

    QObject *m_self;
    QPointer<DaemonStatus> m_daemon;
    QPointer<api::DaemonClient> m_client;
    QList<QMetaObject::Connection> m_connections;
    QMetaObject::Connection m_following;
    QStringList m_topics;
    bool m_up = false;
};

/**
 * @brief The base of the window's objects that work through paddockd and are not lists (the
 * wizard, the network policy, the agent's rules...): DaemonLink as QML sees it, `daemon`,
 * `connected`, and `error`, why the last thing asked of the daemon failed.
 *
 * A class names this base in full (`public paddock::gui::DaemonBound`): Qt 6.4's QML type
 * registrar finds a base class only by its qualified name, and QML's tools then know the
 * properties it brings.
 */
class DaemonBound : public QObject, public DaemonLink
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(paddock::gui::DaemonStatus *daemon READ daemon WRITE setDaemon NOTIFY daemonChanged)
    Q_PROPERTY(bool connected READ connected NOTIFY connectedChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    QString error() const { return m_error; }

Q_SIGNALS:
    void daemonChanged();
    void connectedChanged();
    void errorChanged();

protected:
    explicit DaemonBound(QObject *parent = nullptr);
    void setError(const QString &error);
    void bindingChanged() override { Q_EMIT daemonChanged(); }
    void connectionChanged() override { Q_EMIT connectedChanged(); }

private:
    QString m_error;
};

} // namespace paddock::gui

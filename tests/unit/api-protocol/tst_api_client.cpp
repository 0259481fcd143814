// SPDX-License-Identifier: GPL-3.0-or-later
// The clients: the blocking DaemonConnection for the CLI and the asynchronous DaemonClient
// for the GUI, against a real server on a real socket.
#include "api/DaemonClient.h"
#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "api/Server.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QLocalServer>
#include <QLocalSocket>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace paddock::api;

namespace {

/** @brief A Server living in its own thread, so blocking clients can talk to it. */
class ServerThread : public QThread
{
public:
    explicit ServerThread(const QString &path) : m_path(path) {}
    ~ServerThread() override
    {
        quit();
        wait();
    }

    bool startAndListen()
    {
        start();
        m_ready.acquire();
        return m_listening;
    }

    /** Runs @p function on the server's thread and waits for it. */
    template<typename F>
    void onServer(F function)
    {
        QMetaObject::invokeMethod(
            m_server, [this, function] { function(*m_server); }, Qt::BlockingQueuedConnection);
    }

protected:
    void run() override
    {
        Server server;
        server.registerTopic(QStringLiteral("denials"));
        QString error;
        m_listening = server.listen(m_path, &error);
        m_server = &server;
        m_ready.release();
        exec();
        m_server = nullptr;
    }

private:
    QString m_path;
    Server *m_server = nullptr;
    bool m_listening = false;
    QSemaphore m_ready;
};

} // namespace

class TestApiClient : public QObject
{
    Q_OBJECT

private:
    QString socketPath() const { return m_dir->path() + QStringLiteral("/paddock/paddockd.sock"); }
    std::unique_ptr<QTemporaryDir> m_dir;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup() { m_dir.reset(); }

    // --- blocking ---------------------------------------------------------------------

    void blockingCallsGetResultsAndErrors()
    {
        ServerThread server(socketPath());
        QVERIFY(server.startAndListen());
        DaemonConnection connection;
        QString error;
        QVERIFY2(connection.open(socketPath(), 5000, &error), qPrintable(error));
        QCOMPARE(connection.server().protocol, kProtocolVersion);
        QCOMPARE(connection.server().pid, QCoreApplication::applicationPid());

        const Reply ping = connection.call(QStringLiteral("ping"));
        QVERIFY(!ping.isError());
        QCOMPARE(ping.result().value(QLatin1String("pong")).toBool(), true);

        const Reply unknown = connection.call(QStringLiteral("no.such.method"));
        QVERIFY(unknown.isError());
        QCOMPARE(unknown.errorCode(), QStringLiteral("unknown-method"));
        QVERIFY(unknown.errorMessage().contains(QLatin1String("no.such.method")));
    }

    void aKeptConnectionKnowsWhenTheDaemonWent()
    {
        // The CLI keeps one connection for a command's calls: one whose daemon stopped meanwhile
        // must be seen as such before a call is sent on it, without reading or waiting.
        DaemonConnection connection;
        QString error;
        {
            ServerThread server(socketPath());
            QVERIFY(server.startAndListen());
            QVERIFY2(connection.open(socketPath(), 5000, &error), qPrintable(error));
            QVERIFY(!connection.call(QStringLiteral("ping")).isError());
            QVERIFY(connection.isUsable());
            // A refused call leaves it usable for the next.
            QVERIFY(connection.call(QStringLiteral("no.such.method")).isError());
            QVERIFY(connection.isUsable());
        }
        // Without the event loop running, as in the CLI between two calls.
        const QDeadlineTimer gone(5000);
        while (connection.isUsable() && !gone.hasExpired())
            QThread::msleep(10);
        QVERIFY(!connection.isUsable());
        const Reply after = connection.call(QStringLiteral("ping"), {}, 1000);
        QVERIFY(after.isError());

        ServerThread again(socketPath());
        QVERIFY(again.startAndListen());
        connection.close();
        QVERIFY2(connection.open(socketPath(), 5000, &error), qPrintable(error));
        QVERIFY(connection.isUsable());
        QVERIFY(!connection.call(QStringLiteral("ping")).isError());
    }

    void blockingClientReceivesEvents()
    {
        ServerThread server(socketPath());
        QVERIFY(server.startAndListen());
        DaemonConnection connection;
        QString error;
        QVERIFY2(connection.open(socketPath(), 5000, &error), qPrintable(error));
        const Reply subscribed = connection.call(QStringLiteral("subscribe"),
                                                 {{QStringLiteral("topics"), QJsonArray{QStringLiteral("denials")}}});
        QVERIFY2(!subscribed.isError(), qPrintable(subscribed.errorMessage()));
        server.onServer([](Server &s) {
            s.publish(QStringLiteral("denials"), {{QStringLiteral("host"), QStringLiteral("a.example")}});
        });
        const std::optional<Event> event = connection.waitForEvent(5000);
        QVERIFY(event);
        QCOMPARE(event->topic, QStringLiteral("denials"));
        QCOMPARE(event->data.value(QLatin1String("host")).toString(), QStringLiteral("a.example"));
    }

    void blockingOpenSaysWhenNothingRuns()
    {
        DaemonConnection connection;
        QString error;
        QVERIFY(!connection.open(socketPath(), 1000, &error));
        QCOMPARE(connection.failure(), DaemonConnection::Failure::NotRunning);
        QVERIFY2(error.contains(QLatin1String("not running")), qPrintable(error));
    }

    void blockingOpenSaysWhenTheServerSpeaksAnotherVersion()
    {
        // A daemon from another release: it answers the hello with protocol 2.
        QVERIFY(QDir().mkpath(m_dir->path() + QStringLiteral("/paddock")));
        QLocalServer fake;
        QVERIFY(fake.listen(socketPath()));
        connect(&fake, &QLocalServer::newConnection, this, [&fake] {
            QLocalSocket *socket = fake.nextPendingConnection();
            connect(socket, &QLocalSocket::readyRead, socket, [socket] {
                if (socket->canReadLine()) {
                    socket->readAll();
                    socket->write(R"({"hello":{"protocol":2,"server":"paddockd","version":"9.0","pid":1}})"
                                  "\n");
                }
            });
        });
        // The blocking client needs the fake server served meanwhile: open it from a thread.
        QString error;
        DaemonConnection::Failure failure = DaemonConnection::Failure::None;
        std::unique_ptr<QThread> clientThread(QThread::create([&] {
            DaemonConnection connection;
            connection.open(socketPath(), 5000, &error);
            failure = connection.failure();
        }));
        clientThread->start();
        QVERIFY(QTest::qWaitFor([&] { return clientThread->isFinished(); }, 10000));
        QCOMPARE(failure, DaemonConnection::Failure::Refused);
        QVERIFY2(error.contains(QLatin1String("protocol version 2")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("version %1").arg(kProtocolVersion)), qPrintable(error));
    }

    void eventsFromAnotherThreadAreBuiltOnlyForASubscriber()
    {
        ServerThread server(socketPath());
        QVERIFY(server.startAndListen());
        Server *s = nullptr;
        server.onServer([&s](Server &each) { s = &each; });
        std::atomic<int> built{0};
        const auto publishFromHere = [s, &built](const QString &host) {
            s->publishLater(QStringLiteral("denials"), [&built, host] {
                ++built;
                return QJsonObject{{QStringLiteral("host"), host}};
            });
        };
        publishFromHere(QStringLiteral("nobody.example")); // no client yet: nothing is built
        QCOMPARE(built.load(), 0);

        DaemonConnection connection;
        QString error;
        QVERIFY2(connection.open(socketPath(), 5000, &error), qPrintable(error));
        const Reply subscribed = connection.call(QStringLiteral("subscribe"),
                                                 {{QStringLiteral("topics"), QJsonArray{QStringLiteral("denials")}}});
        QVERIFY2(!subscribed.isError(), qPrintable(subscribed.errorMessage()));
        QVERIFY(s->isSubscribed(QStringLiteral("denials")));
        for (int i = 0; i < 50; ++i) // from this thread, not the server's: they arrive in order
            publishFromHere(QStringLiteral("h%1.example").arg(i));
        QCOMPARE(built.load(), 50);
        for (int i = 0; i < 50; ++i) {
            const std::optional<Event> event = connection.waitForEvent(5000);
            QVERIFY(event);
            QCOMPARE(event->data.value(QLatin1String("host")).toString(), QStringLiteral("h%1.example").arg(i));
        }

        const Reply unsubscribed = connection.call(QStringLiteral("unsubscribe"),
                                                   {{QStringLiteral("topics"), QJsonArray{QStringLiteral("denials")}}});
        QVERIFY(!unsubscribed.isError());
        QVERIFY(!s->isSubscribed(QStringLiteral("denials")));
        publishFromHere(QStringLiteral("gone.example"));
        QCOMPARE(built.load(), 50);
    }

    // --- asynchronous -----------------------------------------------------------------

    void asyncClientCallsAndReceivesEvents()
    {
        Server server;
        server.registerTopic(QStringLiteral("denials"));
        QString error;
        QVERIFY2(server.listen(socketPath(), &error), qPrintable(error));

        DaemonClient client;
        client.setSocketPath(socketPath());
        QSignalSpy connected(&client, &DaemonClient::connected);
        QSignalSpy events(&client, &DaemonClient::eventReceived);
        client.connectToDaemon();
        QCOMPARE(client.state(), DaemonClient::State::Connecting);
        // Made while connecting: sent once the hello is done.
        std::optional<Reply> pong;
        client.call(QStringLiteral("ping"), {}, [&pong](const Reply &reply) { pong = reply; });
        QVERIFY(connected.wait(5000));
        QVERIFY(client.isConnected());
        QCOMPARE(client.server().pid, QCoreApplication::applicationPid());
        QTRY_VERIFY(pong.has_value());
        QVERIFY(!pong->isError());
        QCOMPARE(pong->result().value(QLatin1String("pong")).toBool(), true);

        std::optional<Reply> subscribed;
        client.subscribe({QStringLiteral("denials")}, [&subscribed](const Reply &reply) { subscribed = reply; });
        QTRY_VERIFY(subscribed.has_value());
        QVERIFY(!subscribed->isError());
        QCOMPARE(server.publish(QStringLiteral("denials"), {{QStringLiteral("host"), QStringLiteral("b.example")}}), 1);
        QVERIFY(events.wait(5000));
        QCOMPARE(events.first().at(0).toString(), QStringLiteral("denials"));
        QCOMPARE(events.first().at(1).toJsonObject().value(QLatin1String("host")).toString(),
                 QStringLiteral("b.example"));
    }

    void asyncPendingCallsFailWhenTheDaemonGoes()
    {
        Server server;
        server.registerAsyncMethod(QStringLiteral("never"),
                                   [](const QJsonObject &, const CallContext &, const PendingReply &) {});
        QString error;
        QVERIFY2(server.listen(socketPath(), &error), qPrintable(error));
        DaemonClient client;
        client.setSocketPath(socketPath());
        QSignalSpy connected(&client, &DaemonClient::connected);
        QSignalSpy disconnected(&client, &DaemonClient::disconnected);
        client.connectToDaemon();
        QVERIFY(connected.wait(5000));
        std::optional<Reply> reply;
        client.call(QStringLiteral("never"), {}, [&reply](const Reply &r) { reply = r; });
        QTRY_COMPARE(server.clientCount(), 1);
        QTest::qWait(0);
        server.close();
        QVERIFY(disconnected.count() == 1 || disconnected.wait(5000));
        QVERIFY(reply.has_value());
        QVERIFY(reply->isError());
        QCOMPARE(reply->errorCode(), QStringLiteral("disconnected"));
        QCOMPARE(client.state(), DaemonClient::State::Disconnected);
    }

    void asyncConnectFailsWhenNothingRuns()
    {
        DaemonClient client;
        client.setSocketPath(socketPath());
        QSignalSpy failed(&client, &DaemonClient::connectionFailed);
        std::optional<Reply> reply;
        client.connectToDaemon();
        client.call(QStringLiteral("ping"), {}, [&reply](const Reply &r) { reply = r; });
        QVERIFY(failed.count() == 1 || failed.wait(5000));
        QVERIFY2(failed.first().at(0).toString().contains(QLatin1String("not running")),
                 qPrintable(failed.first().at(0).toString()));
        QTRY_VERIFY(reply.has_value());
        QCOMPARE(reply->errorCode(), QStringLiteral("disconnected"));
    }

    void startOnDemandReportsAMissingDaemonInOneSentence()
    {
        qputenv("PADDOCKD", m_dir->path().toUtf8() + "/no-such-paddockd");
        DaemonClient client;
        client.setSocketPath(socketPath());
        client.setStartOnDemand(true);
        QSignalSpy failed(&client, &DaemonClient::connectionFailed);
        client.connectToDaemon();
        QVERIFY(failed.count() == 1 || failed.wait(5000));
        const QString message = failed.first().at(0).toString();
        QVERIFY2(message.startsWith(QLatin1String("cannot start paddockd: ")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("no-such-paddockd")), qPrintable(message));

        const DaemonStatus status = ensureDaemonRunning(socketPath(), 1000);
        QVERIFY(!status.running);
        QVERIFY2(status.error.startsWith(QLatin1String("cannot start paddockd: ")), qPrintable(status.error));
        qunsetenv("PADDOCKD");
    }
};

QTEST_GUILESS_MAIN(TestApiClient)
#include "tst_api_client.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon protocol: encoding and decoding, and what a real server on a real socket
// answers to good and bad input.
#include "RawPeer.h"

#include "api/Protocol.h"
#include "api/Server.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/stat.h>
#include <unistd.h>

using namespace paddock::api;

class TestApiProtocol : public QObject
{
    Q_OBJECT

private:
    QString socketPath() const { return m_dir->path() + QStringLiteral("/run/paddock/paddockd.sock"); }

    /** A raw peer past the hello. */
    void greet(RawPeer &peer)
    {
        QVERIFY(peer.connectTo(socketPath()));
        peer.hello();
        const auto hello = peer.read();
        QVERIFY(hello);
        QVERIFY(hello->contains(QLatin1String("hello")));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Server> m_server;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_server = std::make_unique<Server>();
        QString error;
        QVERIFY2(m_server->listen(socketPath(), &error), qPrintable(error));
    }

    void cleanup()
    {
        m_server.reset();
        m_dir.reset();
    }

    // --- encoding and decoding, no socket ---------------------------------------------

    void requestRoundTrip()
    {
        const QByteArray line =
            encodeRequest(42, QStringLiteral("policy.check"), {{QStringLiteral("host"), QStringLiteral("a.b")}});
        QVERIFY(line.endsWith('\n'));
        QCOMPARE(line.count('\n'), 1);
        DecodeError error;
        const auto message = decodeMessage(line.chopped(1), &error);
        QVERIFY2(message, qPrintable(error.message));
        QCOMPARE(message->kind, Message::Kind::Request);
        QCOMPARE(*message->id, 42);
        QCOMPARE(message->method, QStringLiteral("policy.check"));
        QCOMPARE(message->params.value(QLatin1String("host")).toString(), QStringLiteral("a.b"));
    }

    void responsesEventsAndHellosRoundTrip()
    {
        auto decode = [](const QByteArray &line) {
            DecodeError error;
            auto message = decodeMessage(line.chopped(1), &error);
            if (!message)
                qWarning() << error.message;
            return message;
        };
        const auto result = decode(encodeResponse(3, Reply::success({{QStringLiteral("n"), 1}})));
        QVERIFY(result);
        QCOMPARE(result->kind, Message::Kind::Response);
        QCOMPARE(*result->id, 3);
        QVERIFY(!result->reply.isError());
        QCOMPARE(result->reply.result().value(QLatin1String("n")).toInt(), 1);

        const auto error =
            decode(encodeResponse(std::nullopt, Reply::failure(QStringLiteral("c"), QStringLiteral("m"))));
        QVERIFY(error);
        QCOMPARE(error->kind, Message::Kind::Response);
        QVERIFY(!error->id);
        QVERIFY(error->reply.isError());
        QCOMPARE(error->reply.errorCode(), QStringLiteral("c"));
        QCOMPARE(error->reply.errorMessage(), QStringLiteral("m"));

        const auto event =
            decode(encodeEvent(QStringLiteral("denials"), {{QStringLiteral("host"), QStringLiteral("x")}}));
        QVERIFY(event);
        QCOMPARE(event->kind, Message::Kind::Event);
        QCOMPARE(event->event, QStringLiteral("denials"));
        QCOMPARE(event->data.value(QLatin1String("host")).toString(), QStringLiteral("x"));

        const auto fatal = decode(encodeFatalError(QStringLiteral("protocol-mismatch"), QStringLiteral("no")));
        QVERIFY(fatal);
        QCOMPARE(fatal->kind, Message::Kind::Error);
        QCOMPARE(fatal->reply.errorCode(), QStringLiteral("protocol-mismatch"));

        const auto hello = decode(encodeHello({{QStringLiteral("protocol"), 1}}));
        QVERIFY(hello);
        QCOMPARE(hello->kind, Message::Kind::Hello);
        QCOMPARE(hello->hello.value(QLatin1String("protocol")).toInt(), 1);
    }

    void newlinesInsideStringsStayEscaped()
    {
        const QByteArray line =
            encodeEvent(QStringLiteral("t"), {{QStringLiteral("text"), QStringLiteral("a\nb\r\nc")}});
        QCOMPARE(line.count('\n'), 1);
        DecodeError error;
        const auto message = decodeMessage(line.chopped(1), &error);
        QVERIFY(message);
        QCOMPARE(message->data.value(QLatin1String("text")).toString(), QStringLiteral("a\nb\r\nc"));
    }

    void badMessagesAreRejected_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("code");
        QTest::newRow("not json") << QByteArray("{nope") << QStringLiteral("malformed-json");
        QTest::newRow("truncated") << QByteArray("{\"id\":1,\"method\":\"ping\"") << QStringLiteral("malformed-json");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("invalid-request");
        QTest::newRow("no id") << QByteArray("{\"method\":\"ping\"}") << QStringLiteral("invalid-request");
        QTest::newRow("negative id") << QByteArray("{\"id\":-1,\"method\":\"ping\"}")
                                     << QStringLiteral("invalid-request");
        QTest::newRow("fractional id") << QByteArray("{\"id\":1.5,\"method\":\"ping\"}")
                                       << QStringLiteral("invalid-request");
        QTest::newRow("string id") << QByteArray("{\"id\":\"1\",\"method\":\"ping\"}")
                                   << QStringLiteral("invalid-request");
        QTest::newRow("method not string")
            << QByteArray("{\"id\":1,\"method\":3}") << QStringLiteral("invalid-request");
        QTest::newRow("params not object")
            << QByteArray("{\"id\":1,\"method\":\"ping\",\"params\":[]}") << QStringLiteral("invalid-request");
        QTest::newRow("nothing known") << QByteArray("{\"x\":1}") << QStringLiteral("invalid-request");
    }

    void badMessagesAreRejected()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, code);
        DecodeError error;
        QVERIFY(!decodeMessage(line, &error));
        QCOMPARE(error.code, code);
        QVERIFY(!error.message.isEmpty());
    }

    void lineBufferJoinsChunksAndSplitsLines()
    {
        LineBuffer buffer(16);
        QVERIFY(buffer.append("ab").isEmpty());
        const QList<QByteArray> lines = buffer.append("c\nde\n\nf");
        QCOMPARE(lines, (QList<QByteArray>{"abc", "de", ""}));
        QCOMPARE(buffer.append("g\n"), QList<QByteArray>{"fg"});
        QVERIFY(!buffer.isOversized());
    }

    void lineBufferRefusesOversizedLines()
    {
        LineBuffer exact(8);
        QCOMPARE(exact.append("12345678\n"), QList<QByteArray>{"12345678"});
        QVERIFY(!exact.isOversized());

        LineBuffer complete(8);
        QVERIFY(complete.append("123456789\nok\n").isEmpty());
        QVERIFY(complete.isOversized());

        // Without a newline yet: refused as soon as it cannot fit any more.
        LineBuffer unfinished(8);
        QVERIFY(unfinished.append("12345678").isEmpty());
        QVERIFY(!unfinished.isOversized());
        unfinished.append("9");
        QVERIFY(unfinished.isOversized());
        QVERIFY(unfinished.append("\nmore\n").isEmpty());
    }

    // --- a real server on a real socket -----------------------------------------------

    void socketAndDirectoryAreOwnerOnly()
    {
        struct stat st
        {};
        QCOMPARE(::stat(QFile::encodeName(socketPath()).constData(), &st), 0);
        QVERIFY(S_ISSOCK(st.st_mode));
        QCOMPARE(st.st_mode & 0777, 0600u);
        QCOMPARE(::stat(QFile::encodeName(QFileInfo(socketPath()).absolutePath()).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0700u);
    }

    void helloStatesTheProtocolVersion()
    {
        RawPeer peer;
        QVERIFY(peer.connectTo(socketPath()));
        peer.hello();
        const auto hello = peer.read();
        QVERIFY(hello);
        const QJsonObject body = hello->value(QLatin1String("hello")).toObject();
        QCOMPARE(body.value(QLatin1String("protocol")).toInt(), kProtocolVersion);
        QCOMPARE(body.value(QLatin1String("server")).toString(), QStringLiteral("paddockd"));
        QCOMPARE(body.value(QLatin1String("pid")).toInteger(), QCoreApplication::applicationPid());
    }

    void versionMismatchIsRefusedClearly()
    {
        RawPeer peer;
        QVERIFY(peer.connectTo(socketPath()));
        peer.hello(kProtocolVersion + 1);
        const auto reply = peer.read();
        QVERIFY(reply);
        const QJsonObject error = reply->value(QLatin1String("error")).toObject();
        QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("protocol-mismatch"));
        const QString message = error.value(QLatin1String("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("version %1").arg(kProtocolVersion)), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("version %1").arg(kProtocolVersion + 1)), qPrintable(message));
        QVERIFY(!reply->contains(QLatin1String("hello")));
        QVERIFY(peer.waitForClosed());
    }

    void requestBeforeHelloIsRefused()
    {
        RawPeer peer;
        QVERIFY(peer.connectTo(socketPath()));
        peer.send({{QStringLiteral("id"), 1}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto reply = peer.read();
        QVERIFY(reply);
        QCOMPARE(reply->value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
                 QStringLiteral("hello-required"));
        QVERIFY(peer.waitForClosed());
    }

    void pingAndVersionAnswer()
    {
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 1}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto ping = peer.read();
        QVERIFY(ping);
        QCOMPARE(ping->value(QLatin1String("id")).toInt(), 1);
        const QJsonObject pong = ping->value(QLatin1String("result")).toObject();
        QCOMPARE(pong.value(QLatin1String("pong")).toBool(), true);
        QCOMPARE(pong.value(QLatin1String("pid")).toInteger(), QCoreApplication::applicationPid());
        QVERIFY(pong.value(QLatin1String("uptimeMs")).toInteger() >= 0);

        peer.send({{QStringLiteral("id"), 2},
                   {QStringLiteral("method"), QStringLiteral("version")},
                   {QStringLiteral("params"), QJsonObject{}}});
        const auto version = peer.read();
        QVERIFY(version);
        QCOMPARE(version->value(QLatin1String("id")).toInt(), 2);
        const QJsonObject result = version->value(QLatin1String("result")).toObject();
        QCOMPARE(result.value(QLatin1String("protocol")).toInt(), kProtocolVersion);
        QVERIFY(!result.value(QLatin1String("version")).toString().isEmpty());
    }

    void malformedJsonGetsAnErrorAndTheConnectionSurvives()
    {
        RawPeer peer;
        greet(peer);
        peer.sendRaw("{\"id\":1,\"method\":\n");
        const auto error = peer.read();
        QVERIFY(error);
        QVERIFY(error->value(QLatin1String("id")).isNull());
        QCOMPARE(error->value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
                 QStringLiteral("malformed-json"));
        peer.send({{QStringLiteral("id"), 2}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto ping = peer.read();
        QVERIFY(ping);
        QCOMPARE(ping->value(QLatin1String("id")).toInt(), 2);
        QVERIFY(ping->contains(QLatin1String("result")));
    }

    void invalidRequestKeepsItsId()
    {
        RawPeer peer;
        greet(peer);
        peer.sendRaw("{\"id\":5,\"method\":\"ping\",\"params\":\"x\"}"
                     "\n");
        const auto error = peer.read();
        QVERIFY(error);
        QCOMPARE(error->value(QLatin1String("id")).toInt(), 5);
        QCOMPARE(error->value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
                 QStringLiteral("invalid-request"));
    }

    void unknownMethodIsNamed()
    {
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 9}, {QStringLiteral("method"), QStringLiteral("sandbox.explode")}});
        const auto reply = peer.read();
        QVERIFY(reply);
        QCOMPARE(reply->value(QLatin1String("id")).toInt(), 9);
        const QJsonObject error = reply->value(QLatin1String("error")).toObject();
        QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("unknown-method"));
        QVERIFY2(error.value(QLatin1String("message")).toString().contains(QLatin1String("sandbox.explode")),
                 qPrintable(error.value(QLatin1String("message")).toString()));
    }

    void lineAtTheLimitIsAccepted()
    {
        RawPeer peer;
        greet(peer);
        const QByteArray head = "{\"id\":3,\"method\":\"ping\",\"params\":{\"pad\":\"";
        const QByteArray tail = "\"}}";
        const QByteArray line = head + QByteArray(kMaxLineBytes - head.size() - tail.size(), 'x') + tail;
        QCOMPARE(line.size(), kMaxLineBytes);
        peer.sendRaw(line + '\n');
        const auto reply = peer.read();
        QVERIFY(reply);
        QCOMPARE(reply->value(QLatin1String("id")).toInt(), 3);
        QVERIFY(reply->contains(QLatin1String("result")));
    }

    void oversizedLineIsRefusedAndClosed()
    {
        RawPeer peer;
        greet(peer);
        peer.sendRaw(QByteArray(kMaxLineBytes + 1, 'x'));
        const auto reply = peer.read();
        QVERIFY(reply);
        QCOMPARE(reply->value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
                 QStringLiteral("line-too-long"));
        QVERIFY(peer.waitForClosed());
    }

    void registeredMethodsGetParamsAndCaller()
    {
        CallContext seen;
        m_server->registerMethod(
            QStringLiteral("math.add"), [&seen](const QJsonObject &params, const CallContext &context) {
                seen = context;
                if (!params.value(QLatin1String("a")).isDouble())
                    return Reply::failure(QStringLiteral("invalid-params"), QStringLiteral("a is missing"));
                return Reply::success({{QStringLiteral("sum"), params.value(QLatin1String("a")).toInt() +
                                                                   params.value(QLatin1String("b")).toInt()}});
            });
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 1},
                   {QStringLiteral("method"), QStringLiteral("math.add")},
                   {QStringLiteral("params"), QJsonObject{{QStringLiteral("a"), 2}, {QStringLiteral("b"), 3}}}});
        const auto sum = peer.read();
        QVERIFY(sum);
        QCOMPARE(sum->value(QLatin1String("result")).toObject().value(QLatin1String("sum")).toInt(), 5);
        QCOMPARE(seen.peerPid, QCoreApplication::applicationPid());

        peer.send({{QStringLiteral("id"), 2}, {QStringLiteral("method"), QStringLiteral("math.add")}});
        const auto error = peer.read();
        QVERIFY(error);
        QCOMPARE(error->value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
                 QStringLiteral("invalid-params"));
    }

    void asynchronousHandlersMayAnswerOutOfOrder()
    {
        PendingReply slow;
        m_server->registerAsyncMethod(QStringLiteral("slow"), [&slow](const QJsonObject &, const CallContext &,
                                                                      const PendingReply &reply) { slow = reply; });
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 1}, {QStringLiteral("method"), QStringLiteral("slow")}});
        peer.send({{QStringLiteral("id"), 2}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto first = peer.read();
        QVERIFY(first);
        QCOMPARE(first->value(QLatin1String("id")).toInt(), 2);
        slow.succeed({{QStringLiteral("done"), true}});
        slow.succeed({{QStringLiteral("twice"), true}}); // ignored
        const auto second = peer.read();
        QVERIFY(second);
        QCOMPARE(second->value(QLatin1String("id")).toInt(), 1);
        QCOMPARE(second->value(QLatin1String("result")).toObject(), (QJsonObject{{QStringLiteral("done"), true}}));
        peer.send({{QStringLiteral("id"), 3}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto third = peer.read();
        QVERIFY(third);
        QCOMPARE(third->value(QLatin1String("id")).toInt(), 3);
    }

    void eventsReachSubscribersOnly()
    {
        m_server->registerTopic(QStringLiteral("denials"));
        RawPeer subscriber;
        RawPeer bystander;
        greet(subscriber);
        greet(bystander);
        QTRY_COMPARE(m_server->clientCount(), 2);

        subscriber.send({{QStringLiteral("id"), 1},
                         {QStringLiteral("method"), QStringLiteral("subscribe")},
                         {QStringLiteral("params"),
                          QJsonObject{{QStringLiteral("topics"), QJsonArray{QStringLiteral("denials")}}}}});
        const auto subscribed = subscriber.read();
        QVERIFY(subscribed);
        QCOMPARE(subscribed->value(QLatin1String("result")).toObject().value(QLatin1String("topics")).toArray(),
                 (QJsonArray{QStringLiteral("denials")}));

        QCOMPARE(
            m_server->publish(QStringLiteral("denials"), {{QStringLiteral("host"), QStringLiteral("evil.example")}}),
            1);
        const auto event = subscriber.read();
        QVERIFY(event);
        QCOMPARE(event->value(QLatin1String("event")).toString(), QStringLiteral("denials"));
        QCOMPARE(event->value(QLatin1String("data")).toObject().value(QLatin1String("host")).toString(),
                 QStringLiteral("evil.example"));

        // The bystander's next line is the answer to its ping, not the event.
        bystander.send({{QStringLiteral("id"), 7}, {QStringLiteral("method"), QStringLiteral("ping")}});
        const auto ping = bystander.read();
        QVERIFY(ping);
        QCOMPARE(ping->value(QLatin1String("id")).toInt(), 7);

        subscriber.send({{QStringLiteral("id"), 2},
                         {QStringLiteral("method"), QStringLiteral("unsubscribe")},
                         {QStringLiteral("params"),
                          QJsonObject{{QStringLiteral("topics"), QJsonArray{QStringLiteral("denials")}}}}});
        const auto unsubscribed = subscriber.read();
        QVERIFY(unsubscribed);
        QCOMPARE(unsubscribed->value(QLatin1String("result")).toObject().value(QLatin1String("topics")).toArray(),
                 QJsonArray{});
        QCOMPARE(m_server->publish(QStringLiteral("denials"), {}), 0);
    }

    void unknownTopicIsNamed()
    {
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 1},
                   {QStringLiteral("method"), QStringLiteral("subscribe")},
                   {QStringLiteral("params"),
                    QJsonObject{{QStringLiteral("topics"), QJsonArray{QStringLiteral("weather")}}}}});
        const auto reply = peer.read();
        QVERIFY(reply);
        const QJsonObject error = reply->value(QLatin1String("error")).toObject();
        QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("unknown-topic"));
        QVERIFY(error.value(QLatin1String("message")).toString().contains(QLatin1String("weather")));
    }

    void shutdownAnswersThenSignals()
    {
        QSignalSpy shutdown(m_server.get(), &Server::shutdownRequested);
        RawPeer peer;
        greet(peer);
        peer.send({{QStringLiteral("id"), 1}, {QStringLiteral("method"), QStringLiteral("shutdown")}});
        const auto reply = peer.read();
        QVERIFY(reply);
        QCOMPARE(reply->value(QLatin1String("result")).toObject().value(QLatin1String("stopping")).toBool(), true);
        QVERIFY(shutdown.count() == 1 || shutdown.wait(5000));
    }

    void otherUsersAreDroppedBeforeTheHello()
    {
        // As if we were another user: the daemon only serves the uid it was told to.
        const uint stranger = ::getuid() + 1;
        m_server->setAllowedUid(stranger);
        QSignalSpy refused(m_server.get(), &Server::peerRefused);
        RawPeer peer;
        QVERIFY(peer.connectTo(socketPath()));
        peer.hello();
        QVERIFY(!peer.read());
        QVERIFY(peer.waitForClosed());
        QVERIFY(refused.count() == 1 || refused.wait(5000));
        QCOMPARE(refused.first().at(0).toUInt(), uint(::getuid()));
        QCOMPARE(m_server->clientCount(), 0);
    }

    void closeRemovesTheSocket()
    {
        QVERIFY(QFileInfo::exists(socketPath()));
        m_server->close();
        QVERIFY(!QFileInfo::exists(socketPath()));
    }
};

QTEST_GUILESS_MAIN(TestApiProtocol)
#include "tst_api_protocol.moc"

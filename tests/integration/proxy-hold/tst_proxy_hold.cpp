// SPDX-License-Identifier: GPL-3.0-or-later
// Connections the Decider asks about (Verdict::ask), held by the real proxy engine on real
// sockets: answered, decided by a rule change, timed out, left by their client, and bounded.
#include "ProxyTestSupport.h"

#include <QtTest>

using namespace paddock::proxy;
using namespace paddock::proxy::testing;

class TestProxyHold : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_site;
    std::unique_ptr<LocalUpstream> m_upstream;
    std::unique_ptr<ProxyUnderTest> m_proxy;

    void startProxy(ProxyLimits limits = {})
    {
        m_proxy = std::make_unique<ProxyUnderTest>(limits);
        QVERIFY(m_proxy->start());
        m_proxy->mapToLoopback(QStringLiteral("held.test"));
        m_proxy->allowList.ask(QStringLiteral("held.test"));
    }
    /** A client that sent a plain-HTTP request for held.test through the proxy. */
    std::unique_ptr<QTcpSocket> request()
    {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, m_proxy->port);
        if (!socket->waitForConnected(5000))
            return nullptr;
        socket->write(QStringLiteral("GET http://held.test:%1/hello.txt HTTP/1.1\r\nHost: held.test:%1\r\n\r\n")
                          .arg(m_upstream->port())
                          .toLatin1());
        socket->flush();
        return socket;
    }
    /** The connection ids of the Held events so far. */
    std::vector<quint64> held() const
    {
        std::vector<quint64> ids;
        for (const ProxyEvent &event : m_proxy->log.events()) {
            if (event.kind == ProxyEvent::Kind::Held)
                ids.push_back(event.connection);
        }
        return ids;
    }
    static QByteArray response(QTcpSocket &socket, int timeoutMs = 10000)
    {
        QByteArray bytes;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs && !bytes.contains("\r\n\r\n")) {
            socket.waitForReadyRead(100);
            bytes += socket.readAll();
        }
        socket.waitForReadyRead(200);
        return bytes + socket.readAll();
    }

private slots:
    void initTestCase()
    {
        m_upstream = std::make_unique<LocalUpstream>();
        QVERIFY(m_upstream->start());
    }
    void cleanup() { m_proxy.reset(); }

    void heldUntilAnswered()
    {
        startProxy();
        const auto client = request();
        QVERIFY(client);
        QTRY_COMPARE(held().size(), std::size_t(1));
        const ProxyEvent event = *m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::Held);
        QCOMPARE(event.sandbox, QStringLiteral("web"));
        QCOMPARE(event.rule, QStringLiteral("ask"));
        QCOMPARE(event.time.msecsTo(event.deadline), 30000); // ProxyLimits' default wait
        QVERIFY(!client->waitForReadyRead(300));             // nothing is answered meanwhile

        m_proxy->engine.answer(held(), HoldAnswer{true, QStringLiteral("allowed once"), {}, {}});
        const QByteArray answer = response(*client);
        QVERIFY2(answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.0 200"), answer.constData());
        QVERIFY(answer.contains(LocalUpstream::kBody));
        // Events reach the log through the event thread, possibly after the client has its answer.
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::HoldEnded));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::Allowed));
        QCOMPARE(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::Allowed)->rule,
                 QStringLiteral("allowed once"));
        // An id answered already is ignored.
        m_proxy->engine.answer(held(), HoldAnswer{false, QStringLiteral("late"), {}, {}});
        QCOMPARE(m_proxy->log.count(QStringLiteral("held.test"), ProxyEvent::Kind::Denied), 0);
    }

    void refusedAnswerSaysWhy()
    {
        startProxy();
        const auto client = request();
        QVERIFY(client);
        QTRY_COMPARE(held().size(), std::size_t(1));
        m_proxy->engine.answer(
            held(), HoldAnswer{false, QStringLiteral("ask (deny once)"), QStringLiteral("denied when asked"), {}});
        const QByteArray answer = response(*client);
        QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
        QCOMPARE(headerValue(answer, "X-Paddock-Rule"), QByteArray("ask (deny once)"));
        QCOMPARE(headerValue(answer, "X-Paddock-Reason"), QByteArray("denied when asked"));
    }

    void aRuleChangeDecidesWhatWaits()
    {
        startProxy();
        const auto client = request();
        QVERIFY(client);
        QTRY_COMPARE(held().size(), std::size_t(1));
        m_proxy->allowList.allow(QStringLiteral("held.test"));
        m_proxy->engine.recheck();
        const QByteArray answer = response(*client);
        QVERIFY2(answer.contains(" 200 "), answer.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::Allowed));
        QCOMPARE(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::Allowed)->rule,
                 QStringLiteral("allow held.test"));
    }

    void unansweredIsRefusedAfterTheWait()
    {
        ProxyLimits limits;
        limits.askTimeout = std::chrono::milliseconds(400);
        startProxy(limits);
        const auto client = request();
        QVERIFY(client);
        const QByteArray answer = response(*client, 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
        QVERIFY2(headerValue(answer, "X-Paddock-Reason").startsWith("nobody answered within 1 s"), answer.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::HoldEnded));
    }

    void aClientThatLeavesEndsItsHold()
    {
        startProxy();
        auto client = request();
        QVERIFY(client);
        QTRY_COMPARE(held().size(), std::size_t(1));
        client->disconnectFromHost();
        client.reset();
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("held.test"), ProxyEvent::Kind::HoldEnded));
        QCOMPARE(m_proxy->log.count(QStringLiteral("held.test"), ProxyEvent::Kind::Denied), 0);
    }

    void waitingIsBounded()
    {
        ProxyLimits limits;
        limits.maxHeldPerEndpoint = 2;
        startProxy(limits);
        const auto first = request();
        const auto second = request();
        QVERIFY(first && second);
        QTRY_COMPARE(held().size(), std::size_t(2));
        // A third waits for nobody: refused at once, and says why.
        const auto third = request();
        QVERIFY(third);
        const QByteArray refused = response(*third, 5000);
        QVERIFY2(refused.startsWith("HTTP/1.1 503"), refused.constData());
        QVERIFY(headerValue(refused, "X-Paddock-Reason").contains("waiting for an answer"));
        QCOMPARE(held().size(), std::size_t(2));
        // Answered, their places are free again.
        m_proxy->engine.answer(held(), HoldAnswer{false, QStringLiteral("no"), QStringLiteral("no"), {}});
        QVERIFY(response(*first).startsWith("HTTP/1.1 403"));
        QVERIFY(response(*second).startsWith("HTTP/1.1 403"));
        const auto fourth = request();
        QVERIFY(fourth);
        QTRY_COMPARE(held().size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestProxyHold)
#include "tst_proxy_hold.moc"

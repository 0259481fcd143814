// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock-init --proxy-mux PATH`, the real binary, as the daemon drives it for a sandbox on
// another computer's engine: each connection to PATH becomes a stream over its standard input
// and output; bytes pass both ways within the credit; and whatever breaks the framing's rules
// (a long payload, an unknown type, an id never opened, data past the credit) ends it, with
// every connection and the socket gone: no way out is left. With `--proxy-mux-ports`, the
// connections of the sandbox's publisher to its ports socket are streams of their own kind.
#include "proxy/MuxFrame.h"

#include <QLocalSocket>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace mux = paddock::proxy::mux;

class TestProxyMux : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void connectionsBecomeStreams();
    void aBrokenRuleEndsEverything_data();
    void aBrokenRuleEndsEverything();
    void theEndOfInputLeavesNoWayOut();
    void portConnectionsOpenAsTheirOwnKind();

private:
    QString socketPath() const { return m_dir.filePath(QStringLiteral("proxy.sock")); }
    QString portsPath() const { return m_dir.filePath(QStringLiteral("ports.sock")); }
    /** Reads frames from the mux's output until one arrives, at most 10 s. */
    bool nextFrame(mux::Type *type, std::uint32_t *id, QByteArray *payload)
    {
        for (int waited = 0; waited < 100; ++waited) {
            mux::Frame frame;
            if (m_reader.next(&frame) == mux::Reader::Next::Frame) {
                *type = frame.type;
                *id = frame.id;
                *payload = QByteArray(frame.payload.data(), qsizetype(frame.payload.size()));
                return true;
            }
            m_mux.waitForReadyRead(100);
            const QByteArray bytes = m_mux.readAllStandardOutput();
            m_reader.feed(bytes.constData(), size_t(bytes.size()));
        }
        return false;
    }
    void send(mux::Type type, std::uint32_t id, const QByteArray &payload = {})
    {
        std::string out;
        mux::append(out, type, id, std::string_view(payload.constData(), size_t(payload.size())));
        m_mux.write(out.data(), qint64(out.size()));
        m_mux.waitForBytesWritten(5000);
    }
    /** A connection to the mux's socket, and its Open frame; its id. */
    std::uint32_t open(QLocalSocket &client)
    {
        client.connectToServer(socketPath());
        if (!client.waitForConnected(5000))
            return 0;
        mux::Type type{};
        std::uint32_t id = 0;
        QByteArray payload;
        return nextFrame(&type, &id, &payload) && type == mux::Type::Open ? id : 0;
    }

    QTemporaryDir m_dir;
    QProcess m_mux;
    mux::Reader m_reader;
};

void TestProxyMux::init()
{
    m_reader = mux::Reader();
    QFile::remove(socketPath()); // a killed mux's
    QFile::remove(portsPath());
    m_mux.start(QStringLiteral(PADDOCK_INIT_BIN),
                {QStringLiteral("--proxy-mux"), socketPath(), QStringLiteral("--proxy-mux-ports"), portsPath()});
    QVERIFY(m_mux.waitForStarted());
    QTRY_VERIFY(QFile::exists(socketPath()) && QFile::exists(portsPath()));
}

void TestProxyMux::cleanup()
{
    m_mux.kill();
    m_mux.waitForFinished();
}

void TestProxyMux::connectionsBecomeStreams()
{
    QLocalSocket first;
    QLocalSocket second;
    const std::uint32_t a = open(first);
    const std::uint32_t b = open(second);
    QVERIFY(a != 0 && b > a);
    first.write("CONNECT api.example.com:443 HTTP/1.1\r\n\r\n");
    first.flush();
    mux::Type type{};
    std::uint32_t id = 0;
    QByteArray payload;
    QVERIFY(nextFrame(&type, &id, &payload));
    QCOMPARE(type, mux::Type::Data);
    QCOMPARE(id, a);
    QCOMPARE(payload, QByteArray("CONNECT api.example.com:443 HTTP/1.1\r\n\r\n"));
    // The proxy's answer reaches the second client only, and is credited back once written.
    send(mux::Type::Data, b, "HTTP/1.1 403 Forbidden\r\n\r\n");
    QTRY_COMPARE(second.bytesAvailable() > 0 || second.waitForReadyRead(100), true);
    QCOMPARE(second.readAll(), QByteArray("HTTP/1.1 403 Forbidden\r\n\r\n"));
    QVERIFY(nextFrame(&type, &id, &payload));
    std::uint32_t credited = 0;
    QVERIFY(
        mux::creditOf(mux::Frame{type, id, std::string_view(payload.constData(), size_t(payload.size()))}, &credited));
    QCOMPARE(id, b);
    QCOMPARE(credited, std::uint32_t(26));
    // A close from the desktop ends that connection only.
    send(mux::Type::Close, b);
    QTRY_COMPARE(second.state(), QLocalSocket::UnconnectedState);
    QCOMPARE(first.state(), QLocalSocket::ConnectedState);
    QCOMPARE(m_mux.state(), QProcess::Running);
}

void TestProxyMux::aBrokenRuleEndsEverything_data()
{
    QTest::addColumn<QByteArray>("frames");
    std::string tooLong;
    mux::append(tooLong, mux::Type::Data, 1, std::string(mux::MaxPayload + 1, 'x'));
    QTest::newRow("a payload past the bound") << QByteArray::fromStdString(tooLong);
    QTest::newRow("an unknown type") << QByteArray("\x09\x00\x00\x00\x01\x00\x00\x00\x00", 9);
    std::string unopened;
    mux::append(unopened, mux::Type::Data, 7, "hello");
    QTest::newRow("an id never opened") << QByteArray::fromStdString(unopened);
    std::string opening;
    mux::append(opening, mux::Type::Open, 1);
    QTest::newRow("an open from the desktop") << QByteArray::fromStdString(opening);
    std::string openingPort;
    mux::append(openingPort, mux::Type::OpenPort, 1);
    QTest::newRow("an open of a port from the desktop") << QByteArray::fromStdString(openingPort);
    std::string credit;
    mux::appendCredit(credit, 1, 1);
    QTest::newRow("credit past the window") << QByteArray::fromStdString(credit);
    // More than the window beyond what the kernel holds for a client that does not read.
    std::string flood;
    for (std::size_t sent = 0; sent <= 4 * mux::Window; sent += mux::MaxPayload)
        mux::append(flood, mux::Type::Data, 1, std::string(mux::MaxPayload, 'y'));
    QTest::newRow("data past the credit") << QByteArray::fromStdString(flood);
}

void TestProxyMux::aBrokenRuleEndsEverything()
{
    QFETCH(QByteArray, frames);
    QLocalSocket client;
    QCOMPARE(open(client), std::uint32_t(1));
    client.setReadBufferSize(1); // the flood is not read away by the client
    m_mux.write(frames);
    QVERIFY(m_mux.waitForFinished(10000));
    client.setReadBufferSize(0);
    QTRY_VERIFY((client.readAll(), client.state() == QLocalSocket::UnconnectedState));
    QVERIFY(!QFile::exists(socketPath()));
    QVERIFY(!QFile::exists(portsPath()));
}

void TestProxyMux::theEndOfInputLeavesNoWayOut()
{
    QLocalSocket client;
    QCOMPARE(open(client), std::uint32_t(1));
    m_mux.closeWriteChannel();
    QVERIFY(m_mux.waitForFinished(10000));
    QTRY_COMPARE(client.state(), QLocalSocket::UnconnectedState);
    QLocalSocket late;
    late.connectToServer(socketPath());
    QVERIFY(!late.waitForConnected(1000));
}

void TestProxyMux::portConnectionsOpenAsTheirOwnKind()
{
    QLocalSocket publisher;
    publisher.connectToServer(portsPath());
    QVERIFY(publisher.waitForConnected(5000));
    mux::Type type{};
    std::uint32_t id = 0;
    QByteArray payload;
    QVERIFY(nextFrame(&type, &id, &payload));
    QCOMPARE(type, mux::Type::OpenPort);
    QCOMPARE(id, std::uint32_t(1));
    // What the publisher says goes to the desktop on that stream; a proxy connection is an Open.
    publisher.write("port 8080\n");
    publisher.flush();
    QVERIFY(nextFrame(&type, &id, &payload));
    QCOMPARE(type, mux::Type::Data);
    QCOMPARE(payload, QByteArray("port 8080\n"));
    QLocalSocket client;
    QCOMPARE(open(client), std::uint32_t(2));
    send(mux::Type::Data, 1, "C");
    QTRY_COMPARE(publisher.bytesAvailable() > 0 || publisher.waitForReadyRead(100), true);
    QCOMPARE(publisher.readAll(), QByteArray("C"));
}

QTEST_GUILESS_MAIN(TestProxyMux)
#include "tst_proxy_mux.moc"

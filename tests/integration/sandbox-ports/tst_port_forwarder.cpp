// SPDX-License-Identifier: GPL-3.0-or-later
// The two halves of a published port without a sandbox around them: the daemon's
// PortForwarder with real sockets, and the real paddock-init dialling it for a server on the
// host's loopback (which is what 127.0.0.1 is for paddock-init inside a sandbox).
#include "sandbox/PortForwarder.h"

#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using paddock::sandbox::PortForwarder;

namespace {

/** A unix connection to @p path that says "port PORT" the way paddock-init does. */
int offer(const QString &path, const QByteArray &greeting)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray native = QFile::encodeName(path);
    std::memcpy(addr.sun_path, native.constData(), size_t(native.size()) + 1);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::write(fd, greeting.constData(), size_t(greeting.size())) != greeting.size()) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/** What arrived on @p fd so far, without waiting; sets @p eof when the peer has closed. */
QByteArray readNow(int fd, bool *eof = nullptr)
{
    QByteArray data;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n > 0) {
            data.append(buffer, n);
            continue;
        }
        if (n == 0 && eof)
            *eof = true;
        return data;
    }
}

/** Keeps reading @p fd (spinning the event loop) until @p wanted arrived or the peer closed. */
QByteArray readUntil(int fd, const QByteArray &wanted, bool *eof = nullptr)
{
    QByteArray data;
    bool closed = false;
    (void)QTest::qWaitFor(
        [&] {
            data += readNow(fd, &closed);
            return closed || (!wanted.isEmpty() && data.contains(wanted));
        },
        20000);
    if (eof)
        *eof = closed;
    return data;
}

quint16 portOf(const QString &address)
{
    return address.section(QLatin1Char(':'), 1).toUShort();
}

} // namespace

class TestPortForwarder : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_RUNTIME_DIR", m_dir.path().toLocal8Bit());
        m_forwarder = std::make_unique<PortForwarder>();
        m_socket = m_dir.path() + QStringLiteral("/ports.sock");
        const paddock::Result<void> opened = m_forwarder->open(QStringLiteral("box"), m_socket, {8080});
        QVERIFY2(opened, qPrintable(opened.errorText()));
        m_host = m_forwarder->ports(QStringLiteral("box"), {8080}).first().hostAddress;
        QVERIFY(m_host.startsWith(QLatin1String("127.0.0.1:")));
    }
    void cleanup() { m_forwarder.reset(); }

    void clientWaitsForAnOfferAndIsJoinedBothWays()
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, portOf(m_host));
        QVERIFY(client.waitForConnected(5000));
        client.write("ping");
        QVERIFY(client.waitForBytesWritten(5000));
        // Only now does the sandbox side offer: the client was kept waiting, not refused.
        const int inside = offer(m_socket, "port 8080\n");
        QVERIFY(inside >= 0);
        QCOMPARE(readUntil(inside, "Cping"), QByteArray("Cping"));
        QCOMPARE(::write(inside, "pong", 4), ssize_t(4));
        QVERIFY(QTest::qWaitFor([&] { return client.bytesAvailable() >= 4; }, 20000));
        QCOMPARE(client.readAll(), QByteArray("pong"));
        ::close(inside);
        QVERIFY(QTest::qWaitFor([&] { return client.state() == QAbstractSocket::UnconnectedState; }, 20000));
    }

    void halfCloseOfTheClientStillGetsTheAnswer()
    {
        const int inside = offer(m_socket, "port 8080\n");
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, portOf(m_host));
        QVERIFY(client.waitForConnected(5000));
        client.write("request");
        QVERIFY(client.waitForBytesWritten(5000));
        ::shutdown(int(client.socketDescriptor()), SHUT_WR);
        bool eof = false;
        QCOMPARE(readUntil(inside, {}, &eof), QByteArray("Crequest"));
        QVERIFY(eof); // the end of the request came through
        QCOMPARE(::write(inside, "answer", 6), ssize_t(6));
        ::close(inside);
        QVERIFY(QTest::qWaitFor([&] { return client.bytesAvailable() >= 6; }, 20000));
        QCOMPARE(client.readAll(), QByteArray("answer"));
    }

    void offersOfOtherPortsOrGarbageAreClosed()
    {
        for (const QByteArray &greeting : {QByteArray("port 9999\n"), QByteArray("hello\n"), QByteArray("port 0\n"),
                                           QByteArray("port 8080 extra\n")}) {
            const int fd = offer(m_socket, greeting);
            QVERIFY(fd >= 0);
            bool eof = false;
            QCOMPARE(readUntil(fd, {}, &eof), QByteArray());
            QVERIFY2(eof, greeting.constData());
            ::close(fd);
        }
    }

    void closingRemovesTheSocketAndTheHostPort()
    {
        m_forwarder->close(QStringLiteral("box"));
        QVERIFY(!QFileInfo::exists(m_socket));
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, portOf(m_host));
        QVERIFY(!client.waitForConnected(5000));
        QVERIFY(m_forwarder->ports(QStringLiteral("box"), {8080}).first().hostAddress.isEmpty());
        // Opened again, the sandbox port gets the same host port back.
        QVERIFY(m_forwarder->open(QStringLiteral("box"), m_socket, {8080}));
        QCOMPARE(m_forwarder->ports(QStringLiteral("box"), {8080}).first().hostAddress, m_host);
    }

    void paddockInitCarriesConnectionsToTheServerBehindIt_data()
    {
        QTest::addColumn<bool>("throughVariable");
        QTest::newRow("--publish") << false;
        QTest::newRow("PADDOCK_PUBLISH") << true;
    }

    void paddockInitCarriesConnectionsToTheServerBehindIt()
    {
        QFETCH(bool, throughVariable);
        // The server "inside": a port of the loopback, as the program in a sandbox listens.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const QString socket = m_dir.path() + QStringLiteral("/init-ports.sock");
        QVERIFY(m_forwarder->open(QStringLiteral("initbox"), socket, {server.serverPort()}));
        const QString host = m_forwarder->ports(QStringLiteral("initbox"), {server.serverPort()}).first().hostAddress;

        const QString publish = QStringLiteral("%1=%2").arg(server.serverPort()).arg(socket);
        QProcess init;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QStringList arguments;
        if (throughVariable)
            env.insert(QStringLiteral("PADDOCK_PUBLISH"), publish);
        else
            arguments << QStringLiteral("--publish") << publish;
        arguments << QStringLiteral("--") << QStringLiteral("sh") << QStringLiteral("-c")
                  << QStringLiteral("echo \"${PADDOCK_PUBLISH-unset}\"; exec sleep 600");
        init.setProcessEnvironment(env);
        init.start(QStringLiteral(PADDOCK_INIT_BIN), arguments);
        QVERIFY(init.waitForStarted());
        // The variable is paddock-init's alone: the program does not see it.
        QVERIFY(QTest::qWaitFor([&] { return init.canReadLine(); }, 20000));
        QCOMPARE(init.readLine(), QByteArray("unset\n"));

        for (int round = 0; round < 3; ++round) {
            QTcpSocket client;
            client.connectToHost(QHostAddress::LocalHost, portOf(host));
            QVERIFY(client.waitForConnected(5000));
            client.write("hello " + QByteArray::number(round));
            QVERIFY(QTest::qWaitFor([&] { return server.hasPendingConnections(); }, 20000));
            std::unique_ptr<QTcpSocket> accepted(server.nextPendingConnection());
            QVERIFY(QTest::qWaitFor([&] { return accepted->bytesAvailable() >= 7; }, 20000));
            QCOMPARE(accepted->readAll(), "hello " + QByteArray::number(round));
            accepted->write("welcome");
            QVERIFY(QTest::qWaitFor([&] { return client.bytesAvailable() >= 7; }, 20000));
            QCOMPARE(client.readAll(), QByteArray("welcome"));
        }
        init.kill();
        init.waitForFinished();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<PortForwarder> m_forwarder;
    QString m_socket;
    QString m_host;
};

QTEST_GUILESS_MAIN(TestPortForwarder)
#include "tst_port_forwarder.moc"

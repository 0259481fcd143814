// SPDX-License-Identifier: GPL-3.0-or-later
// proxy::Flow between real loopback TCP sockets: bytes arrive intact and in order whether
// they go through a pipe of the default size or a large one; a large pipe is taken only by a
// flow that keeps its reads full, given back when the flow idles, and bounded per process.
#include "proxy/Relay.h"

#include <QtTest>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using paddock::UniqueFd;
using paddock::proxy::Flow;

namespace {

/** A connected pair of loopback TCP sockets, both non-blocking. */
struct TcpPair
{
    UniqueFd near; ///< the test's end
    UniqueFd far;  ///< the end a Flow reads from or writes to
};

TcpPair connectedPair()
{
    TcpPair pair;
    const UniqueFd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(listener.get(), 1) != 0 ||
        ::getsockname(listener.get(), reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return pair;
    pair.near.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (::connect(pair.near.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
        return {};
    pair.far.reset(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
    for (const int fd : {pair.near.get(), pair.far.get()})
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return pair;
}

QByteArray pattern(qsizetype size, int seed)
{
    QByteArray bytes(size, Qt::Uninitialized);
    quint32 state = quint32(seed) * 2654435761u + 1;
    for (qsizetype i = 0; i < size; ++i) {
        state = state * 1103515245u + 12345u;
        bytes[i] = char(state >> 24);
    }
    return bytes;
}

/**
 * One direction under test: the test writes into @ref source's near end, a Flow moves the
 * bytes from its far end to @ref destination's far end, and the test reads them at the other.
 */
struct Lane
{
    TcpPair source;
    TcpPair destination;
    Flow flow;
    QByteArray toSend;
    qsizetype sent = 0;
    QByteArray received;
    bool sawLargePipe = false;

    bool open()
    {
        source = connectedPair();
        destination = connectedPair();
        if (!source.far || !destination.far)
            return false;
        flow.attach(source.far.get(), destination.far.get());
        return true;
    }
    /** One turn: write some, pump, read what arrived. False on a flow error. */
    bool turn()
    {
        if (sent < toSend.size()) {
            const ssize_t n =
                ::send(source.near.get(), toSend.constData() + sent, size_t(toSend.size() - sent), MSG_NOSIGNAL);
            if (n > 0)
                sent += n;
        }
        if (!flow.pump(64 * 1024))
            return false;
        sawLargePipe = sawLargePipe || flow.hasLargePipe();
        char buffer[256 * 1024];
        while (true) {
            const ssize_t n = ::recv(destination.near.get(), buffer, sizeof buffer, 0);
            if (n <= 0)
                break;
            received.append(buffer, n);
        }
        return true;
    }
    bool done() const { return received.size() == toSend.size(); }
};

/** Turns every lane until all received everything, or 30 s pass. */
bool runLanes(std::vector<std::unique_ptr<Lane>> &lanes)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 30000) {
        bool all = true;
        for (auto &lane : lanes) {
            if (!lane->turn())
                return false;
            all = all && lane->done();
        }
        if (all)
            return true;
        ::poll(nullptr, 0, 0);
    }
    return false;
}

} // namespace

class TestRelayFlow : public QObject
{
    Q_OBJECT

private slots:
    void bulkBytesArriveIntactAndTheLargePipeGoesBackWhenIdle()
    {
        std::vector<std::unique_ptr<Lane>> lanes;
        lanes.push_back(std::make_unique<Lane>());
        Lane &lane = *lanes.front();
        QVERIFY(lane.open());
        lane.toSend = pattern(24 * 1024 * 1024, 1);
        QVERIFY(runLanes(lanes));
        QVERIFY(lane.received == lane.toSend);
        QVERIFY2(lane.sawLargePipe, "a download that keeps its reads full moves to a large pipe");
        QCOMPARE(lane.flow.bytes(), quint64(lane.toSend.size()));

        // The first look notes the count, the second finds nothing moved since: the pipe goes.
        lane.flow.shrinkIdlePipe();
        QVERIFY(lane.flow.hasLargePipe());
        lane.flow.shrinkIdlePipe();
        QVERIFY(!lane.flow.hasLargePipe());
        QCOMPARE(Flow::largePipesInUse(), 0);

        // On a pipe of the default size, the flow still carries what comes next, after what came before.
        const QByteArray more = pattern(100 * 1000, 2);
        lane.toSend += more;
        QVERIFY(runLanes(lanes));
        QVERIFY(lane.received.endsWith(more));
        QVERIFY(lane.received == lane.toSend);
    }

    void smallExchangesNeverTakeALargePipe()
    {
        std::vector<std::unique_ptr<Lane>> lanes;
        lanes.push_back(std::make_unique<Lane>());
        Lane &lane = *lanes.front();
        QVERIFY(lane.open());
        for (int i = 0; i < 50; ++i) {
            lane.toSend += QByteArrayLiteral("GET /small HTTP/1.1\r\nHost: example.test\r\n\r\n");
            QVERIFY(runLanes(lanes));
        }
        QVERIFY(lane.received == lane.toSend);
        QVERIFY(!lane.sawLargePipe);
    }

    void largePipesAreBoundedPerProcess()
    {
        std::vector<std::unique_ptr<Lane>> lanes;
        for (int i = 0; i < 12; ++i) {
            lanes.push_back(std::make_unique<Lane>());
            QVERIFY(lanes.back()->open());
            lanes.back()->toSend = pattern(8 * 1024 * 1024, 10 + i);
        }
        int most = 0;
        QElapsedTimer timer;
        timer.start();
        bool all = false;
        while (!all && timer.elapsed() < 60000) {
            all = true;
            for (auto &lane : lanes) {
                QVERIFY(lane->turn());
                all = all && lane->done();
            }
            most = std::max(most, Flow::largePipesInUse());
        }
        QVERIFY(all);
        for (auto &lane : lanes)
            QVERIFY(lane->received == lane->toSend);
        QVERIFY2(most == 8, qPrintable(QStringLiteral("at most %1 large pipes at once").arg(most)));
        for (auto &lane : lanes)
            lane->flow.reset();
        QCOMPARE(Flow::largePipesInUse(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRelayFlow)
#include "tst_relay_flow.moc"

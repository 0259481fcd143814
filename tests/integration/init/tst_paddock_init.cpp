// SPDX-License-Identifier: GPL-3.0-or-later
// paddock-init as a sandbox sees it: exit status, signals, zombies, and the relay from a
// loopback port to the proxy's unix socket.
#include "StandInProxy.h"
#include "common/ClientProgram.h"

#include "Needs.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

class TestPaddockInit : public QObject
{
    Q_OBJECT

private:
    static int freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    static int run(const QStringList &arguments, QByteArray *output = nullptr)
    {
        QProcess process;
        process.start(QStringLiteral(PADDOCK_INIT_BIN), arguments);
        process.waitForFinished(20000);
        if (output)
            *output = process.readAllStandardOutput() + process.readAllStandardError();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

private slots:
    void exitsWithTheProgramStatus()
    {
        QCOMPARE(run({QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 7")}), 7);
        QCOMPARE(run({QStringLiteral("true")}), 0);
    }

    void reportsAKilledProgramAsAShellWould()
    {
        QCOMPARE(run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("kill -TERM $$")}), 128 + SIGTERM);
    }

    void missingProgramIs127()
    {
        QByteArray output;
        QCOMPARE(run({QStringLiteral("/nonexistent/agent")}, &output), 127);
        QVERIFY(output.contains("cannot run /nonexistent/agent"));
    }

    void badUsageIs2()
    {
        QCOMPARE(run({}), 2);
        QCOMPARE(run({QStringLiteral("--relay"), QStringLiteral("nonsense"), QStringLiteral("true")}), 2);
        QCOMPARE(run({QStringLiteral("--relay"), QStringLiteral("127.0.0.1:70000=/tmp/x"), QStringLiteral("true")}), 2);
    }

    void forwardsTerminationToTheProgram()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("got-term"));
        QProcess process;
        process.start(QStringLiteral(PADDOCK_INIT_BIN),
                      {QStringLiteral("sh"), QStringLiteral("-c"),
                       QStringLiteral("trap 'touch %1; exit 42' TERM; touch %1.ready; while :; do sleep 0.05; done")
                           .arg(marker)});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker + QStringLiteral(".ready")), 10000);
        ::kill(pid_t(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 42);
        QVERIFY(QFile::exists(marker));
    }

    void reapsOrphansAsPid1()
    {
        PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(), "bubblewrap");
        // Inside a new PID namespace paddock-init is PID 1 and inherits every orphan.
        QProcess process;
        process.start(QStringLiteral("bwrap"),
                      {QStringLiteral("--unshare-pid"), QStringLiteral("--as-pid-1"), QStringLiteral("--dev-bind"),
                       QStringLiteral("/"), QStringLiteral("/"), QStringLiteral("--proc"), QStringLiteral("/proc"),
                       QStringLiteral(PADDOCK_INIT_BIN), QStringLiteral("--"), QStringLiteral("sh"),
                       QStringLiteral("-c"),
                       QStringLiteral("for i in 1 2 3; do sh -c 'sleep 0.1 &'; done; sleep 1; "
                                      "echo pid1=$(cat /proc/1/comm); "
                                      "echo zombies=$(grep -l ' Z ' /proc/[0-9]*/stat 2>/dev/null | wc -l)")});
        QVERIFY(process.waitForFinished(20000));
        const QByteArray output = process.readAllStandardOutput();
        QVERIFY2(output.contains("pid1=paddock-init"), output.constData());
        QVERIFY2(output.contains("zombies=0"), output.constData());
        QCOMPARE(process.exitCode(), 0);
    }

    void relaysConnectionsToTheProxySocketBothWays_data()
    {
        QTest::addColumn<bool>("handOver");
        QTest::newRow("spliced") << false;
        QTest::newRow("socket handed over") << true;
    }
    void relaysConnectionsToTheProxySocketBothWays()
    {
        QFETCH(bool, handOver);
        QTemporaryDir dir;
        const QString socketPath = dir.filePath(QStringLiteral("proxy.sock"));
        // The stand-in proxy reads each request to its end (the client half-closes), then
        // answers with it reversed: both directions and the half-close must cross the relay.
        // Plain POSIX sockets, because Qt's sockets close both ways on end-of-stream.
        const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        qstrncpy(address.sun_path, QFile::encodeName(socketPath).constData(), sizeof address.sun_path);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 8), 0);
        // Each connection starts with paddock-init's line naming the program that opened it
        // (common/ClientProgram.h): kept aside, and the rest reversed. Handed over, the client's
        // own socket comes with the line and nothing follows it on the unix connection.
        std::vector<std::string> preambles;
        std::vector<bool> passed;
        std::vector<std::size_t> afterLine;
        std::thread proxy([listener, &preambles, &passed, &afterLine] {
            for (int round = 0; round < 3; ++round) {
                const int peer = ::accept(listener, nullptr, nullptr);
                if (peer < 0)
                    return;
                std::string received;
                char buffer[65536];
                QByteArray first;
                const int client = paddock::test::receiveWithSocket(peer, &first);
                received.assign(first.constData(), size_t(first.size()));
                int source = peer;
                if (client >= 0) {
                    for (ssize_t n; (n = ::read(peer, buffer, sizeof buffer)) > 0;)
                        received.append(buffer, size_t(n));
                    ::close(peer);
                    source = client;
                    ::fcntl(source, F_SETFL, ::fcntl(source, F_GETFL) & ~O_NONBLOCK);
                }
                const size_t lineEnd = received.find('\n');
                preambles.push_back(received.substr(0, lineEnd == std::string::npos ? 0 : lineEnd + 1));
                received.erase(0, lineEnd == std::string::npos ? 0 : lineEnd + 1);
                passed.push_back(client >= 0);
                afterLine.push_back(received.size());
                for (ssize_t n; (n = ::read(source, buffer, sizeof buffer)) > 0;)
                    received.append(buffer, size_t(n));
                std::reverse(received.begin(), received.end());
                for (size_t sent = 0; sent < received.size();) {
                    const ssize_t n = ::write(source, received.data() + sent, received.size() - sent);
                    if (n <= 0)
                        break;
                    sent += size_t(n);
                }
                ::close(source);
            }
        });

        const int port = freePort();
        QProcess init;
        QStringList arguments{QStringLiteral("--relay"), QStringLiteral("127.0.0.1:%1=%2").arg(port).arg(socketPath)};
        if (handOver)
            arguments << QStringLiteral("--relay-hand-over");
        init.start(QStringLiteral(PADDOCK_INIT_BIN), arguments << QStringLiteral("sleep") << QStringLiteral("30"));
        QVERIFY(init.waitForStarted());

        QByteArray payload(3 * 1024 * 1024, '\0');
        for (int i = 0; i < payload.size(); ++i)
            payload[i] = char(i * 7 + i / 251);
        QByteArray expected = payload;
        std::reverse(expected.begin(), expected.end());

        for (int round = 0; round < 3; ++round) {
            QTcpSocket client;
            for (int attempt = 0; attempt < 100 && client.state() != QAbstractSocket::ConnectedState; ++attempt) {
                client.abort();
                client.connectToHost(QHostAddress::LocalHost, quint16(port));
                if (!client.waitForConnected(1000))
                    QTest::qWait(50);
            }
            QCOMPARE(client.state(), QAbstractSocket::ConnectedState);
            client.write(payload);
            QTRY_VERIFY_WITH_TIMEOUT(client.bytesToWrite() == 0, 10000);
            // Half-close: the proxy must see the end of the request and still answer.
            QCOMPARE(::shutdown(int(client.socketDescriptor()), SHUT_WR), 0);
            QByteArray answer;
            QTRY_VERIFY_WITH_TIMEOUT(
                (answer += client.readAll(),
                 answer.size() >= expected.size() || client.state() == QAbstractSocket::UnconnectedState),
                20000);
            answer += client.readAll();
            QCOMPARE(answer.size(), expected.size());
            QVERIFY(answer == expected);
        }
        init.kill();
        init.waitForFinished();
        ::shutdown(listener, SHUT_RDWR);
        ::close(listener);
        proxy.join();
        // This test is the program that connected, and paddock-init said so each time, with the
        // version that says whether the socket came along, and what its executable is.
        QCOMPARE(int(preambles.size()), 3);
        const std::string version = std::string("PADDOCK-CLIENT ") + (handOver ? "2 " : "1 ");
        const std::string exe = QFile::encodeName(QCoreApplication::applicationFilePath()).toStdString();
        for (size_t i = 0; i < preambles.size(); ++i) {
            QVERIFY2(preambles[i].starts_with(version) && preambles[i].ends_with("\n"), preambles[i].c_str());
            paddock::ClientProgram program;
            std::size_t consumed = 0;
            QCOMPARE(paddock::preamble::parse(preambles[i], &program, &consumed), paddock::preamble::Parse::Done);
            QCOMPARE(program.pid, long(::getpid()));
            QCOMPARE(program.exe, exe);
            QVERIFY(program.exeFile.known());
            QCOMPARE(program.exeFile.path, exe);
            QCOMPARE(program.exeFile.sha256.size(), std::size_t(64));
            QVERIFY(program.exeFile.place != paddock::FileIdentity::Place::Unknown);
            QCOMPARE(bool(passed[i]), handOver);
            if (handOver)
                QCOMPARE(afterLine[i], std::size_t(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestPaddockInit)
#include "tst_paddock_init.moc"

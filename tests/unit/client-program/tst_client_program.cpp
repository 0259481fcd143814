// SPDX-License-Identifier: GPL-3.0-or-later
// The line paddock-init writes before a sandbox's connection, and what a rule's program
// condition matches. The trust in it (only paddock-init's line is believed) is tested through
// a real sandbox in tests/integration/sandbox-program.
#include "common/ClientProgram.h"

#include <QtTest>

using paddock::ClientProgram;
using paddock::FileOrigin;
namespace preamble = paddock::preamble;

namespace {

paddock::FileIdentity file(const std::string &path, unsigned long long inode)
{
    paddock::FileIdentity identity;
    identity.path = path;
    identity.device = 64;
    identity.inode = inode;
    identity.size = 1000;
    identity.changedNs = 1700000000000000000LL;
    identity.place = paddock::FileIdentity::Place::ReadOnly;
    return identity;
}

/** A program whose executable paddock-init identified and the daemon found in the base. */
ClientProgram fromBase(const std::string &exe, std::vector<std::string> args)
{
    ClientProgram p;
    p.pid = 9;
    p.exe = exe;
    p.args = std::move(args);
    p.exeFile = file(exe, 11);
    p.exeOrigin = FileOrigin::Base;
    return p;
}

ClientProgram program(long pid, const std::string &exe, std::vector<std::string> args)
{
    ClientProgram p;
    p.pid = pid;
    p.exe = exe;
    p.args = std::move(args);
    return p;
}

} // namespace

class ClientProgramTest : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsAnyBytes()
    {
        const ClientProgram sent = program(4242, "/usr/bin/my tool", {"tool", "a b", "", "100%", "new\nline", "é"});
        const std::string line = preamble::encode(sent);
        QCOMPARE(std::count(line.begin(), line.end(), '\n'), 1);
        QVERIFY(line.ends_with('\n'));
        ClientProgram read;
        std::size_t consumed = 0;
        QCOMPARE(preamble::parse(line + "GET / HTTP/1.1\r\n", &read, &consumed), preamble::Parse::Done);
        QCOMPARE(consumed, line.size());
        QCOMPARE(read.pid, 4242L);
        QCOMPARE(read.exe, sent.exe);
        QCOMPARE(read.args, sent.args);
        QVERIFY(!read.truncated);
    }

    void theLineSaysHowTheClientsBytesCome()
    {
        const ClientProgram sent = program(7, "/usr/bin/curl", {"curl"});
        ClientProgram read;
        std::size_t consumed = 0;
        preamble::Delivery delivery = preamble::Delivery::Attached;
        QCOMPARE(preamble::parse(preamble::encode(sent), &read, &consumed, &delivery), preamble::Parse::Done);
        QCOMPARE(delivery, preamble::Delivery::Relayed);
        const std::string attached = preamble::encode(sent, preamble::Delivery::Attached);
        QVERIFY(attached.starts_with("PADDOCK-CLIENT 2 7 "));
        QCOMPARE(preamble::parse(attached, &read, &consumed, &delivery), preamble::Parse::Done);
        QCOMPARE(delivery, preamble::Delivery::Attached);
        QCOMPARE(read.exe, sent.exe);
    }

    void aCapturedConnectionSaysWhereItWasGoing_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("name") << "tcp"
                              << "git.example.com" << 22;
        QTest::newRow("IPv4") << "tcp"
                              << "192.0.2.7" << 5432;
        QTest::newRow("IPv6") << "tcp"
                              << "2001:db8::1" << 443;
        QTest::newRow("datagram") << "udp"
                                  << "time.example.org" << 123;
        QTest::newRow("name refused") << "dns"
                                      << "x.example" << 53;
    }

    void aCapturedConnectionSaysWhereItWasGoing()
    {
        QFETCH(QString, transport);
        QFETCH(QString, host);
        QFETCH(int, port);
        const preamble::Destination to{transport.toStdString(), host.toStdString(), unsigned(port)};
        const ClientProgram sent = program(9, "/usr/bin/ssh", {"ssh", "-p", "22", "git.example.com"});
        const auto delivery = to.transport == "tcp" ? preamble::Delivery::Attached : preamble::Delivery::Report;
        const std::string line = preamble::encode(sent, delivery, to);
        ClientProgram read;
        std::size_t consumed = 0;
        preamble::Delivery readDelivery = preamble::Delivery::Relayed;
        preamble::Destination readTo;
        QCOMPARE(preamble::parse(line, &read, &consumed, &readDelivery, &readTo), preamble::Parse::Done);
        QCOMPARE(consumed, line.size());
        QCOMPARE(readDelivery, delivery);
        QVERIFY(readTo == to);
        QCOMPARE(read.args, sent.args);
        // Without a destination the line is a proxy client's, as before.
        QCOMPARE(preamble::parse(preamble::encode(sent), &read, &consumed, &readDelivery, &readTo),
                 preamble::Parse::Done);
        QVERIFY(readTo.empty());
    }

    void destinationsAndReportsThatDoNotParseAreRefused_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("unknown transport") << QByteArray("PADDOCK-CLIENT 2 to=sctp:h.test:1 1 %00\n");
        QTest::newRow("no port") << QByteArray("PADDOCK-CLIENT 2 to=tcp:h.test 1 %00\n");
        QTest::newRow("port too large") << QByteArray("PADDOCK-CLIENT 2 to=tcp:h.test:70000 1 %00\n");
        QTest::newRow("empty host") << QByteArray("PADDOCK-CLIENT 2 to=tcp::22 1 %00\n");
        QTest::newRow("a report of nothing") << QByteArray("PADDOCK-CLIENT 3 1 %00\n");
        QTest::newRow("version 4") << QByteArray("PADDOCK-CLIENT 4 1 %00\n");
    }

    void destinationsAndReportsThatDoNotParseAreRefused()
    {
        QFETCH(QByteArray, line);
        ClientProgram read;
        std::size_t consumed = 0;
        preamble::Destination to;
        QCOMPARE(preamble::parse(line.toStdString(), &read, &consumed, nullptr, &to), preamble::Parse::Malformed);
    }

    void longCommandLinesAreCutAndSaySo()
    {
        const ClientProgram sent = program(7, "/usr/bin/curl", {"curl", std::string(5000, 'x'), "tail"});
        const std::string line = preamble::encode(sent);
        QVERIFY(line.size() <= preamble::MaxBytes);
        ClientProgram read;
        std::size_t consumed = 0;
        QCOMPARE(preamble::parse(line, &read, &consumed), preamble::Parse::Done);
        QVERIFY(read.truncated);
        QCOMPARE(read.args.size(), std::size_t(2));
        QVERIFY(read.commandLine().ends_with("…"));
    }

    void commandLinesHideWhatCarriesCredentials_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("shown");
        QTest::newRow("query") << QStringList{"curl", "https://h.test/a/b?token=T0K3N&x=1"}
                               << "curl https://h.test/a/b?…";
        QTest::newRow("user info") << QStringList{"git", "clone", "https://me:T0K3N@h.test/r.git"}
                                   << "git clone https://…@h.test/r.git";
        QTest::newRow("header") << QStringList{"curl", "-H", "Authorization: Bearer T0K3N", "https://h.test/"}
                                << "curl -H … https://h.test/";
        QTest::newRow("user") << QStringList{"curl", "-u", "me:T0K3N", "https://h.test/"}
                              << "curl -u … https://h.test/";
        QTest::newRow("option=value") << QStringList{"tool", "--token=T0K3N", "--name=x"} << "tool --token=… --name=x";
        QTest::newRow("bare header") << QStringList{"http", "h.test", "authorization:T0K3N"}
                                     << "http h.test 'authorization: …'";
    }
    void commandLinesHideWhatCarriesCredentials()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, shown);
        ClientProgram p = program(3, "/usr/bin/x", {});
        for (const QString &arg : args)
            p.args.push_back(arg.toStdString());
        const QString line = QString::fromStdString(p.commandLine());
        QCOMPARE(line, shown);
        QVERIFY(!line.contains(QStringLiteral("T0K3N")));
    }

    void otherBytesAreNotAPreamble_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("expected");
        const int notPreamble = int(preamble::Parse::NotPreamble);
        const int needMore = int(preamble::Parse::NeedMore);
        const int malformed = int(preamble::Parse::Malformed);
        QTest::newRow("http") << QByteArray("GET http://a/ HTTP/1.1\r\n") << notPreamble;
        QTest::newRow("connect") << QByteArray("CONNECT a:443 HTTP/1.1\r\n") << notPreamble;
        QTest::newRow("socks") << QByteArray("\x05\x01\x00", 3) << notPreamble;
        QTest::newRow("a prefix") << QByteArray("PADDOCK-CL") << needMore;
        QTest::newRow("no newline yet") << QByteArray("PADDOCK-CLIENT 1 5 /bin/sh") << needMore;
        QTest::newRow("endless") << QByteArray("PADDOCK-CLIENT 1 5 ") + QByteArray(5000, 'a') << malformed;
        QTest::newRow("version") << QByteArray("PADDOCK-CLIENT 3 5 /bin/sh sh\n") << malformed;
        QTest::newRow("pid") << QByteArray("PADDOCK-CLIENT 1 -5 /bin/sh sh\n") << malformed;
        QTest::newRow("raw space") << QByteArray("PADDOCK-CLIENT 1 5 /bin/sh  sh\n") << malformed;
        QTest::newRow("bad escape") << QByteArray("PADDOCK-CLIENT 1 5 /bin/%zz sh\n") << malformed;
        QTest::newRow("nul escape") << QByteArray("PADDOCK-CLIENT 1 5 /bin/a%00b sh\n") << malformed;
        QTest::newRow("control") << QByteArray("PADDOCK-CLIENT 1 5 /bin/\x01 sh\n") << malformed;
    }
    void otherBytesAreNotAPreamble()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, expected);
        ClientProgram read;
        std::size_t consumed = 0;
        QCOMPARE(int(preamble::parse(bytes.toStdString(), &read, &consumed)), expected);
    }

    void namesAndMatches_data()
    {
        QTest::addColumn<QString>("exe");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("script"); ///< the script paddock-init found, from the base
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("matching");
        QTest::addColumn<QStringList>("notMatching");
        QTest::newRow("curl") << "/usr/bin/curl" << QStringList{"curl", "-s", "https://x/pip"} << ""
                              << "curl" << QStringList{"curl", "/usr/bin/curl"}
                              << QStringList{"pip", "/usr/bin/pip", "x", "cur"};
        QTest::newRow("pip") << "/usr/bin/python3.11" << QStringList{"/usr/bin/python3", "/usr/bin/pip", "install", "x"}
                             << "/usr/bin/pip"
                             << "pip" << QStringList{"pip", "/usr/bin/pip", "python3", "python3.11"}
                             << QStringList{"install", "/tmp/pip"};
        // A module is whatever the interpreter finds first on its path (the working folder
        // first): no file says it is the base's pip.
        QTest::newRow("python -m pip") << "/usr/bin/python3.11" << QStringList{"python3", "-m", "pip", "install"} << ""
                                       << "python3.11" << QStringList{"python3"} << QStringList{"pip", "install", "-m"};
        QTest::newRow("python -c") << "/usr/bin/python3.11" << QStringList{"python3", "-c", "import pip"} << ""
                                   << "python3.11" << QStringList{"python3", "/usr/bin/python3.11"}
                                   << QStringList{"pip", "import pip"};
        QTest::newRow("git helper") << "/usr/lib/git-core/git-remote-http"
                                    << QStringList{"git-remote-http", "origin", "http://h/r"} << ""
                                    << "git-remote-http" << QStringList{"git-remote-http"}
                                    << QStringList{"git", "r", "origin"};
        // argv[0] is the process's own say: `exec -a curl wget` is wget.
        QTest::newRow("exec -a curl") << "/usr/bin/wget" << QStringList{"curl", "http://x/"} << ""
                                      << "wget" << QStringList{"wget"} << QStringList{"curl", "/usr/bin/curl"};
    }
    void namesAndMatches()
    {
        QFETCH(QString, exe);
        QFETCH(QStringList, args);
        QFETCH(QString, script);
        QFETCH(QString, name);
        QFETCH(QStringList, matching);
        QFETCH(QStringList, notMatching);
        ClientProgram p = fromBase(exe.toStdString(), {});
        for (const QString &arg : args)
            p.args.push_back(arg.toStdString());
        if (!script.isEmpty()) {
            p.scriptFile = file(script.toStdString(), 12);
            p.scriptOrigin = FileOrigin::Base;
        }
        QCOMPARE(QString::fromStdString(p.name()), name);
        for (const QString &condition : matching)
            QVERIFY2(p.matches(condition.toStdString()), qPrintable(condition));
        for (const QString &condition : notMatching)
            QVERIFY2(!p.matches(condition.toStdString()), qPrintable(condition));
        p.pid = 0; // nobody said: no condition holds
        QVERIFY(!p.matches(name.toStdString()));
    }

    void aFileWrittenInsideIsNotTheBasesProgram_data()
    {
        QTest::addColumn<QString>("exe");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exeOrigin");
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("scriptOrigin");
        QTest::addColumn<QString>("condition");
        const int base = int(FileOrigin::Base);
        const int written = int(FileOrigin::Written);
        const int unknown = int(FileOrigin::Unknown);
        QTest::newRow("wget copied to /tmp/curl") << "/tmp/curl" << QStringList{"curl"} << written << "" << 0 << "curl";
        QTest::newRow("/usr/bin/curl overwritten")
            << "/usr/bin/curl" << QStringList{"curl"} << written << "" << 0 << "/usr/bin/curl";
        QTest::newRow("origin not known") << "/usr/bin/curl" << QStringList{"curl"} << unknown << "" << 0 << "curl";
        QTest::newRow("python3 /tmp/pip")
            << "/usr/bin/python3.11" << QStringList{"python3", "/tmp/pip"} << base << "/tmp/pip" << written << "pip";
        QTest::newRow("a copied python3 runs the base's pip")
            << "/work/python3" << QStringList{"python3", "/usr/bin/pip"} << written << "/usr/bin/pip" << base << "pip";
    }
    void aFileWrittenInsideIsNotTheBasesProgram()
    {
        QFETCH(QString, exe);
        QFETCH(QStringList, args);
        QFETCH(int, exeOrigin);
        QFETCH(QString, script);
        QFETCH(int, scriptOrigin);
        QFETCH(QString, condition);
        ClientProgram p = fromBase(exe.toStdString(), {});
        p.exeOrigin = FileOrigin(exeOrigin);
        for (const QString &arg : args)
            p.args.push_back(arg.toStdString());
        if (!script.isEmpty()) {
            p.scriptFile = file(script.toStdString(), 12);
            p.scriptOrigin = FileOrigin(scriptOrigin);
        }
        QVERIFY(!p.matches(condition.toStdString()));
        // A deny names it all the same: an imitation is refused what the original is.
        QVERIFY(p.mayBe(condition.toStdString()));
    }

    void aDigestNamesTheFileWhereverItIs()
    {
        const std::string digest(64, 'a');
        ClientProgram p = fromBase("/work/tool", {"tool"});
        p.exeFile.sha256 = digest;
        p.exeOrigin = FileOrigin::Written;
        QVERIFY(!p.matches("tool"));
        QVERIFY(p.matches("sha256:" + digest));
        QVERIFY(p.matches("tool@sha256:" + std::string(64, 'A')));
        QVERIFY(!p.matches("other@sha256:" + digest));
        QVERIFY(!p.matches("sha256:" + std::string(64, 'b')));
        QVERIFY(!p.mayBe("sha256:" + std::string(64, 'b')));
        p.exeFile.sha256.clear(); // too large to read: no digest holds
        QVERIFY(!p.matches("sha256:" + digest));
        QVERIFY(p.mayBe("sha256:" + digest));
    }

    void whatAFileIsRoundTrips_data()
    {
        QTest::addColumn<int>("place");
        QTest::addColumn<QString>("mountPoint");
        QTest::addColumn<QString>("scriptPath");
        using Place = paddock::FileIdentity::Place;
        QTest::newRow("read-only") << int(Place::ReadOnly) << ""
                                   << "/usr/bin/pip";
        QTest::newRow("root") << int(Place::Root) << ""
                              << "/opt/a:b/pip";
        QTest::newRow("a mount with colons") << int(Place::Mount) << "/work/a:b %x"
                                             << "/work/a:b %x/run.py";
        QTest::newRow("elsewhere") << int(Place::Elsewhere) << ""
                                   << "/tmp/x";
        QTest::newRow("unknown") << int(Place::Unknown) << ""
                                 << "/tmp/x";
    }
    void whatAFileIsRoundTrips()
    {
        QFETCH(int, place);
        QFETCH(QString, mountPoint);
        QFETCH(QString, scriptPath);
        ClientProgram sent = fromBase("/usr/bin/python3.11", {"python3", scriptPath.toStdString()});
        sent.exeFile.place = paddock::FileIdentity::Place(place);
        sent.exeFile.mountPoint = mountPoint.toStdString();
        sent.exeFile.sha256 = std::string(64, 'f');
        sent.scriptFile = file(scriptPath.toStdString(), 77);
        sent.scriptFile.place = sent.exeFile.place;
        sent.scriptFile.mountPoint = sent.exeFile.mountPoint;
        const std::string line = preamble::encode(sent, preamble::Delivery::Attached, {"tcp", "example.com", 22});
        ClientProgram read;
        std::size_t consumed = 0;
        QCOMPARE(preamble::parse(line, &read, &consumed), preamble::Parse::Done);
        QCOMPARE(read.exe, sent.exe);
        QCOMPARE(read.args, sent.args);
        QVERIFY(read.exeFile == sent.exeFile); // its path is the exe field's

        QVERIFY(read.scriptFile == sent.scriptFile);
        // What the line says of origins counts for nothing: the daemon tells them.
        QCOMPARE(read.exeOrigin, FileOrigin::Unknown);
        QCOMPARE(read.scriptOrigin, FileOrigin::Unknown);
    }

    void malformedIdentitiesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("short") << QByteArray("PADDOCK-CLIENT 1 exe=1:2:3 7 /x x\n");
        QTest::newRow("bad digest") << QByteArray("PADDOCK-CLIENT 1 exe=1:2:3:4:xyz:ro 7 /x x\n");
        QTest::newRow("bad place") << QByteArray("PADDOCK-CLIENT 1 exe=1:2:3:4::elsewhere 7 /x x\n");
        QTest::newRow("relative mount") << QByteArray("PADDOCK-CLIENT 1 exe=1:2:3:4::mtmp 7 /x x\n");
        QTest::newRow("relative script") << QByteArray("PADDOCK-CLIENT 1 script=1:2:3:4::ro:x.py 7 /x x\n");
    }
    void malformedIdentitiesAreRefused()
    {
        QFETCH(QByteArray, line);
        ClientProgram read;
        std::size_t consumed = 0;
        QCOMPARE(preamble::parse(line.toStdString(), &read, &consumed), preamble::Parse::Malformed);
    }
};

QTEST_GUILESS_MAIN(ClientProgramTest)
#include "tst_client_program.moc"

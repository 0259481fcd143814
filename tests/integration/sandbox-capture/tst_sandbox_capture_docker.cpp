// SPDX-License-Identifier: GPL-3.0-or-later
// Every connection a Docker sandbox makes goes through the policy, as under bubblewrap: in a
// Debian image with the clients, run by an ordinary user in the group docker, names are answered
// inside, curl without the proxy, ssh to a real sshd and psql to a real PostgreSQL on this
// computer's loopback are decided, logged and allowed by host:port rules, datagrams are refused
// and logged, a rule for curl holds for the image's curl only, and nothing in the container keeps
// the capability capture was set up with.
#include "CaptureTestSupport.h"
#include "DockerSandboxFixture.h"
#include "LocalServices.h"

#include <QtTest>

#include <memory>

#include <pwd.h>
#include <unistd.h>

using paddock::test::blockedEntry;
using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

class TestSandboxCaptureDocker : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "dcaptured";
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    paddock::test::LocalUpstream m_upstream;
    paddock::test::SshServer m_ssh;
    paddock::test::PostgresServer m_postgres;

    DockerFinished inSandbox(const QString &script, const QStringList &options = {})
    {
        return m_fixture->paddock(
            QStringList{QStringLiteral("exec")} + options +
            QStringList{QLatin1String(kName), QStringLiteral("sh"), QStringLiteral("-c"), script});
    }
    DockerFinished allow(const QString &pattern)
    {
        return m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                                   pattern, QStringLiteral("--sandbox"), QLatin1String(kName)});
    }
    static QString userName() { return QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name); }

private slots:
    void initTestCase()
    {
        QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
        m_fixture = std::make_unique<DockerSandboxFixture>();
        PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
        QVERIFY(m_upstream.start());
        for (const char *name : {"web.test", "refused.test", "ssh.test", "db.test", "prog.test"}) {
            const DockerFinished mapped =
                m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("resolve"), QStringLiteral("set"),
                                    QLatin1String(name), QStringLiteral("127.0.0.1")});
            QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        }
        QString error;
        QVERIFY2(m_ssh.start(m_fixture->path(QStringLiteral("sshd")), &error), qPrintable(error));
        QVERIFY2(m_postgres.start(m_fixture->path(QStringLiteral("pg")), &error), qPrintable(error));
        QVERIFY(QFile::copy(m_ssh.clientKey(), m_fixture->workspace() + QStringLiteral("/id_test")));
        QFile::setPermissions(m_fixture->workspace() + QStringLiteral("/id_test"),
                              QFile::ReadOwner | QFile::WriteOwner);
        const QString kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("clients"),
                                                QStringLiteral(PADDOCK_CLIENTS_IMAGE), QStringLiteral("sleep 600"));
        const DockerFinished started = m_fixture->paddock(
            {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--backend"), QStringLiteral("docker"),
             QStringLiteral("--kit"), kit, QStringLiteral("--name"), QLatin1String(kName), m_fixture->workspace()});
        QVERIFY2(started.exitCode == 0, qPrintable(started.err + m_fixture->daemonLog()));
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void nothingKeepsTheCapabilityCaptureNeeded()
    {
        // paddock-init set capture up as the container's root, then became the user and gave
        // every capability up, and so did everything after it: root's commands too.
        const DockerFinished agent = inSandbox(QStringLiteral("id -u; grep -E '^Cap(Eff|Bnd)' /proc/1/status "
                                                              "/proc/self/status"));
        QVERIFY2(agent.out.startsWith(QString::number(::getuid()) + QLatin1Char('\n')), qPrintable(agent.out));
        QCOMPARE(agent.out.count(QStringLiteral("0000000000000000")), 4);
        const DockerFinished root = inSandbox(QStringLiteral("id -u; grep -E '^Cap(Eff|Bnd)' /proc/self/status; "
                                                             "ip route del default 2>&1 || echo refused"),
                                              {QStringLiteral("-u"), QStringLiteral("root")});
        QVERIFY2(root.out.startsWith(QLatin1String("0\n")), qPrintable(root.out + root.err));
        QCOMPARE(root.out.count(QStringLiteral("0000000000000000")), 2);
        QVERIFY2(root.out.contains(QLatin1String("Operation not permitted")), qPrintable(root.out));
    }

    void everyNameIsAnsweredInside()
    {
        const DockerFinished looked = inSandbox(QStringLiteral("getent ahostsv4 anything.example | head -n1"));
        QVERIFY2(looked.out.startsWith(QLatin1String("198.18.")), qPrintable(looked.out + looked.err));
    }

    void aClientThatIgnoresTheProxyIsDecidedAndLogged()
    {
        const QString port = QString::number(m_upstream.port());
        const DockerFinished refused =
            inSandbox(paddock::test::curlDirect(QStringLiteral("http://refused.test:%1/hello.txt").arg(port)));
        QVERIFY2(refused.out.endsWith(QLatin1String("\n403")), qPrintable(refused.out + refused.err));
        const QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("refused.test"), m_upstream.port());
        QVERIFY2(!entry.isEmpty(), qPrintable(m_fixture->daemonLog()));
        QCOMPARE(entry.value(QLatin1String("protocol")).toString(), QStringLiteral("tcp"));
        QCOMPARE(entry.value(QLatin1String("program")).toString(), QStringLiteral("curl"));
        QVERIFY(allow(QStringLiteral("web.test:") + port).exitCode == 0);
        const DockerFinished fetched =
            inSandbox(paddock::test::curlDirect(QStringLiteral("http://web.test:%1/hello.txt").arg(port)));
        QVERIFY2(fetched.out.endsWith(QLatin1String("\n200")), qPrintable(fetched.out + fetched.err));
    }

    void sshAndPsqlGoThroughHostPortRules()
    {
        const QString ssh = paddock::test::sshCommand(QStringLiteral("ssh.test"), m_ssh.port(),
                                                      m_fixture->workspace() + QStringLiteral("/id_test"), userName());
        const DockerFinished refused = inSandbox(ssh);
        QVERIFY2(
            refused.err.contains(QStringLiteral("Paddock refused the connection to ssh.test:%1").arg(m_ssh.port())),
            qPrintable(refused.err));
        QCOMPARE(blockedEntry(*m_fixture, QStringLiteral("ssh.test"), m_ssh.port())
                     .value(QLatin1String("program"))
                     .toString(),
                 QStringLiteral("ssh"));
        QVERIFY(allow(QStringLiteral("ssh.test:%1").arg(m_ssh.port())).exitCode == 0);
        const DockerFinished logged = inSandbox(ssh);
        QVERIFY2(logged.out.trimmed() == QLatin1String("hello-from-sshd"), qPrintable(logged.out + logged.err));

        const QString psql = paddock::test::psqlCommand(QStringLiteral("db.test"), m_postgres.port());
        const DockerFinished noRule = inSandbox(psql);
        QVERIFY2(noRule.err.contains(QLatin1String("FATAL:  Paddock refused")), qPrintable(noRule.err));
        QVERIFY(allow(QStringLiteral("db.test:%1").arg(m_postgres.port())).exitCode == 0);
        const DockerFinished answered = inSandbox(psql);
        QVERIFY2(answered.out.trimmed() == QLatin1String("42"), qPrintable(answered.out + answered.err));
    }

    void aProgramRuleHoldsForTheImagesProgramOnly()
    {
        const QString target = QStringLiteral("prog.test:%1").arg(m_upstream.port());
        const DockerFinished rule = m_fixture->paddock(
            {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), target,
             QStringLiteral("--sandbox"), QLatin1String(kName), QStringLiteral("--program"), QStringLiteral("curl")});
        QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        const QString url = QStringLiteral("http://%1/hello.txt").arg(target);
        const DockerFinished genuine = inSandbox(paddock::test::curlDirect(url));
        QVERIFY2(genuine.out.endsWith(QLatin1String("\n200")), qPrintable(genuine.out + genuine.err));
        // A copy in the container's own layer is another program, whatever its name and bytes.
        const DockerFinished copy =
            inSandbox(QStringLiteral("cp /usr/bin/curl /tmp/curl && /tmp/") + paddock::test::curlDirect(url));
        QVERIFY2(copy.out.endsWith(QLatin1String("\n403")), qPrintable(copy.out + copy.err));
        QJsonObject entry = blockedEntry(*m_fixture, QStringLiteral("prog.test"), m_upstream.port());
        QVERIFY2(entry.value(QLatin1String("reason"))
                     .toString()
                     .contains(QLatin1String("/tmp/curl is not the sandbox's curl: it was written inside the sandbox "
                                             "(its own root)")),
                 qPrintable(entry.value(QLatin1String("reason")).toString()));
        QCOMPARE(entry.value(QLatin1String("written")).toString(), QStringLiteral("its own root"));
        // Started under curl's name, python3 is python3.
        const DockerFinished renamed = inSandbox(
            QStringLiteral("bash -c \"exec -a curl python3 -c 'import urllib.request as r, urllib.error as e\n"
                           "try: print(r.urlopen(\\\"%1\\\").status)\nexcept e.HTTPError as x: print(x.code)'\"")
                .arg(url));
        QVERIFY2(renamed.out.trimmed() == QLatin1String("403"), qPrintable(renamed.out + renamed.err));
        QVERIFY(QTest::qWaitFor(
            [&] {
                entry = blockedEntry(*m_fixture, QStringLiteral("prog.test"), m_upstream.port());
                return entry.value(QLatin1String("program")).toString().startsWith(QLatin1String("python3"));
            },
            15000));
        QVERIFY2(entry.value(QLatin1String("reason")).toString().contains(QLatin1String("the program started as curl")),
                 qPrintable(entry.value(QLatin1String("reason")).toString()));
    }

    void datagramsAreRefusedAndLogged()
    {
        const DockerFinished sent = inSandbox(QStringLiteral(
            "python3 -c \"import socket\ntry:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', "
            "('ntp.example', 123))\n    print('sent')\nexcept OSError as e:\n    print('refused', e.errno)\""));
        QCOMPARE(sent.out.trimmed(), QStringLiteral("refused 1"));
        QCOMPARE(
            blockedEntry(*m_fixture, QStringLiteral("ntp.example"), 123).value(QLatin1String("protocol")).toString(),
            QStringLiteral("udp"));
    }
};

QTEST_GUILESS_MAIN(TestSandboxCaptureDocker)
#include "tst_sandbox_capture_docker.moc"

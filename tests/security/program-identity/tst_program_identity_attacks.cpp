// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on a rule that allows one program (`--program curl`, `--program pip`): each makes
// another program look like it, from inside a real bubblewrap sandbox, and is refused with the
// reason in the event log. The sandbox's own curl passing the same rule is the control.
#include "AttackSupport.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

/**
 * Python run inside: writes a line claiming to be the base's curl, with the real curl's
 * identity and digest, straight to the proxy's socket, then a request; prints the status.
 */
const char kForgedIdentity[] = R"PY(
import hashlib, os, socket, sys
url, host = sys.argv[1], sys.argv[2]
st = os.stat('/usr/bin/curl')
digest = hashlib.sha256(open('/usr/bin/curl', 'rb').read()).hexdigest()
ident = '%d:%d:%d:%d:%s:ro' % (st.st_dev, st.st_ino, st.st_size, st.st_ctime_ns, digest)
line = 'PADDOCK-CLIENT 1 exe=%s %d /usr/bin/curl curl\n' % (ident.replace(':', '%3A'), os.getpid())
s = socket.socket(socket.AF_UNIX); s.connect('/run/paddock/endpoint/proxy.sock')
s.sendall(line.encode() + ('GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' % (url, host)).encode())
print(s.recv(4096).split(b'\r\n')[0].decode().split(' ')[1])
)PY";

} // namespace

class TestProgramIdentityAttacks : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "imposter";
    std::unique_ptr<SandboxFixture> m_fixture;

    QString url(const QString &host) const
    {
        return QStringLiteral("http://%1:%2/hello.txt").arg(host).arg(m_fixture->upstreamPort());
    }
    Finished inSandbox(const QStringList &command, const QString &user = QStringLiteral("agent"))
    {
        return m_fixture->paddock(
            QStringList{QStringLiteral("exec"), QStringLiteral("-u"), user, QLatin1String(kName)} + command);
    }
    Finished shell(const QString &script, const QString &user = QStringLiteral("agent"))
    {
        return inSandbox({QStringLiteral("sh"), QStringLiteral("-c"), script}, user);
    }
    QJsonObject blockedEntry(const QString &host)
    {
        QJsonObject found;
        [[maybe_unused]] const bool seen = QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                for (const QJsonValue &value :
                     QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray()) {
                    if (value.toObject().value(QLatin1String("host")).toString() == host)
                        found = value.toObject();
                }
                return !found.isEmpty();
            },
            15000);
        return found;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
        m_fixture = std::make_unique<SandboxFixture>();
        // fuse-overlayfs shows the host's files as root's, so root inside can link and copy them
        // with their owner: every attack below can be prepared. Under the kernel's overlay (the
        // default, tst_program_identity) a host file cannot be linked across its overlay or
        // copied with its owner, which leaves fewer ways to try.
        m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_ROOT_MOUNT"), QStringLiteral("fuse"));
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        QStringList hosts;
        for (const char *row : {"control", "copy-tmp", "copy-workspace", "copy-root", "link-root", "times-back",
                                "symlink", "exec-a", "mount-over", "forged"})
            hosts << QLatin1String(row) + QStringLiteral(".test");
        const Finished mapped = m_fixture->mapToUpstream(hosts + QStringList{QStringLiteral("pip-c.test")});
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
        for (const QString &host : hosts + QStringList{QStringLiteral("pip-c.test")}) {
            const QString program =
                host == QLatin1String("pip-c.test") ? QStringLiteral("pip") : QStringLiteral("curl");
            const Finished rule = m_fixture->paddock(
                {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                 host + QLatin1Char(':') + QString::number(m_fixture->upstreamPort()), QStringLiteral("--sandbox"),
                 QLatin1String(kName), QStringLiteral("--program"), program});
            QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        }
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void theSandboxsOwnCurlPasses()
    {
        const Finished fetched =
            shell(QStringLiteral("curl -s -o /dev/null -w '%{http_code}' ") + url(QStringLiteral("control.test")));
        QCOMPARE(fetched.out.trimmed(), QStringLiteral("200"));
    }

    void anImposterIsRefused_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("prepare"); ///< run as root first, when not empty
        QTest::addColumn<QString>("attack");  ///< run as the agent; URL is the host's
        QTest::addColumn<QString>("why");     ///< what the refusal's reason says
        const QString curl = QStringLiteral(" -s -o /dev/null -w '%{http_code}' URL");
        const QString wget = QStringLiteral(" -q -O /dev/null URL; echo rc=$?");
        QTest::newRow("copy-tmp") << "copy-tmp"
                                  << ""
                                  << "cp /usr/bin/curl /tmp/curl && /tmp/curl" + curl
                                  << "/tmp/curl is not the sandbox's curl: it was written inside the sandbox (/tmp)";
        QTest::newRow("copy-workspace") << "copy-workspace"
                                        << ""
                                        << "cp /usr/bin/curl ./curl && ./curl" + curl
                                        << "it was written inside the sandbox (the workspace)";
        QTest::newRow("copy-root") << "copy-root"
                                   << "cp /usr/bin/curl /usr/local/bin/curl"
                                   << "/usr/local/bin/curl" + curl
                                   << "/usr/local/bin/curl is not the sandbox's curl: it was written inside the "
                                      "sandbox (its own root)";
        QTest::newRow("link-root") << "link-root"
                                   << "mkdir -p /opt/l && ln /usr/bin/wget /opt/l/curl"
                                   << "/opt/l/curl" + wget << "it was written inside the sandbox (its own root)";
        QTest::newRow("times-back") << "times-back"
                                    << "mkdir -p /opt/t && cp -p /usr/bin/curl /opt/t/curl && touch -r /usr/bin/curl "
                                       "/opt/t/curl"
                                    << "/opt/t/curl" + curl << "it was written inside the sandbox (its own root)";
        QTest::newRow("symlink") << "symlink"
                                 << ""
                                 << "mkdir -p /tmp/s && ln -sf /usr/bin/wget /tmp/s/curl && /tmp/s/curl" + wget
                                 << "the program started as /tmp/s/curl runs /usr/bin/wget";
        QTest::newRow("exec-a") << "exec-a"
                                << ""
                                << "bash -c 'exec -a curl wget -q -O /dev/null URL'; echo rc=$?"
                                << "the program started as curl runs /usr/bin/wget";
    }
    void anImposterIsRefused()
    {
        QFETCH(QString, host);
        QFETCH(QString, prepare);
        QFETCH(QString, attack);
        QFETCH(QString, why);
        host += QStringLiteral(".test");
        if (!prepare.isEmpty()) {
            const Finished prepared = shell(prepare, QStringLiteral("root"));
            QVERIFY2(prepared.exitCode == 0, qPrintable(prepared.out + prepared.err));
        }
        const Finished attacked = shell(attack.replace(QStringLiteral("URL"), url(host)));
        QVERIFY2(attacked.out.contains(QStringLiteral("403")) || attacked.out.contains(QStringLiteral("rc=8")),
                 qPrintable(attacked.out + attacked.err));
        const QString reason = blockedEntry(host).value(QLatin1String("reason")).toString();
        QVERIFY2(reason.contains(why), qPrintable(reason + m_fixture->daemonLog()));
    }

    void anInterpreterGivenCodeIsNotItsScript()
    {
        // python3 -c CODE /usr/bin/pip runs CODE, whatever its arguments name.
        const Finished attacked = inSandbox(
            {QStringLiteral("python3"), QStringLiteral("-c"),
             QStringLiteral(
                 "import sys, urllib.request as r, urllib.error as e\ntry: print(r.urlopen(sys.argv[1]).status)"
                 "\nexcept e.HTTPError as x: print(x.code)"),
             url(QStringLiteral("pip-c.test")), QStringLiteral("/usr/bin/pip")});
        QCOMPARE(attacked.out.trimmed(), QStringLiteral("403"));
        QCOMPARE(blockedEntry(QStringLiteral("pip-c.test")).value(QLatin1String("program")).toString(),
                 QStringLiteral("python3.11"));
    }

    void aMountOverTheProgramIsRefused()
    {
        // A mount namespace of its own, to put wget where curl is: refused before it mounts.
        for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
            const Finished attacked =
                shell(QStringLiteral("unshare -m sh -c 'mount --bind /usr/bin/wget /usr/bin/curl && /usr/bin/curl -q "
                                     "-O /dev/null %1'; echo rc=$?")
                          .arg(url(QStringLiteral("mount-over.test"))),
                      user);
            QVERIFY2(!attacked.out.contains(QStringLiteral("rc=0")), qPrintable(attacked.out + attacked.err));
            QVERIFY2(attacked.err.contains(QStringLiteral("unshare")), qPrintable(attacked.err));
        }
    }

    void aForgedIdentityLineIsNotBelieved()
    {
        const Finished attacked = inSandbox({QStringLiteral("python3"), QStringLiteral("-c"),
                                             QLatin1String(kForgedIdentity), url(QStringLiteral("forged.test")),
                                             QStringLiteral("forged.test:%1").arg(m_fixture->upstreamPort())});
        QCOMPARE(attacked.out.trimmed(), QStringLiteral("403"));
        QCOMPARE(blockedEntry(QStringLiteral("forged.test")).value(QLatin1String("program")).toString(), QString());
    }
};

QTEST_GUILESS_MAIN(TestProgramIdentityAttacks)
#include "tst_program_identity_attacks.moc"

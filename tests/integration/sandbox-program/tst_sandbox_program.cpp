// SPDX-License-Identifier: GPL-3.0-or-later
// Which program asked: curl, git, python and pip inside a real sandbox are named in the event
// log; a line claiming another program, written by a process inside (straight to the proxy's
// socket, or through the relay), is not believed; a rule limited to one program lets only that
// program through. Each function uses hosts of its own, so each runs alone.
#include "SandboxFixture.h"

#include <QtTest>

#include <memory>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

/**
 * Python run inside: sends @p head (with any forged preamble) to the proxy, either straight to
 * its unix socket or to the relay's TCP port, and prints the status line it gets back.
 */
const char kRawRequest[] = R"PY(
import os, socket, sys
how, head = sys.argv[1], sys.argv[2].encode().decode('unicode_escape').encode('latin-1')
if how == 'unix':
    s = socket.socket(socket.AF_UNIX); s.connect('/run/paddock/endpoint/proxy.sock')
else:
    hostport = os.environ['http_proxy'].split('//')[1].rstrip('/')
    host, port = hostport.rsplit(':', 1)
    s = socket.create_connection((host, int(port)))
s.sendall(head)
answer = b''
while b'\r\n' not in answer:
    chunk = s.recv(4096)
    if not chunk: break
    answer += chunk
print(answer.split(b'\r\n')[0].decode())
)PY";

/**
 * Python run inside: connects to the proxy's unix socket itself and passes a descriptor with a
 * line that claims python3 and says a socket is attached, as paddock-init's relay does. "file"
 * passes an open file and prints whether the proxy closed the connection; "socket" passes one
 * end of a loopback TCP connection, "unix" one of a unix socket pair, sends @p head on the other
 * and prints the status line ("closed" when none came).
 */
const char kPassDescriptor[] = R"PY(
import socket, sys
kind, head = sys.argv[1], sys.argv[2].encode().decode('unicode_escape').encode('latin-1')
claim = b'PADDOCK-CLIENT 2 1 /usr/bin/python3.11 python3\n'
proxy = socket.socket(socket.AF_UNIX); proxy.connect('/run/paddock/endpoint/proxy.sock')
if kind == 'file':
    with open('/etc/passwd', 'rb') as f:
        socket.send_fds(proxy, [claim], [f.fileno()])
    proxy.settimeout(10)
    print('closed' if proxy.recv(4096) == b'' else 'answered')
    sys.exit()
if kind == 'unix':
    mine, theirs = socket.socketpair()
else:
    listener = socket.socket(); listener.bind(('127.0.0.1', 0)); listener.listen(1)
    mine = socket.create_connection(listener.getsockname()); theirs, _ = listener.accept()
socket.send_fds(proxy, [claim], [theirs.fileno()]); theirs.close(); proxy.close()
mine.settimeout(10)
answer = b''
try:
    mine.sendall(head)  # the proxy may have closed a refused one already
    while b'\r\n' not in answer:
        chunk = mine.recv(4096)
        if not chunk: break
        answer += chunk
except (BrokenPipeError, ConnectionResetError):
    pass
print(answer.split(b'\r\n')[0].decode() if answer else 'closed')
)PY";

} // namespace

class SandboxProgramTest : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "programs";
    std::unique_ptr<SandboxFixture> m_fixture;

    QString port() const { return QString::number(m_fixture->upstreamPort()); }
    QString url(const QString &host) const { return QStringLiteral("http://%1:%2/hello.txt").arg(host, port()); }

    Finished inSandbox(const QString &script)
    {
        return m_fixture->paddock(
            {QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("sh"), QStringLiteral("-c"), script});
    }
    QString curlStatus(const QString &host)
    {
        return inSandbox(QStringLiteral("curl -s -o /dev/null -w '%{http_code}' %1").arg(url(host))).out.trimmed();
    }
    QString pythonStatus(const QString &host)
    {
        return inSandbox(QStringLiteral("python3 -c 'import urllib.request as r, urllib.error as e\n"
                                        "try: print(r.urlopen(\"%1\").status)\n"
                                        "except e.HTTPError as x: print(x.code)'")
                             .arg(url(host)))
            .out.trimmed();
    }
    /** The status line the proxy answers @p head with, sent by a process inside via @p how (unix or tcp). */
    QString rawStatus(const QString &how, const QString &head)
    {
        const Finished sent =
            m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("python3"),
                                QStringLiteral("-c"), QLatin1String(kRawRequest), how, head});
        return sent.out.trimmed() + sent.err.trimmed();
    }
    /** The Blocked entry of `policy log --json` for @p host, once it is there. */
    QJsonObject blockedEntry(const QString &host)
    {
        QJsonObject found;
        [[maybe_unused]] const bool seen = QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                const QJsonArray blocked =
                    QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray();
                for (const QJsonValue &value : blocked) {
                    if (value.toObject().value(QLatin1String("host")).toString() == host) {
                        found = value.toObject();
                        return true;
                    }
                }
                return false;
            },
            15000);
        return found;
    }
    Finished addRule(const QString &verdict, const QString &host, const QString &program)
    {
        return m_fixture->paddock({QStringLiteral("policy"), verdict, QStringLiteral("network"),
                                   host + QLatin1Char(':') + port(), QStringLiteral("--program"), program});
    }

private slots:
    void initTestCase()
    {
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished mapped =
            m_fixture->mapToUpstream(QStringLiteral("curl.test git.test python.test pip.test forged.test mine.test "
                                                    "notcurl.test")
                                         .split(QLatin1Char(' ')));
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void namesTheProgram_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("inCommand");
        QTest::newRow("curl") << "curl.test"
                              << "curl -s -o /dev/null http://curl.test:PORT/hello.txt"
                              << "curl"
                              << "http://curl.test:PORT/hello.txt";
        // git hands HTTP to its helper: that is the process that connects.
        QTest::newRow("git") << "git.test"
                             << "git ls-remote http://git.test:PORT/repo.git"
                             << "git-remote-http"
                             << "http://git.test:PORT/repo.git";
        QTest::newRow("python") << "python.test"
                                << "python3 -c 'import urllib.request as r; r.urlopen(\"http://python.test:PORT/\")'"
                                << "python3.11"
                                << "urlopen";
        // pip is a script: the interpreter runs it, and the script names the program.
        QTest::newRow("pip") << "pip.test"
                             << "pip download --no-deps --retries 0 -d /tmp/dl --trusted-host pip.test "
                                "--index-url http://pip.test:PORT/simple "
                                "nothing"
                             << "pip"
                             << "/usr/bin/pip download";
    }
    void namesTheProgram()
    {
        QFETCH(QString, host);
        QFETCH(QString, script);
        QFETCH(QString, program);
        QFETCH(QString, inCommand);
        // Refused: nothing allows these hosts.
        const Finished ran = inSandbox(QString(script).replace(QStringLiteral("PORT"), port()));
        const QJsonObject entry = blockedEntry(host);
        QVERIFY2(!entry.isEmpty(), qPrintable(host + QStringLiteral(" was not refused\n") + ran.out + ran.err));
        QCOMPARE(entry.value(QLatin1String("program")).toString(), program);
        const QString command = entry.value(QLatin1String("command")).toString();
        QVERIFY2(command.contains(QString(inCommand).replace(QStringLiteral("PORT"), port())), qPrintable(command));
    }

    void forgedIdentityIsIgnored()
    {
        // A rule for python3 only: what python3 opens passes, through paddock-init's relay.
        const Finished rule =
            addRule(QStringLiteral("allow"), QStringLiteral("forged.test"), QStringLiteral("python3"));
        QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        QCOMPARE(pythonStatus(QStringLiteral("forged.test")), QStringLiteral("200"));
        // The same request, straight to the proxy's socket with a line that claims python3:
        // anyone inside can connect there, so the line is read and not believed.
        const QString request = QStringLiteral("GET http://forged.test:%1/hello.txt HTTP/1.1\\r\\nHost: "
                                               "forged.test:%1\\r\\nConnection: close\\r\\n\\r\\n")
                                    .arg(port());
        const QString claim = QStringLiteral("PADDOCK-CLIENT 1 1 /usr/bin/python3.11 python3\\n");
        QCOMPARE(rawStatus(QStringLiteral("unix"), claim + request), QStringLiteral("HTTP/1.1 403 Forbidden"));
        const QJsonObject refused = blockedEntry(QStringLiteral("forged.test"));
        QVERIFY2(!refused.isEmpty(), qPrintable(m_fixture->daemonLog()));
        QCOMPARE(refused.value(QLatin1String("program")).toString(), QString());
        // Through the relay, paddock-init's line comes first and the forged one is a bad request.
        QCOMPARE(rawStatus(QStringLiteral("tcp"), claim + request), QStringLiteral("HTTP/1.1 400 Bad Request"));
    }

    void passedDescriptorsAreCheckedAndTheirLineNotBelieved()
    {
        // paddock-init hands each client's socket to the proxy; a process inside can pass one
        // too. A file or a unix socket is refused outright; a TCP socket of its own is served like any connection
        // of the sandbox, and its claim to be python3 is not believed (the python3-only rule
        // of forgedIdentityIsIgnored refuses it).
        const auto pass = [this](const QString &kind, const QString &head) {
            const Finished sent =
                m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("python3"),
                                    QStringLiteral("-c"), QLatin1String(kPassDescriptor), kind, head});
            return sent.out.trimmed() + sent.err.trimmed();
        };
        QCOMPARE(pass(QStringLiteral("file"), QString()), QStringLiteral("closed"));
        const QString request = QStringLiteral("GET http://forged.test:%1/hello.txt HTTP/1.1\\r\\nHost: "
                                               "forged.test:%1\\r\\nConnection: close\\r\\n\\r\\n")
                                    .arg(port());
        QCOMPARE(pass(QStringLiteral("unix"), request), QStringLiteral("closed")); // not what a relay passes
        QCOMPARE(pass(QStringLiteral("socket"), request), QStringLiteral("HTTP/1.1 403 Forbidden"));
        QCOMPARE(pythonStatus(QStringLiteral("forged.test")), QStringLiteral("200")); // python3 itself still passes
    }

    void aProgramRuleDecides()
    {
        const Finished allow = addRule(QStringLiteral("allow"), QStringLiteral("mine.test"), QStringLiteral("python3"));
        QVERIFY2(allow.exitCode == 0, qPrintable(allow.err));
        QVERIFY2(allow.out.contains(QStringLiteral("for python3")), qPrintable(allow.out));
        QCOMPARE(pythonStatus(QStringLiteral("mine.test")), QStringLiteral("200"));
        QCOMPARE(curlStatus(QStringLiteral("mine.test")), QStringLiteral("403"));
        QCOMPARE(blockedEntry(QStringLiteral("mine.test")).value(QLatin1String("program")).toString(),
                 QStringLiteral("curl"));

        // Allowed for everyone, denied for curl: deny wins, for that program only.
        const Finished open = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"),
                                                  QStringLiteral("network"), QStringLiteral("notcurl.test:") + port()});
        QVERIFY2(open.exitCode == 0, qPrintable(open.err));
        const Finished deny = addRule(QStringLiteral("deny"), QStringLiteral("notcurl.test"), QStringLiteral("curl"));
        QVERIFY2(deny.exitCode == 0, qPrintable(deny.err));
        QCOMPARE(curlStatus(QStringLiteral("notcurl.test")), QStringLiteral("403"));
        QCOMPARE(pythonStatus(QStringLiteral("notcurl.test")), QStringLiteral("200"));

        // The rules say so where a person reads them, and policy.yaml keeps the condition.
        const Finished listed = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ls")});
        QVERIFY2(listed.out.contains(QStringLiteral("mine.test:%1 for python3").arg(port())), qPrintable(listed.out));
        QFile policy(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
        QVERIFY(policy.open(QIODevice::ReadOnly));
        QVERIFY(policy.readAll().contains("program: curl"));
    }

    void badProgramConditionsAreRefused()
    {
        for (const QString &bad :
             {QStringLiteral("two words"), QStringLiteral("relative/path"), QStringLiteral("/usr/../bin/sh")}) {
            const Finished added = addRule(QStringLiteral("allow"), QStringLiteral("curl.test"), bad);
            QCOMPARE(added.exitCode, 2);
            QVERIFY2(added.err.contains(QStringLiteral("--program")), qPrintable(added.err));
        }
    }
};

QTEST_GUILESS_MAIN(SandboxProgramTest)
#include "tst_sandbox_program.moc"

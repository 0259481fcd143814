// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox's SSH agent relay between real OpenSSH programs: keys made by ssh-keygen, held by
// an ssh-agent of the test's own, used through the relay by ssh-add, ssh-keygen -Y and ssh
// logging in to an sshd on 127.0.0.1. Named after the kit spec's ssh-agent@1 checks.
#include "sshagent/AgentRelay.h"
#include "sshagent/HostKeys.h"

#include "LocalServices.h"
#include "Needs.h"

#include <QEventLoop>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace paddock::sshagent;

namespace {

struct Ran
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/** Runs a program to its end while the event loop (and so the relay) keeps running. */
Ran run(const QString &program, const QStringList &args, const QString &agentSocket, const QByteArray &input = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), agentSocket);
    process.setProcessEnvironment(env);
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    process.start(program, args);
    process.write(input);
    process.closeWriteChannel();
    loop.exec();
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(2000);
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

QByteArray keyBlob(const QString &publicKeyFile)
{
    QFile file(publicKeyFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QByteArray::fromBase64(file.readAll().split(' ').value(1));
}

/** One request to an agent socket and its answer's payload, with the event loop running. */
QByteArray ask(const QString &socket, const QByteArray &payload)
{
    QLocalSocket client;
    client.connectToServer(socket);
    if (!client.waitForConnected(2000))
        return {};
    client.write(framed(payload));
    QByteArray in;
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired() && client.state() == QLocalSocket::ConnectedState) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        in += client.readAll();
        Frame frame = takeFrame(in);
        if (frame.payload)
            return *frame.payload;
    }
    return {};
}

} // namespace

class TestAgentRelay : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void agentReachable();
    void operationsRestricted();
    void signaturesBounded();
    void loginsBounded_data();
    void loginsBounded();
    void bindingVerified();
    void bindingSignaturesOfEveryKeyType_data();
    void bindingSignaturesOfEveryKeyType();
    void destinationKeysOutsideSandbox();
    void malformedFramingCloses();
    void signaturesObservable();

private:
    /** A relay with @p grant on a socket of its own; its records go to m_records. */
    QString startRelay(const AgentGrant &grant);
    QString path(const QString &name) const { return m_dir.filePath(name); }
    Ran login(const QString &relaySocket, const QString &user);
    /** The public half alone: a signature made with it can only come from the agent. */
    QString agentKey() const { return path(QStringLiteral("agent-key.pub")); }
    QString testUser() const { return QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name); }

    QTemporaryDir m_dir{QStringLiteral("/tmp/pdk-agent-XXXXXX")};
    paddock::test::SshServer m_ssh;
    QProcess m_agent;
    QString m_agentSocket;
    std::unique_ptr<AgentRelay> m_relay;
    QList<SignRecord> m_records;
};

void TestAgentRelay::initTestCase()
{
    PADDOCK_NEED(QFileInfo(QStringLiteral("/usr/sbin/sshd")).isExecutable(), "sshd (openssh-server)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("ssh-agent")).isEmpty(), "ssh-agent (openssh-client)");
    PADDOCK_NEED(::getuid() != 0, "an ordinary user, as whom sshd lets the test in (run-as-user.sh)");
    QString error;
    QVERIFY2(m_ssh.start(path(QStringLiteral("sshd")), &error), qPrintable(error));
    m_agentSocket = path(QStringLiteral("backing.sock"));
    m_agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), m_agentSocket});
    QVERIFY(m_agent.waitForStarted());
    QTRY_VERIFY(QFileInfo::exists(m_agentSocket));
    QCOMPARE(run(QStringLiteral("ssh-add"), {m_ssh.clientKey()}, m_agentSocket).exitCode, 0);
    QVERIFY(QFile::copy(m_ssh.clientKey() + QStringLiteral(".pub"), agentKey()));
    // The server's key as a person accepted it, under a name the grants can use.
    const QByteArray hostKey = keyBlob(m_ssh.folder() + QStringLiteral("/host.pub"));
    QFile known(path(QStringLiteral("known_hosts")));
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write("gitbox.test ssh-ed25519 " + hostKey.toBase64() + "\n");
    known.close();
    QFile config(path(QStringLiteral("ssh_config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(
        QStringLiteral(
            "Host gitbox.test\n  HostName 127.0.0.1\n  HostKeyAlias gitbox.test\n  Port %1\n  UserKnownHostsFile %2\n"
            "  StrictHostKeyChecking yes\n  BatchMode yes\n  IdentitiesOnly yes\n"
            "  IdentityFile %3\n")
            .arg(m_ssh.port())
            .arg(path(QStringLiteral("known_hosts")), agentKey())
            .toUtf8());
}

void TestAgentRelay::cleanupTestCase()
{
    m_relay.reset();
    m_agent.terminate();
    m_agent.waitForFinished(5000);
}

void TestAgentRelay::cleanup()
{
    m_relay.reset();
    m_records.clear();
}

QString TestAgentRelay::startRelay(const AgentGrant &grant)
{
    m_relay = std::make_unique<AgentRelay>(grant, m_agentSocket, path(QStringLiteral("known_hosts")));
    m_relay->onSign = [this](const SignRecord &record) { m_records << record; };
    const QString socket = path(QStringLiteral("relay.sock"));
    const auto listening = m_relay->listen(socket);
    if (!listening.ok())
        qWarning("%s", qPrintable(listening.errorText()));
    return socket;
}

Ran TestAgentRelay::login(const QString &relaySocket, const QString &user)
{
    return run(QStringLiteral("ssh"),
               {QStringLiteral("-F"), path(QStringLiteral("ssh_config")), QStringLiteral("-l"), user,
                QStringLiteral("gitbox.test"), QStringLiteral("echo logged-in")},
               relaySocket);
}

void TestAgentRelay::agentReachable()
{
    const QString socket = startRelay({false, {QStringLiteral("git")}, {}});
    struct stat st
    {};
    QCOMPARE(::stat(QFile::encodeName(socket).constData(), &st), 0);
    QCOMPARE(st.st_mode & 077, 0u); // owner only
    const Ran listed = run(QStringLiteral("ssh-add"), {QStringLiteral("-L")}, socket);
    QCOMPARE(listed.exitCode, 0);
    QFile pub(m_ssh.clientKey() + QStringLiteral(".pub"));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    QVERIFY2(listed.out.contains(pub.readAll().split(' ').value(1)), listed.out.constData());
}

void TestAgentRelay::operationsRestricted()
{
    const QString socket = startRelay({true, {}, {}});
    const Ran removed = run(QStringLiteral("ssh-add"), {QStringLiteral("-D")}, socket);
    QVERIFY2(removed.exitCode != 0, removed.err.constData());
    const Ran locked = run(QStringLiteral("ssh-add"), {QStringLiteral("-x")}, socket, "pw\npw\n");
    QVERIFY(locked.exitCode != 0);
    const Ran added = run(QStringLiteral("ssh-add"), {m_ssh.folder() + QStringLiteral("/host")}, socket);
    QVERIFY2(added.exitCode != 0, added.err.constData());
    // A smartcard provider: the way to run code where the backing agent runs.
    const Ran provider = run(QStringLiteral("ssh-add"), {QStringLiteral("-s"), QStringLiteral("/bin/true")}, socket);
    QVERIFY(provider.exitCode != 0);
    const Ran still = run(QStringLiteral("ssh-add"), {QStringLiteral("-l")}, m_agentSocket);
    QCOMPARE(still.exitCode, 0);
    QCOMPARE(still.out.count('\n'), 1); // the one key, and not the host key
    QCOMPARE(run(QStringLiteral("ssh-add"), {QStringLiteral("-l")}, socket).exitCode, 0);
}

void TestAgentRelay::signaturesBounded()
{
    const QString socket = startRelay({false, {QStringLiteral("git")}, {}});
    const QString message = path(QStringLiteral("message"));
    QFile file(message);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a commit\n");
    file.close();
    const QString pub = agentKey();
    QFile::remove(message + QStringLiteral(".sig"));
    const Ran git = run(QStringLiteral("ssh-keygen"),
                        {QStringLiteral("-Y"), QStringLiteral("sign"), QStringLiteral("-n"), QStringLiteral("git"),
                         QStringLiteral("-f"), pub, message},
                        socket);
    QVERIFY2(git.exitCode == 0, git.err.constData());
    QFile signature(message + QStringLiteral(".sig"));
    QVERIFY(signature.open(QIODevice::ReadOnly));
    const Ran checked = run(QStringLiteral("ssh-keygen"),
                            {QStringLiteral("-Y"), QStringLiteral("check-novalidate"), QStringLiteral("-n"),
                             QStringLiteral("git"), QStringLiteral("-s"), message + QStringLiteral(".sig")},
                            socket, "a commit\n");
    QVERIFY2(checked.exitCode == 0, checked.err.constData());
    QFile::remove(message + QStringLiteral(".sig"));
    const Ran other = run(QStringLiteral("ssh-keygen"),
                          {QStringLiteral("-Y"), QStringLiteral("sign"), QStringLiteral("-n"), QStringLiteral("file"),
                           QStringLiteral("-f"), pub, message},
                          socket);
    QVERIFY(other.exitCode != 0);
    QVERIFY(!QFileInfo::exists(message + QStringLiteral(".sig")));
    // A bounded entry with only `sign` makes no logins.
    QVERIFY(login(socket, testUser()).exitCode != 0);
}

void TestAgentRelay::loginsBounded_data()
{
    QTest::addColumn<QStringList>("authenticate");
    QTest::addColumn<bool>("loggedIn");
    QTest::newRow("named host") << QStringList{QStringLiteral("gitbox.test")} << true;
    QTest::newRow("named user at host") << QStringList{testUser() + QStringLiteral("@gitbox.test")} << true;
    QTest::newRow("another host") << QStringList{QStringLiteral("elsewhere.test")} << false;
    QTest::newRow("another user") << QStringList{QStringLiteral("git@gitbox.test")} << false;
}

void TestAgentRelay::loginsBounded()
{
    QFETCH(QStringList, authenticate);
    QFETCH(bool, loggedIn);
    const QString socket = startRelay({false, {}, authenticate});
    const Ran ran = login(socket, testUser());
    QVERIFY2((ran.exitCode == 0) == loggedIn, ran.err.constData());
    QCOMPARE(ran.out.contains("logged-in"), loggedIn);
    QVERIFY(!m_records.isEmpty());
    QCOMPARE(m_records.last().relayed, loggedIn);
}

void TestAgentRelay::bindingVerified()
{
    const QString socket = startRelay({false, {}, {QStringLiteral("gitbox.test")}});
    const QByteArray hostKey = keyBlob(m_ssh.folder() + QStringLiteral("/host.pub"));
    const QByteArray session(32, '\x5a');
    const QByteArray forged = wireString("ssh-ed25519") + wireString(QByteArray(64, '\x01'));
    QByteArray bind = QByteArray(1, char(kExtension)) + wireString("session-bind@openssh.com") + wireString(hostKey) +
                      wireString(session) + wireString(forged) + QByteArray(1, '\0');
    const QByteArray clientKey = keyBlob(m_ssh.clientKey() + QStringLiteral(".pub"));
    const QByteArray data = wireString(session) + QByteArray(1, char(50)) + wireString(testUser().toUtf8()) +
                            wireString("ssh-connection") + wireString("publickey") + QByteArray(1, '\1') +
                            wireString("ssh-ed25519") + wireString(clientKey);
    const QByteArray sign =
        QByteArray(1, char(kSignRequest)) + wireString(clientKey) + wireString(data) + QByteArray(4, '\0');
    // Both on one connection: the forged binding refused, the login after it too.
    QLocalSocket client;
    client.connectToServer(socket);
    QVERIFY(client.waitForConnected(2000));
    client.write(framed(bind) + framed(sign));
    QByteArray in;
    QList<QByteArray> answers;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 in += client.readAll();
                                 while (auto frame = takeFrame(in).payload)
                                     answers << *frame;
                                 return answers.size() == 2;
                             }()),
                             10000);
    QCOMPARE(answers.at(0), QByteArray(1, char(kFailure)));
    QCOMPARE(answers.at(1), QByteArray(1, char(kFailure)));
    QCOMPARE(m_records.size(), 1);
    QVERIFY(!m_records.at(0).relayed);
    QVERIFY2(m_records.at(0).reason.contains(QLatin1String("binding")), qPrintable(m_records.at(0).reason));
    // A binding marked forwarding, even with a good signature, is not the server a login is for.
    bind.chop(1);
    bind.append('\1');
    QCOMPARE(ask(socket, bind), QByteArray(1, char(kFailure)));
}

void TestAgentRelay::bindingSignaturesOfEveryKeyType_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("bits");
    QTest::addColumn<quint32>("flags");
    QTest::newRow("ed25519") << QStringLiteral("ed25519") << QString() << 0u;
    QTest::newRow("ecdsa-p256") << QStringLiteral("ecdsa") << QStringLiteral("256") << 0u;
    QTest::newRow("ecdsa-p384") << QStringLiteral("ecdsa") << QStringLiteral("384") << 0u;
    QTest::newRow("ecdsa-p521") << QStringLiteral("ecdsa") << QStringLiteral("521") << 0u;
    QTest::newRow("rsa-sha2-256") << QStringLiteral("rsa") << QStringLiteral("2048") << 2u;
    QTest::newRow("rsa-sha2-512") << QStringLiteral("rsa") << QStringLiteral("2048") << 4u;
}

void TestAgentRelay::bindingSignaturesOfEveryKeyType()
{
    QFETCH(QString, type);
    QFETCH(QString, bits);
    QFETCH(quint32, flags);
    // The signature a server's host key makes, made here by the real agent holding that key.
    const QString key = path(QStringLiteral("hostkey-") + QString::fromLatin1(QTest::currentDataTag()));
    QStringList args{
        QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"), {}, QStringLiteral("-f"), key};
    if (!bits.isEmpty())
        args << QStringLiteral("-b") << bits;
    QCOMPARE(run(QStringLiteral("ssh-keygen"), args, m_agentSocket).exitCode, 0);
    QCOMPARE(run(QStringLiteral("ssh-add"), {key}, m_agentSocket).exitCode, 0);
    const QByteArray blob = keyBlob(key + QStringLiteral(".pub"));
    const QByteArray session = QByteArray("a session identifier of some length");
    QByteArray flagBytes(4, '\0');
    flagBytes[3] = char(flags);
    const QByteArray answer =
        ask(m_agentSocket, QByteArray(1, char(kSignRequest)) + wireString(blob) + wireString(session) + flagBytes);
    QCOMPARE(quint8(answer.isEmpty() ? 0 : answer.at(0)), quint8(kSignResponse));
    const QByteArray signature = WireReader(answer.mid(1)).string().value_or(QByteArray());
    QVERIFY(verifySignature(blob, session, signature));
    QVERIFY(!verifySignature(blob, session + "!", signature));
    QVERIFY(!verifySignature(keyBlob(m_ssh.folder() + QStringLiteral("/host.pub")), session, signature));
    QCOMPARE(run(QStringLiteral("ssh-add"), {QStringLiteral("-d"), key}, m_agentSocket).exitCode, 0);
}

void TestAgentRelay::destinationKeysOutsideSandbox()
{
    const QByteArray hostKey = keyBlob(m_ssh.folder() + QStringLiteral("/host.pub"));
    const QByteArray line = " ssh-ed25519 " + hostKey.toBase64() + "\n";
    // Hashed by ssh-keygen -H, as Debian's ssh writes them.
    const QString hashed = path(QStringLiteral("hashed_hosts"));
    QFile file(hashed);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("gitbox.test" + line + "[portbox.test]:2222" + line);
    file.close();
    QCOMPARE(run(QStringLiteral("ssh-keygen"), {QStringLiteral("-H"), QStringLiteral("-f"), hashed}, {}).exitCode, 0);
    const KnownHosts fromHashed = KnownHosts::read(hashed);
    QVERIFY(fromHashed.isKeyOf(QStringLiteral("gitbox.test"), hostKey));
    QVERIFY(!fromHashed.isKeyOf(QStringLiteral("elsewhere.test"), hostKey));
    const KnownHosts plain =
        KnownHosts::parse("# comment\nother.test,[portbox.test]:2222" + line + "!gitbox.test,*.test" + line);
    QVERIFY(plain.isKeyOf(QStringLiteral("portbox.test"), hostKey));
    QVERIFY(plain.isKeyOf(QStringLiteral("other.test"), hostKey));
    QVERIFY(!plain.isKeyOf(QStringLiteral("gitbox.test"), hostKey));
    const KnownHosts revoked = KnownHosts::parse("gitbox.test" + line + "@revoked *" + line);
    QVERIFY(!revoked.isKeyOf(QStringLiteral("gitbox.test"), hostKey));
    // The relay reads the known hosts of the host; a login to a server listed nowhere is refused.
    QFile known(path(QStringLiteral("known_hosts")));
    QVERIFY(known.open(QIODevice::ReadOnly));
    const QByteArray before = known.readAll();
    known.close();
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write("@revoked gitbox.test" + line);
    known.close();
    const QString socket = startRelay({false, {}, {QStringLiteral("gitbox.test")}});
    // ssh itself trusts the server here (its own known hosts); only the relay's check refuses.
    const Ran ran =
        run(QStringLiteral("ssh"),
            {QStringLiteral("-F"), path(QStringLiteral("ssh_config")), QStringLiteral("-o"),
             QStringLiteral("UserKnownHostsFile=") + hashed, QStringLiteral("gitbox.test"), QStringLiteral("true")},
            socket);
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write(before);
    known.close();
    QVERIFY2(ran.exitCode != 0, ran.err.constData());
    QVERIFY(!m_records.isEmpty());
    QVERIFY(!m_records.last().relayed);
    QVERIFY2(m_records.last().reason.contains(QLatin1String("known_hosts")), qPrintable(m_records.last().reason));
}

void TestAgentRelay::malformedFramingCloses()
{
    const QString socket = startRelay({true, {}, {}});
    for (const QByteArray &bad : {QByteArray("\x00\x04\x00\x01", 4), QByteArray("\x00\x00\x00\x00", 4)}) {
        QLocalSocket client;
        client.connectToServer(socket);
        QVERIFY(client.waitForConnected(2000));
        client.write(bad);
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), QLocalSocket::UnconnectedState, 5000);
    }
    // Requests piled up behind one the backing agent has: bounded as well. The backing agent
    // here never answers, so the pile only grows, however fast the relay reads.
    {
        QLocalServer silent;
        QList<QLocalSocket *> held;
        connect(&silent, &QLocalServer::newConnection, &silent, [&] {
            while (QLocalSocket *accepted = silent.nextPendingConnection())
                held << accepted;
        });
        QVERIFY(silent.listen(path(QStringLiteral("silent-agent.sock"))));
        AgentRelay relay({true, {}, {}}, silent.fullServerName(), path(QStringLiteral("known_hosts")));
        const QString piled = path(QStringLiteral("piled.sock"));
        QVERIFY(relay.listen(piled).ok());
        QLocalSocket client;
        client.connectToServer(piled);
        QVERIFY(client.waitForConnected(2000));
        client.write(framed(QByteArray(1, char(kRequestIdentities))));
        const QByteArray big = framed(QByteArray(1, char(kSignRequest)) + QByteArray(200 * 1024, 'x'));
        for (int i = 0; i < 4 && client.state() == QLocalSocket::ConnectedState; ++i)
            client.write(big);
        QTRY_COMPARE_WITH_TIMEOUT(client.state(), QLocalSocket::UnconnectedState, 5000);
    }
    // A short sign request is answered, not passed on; the relay keeps serving.
    QCOMPARE(ask(socket, QByteArray(1, char(kSignRequest)) + "\x00\x00"), QByteArray(1, char(kFailure)));
    const QByteArray identities = ask(socket, QByteArray(1, char(kRequestIdentities)));
    QCOMPARE(quint8(identities.isEmpty() ? 0 : identities.at(0)), quint8(kIdentitiesAnswer));
}

void TestAgentRelay::signaturesObservable()
{
    const QString socket = startRelay({false, {QStringLiteral("git")}, {QStringLiteral("gitbox.test")}});
    QCOMPARE(login(socket, testUser()).exitCode, 0);
    const QString message = path(QStringLiteral("observed"));
    QFile file(message);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    run(QStringLiteral("ssh-keygen"),
        {QStringLiteral("-Y"), QStringLiteral("sign"), QStringLiteral("-n"), QStringLiteral("file"),
         QStringLiteral("-f"), agentKey(), message},
        socket);
    QCOMPARE(m_records.size(), 2);
    const QString key = fingerprint(keyBlob(m_ssh.clientKey() + QStringLiteral(".pub")));
    QCOMPARE(m_records.at(0).key, key);
    QCOMPARE(m_records.at(0).purpose, QStringLiteral("login as %1 to gitbox.test").arg(testUser()));
    QVERIFY(m_records.at(0).relayed);
    QCOMPARE(m_records.at(1).purpose, QStringLiteral("file signature"));
    QVERIFY(!m_records.at(1).relayed);
    QVERIFY(!m_records.at(1).reason.isEmpty());
}

QTEST_GUILESS_MAIN(TestAgentRelay)
#include "tst_agent_relay.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Another user cannot use someone's paddockd: the directory keeps them out, and should it
// not, the daemon itself checks the peer's uid and closes the connection.
#include "DaemonFixture.h"

#include "Needs.h"

#include <QTest>

#include <cerrno>
#include <cstring>

#include <grp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr uid_t kNobody = 65534;

/** How a connection attempt as another user ended, from that user's side. */
enum Outcome : int {
    ConnectDenied = 10,    ///< connect() failed with a permission error
    ClosedUnanswered = 11, ///< connected, sent a hello, got end-of-file without a byte
    Answered = 12,         ///< the daemon answered: the check failed
    ChildError = 13,
};

/**
 * Forks a child that becomes @p uid and tries the daemon's socket. Only async-signal-safe
 * calls after fork(): the test process has threads.
 */
int tryAs(uid_t uid, const QByteArray &socketPath)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, socketPath.constData(), size_t(socketPath.size()));
    static const char hello[] = "{\"hello\":{\"protocol\":1,\"client\":\"intruder\"}}\n";

    const pid_t child = ::fork();
    if (child == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0)
            ::_exit(ChildError);
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            ::_exit(ChildError);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0)
            ::_exit(errno == EACCES || errno == EPERM ? ConnectDenied : ChildError);
        // The daemon may have closed already: no SIGPIPE, the outcome is read below.
        if (::send(fd, hello, sizeof(hello) - 1, MSG_NOSIGNAL) < 0 && errno != EPIPE && errno != ECONNRESET)
            ::_exit(ChildError);
        pollfd poller{fd, POLLIN, 0};
        // Bounded so a broken daemon cannot hang the test; a refusal arrives at once.
        if (::poll(&poller, 1, 10000) <= 0)
            ::_exit(Answered);
        char byte = 0;
        const ssize_t got = ::read(fd, &byte, 1);
        ::_exit(got == 0 || (got < 0 && errno == ECONNRESET) ? ClosedUnanswered : Answered);
    }
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status))
        return ChildError;
    return WEXITSTATUS(status);
}

/**
 * Forks a child that becomes @p uid and serves a fake daemon on @p socketPath: it answers
 * with a hello and exits 0 when the client closes without having sent a single byte.
 */
pid_t fakeDaemonAs(uid_t uid, const QByteArray &socketPath)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, socketPath.constData(), size_t(socketPath.size()));
    static const char hello[] = "{\"hello\":{\"protocol\":1,\"server\":\"paddockd\",\"version\":\"0\",\"pid\":1}}\n";
    int ready[2];
    if (::pipe(ready) != 0)
        return -1;
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(ready[0]);
        if (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0)
            ::_exit(ChildError);
        const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0 ||
            ::listen(listener, 4) != 0)
            ::_exit(ChildError);
        if (::write(ready[1], "r", 1) != 1)
            ::_exit(ChildError);
        const int fd = ::accept(listener, nullptr, nullptr);
        if (fd < 0)
            ::_exit(ChildError);
        [[maybe_unused]] const ssize_t sent = ::send(fd, hello, sizeof(hello) - 1, MSG_NOSIGNAL);
        pollfd poller{fd, POLLIN, 0};
        if (::poll(&poller, 1, 10000) <= 0)
            ::_exit(Answered);
        char byte = 0;
        const ssize_t got = ::read(fd, &byte, 1);
        ::_exit(got <= 0 ? 0 : Answered);
    }
    ::close(ready[1]);
    char byte = 0;
    const bool isReady = child > 0 && ::read(ready[0], &byte, 1) == 1;
    ::close(ready[0]);
    if (!isReady && child > 0) {
        ::waitpid(child, nullptr, 0);
        return -1;
    }
    return child;
}

bool setMode(const QString &path, mode_t mode)
{
    return ::chmod(QFile::encodeName(path).constData(), mode) == 0;
}

} // namespace

class TestDaemonPeer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { PADDOCK_NEED(::getuid() == 0, "root, to act as another user"); }

    void anotherUserIsKeptOutAndRefused()
    {
        DaemonFixture fixture;
        QVERIFY(fixture.startDaemon());
        const QByteArray socket = QFile::encodeName(fixture.socketPath());
        // Let the other user reach the runtime directory itself, as the user would for /run/user/N.
        QVERIFY(setMode(fixture.path(QString()), 0711));
        QVERIFY(setMode(fixture.path(QStringLiteral("run")), 0711));

        // First line of defence: the daemon's directory is 0700.
        QCOMPARE(tryAs(kNobody, socket), int(ConnectDenied));

        // Open the way on purpose to reach the daemon's own check.
        QVERIFY(setMode(fixture.runtimeDir(), 0711));
        QVERIFY(setMode(fixture.socketPath(), 0666));
        QCOMPARE(tryAs(kNobody, socket), int(ClosedUnanswered));
        QVERIFY(setMode(fixture.socketPath(), 0600));
        QVERIFY(setMode(fixture.runtimeDir(), 0700));

        QVERIFY(QTest::qWaitFor(
            [&] { return fixture.log().contains(QLatin1String("refused a connection from uid 65534")); }, 5000));
        // The owner is still served.
        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        QVERIFY2(status.exitCode == 0, qPrintable(status.out + status.err));
    }

    void aSocketServedByAnotherUserIsNotTrusted()
    {
        // Someone else got there first (think of the /tmp fallback): the client must not
        // send anything to it, since later requests carry secrets.
        DaemonFixture fixture;
        QVERIFY(QDir().mkpath(fixture.runtimeDir()));
        QVERIFY(setMode(fixture.path(QString()), 0711));
        QVERIFY(setMode(fixture.path(QStringLiteral("run")), 0711));
        QCOMPARE(::chown(QFile::encodeName(fixture.runtimeDir()).constData(), kNobody, kNobody), 0);
        const pid_t fake = fakeDaemonAs(kNobody, QFile::encodeName(fixture.socketPath()));
        QVERIFY(fake > 0);

        const auto status = fixture.paddock({QStringLiteral("daemon"), QStringLiteral("status")});
        int childStatus = 0;
        QCOMPARE(::waitpid(fake, &childStatus, 0), fake);
        QCOMPARE(status.exitCode, 1);
        QVERIFY2(status.err.contains(QLatin1String("uid 65534")), qPrintable(status.out + status.err));
        QVERIFY(WIFEXITED(childStatus));
        QCOMPARE(WEXITSTATUS(childStatus), 0); // not even the hello reached it
    }
};

QTEST_GUILESS_MAIN(TestDaemonPeer)
#include "tst_daemon_peer.moc"

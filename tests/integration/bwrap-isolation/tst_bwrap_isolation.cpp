// SPDX-License-Identifier: GPL-3.0-or-later
// What of the host a sandbox sees: its workspace (read-write, same path), its private home,
// the system read-only; no user files, no ssh keys, no Docker or D-Bus socket.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

using paddock::runtime::BwrapRuntime;
using paddock::testing::SandboxTestBed;

class TestBwrapIsolation : public QObject
{
    Q_OBJECT

private:
    /** A listening unix socket on the host, like a session bus or an agent. */
    static int listenOn(const QString &path)
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        std::memcpy(address.sun_path, native.constData(), size_t(native.size()) + 1);
        ::unlink(native.constData());
        if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(fd, 4) != 0) {
            ::close(fd);
            return -1;
        }
        return fd;
    }

private slots:
    void workspaceIsSharedAtTheSamePath()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        QFile seed(bed.workspace() + QStringLiteral("/from-host.txt"));
        QVERIFY(seed.open(QIODevice::WriteOnly));
        seed.write("host wrote this\n");
        seed.close();
        const auto run = bed.runScript(
            runtime, QStringLiteral("workspace"),
            QStringLiteral("cat \"$PWD/from-host.txt\" && echo 'agent wrote this' > \"%1/from-sandbox.txt\"")
                .arg(bed.workspace()));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("host wrote this\n"));
        QFile written(bed.workspace() + QStringLiteral("/from-sandbox.txt"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), QByteArray("agent wrote this\n"));
    }

    void hostHomeAndSshKeysAreAbsent()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        // The test's HOME (with its .ssh) sits next to the workspace, in the same directory.
        const auto run = bed.runScript(
            runtime, QStringLiteral("no-home"),
            QStringLiteral("test -e '%1/.ssh' && echo 'ssh visible'; test -e '%1' && echo 'host home visible'; "
                           "test -e /root && echo 'root visible'; find /home -mindepth 1; "
                           "ls -A \"$HOME\"; echo done")
                .arg(bed.hostHome()));
        QCOMPARE(run.exitCode, 0);
        // /home holds only the sandbox's own home, which starts empty.
        QCOMPARE(run.out, QByteArray("/home/agent\ndone\n"));
        QVERIFY(QFileInfo(runtime.privateHome(QStringLiteral("no-home"))).isDir());
        QCOMPARE(QFile::permissions(runtime.privateHome(QStringLiteral("no-home"))),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadUser |
                     QFileDevice::WriteUser | QFileDevice::ExeUser);
    }

    void homeIsPrivateAndPersistent()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        QCOMPARE(
            bed.runScript(runtime, QStringLiteral("keeps-home"), QStringLiteral("echo remembered > ~/note")).exitCode,
            0);
        QFile note(runtime.privateHome(QStringLiteral("keeps-home")) + QStringLiteral("/note"));
        QVERIFY(note.open(QIODevice::ReadOnly));
        QCOMPARE(note.readAll(), QByteArray("remembered\n"));
    }

    void dockerAndSessionSocketsAreAbsent()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        // A session-bus-like socket in the host's /tmp, and the one the environment names.
        const QString busPath = QStringLiteral("/tmp/paddock-test-bus-%1").arg(::getpid());
        const int bus = listenOn(busPath);
        QVERIFY(bus >= 0);
        QString sessionBus = qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS");
        sessionBus = sessionBus.startsWith(QLatin1String("unix:path="))
                         ? sessionBus.mid(10).section(QLatin1Char(','), 0, 0)
                         : busPath;
        const auto run = bed.runScript(
            runtime, QStringLiteral("no-sockets"),
            QStringLiteral("for p in /var/run/docker.sock /run/docker.sock '%1' '%2' /run/dbus/system_bus_socket; do "
                           "test -e \"$p\" && echo \"visible: $p\"; done; "
                           "ls -A /tmp; ls -A /run; ls /run/paddock; echo done")
                .arg(busPath, sessionBus));
        ::close(bus);
        ::unlink(QFile::encodeName(busPath).constData());
        QCOMPARE(run.exitCode, 0);
        // /tmp is empty but for the way to the workspace (when the workspace is under /tmp);
        // /run holds only Paddock's init and proxy socket.
        QByteArray expected = "paddock\ninit\nproxy.sock\ndone\n";
        if (bed.root().startsWith(QLatin1String("/tmp/")))
            expected.prepend(QFile::encodeName(bed.root().mid(5).section(QLatin1Char('/'), 0, 0)) + '\n');
        QCOMPARE(run.out, expected);
    }

    void systemIsReadOnlyAndEtcMinimal()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const auto run =
            bed.runScript(runtime, QStringLiteral("read-only"),
                          QStringLiteral("touch /usr/bin/planted 2>/dev/null && echo 'usr writable'; "
                                         "touch /planted 2>/dev/null && echo 'root writable'; "
                                         "touch /etc/planted 2>/dev/null && echo 'etc writable'; "
                                         "for f in /etc/shadow /etc/resolv.conf /etc/ssl/private /etc/sudoers; do "
                                         "test -e $f && echo \"visible: $f\"; done; "
                                         "test -r /etc/passwd && test -d /etc/ssl/certs && echo 'etc basics'; "
                                         "grep -c Cap.*0000000000000000 /proc/self/status"));
        QCOMPARE(run.exitCode, 0);
        // Every capability set (inheritable, permitted, effective, bounding, ambient) is empty.
        QCOMPARE(run.out, QByteArray("etc basics\n5\n"));
    }
};

QTEST_GUILESS_MAIN(TestBwrapIsolation)
#include "tst_bwrap_isolation.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// How a bubblewrap sandbox's root over the host's system is mounted, as an ordinary user
// (AS_USER), with the real daemon, CLI and bwrap: the kernel's overlayfs wherever it works,
// even with fuse-overlayfs at hand, and a kit that installs into the system refused before it
// starts where neither can mount one.
#include "RootKits.h"
#include "SandboxFixture.h"

#include <QProcess>

#include <unistd.h>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

using namespace paddock::test::kits;

class TestRootMount : public QObject
{
    Q_OBJECT

private slots:
    void kernelOverlayIsChosen();
    void withNeitherAnInstallingKitIsRefused();
    void disposableRootIsNotSyncedAndStartsAgain();
};

void TestRootMount::kernelOverlayIsChosen()
{
    QVERIFY2(::getuid() != 0, "runs as the ordinary user: tests/support/run-as-user.sh");
    SandboxFixture fixture;
    // No override: /dev/fuse opens for this user (run-as-user.sh makes it 0666, as Debian's udev
    // rule does), and the kernel's overlayfs is still what is chosen.
    QVERIFY2(QFileInfo(QStringLiteral("/dev/fuse")).isReadable(), "/dev/fuse does not open for this user");
    QVERIFY2(fixture.setUp(), "the fixture did not start (python3, paddockd)");
    const QString kit = fixture.writeKit(QStringLiteral("tool-kit"), kToolKit);
    const QString name = QStringLiteral("kernel-root");
    // setup.install, as root inside, writes into /usr/local/bin, a folder of the host's root.
    const Finished run = fixture.paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), name, fixture.workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + fixture.daemonLog()));
    QCOMPARE(run.out, QStringLiteral("kit-tool works\n"));

    const QJsonObject root = fixture.listed().value(name).value(QLatin1String("root")).toObject();
    QCOMPARE(root.value(QLatin1String("base")).toString(), QStringLiteral("host"));
    QCOMPARE(root.value(QLatin1String("mount")).toString(), QStringLiteral("kernel overlay"));
    const Finished ls = fixture.paddock({QStringLiteral("ls")});
    QVERIFY2(ls.out.contains(QLatin1String("(host, kernel overlay)")), qPrintable(ls.out));

    // Its writes are in the sandbox's upper layer, the host's /usr is untouched.
    const QString upper = fixture.path(QStringLiteral("data/paddock/sandboxes/%1/root/upper").arg(name));
    QVERIFY(QFileInfo(upper + QStringLiteral("/usr/local/bin/kit-tool")).isFile());
    QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/local/bin/kit-tool")));

    // Root inside replaces and removes host files, and the program writes into /usr/bin: all of
    // it in the sandbox's upper layer, none on the host.
    const QString other = fixture.writeKit(QStringLiteral("replace-kit"), kReplaceKit);
    const Finished replaced =
        fixture.paddock({QStringLiteral("run"), QStringLiteral("--kit"), other, QStringLiteral("--name"),
                         QStringLiteral("replace"), fixture.workspace()});
    QVERIFY2(replaced.exitCode == 0, qPrintable(replaced.err));
    QCOMPARE(replaced.out, QStringLiteral("replaced\ntac-removed\nagent-wrote\n"));
    QVERIFY(QFileInfo(QStringLiteral("/usr/bin/yes")).size() > 100);
    QVERIFY(QFileInfo::exists(QStringLiteral("/usr/bin/tac")));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/bin/by-agent")));
    const QString replaceUpper = fixture.path(QStringLiteral("data/paddock/sandboxes/replace/root/upper/usr/bin"));
    QVERIFY(QFileInfo(replaceUpper + QStringLiteral("/by-agent")).isFile());
    QVERIFY(QFileInfo(replaceUpper + QStringLiteral("/yes")).isFile());
    QCOMPARE(fixture.paddock({QStringLiteral("rm"), QStringLiteral("--force"), name}).exitCode, 0);
}

void TestRootMount::withNeitherAnInstallingKitIsRefused()
{
    SandboxFixture fixture;
    // The tests' override: neither the kernel's overlayfs nor fuse-overlayfs (its device unopenable).
    fixture.addEnvironment(QStringLiteral("PADDOCK_TEST_ROOT_MOUNT"), QStringLiteral("none"));
    QVERIFY2(fixture.setUp(), "the fixture did not start (python3, paddockd)");
    const QString kit = fixture.writeKit(QStringLiteral("tool-kit"), kToolKit);
    const QString name = QStringLiteral("refused-root");
    const Finished run = fixture.paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), name, fixture.workspace()});
    QVERIFY2(run.exitCode != 0, qPrintable(run.out));
    // Before anything ran: no "Read-only file system" from the install, no sandbox left.
    QVERIFY2(!run.err.contains(QLatin1String("Read-only")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("setup.install needs a writable root")), qPrintable(run.err));
    // Each missing piece, and how to get it.
    QVERIFY2(run.err.contains(QLatin1String("overlayfs")) && run.err.contains(QLatin1String("user namespaces")),
             qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("sudo chmod 0666 /dev/fuse")), qPrintable(run.err));
    QVERIFY(!fixture.listed().contains(name));
}

/** The kit's `sh -c` counts the overlays of /proc/self/mountinfo that have overlayfs' `volatile`. */
const QString kCountVolatile = QStringLiteral("grep -c ' - overlay .*volatile' /proc/self/mountinfo || true");

void TestRootMount::disposableRootIsNotSyncedAndStartsAgain()
{
    QVERIFY2(::getuid() != 0, "runs as the ordinary user: tests/support/run-as-user.sh");
    SandboxFixture fixture;
    fixture.addEnvironment(QStringLiteral("PADDOCK_TEST_ROOT_MOUNT"), QStringLiteral("kernel"));
    QVERIFY2(fixture.setUp(), "the fixture did not start (python3, paddockd)");
    const QString kit = fixture.writeKit(QStringLiteral("tool-kit"), kToolKit);
    // run --rm: removed at the end, so its overlays skip the sync of their upper layer.
    const Finished once = fixture.paddock({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"), kit,
                                           QStringLiteral("--name"), QStringLiteral("once"), fixture.workspace(),
                                           QStringLiteral("--"), kCountVolatile});
    QVERIFY2(once.exitCode == 0, qPrintable(once.err + fixture.daemonLog()));
    QVERIFY2(once.out.trimmed().toInt() >= 1, qPrintable(once.out));
    QVERIFY(!fixture.listed().contains(QStringLiteral("once")));
    // A sandbox that stays keeps what it wrote through a crash of the computer: no volatile.
    // Asked by the command `run` gives it, and by `exec` later.
    const Finished again =
        fixture.paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                         QStringLiteral("stays"), fixture.workspace(), QStringLiteral("--"), kCountVolatile});
    QVERIFY2(again.out.trimmed() == QLatin1String("0"), qPrintable(again.out + again.err + fixture.daemonLog()));
    const Finished made = fixture.paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit,
                                           QStringLiteral("--name"), QStringLiteral("kept"), fixture.workspace()});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const Finished kept = fixture.paddock(
        {QStringLiteral("exec"), QStringLiteral("kept"), QStringLiteral("sh"), QStringLiteral("-c"), kCountVolatile});
    QVERIFY2(kept.out.trimmed() == QLatin1String("0"), qPrintable(kept.out + kept.err));
    QCOMPARE(fixture.paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("kept")}).exitCode, 0);

    // `run --rm` killed before it removed its sandbox: stopped and started again, the sandbox
    // mounts its volatile overlays again (overlayfs refuses while their mark is left) and has
    // what it wrote.
    QProcess killed;
    killed.setProcessEnvironment(fixture.environment());
    killed.setWorkingDirectory(fixture.workspace());
    killed.start(QStringLiteral(PADDOCK_BIN),
                 {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                  QStringLiteral("left"), fixture.workspace(), QStringLiteral("--"),
                  QStringLiteral("echo kept > /etc/left-mark && sleep 600")});
    QVERIFY(killed.waitForStarted());
    const QStringList readMark{QStringLiteral("exec"), QStringLiteral("left"), QStringLiteral("cat"),
                               QStringLiteral("/etc/left-mark")};
    QTRY_VERIFY_WITH_TIMEOUT(fixture.paddock(readMark).out == QLatin1String("kept\n"), 60000);
    killed.kill();
    killed.waitForFinished();
    QCOMPARE(fixture.paddock({QStringLiteral("stop"), QStringLiteral("left")}).exitCode, 0);
    const Finished started = fixture.paddock({QStringLiteral("start"), QStringLiteral("left")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err + fixture.daemonLog()));
    QCOMPARE(fixture.paddock(readMark).out, QStringLiteral("kept\n"));
    QCOMPARE(fixture.paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("left")}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestRootMount)
#include "tst_root_mount.moc"

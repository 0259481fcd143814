// SPDX-License-Identifier: GPL-3.0-or-later
// A bubblewrap sandbox's own root, with the real daemon, CLI, bwrap, fuse-overlayfs (the
// way where the kernel's overlayfs cannot mount, chosen by the tests' override) and, for
// the image, a local Docker engine: run as an ordinary user (AS_USER).
#include "../../unit/image-store/ArchiveBuilder.h"
#include "RootKits.h"
#include "SandboxFixture.h"

#include "Needs.h"

#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

using namespace paddock::test::kits;

class TestSandboxRoot : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void installedToolStays();
    void imageFromDockerSaveIsTheBase();
    void removeLeavesNothing();
    void hostileArchivesAreRefused_data();
    void hostileArchivesAreRefused();
    void devicesStayOutOfTheStore();

private:
    Finished run(const QString &kit, const QString &name, const QStringList &command = {})
    {
        QStringList arguments{QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), name,
                              m_fixture->workspace()};
        if (!command.isEmpty())
            arguments << QStringLiteral("--") << command;
        return m_fixture->paddock(arguments);
    }
    QJsonObject rootOf(const QString &name)
    {
        return m_fixture->listed().value(name).value(QLatin1String("root")).toObject();
    }
    QString sandboxDir(const QString &name) const
    {
        return m_fixture->path(QStringLiteral("data/paddock/sandboxes/") + name);
    }
    /** Builds the test image with the local engine and saves it; empty with @p why when there is no engine. */
    QString savedImage(QString *why);
    /** Runs the docker CLI against the machine's engine (the fixture hides it from Paddock). */
    Finished docker(const QStringList &arguments)
    {
        QProcess process;
        process.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        process.start(m_docker, arguments);
        process.closeWriteChannel();
        if (!process.waitForFinished(180000))
            process.kill();
        process.waitForFinished();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_docker;
};

void TestSandboxRoot::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    // fuse-overlayfs, where the kernel's overlayfs cannot mount (tst_root_mount has the kernel's).
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_ROOT_MOUNT"), QStringLiteral("fuse"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxRoot::installedToolStays()
{
    const QString kit = m_fixture->writeKit(QStringLiteral("tool-kit"), kToolKit);
    const QString name = QStringLiteral("tool");
    const Finished first = run(kit, name);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err + m_fixture->daemonLog()));
    QCOMPARE(first.out, QStringLiteral("kit-tool works\n"));
    // Written into the sandbox's own root over the host's system; the host's is untouched.
    QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/local/bin/kit-tool")));
    QCOMPARE(rootOf(name).value(QLatin1String("base")).toString(), QStringLiteral("host"));
    QVERIFY(rootOf(name).value(QLatin1String("bytes")).toInteger() > 0);
    QVERIFY(QFileInfo(sandboxDir(name) + QStringLiteral("/root/upper/usr/local/bin/kit-tool")).isFile());

    // Still there after a stop and a start.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), name}).exitCode, 0);
    const Finished again = run(kit, name, {QStringLiteral("kit-tool; echo more >> /usr/local/bin/kit-tool")});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(again.out, QStringLiteral("kit-tool works\n"));
    // fuse-overlayfs keeps what it says out of the sandbox's output.
    QVERIFY2(!again.err.contains(QLatin1String("fuse-overlayfs")) && !again.err.contains(QLatin1String("ignored")),
             qPrintable(again.err));

    // And after the daemon is restarted, the sandbox stopped meanwhile.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), name}).exitCode, 0);
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
    const Finished restarted = run(kit, name, {QStringLiteral("tail -n 1 /usr/local/bin/kit-tool")});
    QVERIFY2(restarted.exitCode == 0, qPrintable(restarted.err));
    QCOMPARE(restarted.out, QStringLiteral("more\n"));

    // The listing says where the root comes from and what it takes.
    const Finished ls = m_fixture->paddock({QStringLiteral("ls")});
    QVERIFY2(ls.out.contains(QLatin1String("(host, fuse-overlayfs)")), qPrintable(ls.out));
}

QString TestSandboxRoot::savedImage(QString *why)
{
    m_docker = QStandardPaths::findExecutable(QStringLiteral("docker"));
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    if (m_docker.isEmpty() || busybox.isEmpty()) {
        *why = QStringLiteral("docker or a static busybox is not installed");
        return {};
    }
    const QString context = m_fixture->path(QStringLiteral("image"));
    QDir().mkpath(context);
    QFile::copy(busybox, context + QStringLiteral("/busybox"));
    QFile dockerfile(context + QStringLiteral("/Dockerfile"));
    if (!dockerfile.open(QIODevice::WriteOnly) || dockerfile.write(kImageDockerfile) < 0)
        return {};
    dockerfile.close();
    const Finished built = docker({QStringLiteral("build"), QStringLiteral("-q"), QStringLiteral("--network=none"),
                                   QStringLiteral("-t"), QStringLiteral("paddock-test/root-image:1"), context});
    if (built.exitCode != 0) {
        *why = QStringLiteral("the Docker engine did not build the image: ") + built.err;
        return {};
    }
    const QString archive = m_fixture->path(QStringLiteral("root-image.tar"));
    const Finished saved =
        docker({QStringLiteral("save"), QStringLiteral("-o"), archive, QStringLiteral("paddock-test/root-image:1")});
    // The engine is the machine's: the image leaves it once saved.
    // --no-prune: its cached steps are other tests' build cache, maybe in use this moment.
    docker({QStringLiteral("rmi"), QStringLiteral("--no-prune"), QStringLiteral("paddock-test/root-image:1")});
    if (saved.exitCode != 0) {
        *why = QStringLiteral("docker save failed: ") + saved.err;
        return {};
    }
    return archive;
}

void TestSandboxRoot::imageFromDockerSaveIsTheBase()
{
    QString why;
    const QString archive = savedImage(&why);
    PADDOCK_NEED(!archive.isEmpty(), why);
    const Finished loaded = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(loaded.out.contains(QLatin1String("paddock-test/root-image:1")), qPrintable(loaded.out));
    const Finished listed = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(QLatin1String("store")), qPrintable(listed.out));

    const QString kit = m_fixture->writeKit(QStringLiteral("image-kit"), kImageKit);
    const QString name = QStringLiteral("image");
    // Nothing in the kit says what runs: the image's Cmd, with the image's Env.
    const Finished first = run(kit, name);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err + m_fixture->daemonLog()));
    QCOMPARE(first.out, QStringLiteral("image-cmd from-image\n"));
    QVERIFY2(!first.err.contains(QLatin1String("not loaded")), qPrintable(first.err));

    // The image's files are the root: its marker, not the host's /usr, and a file its last
    // layer removed stays removed. Root writes into the sandbox's own layer.
    const QString probe =
        QStringLiteral("cat /marker; test -e /usr/bin/dpkg && echo host-usr; test -e /bin/wget || echo no-wget; "
                       "touch /usr/bin/planted && echo usr-writable; id -u");
    const Finished inside = run(kit, name, {QStringLiteral("sh"), QStringLiteral("-c"), probe});
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.err));
    QCOMPARE(inside.out, QStringLiteral("from-the-image\nno-wget\nusr-writable\n1000\n"));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/bin/planted")));
    const QJsonObject root = rootOf(name);
    QCOMPARE(root.value(QLatin1String("base")).toString(), QStringLiteral("image"));
    QCOMPARE(root.value(QLatin1String("image")).toString(), QStringLiteral("paddock-test/root-image:1"));

    // The image leaves the store; the sandbox keeps its layers until it goes too.
    const QString layers = m_fixture->path(QStringLiteral("data/paddock/images/layers"));
    const Finished removedImage = m_fixture->paddock(
        {QStringLiteral("template"), QStringLiteral("rm"), QStringLiteral("paddock-test/root-image:1")});
    QVERIFY2(removedImage.exitCode == 0, qPrintable(removedImage.err));
    QVERIFY(!QDir(layers).isEmpty());
    const Finished again = run(kit, name, {QStringLiteral("cat"), QStringLiteral("/marker")});
    QCOMPARE(again.out, QStringLiteral("from-the-image\n"));
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), name}).exitCode, 0);
    QVERIFY2(QDir(layers).isEmpty(), qPrintable(QDir(layers).entryList().join(QLatin1Char(' '))));
    QVERIFY(!QFileInfo::exists(sandboxDir(name)));
}

void TestSandboxRoot::removeLeavesNothing()
{
    const QString name = QStringLiteral("tool");
    QVERIFY(QFileInfo::exists(sandboxDir(name) + QStringLiteral("/root/upper")));
    const Finished removed = m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), name});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY2(!QFileInfo::exists(sandboxDir(name)),
             qPrintable(QDir(sandboxDir(name)).entryList().join(QLatin1Char(' '))));
    QVERIFY(!m_fixture->listed().contains(name));
}

void TestSandboxRoot::hostileArchivesAreRefused_data()
{
    using namespace paddock::test;
    QTest::addColumn<QByteArray>("layer");
    QTest::addColumn<QString>("expected");
    QTest::newRow("traversal") << tarOf({file("../../escaped", "x")})
                               << QStringLiteral("'../../escaped' leads outside the layer");
    QTest::newRow("write through a link pointing out")
        << tarOf({softLink("etc", "/etc"), file("etc/cron.d/pwned", "x")})
        << QStringLiteral("'etc/cron.d/pwned' lies under 'etc', which is a link");
    QTest::newRow("absolute hard link") << tarOf({hardlink("shadow", "/etc/shadow")})
                                        << QStringLiteral("hard link 'shadow' points outside the layer");
    RawMember huge = file("huge", {});
    huge.sizeField = qint64(100) << 30;
    QTest::newRow("huge layer") << tarOf({huge}) << QStringLiteral("member 'huge' is too large");
}

void TestSandboxRoot::hostileArchivesAreRefused()
{
    QFETCH(QByteArray, layer);
    QFETCH(QString, expected);
    const QString archive = m_fixture->path(QStringLiteral("hostile.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(paddock::test::dockerArchive({layer}, {QStringLiteral("hostile:1")}));
    out.close();
    const Finished loaded = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("load"), archive});
    QCOMPARE(loaded.exitCode, 1);
    QVERIFY2(loaded.err.contains(expected), qPrintable(loaded.err));
    // Nothing was kept, inside the store or beside it.
    const QString images = m_fixture->path(QStringLiteral("data/paddock/images"));
    QVERIFY(QDir(images + QStringLiteral("/layers")).isEmpty());
    QVERIFY(!QFileInfo::exists(images + QStringLiteral("/escaped")));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/escaped"))));
    const Finished listed = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls")});
    QVERIFY2(!listed.out.contains(QLatin1String("hostile")), qPrintable(listed.out));
}

void TestSandboxRoot::devicesStayOutOfTheStore()
{
    // Debian's bootstrap tarballs carry /dev/null and the like: the image loads without them, and
    // the load names each one it left out.
    using namespace paddock::test;
    const QString archive = m_fixture->path(QStringLiteral("device.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(
        dockerArchive({tarOf({folder("dev"), device("dev/sda"), file("marker", "x")})}, {QStringLiteral("device:1")}));
    out.close();
    const Finished loaded = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.err));
    QVERIFY2((loaded.out + loaded.err).contains(QLatin1String("dev/sda")), qPrintable(loaded.out + loaded.err));
    const QString layers = m_fixture->path(QStringLiteral("data/paddock/images/layers"));
    const QStringList stored = QDir(layers).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(stored.size(), 1);
    QVERIFY(QFileInfo::exists(layers + QLatin1Char('/') + stored.constFirst() + QStringLiteral("/marker")));
    QVERIFY(!QFileInfo::exists(layers + QLatin1Char('/') + stored.constFirst() + QStringLiteral("/dev/sda")));
    QCOMPARE(
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("rm"), QStringLiteral("device:1")}).exitCode, 0);
    QVERIFY(QDir(layers).isEmpty());
}

QTEST_GUILESS_MAIN(TestSandboxRoot)
#include "tst_sandbox_root.moc"

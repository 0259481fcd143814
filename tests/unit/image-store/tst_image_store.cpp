// SPDX-License-Identifier: GPL-3.0-or-later
// The image store with real archives made here: layers unpacked as overlayfs stacks them
// (whiteouts, opaque folders, hard and symbolic links), compressed with gzip, zstd or xz, with
// pax and GNU long names, images found by name, layers shared and collected, and hostile
// archives (a decompression bomb among them) refused with the member named and nothing written
// outside.
#include "ArchiveBuilder.h"

#include "image/ImageStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

using namespace paddock::test;
using paddock::image::ImageLimits;
using paddock::image::ImageStore;
using paddock::image::LoadResult;

class TestImageStore : public QObject
{
    Q_OBJECT

private:
    QString writeArchive(const QTemporaryDir &dir, const QByteArray &archive)
    {
        const QString path = dir.filePath(QStringLiteral("image-%1.tar").arg(++m_archives));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(archive) != archive.size())
            return {};
        return path;
    }
    static QStringList unpackedLayers(const ImageStore &store)
    {
        return QDir(store.layersDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
    }
    int m_archives = 0;
    QTemporaryDir m_outside; ///< where a hostile link points: it must stay empty

private slots:
    void loadsLayersAsOverlayfsStacksThem()
    {
        QTemporaryDir dir;
        const QByteArray base = tarOf(
            {folder("etc"), file("etc/passwd", "root:x:0:0::/root:/bin/sh\nagent:x:1001:1002::/home/agent:/bin/sh\n"),
             folder("bin"), file("bin/tool", "#!/bin/sh\n", 04755), softLink("bin/sh", "/bin/busybox"),
             folder("opt/old"), file("opt/old/f", "old"), file("gone", "bye"), device("dev/console"),
             device("./dev/null"), device("dev/urandom"), device("dev/sda"), device("opt/weird"),
             folder("tmp", 01777)});
        const QByteArray top = tarOf({file("./.wh.gone", {}), folder("opt/old"), file("opt/old/.wh..wh..opq", {}),
                                      file("x", "same"), hardlink("y", "x"), file("etc/marker", "from the image\n")});
        const QJsonObject settings{
            {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/opt/bin:/bin"), QStringLiteral("FOO=bar")}},
            {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sh")}},
            {QStringLiteral("WorkingDir"), QStringLiteral("/srv")},
            {QStringLiteral("User"), QStringLiteral("agent")}};
        ImageStore store(dir.filePath(QStringLiteral("store")));
        const LoadResult loaded =
            store.load(writeArchive(dir, dockerArchive({base, top}, {QStringLiteral("test/image:1")}, settings)));
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QCOMPARE(loaded.layersUnpacked, 2);
        // The device nodes every base image has go without a word; the others in one note.
        QCOMPARE(loaded.notes, QStringList{QStringLiteral("2 device node(s) left out, as a sandbox has its own /dev: "
                                                          "'dev/sda', 'opt/weird'")});

        const auto image = store.find(QStringLiteral("docker.io/test/image:1"));
        QVERIFY(image);
        QCOMPARE(image->layers, QStringList({sha256(base), sha256(top)}));
        QCOMPARE(image->config.workingDir, QStringLiteral("/srv"));
        QCOMPARE(image->config.env.value(1), QStringLiteral("FOO=bar"));
        QVERIFY(store.find(image->id.left(12)));
        QVERIFY(!store.find(QStringLiteral("test/image")));
        QCOMPARE(store.resolveUser(*image, QStringLiteral("agent")), std::make_optional(std::make_pair(1001, 1002)));
        QCOMPARE(store.resolveUser(*image, QStringLiteral("7:8")), std::make_optional(std::make_pair(7, 8)));
        QVERIFY(!store.resolveUser(*image, QStringLiteral("nobody-here")));

        const QString lower = store.layersDir() + QLatin1Char('/') + sha256(base);
        const QString upper = store.layersDir() + QLatin1Char('/') + sha256(top);
        struct stat st
        {};
        // No setuid across; a link kept as written; the sticky bit kept; no device.
        QCOMPARE(::lstat(QFile::encodeName(lower + QStringLiteral("/bin/tool")).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0755));
        QCOMPARE(QFile::symLinkTarget(lower + QStringLiteral("/bin/sh")), QStringLiteral("/bin/busybox"));
        QCOMPARE(::lstat(QFile::encodeName(lower + QStringLiteral("/tmp")).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(01777));
        QVERIFY(!QFileInfo::exists(lower + QStringLiteral("/dev/console")));
        // A whiteout is overlayfs' character device 0/0; an opaque folder has its attribute.
        QCOMPARE(::lstat(QFile::encodeName(upper + QStringLiteral("/gone")).constData(), &st), 0);
        QVERIFY(S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0));
        char value = 0;
        QCOMPARE(::getxattr(QFile::encodeName(upper + QStringLiteral("/opt/old")).constData(), "user.overlay.opaque",
                            &value, 1),
                 ssize_t(1));
        QCOMPARE(value, 'y');
        QVERIFY(!QFileInfo::exists(upper + QStringLiteral("/opt/old/.wh..wh..opq")));
        struct stat x
        {};
        QCOMPARE(::lstat(QFile::encodeName(upper + QStringLiteral("/x")).constData(), &x), 0);
        QCOMPARE(::lstat(QFile::encodeName(upper + QStringLiteral("/y")).constData(), &st), 0);
        QCOMPARE(st.st_ino, x.st_ino);

        // Loading again unpacks nothing: the layers are there.
        const LoadResult again =
            store.load(writeArchive(dir, dockerArchive({base, top}, {QStringLiteral("test/image:2")}, settings)));
        QVERIFY2(again.ok, qPrintable(again.error));
        QCOMPARE(again.layersUnpacked, 0);
        QVERIFY(store.find(QStringLiteral("test/image:1")));
    }

    void loadsOciLayoutWithGzipLayers()
    {
        QTemporaryDir dir;
        const QByteArray layer = tarOf({folder("etc"), file("etc/os-release", "ID=oci\n")});
        ImageStore store(dir.filePath(QStringLiteral("store")));
        const LoadResult loaded =
            store.load(writeArchive(dir, ociArchive({layer}, QStringLiteral("docker.io/library/oci-test:3"))));
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        const auto image = store.find(QStringLiteral("oci-test:3"));
        QVERIFY(image);
        QFile release(store.layersDir() + QLatin1Char('/') + sha256(layer) + QStringLiteral("/etc/os-release"));
        QVERIFY(release.open(QIODevice::ReadOnly));
        QCOMPARE(release.readAll(), QByteArray("ID=oci\n"));
    }

    void loadsZstdAndXzLayers_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("zstd") << QStringLiteral("zstd");
        QTest::newRow("xz") << QStringLiteral("xz");
    }

    void loadsZstdAndXzLayers()
    {
        QFETCH(QString, tool);
        QTemporaryDir dir;
        const QByteArray base = tarOf({folder("etc"), file("etc/os-release", "ID=" + tool.toLatin1() + "\n")});
        const QByteArray top = tarOf({file("etc/motd", QByteArray(200 * 1024, 'm'))});
        const QByteArray archive = ociArchive({base, top}, QStringLiteral("docker.io/library/packed:1"), tool);
        // The layers really are in that format: its magic number, and far smaller than the tar.
        const QByteArray magic = tool == QLatin1String("zstd") ? QByteArray("\x28\xb5\x2f\xfd")
                                                               : QByteArray("\xfd"
                                                                            "7zXZ");
        QVERIFY(compressed(top, tool).startsWith(magic));
        QVERIFY(archive.size() < top.size());
        ImageStore store(dir.filePath(QStringLiteral("store")));
        const LoadResult loaded = store.load(writeArchive(dir, archive));
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        QCOMPARE(loaded.layersUnpacked, 2);
        const auto image = store.find(QStringLiteral("packed:1"));
        QVERIFY(image);
        QCOMPARE(image->layers, QStringList({sha256(base), sha256(top)}));
        QFile release(store.layersDir() + QLatin1Char('/') + sha256(base) + QStringLiteral("/etc/os-release"));
        QVERIFY(release.open(QIODevice::ReadOnly));
        QCOMPARE(release.readAll(), "ID=" + tool.toLatin1() + "\n");
        QCOMPARE(QFileInfo(store.layersDir() + QLatin1Char('/') + sha256(top) + QStringLiteral("/etc/motd")).size(),
                 200 * 1024);
    }

    void readsLongNamesOfPaxAndGnuHeaders()
    {
        QTemporaryDir dir;
        // Paths ustar cannot hold (no '/' splits them into 155 + 100 bytes), as pax and GNU tar write them.
        const QByteArray paxName = "opt/" + QByteArray(150, 'p') + "/" + QByteArray(120, 'q') + ".txt";
        const QByteArray gnuName = "opt/" + QByteArray(130, 'g') + ".txt";
        const QByteArray layer = tarOf({folder("opt"), paxPath(paxName), file(paxName.left(100), "from pax\n"),
                                        gnuLongName(gnuName), file(gnuName.left(100), "from gnu\n")});
        ImageStore store(dir.filePath(QStringLiteral("store")));
        const LoadResult loaded = store.load(writeArchive(dir, dockerArchive({layer}, {QStringLiteral("long:1")})));
        QVERIFY2(loaded.ok, qPrintable(loaded.error));
        const QString root = store.layersDir() + QLatin1Char('/') + sha256(layer) + QLatin1Char('/');
        QFile pax(root + QString::fromLatin1(paxName));
        QVERIFY2(pax.open(QIODevice::ReadOnly), qPrintable(pax.fileName()));
        QCOMPARE(pax.readAll(), QByteArray("from pax\n"));
        QFile gnu(root + QString::fromLatin1(gnuName));
        QVERIFY2(gnu.open(QIODevice::ReadOnly), qPrintable(gnu.fileName()));
        QCOMPARE(gnu.readAll(), QByteArray("from gnu\n"));
        // Nothing under the names the ustar headers were cut to.
        QCOMPARE(QDir(root + QStringLiteral("opt")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList({QString::fromLatin1(gnuName.mid(4)), QString(150, QLatin1Char('p'))}));
    }

    void stopsCompressedBombAtItsLimit_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("zstd") << QStringLiteral("zstd");
        QTest::newRow("gzip") << QStringLiteral("gzip");
        QTest::newRow("xz") << QStringLiteral("xz");
    }

    void stopsCompressedBombAtItsLimit()
    {
        QFETCH(QString, tool);
        QTemporaryDir dir;
        ImageLimits limits;
        limits.maxLayerBytes = 64 * 1024;
        ImageStore store(dir.filePath(QStringLiteral("store")), limits);
        // 32 MiB of zeros in a few KiB: what unpacks must stop at the limit, not at the end.
        const QByteArray bomb = tarOf({file("zeros", QByteArray(32 << 20, '\0'))});
        const QByteArray archive = ociArchive({bomb}, QStringLiteral("bomb:1"), tool);
        QVERIFY2(archive.size() < 64 * 1024, qPrintable(QString::number(archive.size())));
        const LoadResult loaded = store.load(writeArchive(dir, archive));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("larger than 65536 bytes once unpacked")),
                 qPrintable(loaded.error));
        QVERIFY(unpackedLayers(store).isEmpty());
    }

    void refusesLayerNotMatchingItsDigest()
    {
        QTemporaryDir dir;
        const QByteArray layer = tarOf({file("a", "1")});
        const QByteArray other = tarOf({file("a", "2")});
        ImageStore store(dir.filePath(QStringLiteral("store")));
        // The configuration names one layer, the archive holds another under that name.
        const LoadResult loaded =
            store.load(writeArchive(dir, dockerArchive({other}, {QStringLiteral("x:1")}, {}, configOf({layer}))));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("does not match the digest")), qPrintable(loaded.error));
        QVERIFY(unpackedLayers(store).isEmpty());
        QVERIFY(!store.find(QStringLiteral("x:1")));
    }

    void refusesHostileLayers_data()
    {
        QTest::addColumn<QByteArray>("layer");
        QTest::addColumn<QString>("expected");
        QTest::newRow("traversal") << tarOf({file("../escaped", "x")})
                                   << QStringLiteral("'../escaped' leads outside the layer");
        QTest::newRow("traversal inside")
            << tarOf({file("a/../../escaped", "x")}) << QStringLiteral("'a/../../escaped' leads outside");
        QTest::newRow("absolute") << tarOf({file("/escaped", "x")})
                                  << QStringLiteral("'/escaped' has an absolute path");
        QTest::newRow("write through a link")
            << tarOf({softLink("link", QFile::encodeName(m_outside.path())), file("link/pwned", "x")})
            << QStringLiteral("'link/pwned' lies under 'link', which is a link");
        QTest::newRow("absolute hard link") << tarOf({hardlink("passwd", "/etc/passwd")})
                                            << QStringLiteral("hard link 'passwd' points outside the layer");
        QTest::newRow("hard link out by ..") << tarOf({hardlink("passwd", "../../etc/passwd")})
                                             << QStringLiteral("hard link 'passwd' points outside the layer");
        QTest::newRow("hard link to nothing")
            << tarOf({hardlink("h", "missing")}) << QStringLiteral("'missing', which is not a file the layer holds");
        RawMember huge = file("huge", {});
        huge.sizeField = qint64(100) << 30;
        QTest::newRow("huge member") << tarOf({huge}) << QStringLiteral("member 'huge' is too large");
        QTest::newRow("file over folder") << tarOf({folder("d"), file("d/f", "x"), softLink("d", "/")})
                                          << QStringLiteral("member 'd' would replace a folder");
        QTest::newRow("truncated") << tarOf({file("t", QByteArray(2000, 'x'))}).left(1024) << QStringLiteral("ends");
    }

    void refusesHostileLayers()
    {
        QFETCH(QByteArray, layer);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        ImageStore store(dir.filePath(QStringLiteral("store/images")));
        const LoadResult loaded = store.load(writeArchive(dir, dockerArchive({layer}, {QStringLiteral("hostile:1")})));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(expected), qPrintable(loaded.error));
        QVERIFY2(loaded.error.startsWith(QLatin1String("layer 1 of the image")), qPrintable(loaded.error));
        QVERIFY(QDir(m_outside.path()).isEmpty());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("escaped"))));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("store/escaped"))));
        QVERIFY(unpackedLayers(store).isEmpty());
    }

    void refusesLayerBeyondItsLimit()
    {
        QTemporaryDir dir;
        ImageLimits limits;
        limits.maxLayerBytes = 64 * 1024;
        ImageStore store(dir.filePath(QStringLiteral("store")), limits);
        const QByteArray big = tarOf({file("big", QByteArray(100 * 1024, 'x'))});
        const LoadResult loaded = store.load(writeArchive(dir, dockerArchive({big}, {QStringLiteral("big:1")})));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("larger than 65536 bytes")), qPrintable(loaded.error));
    }

    void refusesWhatIsNotAnImage()
    {
        QTemporaryDir dir;
        ImageStore store(dir.filePath(QStringLiteral("store")));
        LoadResult loaded = store.load(writeArchive(dir, tarOf({file("hello.txt", "hi")})));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("neither manifest.json")), qPrintable(loaded.error));
        loaded = store.load(writeArchive(dir, QByteArray(4096, 'z')));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("not an image archive")), qPrintable(loaded.error));
        // A manifest pointing out of the archive finds nothing there.
        const QByteArray manifest = R"([{"Config":"../../etc/passwd","RepoTags":["x:1"],"Layers":[]}])";
        loaded = store.load(writeArchive(dir, tarOf({file("manifest.json", manifest)})));
        QVERIFY(!loaded.ok);
        QVERIFY2(loaded.error.contains(QLatin1String("has no member")), qPrintable(loaded.error));
    }

    void removeKeepsWhatIsStillUsed()
    {
        QTemporaryDir dir;
        const QByteArray shared = tarOf({file("shared", "s")});
        const QByteArray first = tarOf({file("first", "1")});
        const QByteArray second = tarOf({file("second", "2")});
        ImageStore store(dir.filePath(QStringLiteral("store")));
        QVERIFY(store.load(writeArchive(dir, dockerArchive({shared, first}, {QStringLiteral("one:1")}))).ok);
        QVERIFY(store.load(writeArchive(dir, dockerArchive({shared, second}, {QStringLiteral("two:1")}))).ok);
        QCOMPARE(unpackedLayers(store).size(), 3);

        QString error;
        // A sandbox made from image one keeps its top layer.
        const QSet<QString> inUse{store.layersDir() + QLatin1Char('/') + sha256(first)};
        auto removed = store.remove(QStringLiteral("one:1"), inUse, &error);
        QVERIFY2(removed, qPrintable(error));
        QVERIFY(removed->isEmpty());
        QVERIFY(!store.find(QStringLiteral("one:1")));
        removed = store.remove(QStringLiteral("two:1"), {}, &error);
        QVERIFY2(removed, qPrintable(error));
        QCOMPARE(removed->size(), 3);
        QVERIFY(unpackedLayers(store).isEmpty());
        QVERIFY(!store.remove(QStringLiteral("two:1"), {}, &error));
    }
};

QTEST_GUILESS_MAIN(TestImageStore)
#include "tst_image_store.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// What the daemon adds to paddock-init's account of a file: whether the sandbox wrote it.
// Real sandboxes copying, renaming and overwriting programs are in tests/integration/program-identity.
#include "sandbox/ProgramOrigins.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using paddock::ClientProgram;
using paddock::FileIdentity;
using paddock::FileOrigin;
using paddock::sandbox::ProgramOrigins;
using Place = FileIdentity::Place;

namespace {

FileIdentity fileAt(const std::string &path, Place place, const std::string &mountPoint = {})
{
    FileIdentity file;
    file.path = path;
    file.device = 1;
    file.inode = 2;
    file.place = place;
    file.mountPoint = mountPoint;
    return file;
}

qint64 changedNs(const QString &path)
{
    struct stat status = {};
    if (::lstat(QFile::encodeName(path).constData(), &status) != 0)
        return -1;
    return qint64(status.st_ctim.tv_sec) * 1000000000LL + status.st_ctim.tv_nsec;
}

bool writeFile(const QString &path)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write("#!/bin/sh\n") > 0;
}

} // namespace

class ProgramOriginsTest : public QObject
{
    Q_OBJECT

private slots:
    void mountsSayWhatTheSandboxCanWrite()
    {
        ProgramOrigins::Layout layout;
        layout.names = {{QStringLiteral("/work/project"), QStringLiteral("the workspace")}};
        std::string where;
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/curl", Place::ReadOnly), &where), FileOrigin::Base);
        QVERIFY(where.empty());
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/work/project/curl", Place::Mount, "/work/project"), &where),
                 FileOrigin::Written);
        QCOMPARE(where, std::string("the workspace"));
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/tmp/curl", Place::Mount, "/tmp"), &where),
                 FileOrigin::Written);
        QCOMPARE(where, std::string("/tmp"));
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/curl", Place::Elsewhere), &where),
                 FileOrigin::Written);
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/curl", Place::Unknown), &where),
                 FileOrigin::Unknown);
    }

    void aRootFileIsItsOwnOnceItsUpperLayerChangedIt()
    {
        QTemporaryDir upper;
        QVERIFY(upper.isValid());
        // What setup.install wrote before the sandbox was made is the base.
        QVERIFY(writeFile(upper.path() + QStringLiteral("/usr/local/bin/gh")));
        QTest::qSleep(20);
        ProgramOrigins::Layout layout;
        layout.upperDir = upper.path();
        layout.baseUntilNs = QDateTime::currentMSecsSinceEpoch() * 1000000LL;
        QTest::qSleep(20);
        QVERIFY(writeFile(upper.path() + QStringLiteral("/usr/bin/curl")));
        QVERIFY(changedNs(upper.path() + QStringLiteral("/usr/bin/curl")) > layout.baseUntilNs);
        std::string where;
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/curl", Place::Root), &where), FileOrigin::Written);
        QCOMPARE(where, std::string("its own root"));
        where.clear();
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/local/bin/gh", Place::Root), &where), FileOrigin::Base);
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/wget", Place::Root), &where), FileOrigin::Base);
        QVERIFY(where.empty());
    }

    void aKernelOverlayPartOfTheRootIsTheRoot()
    {
        // The kernel's overlay over the host's system mounts /usr on its own: a file there is
        // the root's, judged by its share of the upper layer, not "written" as a mount's would be.
        QTemporaryDir upper;
        QVERIFY(upper.isValid());
        ProgramOrigins::Layout layout;
        layout.upperDir = upper.path();
        layout.rootParts = {QStringLiteral("/usr"), QStringLiteral("/etc/ssl/certs")};
        layout.baseUntilNs = QDateTime::currentMSecsSinceEpoch() * 1000000LL;
        QTest::qSleep(20);
        QVERIFY(writeFile(upper.path() + QStringLiteral("/usr/bin/curl")));
        std::string where;
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/wget", Place::Mount, "/usr"), &where),
                 FileOrigin::Base);
        QVERIFY(where.empty());
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/curl", Place::Mount, "/usr"), &where),
                 FileOrigin::Written);
        QCOMPARE(where, std::string("its own root"));
        // Any other writable mount is still the sandbox's own, whatever it holds.
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/tmp/wget", Place::Mount, "/tmp"), &where),
                 FileOrigin::Written);
        QCOMPARE(where, std::string("/tmp"));
        // Without a root of its own on the host, no mount is taken for a part of it.
        layout.upperDir.clear();
        QCOMPARE(ProgramOrigins::originOf(layout, fileAt("/usr/bin/wget", Place::Mount, "/usr"), &where),
                 FileOrigin::Written);
    }

    void aContainerFileChangedSinceItWasMadeIsItsOwn()
    {
        ProgramOrigins::Layout layout;
        layout.baseUntilNs = 2000;
        FileIdentity image = fileAt("/usr/bin/curl", Place::Root);
        image.changedNs = 1000;
        FileIdentity rewritten = image;
        rewritten.changedNs = 3000;
        std::string where;
        QCOMPARE(ProgramOrigins::originOf(layout, image, &where), FileOrigin::Base);
        QCOMPARE(ProgramOrigins::originOf(layout, rewritten, &where), FileOrigin::Written);
        // Nothing known of the root: no origin, and no program rule holds.
        QCOMPARE(ProgramOrigins::originOf(ProgramOrigins::Layout{}, image, &where), FileOrigin::Unknown);
    }

    void classifiesEachSandboxByItsOwnLayout()
    {
        ProgramOrigins origins;
        ClientProgram program;
        program.pid = 5;
        program.exe = "/usr/bin/python3.11";
        program.args = {"python3", "/tmp/pip"};
        program.exeFile = fileAt(program.exe, Place::ReadOnly);
        program.scriptFile = fileAt("/tmp/pip", Place::Mount, "/tmp");
        origins.classify(QStringLiteral("a"), program);
        QCOMPARE(program.exeOrigin, FileOrigin::Unknown); // not known yet
        origins.set(QStringLiteral("a"), {});
        origins.classify(QStringLiteral("a"), program);
        QCOMPARE(program.exeOrigin, FileOrigin::Base);
        QCOMPARE(program.scriptOrigin, FileOrigin::Written);
        QCOMPARE(program.writtenWhere, std::string("/tmp"));
        QVERIFY(!program.matches("pip"));
        QVERIFY(program.matches("python3"));
        origins.forget(QStringLiteral("a"));
        ClientProgram again = program;
        again.exeOrigin = again.scriptOrigin = FileOrigin::Unknown;
        origins.classify(QStringLiteral("a"), again);
        QCOMPARE(again.exeOrigin, FileOrigin::Unknown);
    }
};

QTEST_GUILESS_MAIN(ProgramOriginsTest)
#include "tst_program_origins.moc"

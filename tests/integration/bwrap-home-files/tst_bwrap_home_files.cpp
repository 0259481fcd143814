// SPDX-License-Identifier: GPL-3.0-or-later
// A kit's files/home tree lands in the sandbox home as it is, and nothing in it (or in the
// home) can make the copy read or write outside the two trees.
#include "runtime/bwrap/HomeFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using paddock::runtime::copyHomeTree;

class TestBwrapHomeFiles : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &contents)
    {
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(contents);
    }
    static QByteArray read(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

private slots:
    void copiesTheTreeWithModes()
    {
        QTemporaryDir dir;
        const QString kit = dir.filePath(QStringLiteral("kit/files/home"));
        const QString home = dir.filePath(QStringLiteral("home"));
        QDir().mkpath(home);
        write(kit + QStringLiteral("/.config/agent/settings.json"), "{}\n");
        write(kit + QStringLiteral("/.profile"), "export A=1\n");
        write(kit + QStringLiteral("/bin/tool"), "#!/bin/sh\n");
        QFile::setPermissions(kit + QStringLiteral("/bin/tool"),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(QFile::link(QStringLiteral("../.profile"), kit + QStringLiteral("/bin/profile-link")));

        const auto result = copyHomeTree(kit, home);
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(result.skipped.isEmpty());
        QCOMPARE(read(home + QStringLiteral("/.config/agent/settings.json")), QByteArray("{}\n"));
        QCOMPARE(read(home + QStringLiteral("/.profile")), QByteArray("export A=1\n"));
        QVERIFY(QFileInfo(home + QStringLiteral("/bin/tool")).isExecutable());
        QCOMPARE(QFile::symLinkTarget(home + QStringLiteral("/bin/profile-link")),
                 QDir::cleanPath(home + QStringLiteral("/.profile")));
    }

    void skipsLinksLeadingOutOfTheTree()
    {
        QTemporaryDir dir;
        const QString kit = dir.filePath(QStringLiteral("kit/files/home"));
        const QString home = dir.filePath(QStringLiteral("home"));
        QDir().mkpath(home);
        write(dir.filePath(QStringLiteral("secret")), "host secret\n");
        write(kit + QStringLiteral("/ok"), "fine\n");
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("secret")), kit + QStringLiteral("/absolute")));
        QVERIFY(QFile::link(QStringLiteral("../../../secret"), kit + QStringLiteral("/climbing")));
        QDir().mkpath(kit + QStringLiteral("/sub"));
        QVERIFY(QFile::link(QStringLiteral("../../secret-dir"), kit + QStringLiteral("/sub/climbing-dir")));
        // A link to a directory outside: its contents must not be copied either.
        QVERIFY(QFile::link(dir.path(), kit + QStringLiteral("/everything")));

        const auto result = copyHomeTree(kit, home);
        QVERIFY2(result.ok, qPrintable(result.error));
        QStringList skipped = result.skipped;
        skipped.sort();
        QCOMPARE(skipped, (QStringList{QStringLiteral("absolute"), QStringLiteral("climbing"),
                                       QStringLiteral("everything"), QStringLiteral("sub/climbing-dir")}));
        QCOMPARE(QDir(home).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("ok"), QStringLiteral("sub")}));
        QVERIFY(QDir(home + QStringLiteral("/sub")).isEmpty());
    }

    void neverWritesThroughALinkInTheHome()
    {
        QTemporaryDir dir;
        const QString kit = dir.filePath(QStringLiteral("kit"));
        const QString home = dir.filePath(QStringLiteral("home"));
        QDir().mkpath(home);
        const QString victim = dir.filePath(QStringLiteral("victim"));
        write(victim, "untouched\n");
        write(kit + QStringLiteral("/.bashrc"), "kit bashrc\n");
        write(kit + QStringLiteral("/.config/x"), "kit x\n");
        // Left in the home by a previous run of the sandbox, which controls the home.
        QVERIFY(QFile::link(victim, home + QStringLiteral("/.bashrc")));
        QVERIFY(QFile::link(dir.path(), home + QStringLiteral("/.config")));

        const auto result = copyHomeTree(kit, home);
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(read(victim), QByteArray("untouched\n"));
        QVERIFY(!QFileInfo(home + QStringLiteral("/.bashrc")).isSymLink());
        QCOMPARE(read(home + QStringLiteral("/.bashrc")), QByteArray("kit bashrc\n"));
        QVERIFY(!QFileInfo(home + QStringLiteral("/.config")).isSymLink());
        QCOMPARE(read(home + QStringLiteral("/.config/x")), QByteArray("kit x\n"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x"))));
    }

    void refusesMissingTrees()
    {
        QTemporaryDir dir;
        QVERIFY(!copyHomeTree(dir.filePath(QStringLiteral("none")), dir.path()).ok);
        QVERIFY(!copyHomeTree(dir.path(), dir.filePath(QStringLiteral("none"))).ok);
    }
};

QTEST_GUILESS_MAIN(TestBwrapHomeFiles)
#include "tst_bwrap_home_files.moc"

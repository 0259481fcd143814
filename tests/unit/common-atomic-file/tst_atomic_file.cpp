// SPDX-License-Identifier: GPL-3.0-or-later
// writeFileAtomically() replaces a file whole, and writeFileIfChanged() leaves a file that
// already holds the contents alone: the same file, not a new one renamed over it.

#include "common/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using paddock::Durability;

namespace {

struct stat statOf(const QString &path)
{
    struct stat info
    {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        info.st_ino = 0;
    return info;
}

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void aNewFileGetsItsContentsAndMode()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle.pem"));
        QString error;
        QVERIFY2(paddock::writeFileIfChanged(path, "one\n", &error, 0640), qPrintable(error));
        QCOMPARE(contentsOf(path), QByteArray("one\n"));
        QCOMPARE(statOf(path).st_mode & 0777, mode_t(0640));
    }

    void theSameContentsLeaveTheFileAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hosts"));
        QVERIFY(paddock::writeFileAtomically(path, "127.0.0.1\tlocalhost\n"));
        const struct stat before = statOf(path);
        QVERIFY(before.st_ino != 0);
        for (const Durability durability : {Durability::Synced, Durability::Unsynced})
            QVERIFY(paddock::writeFileIfChanged(path, "127.0.0.1\tlocalhost\n", nullptr, 0644, durability));
        // A rename over it would have given the path another inode.
        QCOMPARE(statOf(path).st_ino, before.st_ino);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void otherContentsReplaceTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("resolv.conf"));
        QVERIFY(paddock::writeFileAtomically(path, "nameserver 127.0.0.1\n"));
        const ino_t before = statOf(path).st_ino;
        // Same size, other bytes; then a longer file.
        QVERIFY(paddock::writeFileIfChanged(path, "nameserver 127.0.0.2\n"));
        QCOMPARE(contentsOf(path), QByteArray("nameserver 127.0.0.2\n"));
        QVERIFY(statOf(path).st_ino != before);
        QVERIFY(paddock::writeFileIfChanged(path, "nameserver 127.0.0.2\noptions ndots:1\n"));
        QCOMPARE(contentsOf(path), QByteArray("nameserver 127.0.0.2\noptions ndots:1\n"));
    }

    void aFolderInTheWayIsAnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("taken"));
        QVERIFY(QDir().mkdir(path));
        QString error;
        QVERIFY(!paddock::writeFileIfChanged(path, "x", &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"

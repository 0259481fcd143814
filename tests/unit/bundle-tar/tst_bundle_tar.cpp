// SPDX-License-Identifier: GPL-3.0-or-later
// The tar of a bundle: what writeTar() makes is a plain ustar archive, the same bytes for the same
// content, that readTar() reads back; an archive from tar(1) with names only pax or GNU headers
// can hold is read with those names; and writeTar() refuses what readTar() would.
#include "bundle/TarArchive.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::bundle;

class TestBundleTar : public QObject
{
    Q_OBJECT

private:
    static QList<TarEntry> kit()
    {
        return {{QStringLiteral("manifest.json"), TarEntry::Type::File, false, "{}\n"},
                {QStringLiteral("kit"), TarEntry::Type::Directory, false, {}},
                {QStringLiteral("kit/spec.yaml"), TarEntry::Type::File, false, "name: tiny\n"},
                {QStringLiteral("kit/setup.sh"), TarEntry::Type::File, true, QByteArray(1500, 's')}};
    }

    /** What tar(1) makes of @p dir in @p format. */
    static QByteArray tarOf(const QString &dir, const QString &format)
    {
        QProcess tar;
        tar.setWorkingDirectory(dir);
        tar.start(QStringLiteral("tar"),
                  {QStringLiteral("--format=") + format, QStringLiteral("--owner=0"), QStringLiteral("--group=0"),
                   QStringLiteral("-cf"), QStringLiteral("-"), QStringLiteral("manifest.json"), QStringLiteral("kit")});
        tar.waitForFinished(10000);
        return tar.readAllStandardOutput();
    }

private slots:
    void writesTheSameUstarBytesForTheSameContent()
    {
        QString error;
        const QByteArray first = writeTar(kit(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(writeTar(kit(), &error), first);
        // Four headers, five blocks of data, then the end marker: nothing after it.
        QCOMPARE(first.size(), (4 + 1 + 1 + 3) * 512 + 1024);
        QCOMPARE(first.mid(257, 8), QByteArray("ustar\0"
                                               "00",
                                               8));
        QVERIFY(first.endsWith(QByteArray(1024, '\0')));

        const TarReadResult read = readTar(first);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.entries.size(), kit().size());
        for (qsizetype i = 0; i < read.entries.size(); ++i) {
            QCOMPARE(read.entries.at(i).path, kit().at(i).path);
            QCOMPARE(read.entries.at(i).type, kit().at(i).type);
            QCOMPARE(read.entries.at(i).executable, kit().at(i).executable);
            QCOMPARE(read.entries.at(i).data, kit().at(i).data);
        }
    }

    void readsLongNamesWrittenByTar_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("pax") << QStringLiteral("pax");
        QTest::newRow("gnu") << QStringLiteral("gnu");
    }

    void readsLongNamesWrittenByTar()
    {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString deep = QStringLiteral("kit/files/") + QString(120, QLatin1Char('d'));
        const QString name = deep + QLatin1Char('/') + QString(110, QLatin1Char('f'));
        QVERIFY(QDir(dir.path()).mkpath(deep));
        for (const QString &path : {QStringLiteral("manifest.json"), name}) {
            QFile file(dir.filePath(path));
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write("x\n") == 2);
        }
        const TarReadResult read = readTar(tarOf(dir.path(), format));
        QVERIFY2(read.ok(), qPrintable(read.error));
        QStringList paths;
        for (const TarEntry &entry : read.entries)
            paths << entry.path;
        QVERIFY2(paths.contains(name), qPrintable(paths.join(QLatin1Char('\n'))));
        QVERIFY(paths.contains(deep));
    }

    void writeRefusesWhatReadRefuses_data()
    {
        QTest::addColumn<QList<TarEntry>>("entries");
        QTest::addColumn<QString>("message");
        const TarEntry file{QStringLiteral("kit/a"), TarEntry::Type::File, false, "a"};
        QTest::newRow("parent") << QList<TarEntry>{{QStringLiteral("kit/../a"), TarEntry::Type::File, false, {}}}
                                << QStringLiteral("leads outside");
        QTest::newRow("absolute") << QList<TarEntry>{{QStringLiteral("/etc/a"), TarEntry::Type::File, false, {}}}
                                  << QStringLiteral("absolute path");
        QTest::newRow("twice") << QList<TarEntry>{file, file} << QStringLiteral("appears twice");
        QTest::newRow("too long for ustar")
            << QList<TarEntry>{{QString(300, QLatin1Char('n')), TarEntry::Type::File, false, {}}}
            << QStringLiteral("too long for a bundle");
    }

    void writeRefusesWhatReadRefuses()
    {
        QFETCH(QList<TarEntry>, entries);
        QFETCH(QString, message);
        QString error;
        QVERIFY(writeTar(entries, &error).isEmpty());
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestBundleTar)
#include "tst_bundle_tar.moc"

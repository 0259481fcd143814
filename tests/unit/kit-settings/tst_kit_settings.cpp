// SPDX-License-Identifier: GPL-3.0-or-later
// kit-settings.yaml: the least isolation of a kit's sandboxes, kept by Paddock outside the kit.
#include "kit/KitSettings.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using paddock::kit::KitSettings;

class TestKitSettings : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("config"))));
        QFile::remove(KitSettings::path());
        QVERIFY(QDir().mkpath(m_root.filePath(QStringLiteral("kits/strict"))));
    }

    void nothingIsSetAtFirst() { QVERIFY(!KitSettings::minimumIsolation(kit())); }

    void aSetLevelIsReadBackUnderAnySpellingOfTheFolder()
    {
        QString error;
        QVERIFY2(KitSettings::setMinimumIsolation(kit(), QStringLiteral("gvisor"), &error), qPrintable(error));
        QCOMPARE(KitSettings::minimumIsolation(kit()).value_or(QString()), QStringLiteral("gvisor"));
        // Through a link and with a trailing ./: the same folder, the same setting.
        const QString link = m_root.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(m_root.filePath(QStringLiteral("kits")), link));
        QCOMPARE(KitSettings::minimumIsolation(link + QStringLiteral("/strict/.")).value_or(QString()),
                 QStringLiteral("gvisor"));
        // Another kit is not concerned; container lifts the setting.
        QVERIFY(!KitSettings::minimumIsolation(m_root.filePath(QStringLiteral("kits"))));
        QVERIFY(KitSettings::setMinimumIsolation(kit(), QStringLiteral("container"), &error));
        QVERIFY(!KitSettings::minimumIsolation(kit()));
    }

    void anUnknownLevelIsRefused()
    {
        QString error;
        QVERIFY(!KitSettings::setMinimumIsolation(kit(), QStringLiteral("vm"), &error));
        QVERIFY2(error.contains(QLatin1String("container or gvisor")), qPrintable(error));
        QVERIFY(!QFile::exists(KitSettings::path()));
    }

    void aBrokenFileNamesItsLineAndIsLeftAlone()
    {
        QVERIFY(QDir().mkpath(QFileInfo(KitSettings::path()).absolutePath()));
        QFile file(KitSettings::path());
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray broken = "kits:\n  /a:\n    isolation: [gvisor\n";
        file.write(broken);
        file.close();
        QString error;
        QVERIFY(!KitSettings::minimumIsolation(kit(), &error));
        QVERIFY2(error.contains(KitSettings::path()) && error.contains(QLatin1String("line ")), qPrintable(error));
        // A setting that cannot be read is not overwritten by the next one.
        QVERIFY(!KitSettings::setMinimumIsolation(kit(), QStringLiteral("gvisor"), &error));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), broken);
    }

    void aFileOfAnotherShapeSaysWhatIsExpected()
    {
        QVERIFY(QDir().mkpath(QFileInfo(KitSettings::path()).absolutePath()));
        QFile file(KitSettings::path());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("kits:\n  - /a\n");
        file.close();
        QString error;
        QVERIFY(!KitSettings::minimumIsolation(kit(), &error));
        QVERIFY2(error.contains(QLatin1String("expected kits:")) && !error.contains(QLatin1String("line 0")),
                 qPrintable(error));
    }

    void sharesAreKeptBesideTheIsolation()
    {
        QString error;
        const paddock::kit::KitShares shares{
            {QStringLiteral("/home/me/.nuget:/home/agent/.nuget:rw"), QStringLiteral("/srv/m.json:/m.json:ro")},
            {{QStringLiteral("PGHOST"), QStringLiteral("postgres")}, {QStringLiteral("A"), QStringLiteral("x: y")}}};
        QVERIFY2(KitSettings::setShares(kit(), shares, &error), qPrintable(error));
        QVERIFY2(KitSettings::setMinimumIsolation(kit(), QStringLiteral("gvisor"), &error), qPrintable(error));
        QCOMPARE(KitSettings::shares(kit()), shares);
        // Lowering the isolation leaves the shares, and clearing the shares leaves nothing.
        QVERIFY(KitSettings::setMinimumIsolation(kit(), QStringLiteral("container"), &error));
        QCOMPARE(KitSettings::shares(kit()), shares);
        QVERIFY(KitSettings::setShares(kit(), {}, &error));
        QVERIFY(KitSettings::shares(kit()).isEmpty());
        QFile file(KitSettings::path());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains("strict"), "an emptied kit leaves no entry");
    }

    void sharesOfAnotherShapeSayWhatIsExpected()
    {
        QVERIFY(QDir().mkpath(QFileInfo(KitSettings::path()).absolutePath()));
        QFile file(KitSettings::path());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("kits:\n  %1:\n    env: [a, b]\n").arg(kit()).toUtf8());
        file.close();
        QString error;
        QVERIFY(KitSettings::shares(kit(), &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("env a map of NAME: VALUE")), qPrintable(error));
    }

private:
    QString kit() const { return m_root.filePath(QStringLiteral("kits/strict")); }
    QTemporaryDir m_root;
};

QTEST_GUILESS_MAIN(TestKitSettings)
#include "tst_kit_settings.moc"

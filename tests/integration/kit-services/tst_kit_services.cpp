// SPDX-License-Identifier: GPL-3.0-or-later
// Companion services a kit's sandboxes get on this computer, as the person who wants a database
// beside every agent of a kit: the real paddock and paddockd, bubblewrap, an ordinary user.
#include "Needs.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include <QJsonArray>
#include <QJsonDocument>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestKitServices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aNewSandboxOfTheKitGetsTheKitsService();
    void aWrongEntryIsRefusedWithTheReason();
    void removingItLeavesNewSandboxesWithout();

private:
    Finished service(const QStringList &arguments)
    {
        return m_fixture->paddock(QStringList{QStringLiteral("service")} << arguments);
    }
    /** The services `paddock service ls SANDBOX --json` lists. */
    QJsonArray servicesOf(const QString &sandbox)
    {
        const Finished listed = service({QStringLiteral("ls"), sandbox, QStringLiteral("--json")});
        return QJsonDocument::fromJson(listed.out.toUtf8()).array();
    }
    QString settingsFile() const
    {
        return m_fixture->environment().value(QStringLiteral("XDG_CONFIG_HOME")) +
               QStringLiteral("/paddock/kit-settings.yaml");
    }

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestKitServices::initTestCase()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(), "bubblewrap");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestKitServices::aNewSandboxOfTheKitGetsTheKitsService()
{
    const QByteArray spec = paddock::test::readFile(m_fixture->kitDir() + QStringLiteral("/spec.yaml"));
    const Finished added =
        service({QStringLiteral("add"), QStringLiteral("--kit"), m_fixture->kitDir(), QStringLiteral("db"),
                 QStringLiteral("--image"), QStringLiteral("postgres:15"), QStringLiteral("--port"),
                 QStringLiteral("5432"), QStringLiteral("--env"), QStringLiteral("POSTGRES_DB=dev")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QVERIFY2(added.out.contains(QStringLiteral("gets service db")), qPrintable(added.out));
    // Kept in Paddock's own settings; the kit stays as it was, byte for byte.
    QCOMPARE(paddock::test::readFile(m_fixture->kitDir() + QStringLiteral("/spec.yaml")), spec);
    const QByteArray settings = paddock::test::readFile(settingsFile());
    QVERIFY2(settings.contains("services:") && settings.contains("postgres:15"), settings.constData());
    const Finished kitList = service({QStringLiteral("ls"), QStringLiteral("--kit"), m_fixture->kitDir()});
    QVERIFY2(kitList.out.contains(QStringLiteral("db")) && kitList.out.contains(QStringLiteral("5432")),
             qPrintable(kitList.out + kitList.err));

    const Finished created =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QStringLiteral("with-db"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.err));
    const QJsonArray services = servicesOf(QStringLiteral("with-db"));
    QCOMPARE(services.size(), 1);
    const QJsonObject db = services.first().toObject();
    QCOMPARE(db.value(QLatin1String("name")).toString(), QStringLiteral("db"));
    QCOMPARE(db.value(QLatin1String("image")).toString(), QStringLiteral("postgres:15"));
    QCOMPARE(db.value(QLatin1String("ports")).toArray(), QJsonArray{5432});
    QCOMPARE(db.value(QLatin1String("env")).toObject().value(QLatin1String("POSTGRES_DB")).toString(),
             QStringLiteral("dev"));
}

void TestKitServices::aWrongEntryIsRefusedWithTheReason()
{
    const QByteArray before = paddock::test::readFile(settingsFile());
    const Finished refused = service({QStringLiteral("add"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                      QStringLiteral("Bad_Name"), QStringLiteral("--image"),
                                      QStringLiteral("postgres:15"), QStringLiteral("--port"), QStringLiteral("5432")});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains(QStringLiteral("lower-case letters")), qPrintable(refused.err));
    const Finished volume = service({QStringLiteral("add"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                     QStringLiteral("cache"), QStringLiteral("--image"), QStringLiteral("redis:7"),
                                     QStringLiteral("--volume"), QStringLiteral("relative/data")});
    QVERIFY(volume.exitCode != 0);
    QVERIFY2(volume.err.contains(QStringLiteral("absolute path")), qPrintable(volume.err));
    QCOMPARE(paddock::test::readFile(settingsFile()), before);
}

void TestKitServices::removingItLeavesNewSandboxesWithout()
{
    const Finished removed =
        service({QStringLiteral("rm"), QStringLiteral("--kit"), m_fixture->kitDir(), QStringLiteral("db")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    const Finished kitList = service({QStringLiteral("ls"), QStringLiteral("--kit"), m_fixture->kitDir()});
    QVERIFY2(kitList.out.contains(QStringLiteral("has no services")), qPrintable(kitList.out + kitList.err));
    const Finished created =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QStringLiteral("without-db"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.err));
    QCOMPARE(servicesOf(QStringLiteral("without-db")).size(), 0);
    // The sandbox made before keeps the service it was given.
    QCOMPARE(servicesOf(QStringLiteral("with-db")).size(), 1);
}

QTEST_GUILESS_MAIN(TestKitServices)
#include "tst_kit_services.moc"

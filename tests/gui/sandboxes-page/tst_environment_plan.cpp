// SPDX-License-Identifier: GPL-3.0-or-later
// The window's "Open environment…": an sbxenv.yaml's plan, and Bring up against a protocol
// server the test controls, so what the window asks the daemon for is seen. A command run on
// this computer runs only once ticked, and not when the file changed after it was shown.
#include "DaemonStatus.h"
#include "EnvironmentPlan.h"
#include "GuiTestSupport.h"

#include "api/Server.h"
#include "common/Paths.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

using namespace paddock;

class TestEnvironmentPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void thePlanShowsTheHostCommandVerbatim();
    void nothingRunsUntilTheCommandIsTicked();
    void aFileChangedAfterItWasShownRunsNothing();
    void aTickedCommandRunsAfterTheSandboxIsMade();

private:
    QString path(const QString &relative) const { return m_root.filePath(relative); }
    void writeEnvironment(const QString &command);
    gui::EnvironmentPlan *opened();

    QTemporaryDir m_root;
    api::Server m_server;
    QList<QJsonObject> m_created;
    QStringList m_started;
    gui::DaemonStatus *m_status = nullptr;
};

void TestEnvironmentPlan::initTestCase()
{
    guitest::isolateEnvironment();
    m_server.registerMethod(QStringLiteral("sandbox.create"), [this](const QJsonObject &params,
                                                                     const api::CallContext &) {
        m_created << params;
        return api::Reply::success(
            {{QStringLiteral("sandbox"), QJsonObject{{QStringLiteral("name"), params.value(QLatin1String("name"))}}}});
    });
    m_server.registerMethod(QStringLiteral("sandbox.start"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                m_started << params.value(QLatin1String("name")).toString();
                                return api::Reply::success({});
                            });
    QString error;
    QVERIFY2(m_server.listen(paths::daemonSocket(), &error), qPrintable(error));
    QVERIFY(QDir().mkpath(path(QStringLiteral("kit"))));
    QVERIFY(QDir().mkpath(path(QStringLiteral("project"))));
}

void TestEnvironmentPlan::init()
{
    m_created.clear();
    m_started.clear();
    QFile::remove(path(QStringLiteral("marker")));
    writeEnvironment(QStringLiteral("echo \"made $SBX_SANDBOX_NAME\" > %1").arg(path(QStringLiteral("marker"))));
    m_status = new gui::DaemonStatus(this);
    QTRY_VERIFY(m_status->connected());
}

void TestEnvironmentPlan::writeEnvironment(const QString &command)
{
    QFile file(path(QStringLiteral("project/sbxenv.yaml")));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QStringLiteral("schemaVersion: \"1\"\nname: webenv\nenv:\n  PGHOST: postgres\nlifecycle:\n"
                              "  postCreate:\n    - name: Mark\n      command: %1\nx-paddock:\n  kit: %2\n")
                   .arg(command, path(QStringLiteral("kit")))
                   .toUtf8());
}

gui::EnvironmentPlan *TestEnvironmentPlan::opened()
{
    auto *plan = new gui::EnvironmentPlan(this);
    plan->setDaemon(m_status);
    const bool read = plan->open(QUrl::fromLocalFile(path(QStringLiteral("project/sbxenv.yaml"))).toString());
    if (!read)
        qWarning("%s", qPrintable(plan->error()));
    return plan;
}

void TestEnvironmentPlan::thePlanShowsTheHostCommandVerbatim()
{
    gui::EnvironmentPlan *plan = opened();
    QVERIFY(plan->ok());
    const QString command = QStringLiteral("echo \"made $SBX_SANDBOX_NAME\" > %1").arg(path(QStringLiteral("marker")));
    QVERIFY2(plan->planText().contains(command + QLatin1Char('\n')), qPrintable(plan->planText()));
    QVERIFY2(plan->planText().contains(QStringLiteral("PGHOST=postgres")), qPrintable(plan->planText()));
    QCOMPARE(plan->hostCommands().size(), 1);
    const QVariantMap row = plan->hostCommands().first().toMap();
    QCOMPARE(row.value(QStringLiteral("command")).toString(), command);
    QCOMPARE(row.value(QStringLiteral("approved")).toBool(), false);
}

void TestEnvironmentPlan::nothingRunsUntilTheCommandIsTicked()
{
    gui::EnvironmentPlan *plan = opened();
    plan->bringUp({});
    QVERIFY2(plan->error().contains(QStringLiteral("Tick each command")), qPrintable(plan->error()));
    QTest::qWait(200);
    QVERIFY(m_created.isEmpty());
    QVERIFY(!QFile::exists(path(QStringLiteral("marker"))));
}

void TestEnvironmentPlan::aFileChangedAfterItWasShownRunsNothing()
{
    gui::EnvironmentPlan *plan = opened();
    writeEnvironment(QStringLiteral("touch %1").arg(path(QStringLiteral("marker"))));
    plan->bringUp({0});
    QVERIFY2(plan->error().contains(QStringLiteral("changed since it was shown")), qPrintable(plan->error()));
    QTest::qWait(200);
    QVERIFY(m_created.isEmpty());
    QVERIFY(!QFile::exists(path(QStringLiteral("marker"))));
}

void TestEnvironmentPlan::aTickedCommandRunsAfterTheSandboxIsMade()
{
    gui::EnvironmentPlan *plan = opened();
    QSignalSpy up(plan, &gui::EnvironmentPlan::broughtUp);
    plan->bringUp({0});
    QVERIFY2(up.wait(10000), qPrintable(plan->error()));
    QCOMPARE(m_created.size(), 1);
    const QJsonObject params = m_created.first();
    QCOMPARE(params.value(QLatin1String("name")).toString(), QStringLiteral("webenv"));
    QCOMPARE(params.value(QLatin1String("kit")).toString(), path(QStringLiteral("kit")));
    QCOMPARE(params.value(QLatin1String("env")).toObject().value(QLatin1String("PGHOST")).toString(),
             QStringLiteral("postgres"));
    QCOMPARE(m_started, QStringList{QStringLiteral("webenv")});
    QFile marker(path(QStringLiteral("marker")));
    QVERIFY(marker.open(QIODevice::ReadOnly));
    QCOMPARE(marker.readAll(), QByteArray("made webenv\n"));
    // Approved now: a second opening shows it so, with the same text.
    QVERIFY(opened()->hostCommands().first().toMap().value(QStringLiteral("approved")).toBool());
}

QTEST_MAIN(TestEnvironmentPlan)
#include "tst_environment_plan.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The Agent permissions pane as a person uses it, with the real daemon behind it: a kit's
// rules in order, a rule added through the form (one line of the file changes, its comments
// stay), a schema problem shown at its rule, and the tester naming the deciding rule.
#include "GuiTestSupport.h"

#include "agentperms/AgentConfig.h"

#include <QProcess>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QByteArray kRules = R"({
  // the course
  "permission": {
    "*": "allow",
    "path": {
      "*.env": "deny"
    },
    "bash": {
      "*": "ask",
      "rm -rf *": "deny"
    }
  }
}
)";

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

} // namespace

class TestAgentPermsPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        isolateEnvironment();
        qputenv("PADDOCKD", PADDOCKD_BIN);
        qputenv("PADDOCK_INIT", PADDOCK_INIT_BIN);
        WarningRecorder::install();
        gui::setUpApplication(*qGuiApp);
        gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
        m_kit = m_dir.filePath(QStringLiteral("kit"));
        QVERIFY(writeAll(m_kit + QStringLiteral("/spec.yaml"),
                         "schemaVersion: \"2\"\nkind: sandbox\nname: course\nsandbox:\n  image: debian:12\n"));
        QVERIFY(writeAll(file(), kRules));

        m_engine = new QQmlApplicationEngine(this);
        gui::prepareEngine(*m_engine);
        m_engine->loadData(
            QStringLiteral(
                "import QtQuick\nimport QtQuick.Controls\nimport Paddock\n"
                "ApplicationWindow { width: 1000; height: 900; visible: true\n"
                "  ScrollView { anchors.fill: parent\n"
                "    AgentPermissionsPane { width: 960\n"
                "      perms: AgentPerms { objectName: \"perms\"; daemon: DaemonStatus; kit: \"%1\" } } } }\n")
                .arg(m_kit)
                .toUtf8());
        QCOMPARE(m_engine->rootObjects().size(), 1);
        m_window = qobject_cast<QQuickWindow *>(m_engine->rootObjects().constFirst());
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        m_perms = m_window->findChild<QObject *>(QStringLiteral("perms"));
        QVERIFY(m_perms);
        QTRY_VERIFY_WITH_TIMEOUT(m_perms->property("rules").toList().size() == 4, 20000);
    }

    void showsTheRulesInOrder()
    {
        const QVariantList rules = m_perms->property("rules").toList();
        QCOMPARE(rules.at(0).toMap().value(QStringLiteral("surface")).toString(), QStringLiteral("*"));
        QCOMPARE(rules.at(2).toMap().value(QStringLiteral("pattern")).toString(), QStringLiteral("*"));
        QCOMPARE(rules.at(3).toMap().value(QStringLiteral("pattern")).toString(), QStringLiteral("rm -rf *"));
        QCOMPARE(rules.at(3).toMap().value(QStringLiteral("state")).toString(), QStringLiteral("deny"));
        QCOMPARE(m_perms->property("schemaVersion").toString(), QStringLiteral("20.7.3"));
    }

    void addingARuleChangesOneLine()
    {
        auto *surface = qobject_cast<QQuickItem *>(item(QStringLiteral("agentNewSurface")));
        QVERIFY(surface);
        surface->setProperty("editText", QStringLiteral("bash"));
        auto *pattern = qobject_cast<QQuickItem *>(item(QStringLiteral("agentNewPattern")));
        pattern->setProperty("text", QStringLiteral("git status"));
        QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier,
                          centreOf(qobject_cast<QQuickItem *>(item(QStringLiteral("agentAddRule")))));
        QTRY_VERIFY_WITH_TIMEOUT(m_perms->property("rules").toList().size() == 5, 10000);
        const QByteArray after = readAll(file());
        QVERIFY2(after.contains("      \"rm -rf *\": \"deny\",\n      \"git status\": \"allow\"\n"), after.constData());
        QVERIFY(after.contains("// the course"));
    }

    void aSchemaProblemIsShownAtItsRule()
    {
        QByteArray broken = readAll(file());
        broken.replace("\"*.env\": \"deny\"", "\"*.env\": \"never\"");
        QVERIFY(writeAll(file(), broken));
        QMetaObject::invokeMethod(m_perms, "reload");
        QTRY_VERIFY_WITH_TIMEOUT(!problemOf(QStringLiteral("*.env")).isEmpty(), 10000);
        QVERIFY2(problemOf(QStringLiteral("*.env")).contains(QLatin1String("not a state")),
                 qPrintable(problemOf(QStringLiteral("*.env"))));
        QVERIFY(writeAll(file(), kRules));
        QMetaObject::invokeMethod(m_perms, "reload");
        QTRY_VERIFY_WITH_TIMEOUT(m_perms->property("rules").toList().size() == 4, 10000);
    }

    void theTesterNamesTheRule()
    {
        QMetaObject::invokeMethod(m_perms, "test", Q_ARG(QString, QStringLiteral("bash: rm -rf game")));
        QTRY_VERIFY_WITH_TIMEOUT(m_perms->property("testResult").toMap().contains(QStringLiteral("state")), 10000);
        const QVariantMap result = m_perms->property("testResult").toMap();
        QCOMPARE(result.value(QStringLiteral("state")).toString(), QStringLiteral("deny"));
        auto *label = qobject_cast<QQuickItem *>(item(QStringLiteral("agentTestResult")));
        QTRY_VERIFY(label->property("text").toString().contains(QLatin1String("bash \"rm -rf *\"")));
        const QImage image = m_window->grabWindow();
        const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en");
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(image.save(dir + QStringLiteral("/agent-permissions.png")));
    }

    void cleanupTestCase()
    {
        delete m_engine;
        QProcess stop;
        stop.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("daemon"), QStringLiteral("stop")});
        stop.waitForFinished(10000);
        WarningRecorder::clear();
    }

private:
    QString file() const { return m_kit + QLatin1Char('/') + agentperms::kitConfigRelativePath(); }
    QObject *item(const QString &name) const { return m_window->findChild<QObject *>(name); }
    QString problemOf(const QString &pattern) const
    {
        for (const QVariant &rule : m_perms->property("rules").toList()) {
            if (rule.toMap().value(QStringLiteral("pattern")).toString() == pattern)
                return rule.toMap().value(QStringLiteral("problem")).toString();
        }
        return {};
    }

    QTemporaryDir m_dir;
    QString m_kit;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
    QObject *m_perms = nullptr;
};

QTEST_MAIN(TestAgentPermsPane)
#include "tst_agent_perms_pane.moc"

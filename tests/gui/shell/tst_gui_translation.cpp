// SPDX-License-Identifier: GPL-3.0-or-later
// Runs with a French system locale (LANGUAGE, LANG and LC_ALL set by ctest): the window
// comes up in French, and switching the locale switches the language.
#include "GuiTestSupport.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestGuiTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void systemLocaleGivesFrench();
    void spanishLocaleGivesSpanish();
    void unknownLocaleFallsBackToEnglish();

private:
    QString text(const QString &objectName)
    {
        QQuickItem *item = findItem(m_window, objectName);
        return item ? item->property("text").toString() : QString();
    }
    QString pageTitle(const QString &key)
    {
        QQuickItem *page = openPage(m_window, key);
        QQuickItem *title = page ? findItem(page, QStringLiteral("pageTitle")) : nullptr;
        return title ? title->property("text").toString() : QString();
    }

    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestGuiTranslation::initTestCase()
{
    isolateEnvironment();
    WarningRecorder::install();
    gui::setUpApplication(*qGuiApp);
    // What main() does: the system locale, from the environment.
    QVERIFY(QLocale().uiLanguages().constFirst().startsWith(QLatin1String("fr")));
    QVERIFY(gui::installTranslations(*qApp));
    m_engine = new QQmlApplicationEngine(this);
    m_window = loadMainWindow(*m_engine);
    QVERIFY(m_window);
}

void TestGuiTranslation::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiTranslation::systemLocaleGivesFrench()
{
    QCOMPARE(text(QStringLiteral("nav_sandboxes")), QStringLiteral("Bacs à sable"));
    QCOMPARE(text(QStringLiteral("nav_network")), QStringLiteral("Réseau"));
    QCOMPARE(pageTitle(QStringLiteral("classroom")), QStringLiteral("Classe"));
    QTRY_COMPARE(text(QStringLiteral("daemonStatusText")), QStringLiteral("Service non connecté"));
    QCOMPARE(text(QStringLiteral("daemonRetryButton")), QStringLiteral("Vérifier à nouveau"));
    // Commands are never translated: they are what the user types.
    QQuickItem *kits = openPage(m_window, QStringLiteral("kits"));
    QVERIFY(kits);
    QQuickItem *command = findItem(kits, QStringLiteral("commandText"));
    QVERIFY(command);
    QCOMPARE(command->property("text").toString(), QStringLiteral("paddock kit validate DIR"));
    QCOMPARE(m_window->title(), QStringLiteral("Paddock"));
}

void TestGuiTranslation::spanishLocaleGivesSpanish()
{
    QVERIFY(gui::installTranslations(*qApp, QLocale(QLocale::Spanish, QLocale::Spain)));
    m_engine->retranslate();
    QCOMPARE(text(QStringLiteral("nav_network")), QStringLiteral("Red"));
    QCOMPARE(pageTitle(QStringLiteral("secrets")), QStringLiteral("Secretos"));
    QTRY_COMPARE(text(QStringLiteral("daemonStatusText")), QStringLiteral("Servicio no conectado"));
}

void TestGuiTranslation::unknownLocaleFallsBackToEnglish()
{
    QVERIFY(!gui::installTranslations(*qApp, QLocale(QLocale::Japanese, QLocale::Japan)));
    m_engine->retranslate();
    QCOMPARE(text(QStringLiteral("nav_network")), QStringLiteral("Network"));
    QCOMPARE(pageTitle(QStringLiteral("classroom")), QStringLiteral("Classroom"));
    // English's plural forms, not the source's "(s)": also in a bare session's C locale.
    QCOMPARE(QCoreApplication::translate("AskPrompt", "%n connection(s)", "", 2), QStringLiteral("2 connections"));
    QVERIFY(!gui::installTranslations(*qApp, QLocale::c()));
    QCOMPARE(QCoreApplication::translate("AskPrompt", "%n connection(s)", "", 1), QStringLiteral("1 connection"));
}

QTEST_MAIN(TestGuiTranslation)
#include "tst_gui_translation.moc"

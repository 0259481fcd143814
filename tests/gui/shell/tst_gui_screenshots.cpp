// SPDX-License-Identifier: GPL-3.0-or-later
// Grabs every page in English and French to PADDOCK_SCREENSHOT_DIR/<lang>/<page>.png, for
// people to look at, and checks that each image shows something.
#include "GuiTestSupport.h"

#include <QDir>
#include <QImage>
#include <QPalette>
#include <QSet>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestGuiScreenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void grabEveryPage_data();
    void grabEveryPage();
    void languagesLookDifferent();
    void followsDarkPalette();

private:
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;

    /** The window showing page @p index in @p language, grabbed. */
    QImage grabPage(const QString &language, int index)
    {
        gui::installTranslations(*qApp, QLocale(language));
        m_engine->retranslate();
        QTest::keyClick(m_window, Qt::Key(Qt::Key_1 + index), Qt::ControlModifier);
        return m_window->grabWindow();
    }
};

void TestGuiScreenshots::initTestCase()
{
    isolateEnvironment();
    WarningRecorder::install();
    m_window = openMainWindow(this, &m_engine);
    QVERIFY(m_window);
    // Wait for the daemon check so the status line is settled in every picture.
    QQuickItem *status = findItem(m_window, QStringLiteral("daemonStatusText"));
    QTRY_COMPARE(status->property("text").toString(), QStringLiteral("Daemon not connected"));
}

void TestGuiScreenshots::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiScreenshots::grabEveryPage_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("index");
    for (const QString &language : {QStringLiteral("en"), QStringLiteral("fr")}) {
        for (int i = 0; i < pageKeys().size(); ++i)
            QTest::addRow("%s/%s", qPrintable(language), qPrintable(pageKeys().at(i))) << language << i;
    }
}

void TestGuiScreenshots::grabEveryPage()
{
    QFETCH(QString, language);
    QFETCH(int, index);
    const QImage image = grabPage(language, index);
    QCOMPARE(m_window->property("currentIndex").toInt(), index);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());

    // Not one flat colour: a page with a header, an illustration and text has many.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 20, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));

    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/") + language;
    QVERIFY(QDir().mkpath(dir));
    const QString file = dir + QLatin1Char('/') + pageKeys().at(index) + QStringLiteral(".png");
    QVERIFY2(image.save(file), qPrintable(file));
    QVERIFY(QFileInfo(file).size() > 0);
}

void TestGuiScreenshots::languagesLookDifferent()
{
    // Every page in English, then every page in French, in the order grabEveryPage() takes them.
    QList<QImage> english;
    for (int i = 0; i < pageKeys().size(); ++i)
        english << grabPage(QStringLiteral("en"), i);
    for (int i = 0; i < pageKeys().size(); ++i) {
        QVERIFY(!english.at(i).isNull());
        QVERIFY2(english.at(i) != grabPage(QStringLiteral("fr"), i), qPrintable(pageKeys().at(i)));
    }
}

void TestGuiScreenshots::followsDarkPalette()
{
    // What a dark desktop theme hands the application.
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2a, 0x2d, 0x32));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x20, 0x24));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x29, 0x2e));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Button, QColor(0x35, 0x39, 0x3f));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Highlight, QColor(0x4a, 0x9e, 0xe8));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    const QPalette previous = QGuiApplication::palette();
    QGuiApplication::setPalette(dark);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
    m_engine->retranslate();
    QTest::keyClick(m_window, Qt::Key_2, Qt::ControlModifier);

    const QImage image = m_window->grabWindow();
    QGuiApplication::setPalette(previous);
    QVERIFY(!image.isNull());
    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/dark");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(image.save(dir + QStringLiteral("/kits.png")));

    // The page background and the navigation rail are dark, the title is light.
    QQuickItem *title = findItem(findItem(m_window, QStringLiteral("page_kits")), QStringLiteral("pageTitle"));
    QVERIFY(title);
    const qreal dpr = m_window->devicePixelRatio();
    QVERIFY2(qGray(image.pixel(image.width() - 20, image.height() / 2)) < 80, "page background is not dark");
    QVERIFY2(qGray(image.pixel(10, int(image.height() * 0.75))) < 80, "navigation rail is not dark");
    int lightPixels = 0;
    const QRectF titleRect = title->mapRectToScene(QRectF(0, 0, title->width(), title->height()));
    for (int y = int(titleRect.top() * dpr); y < int(titleRect.bottom() * dpr); ++y) {
        for (int x = int(titleRect.left() * dpr); x < int(titleRect.right() * dpr); ++x)
            lightPixels += qGray(image.pixel(x, y)) > 180 ? 1 : 0;
    }
    QVERIFY2(lightPixels > 50, "the title is not drawn in a light colour");
}

QTEST_MAIN(TestGuiScreenshots)
#include "tst_gui_screenshots.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Application.h"
#include "AccessibleControls.h"

#include "paddock/Version.h"

#include <QGuiApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLoggingCategory>
#include <QQmlApplicationEngine>
#include <QQmlEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
#include <QTranslator>

#include <memory>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Quiet unless asked for (QT_LOGGING_RULES): a window has no business printing chatter.
Q_LOGGING_CATEGORY(lcApplication, "paddock.gui.application", QtWarningMsg)

namespace paddock::gui {
namespace {
constexpr auto kPaddockTranslator = "paddock-translator";
constexpr auto kQtTranslator = "paddock-qt-translator";

void removeTranslator(QCoreApplication &app, const char *objectName)
{
    const auto translators = app.findChildren<QTranslator *>(QLatin1String(objectName), Qt::FindDirectChildrenOnly);
    for (QTranslator *translator : translators) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
}

bool addTranslator(QCoreApplication &app, const char *objectName, const QLocale &locale, const QString &name,
                   const QString &directory)
{
    auto *translator = new QTranslator(&app);
    translator->setObjectName(QLatin1String(objectName));
    if (!translator->load(locale, name, QStringLiteral("_"), directory)) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    return true;
}
} // namespace

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

QString noDisplayMessage()
{
    return QStringLiteral("paddock: there is no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
                          "not set); use the command line instead, for example `paddock --help` or "
                          "`paddock kit validate DIR`.");
}

void setUpApplication(QGuiApplication &app)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Paddock"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("paddock.dev"));
    QCoreApplication::setApplicationName(QStringLiteral("paddock"));
    QCoreApplication::setApplicationVersion(QLatin1String(kVersion));
    QGuiApplication::setApplicationDisplayName(QLatin1String(kProductName));
    // Lets the desktop match windows to paddock.desktop (icon in the dock, grouping).
    QGuiApplication::setDesktopFileName(QStringLiteral("paddock"));

    // Raster sizes of resources/icons/paddock.svg: Qt reads SVG only with an extra plugin.
    QIcon icon;
    for (int size : {32, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/paddock-%1.png").arg(size), QSize(size, size));
    app.setWindowIcon(icon);

    // Qt Quick sizes its texture atlas for small images to the window rounded up to powers of
    // two (2048x1024 RGBA, 8 MiB, for the 1100x720 window) as soon as one image is shown; the
    // window's few icons fit in 512x512 (1 MiB). Larger images get textures of their own, as
    // before. The user's setting still wins.
    if (qEnvironmentVariableIsEmpty("QSG_ATLAS_WIDTH") && qEnvironmentVariableIsEmpty("QSG_ATLAS_HEIGHT")) {
        qputenv("QSG_ATLAS_WIDTH", "512");
        qputenv("QSG_ATLAS_HEIGHT", "512");
    }

    // Fusion draws with the palette, so it follows the desktop's light or dark colours
    // and renders the same on X11, Wayland and offscreen. The user's choice still wins.
    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(QStringLiteral("Fusion"));

    // Screen readers see a disabled button as disabled and can press every button.
    installAccessibleControls();
}

bool installTranslations(QCoreApplication &app, const QLocale &locale)
{
    removeTranslator(app, kPaddockTranslator);
    removeTranslator(app, kQtTranslator);
    const bool found =
        addTranslator(app, kPaddockTranslator, locale, QStringLiteral("paddock"), QStringLiteral(":/i18n"));
    // No translation for the locale (or the C locale of a bare session): English, whose file
    // holds the plural forms ("1 connection", "2 connections") the source strings only hint at.
    if (!found)
        addTranslator(app, kPaddockTranslator, QLocale(QLocale::English), QStringLiteral("paddock"),
                      QStringLiteral(":/i18n"));
    // Qt's own strings (context menus of text fields) when the distribution ships them.
    addTranslator(app, kQtTranslator, locale, QStringLiteral("qtbase"),
                  QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    qCDebug(lcApplication) << "interface languages" << locale.uiLanguages() << "translation found:" << found;
    return found;
}

void prepareEngine(QQmlEngine &engine)
{
    // The module's qmldir sits at qrc:/Paddock/qmldir; `import Paddock` looks there.
    engine.addImportPath(QStringLiteral("qrc:/"));
}

void openBundleAtStart(QQmlApplicationEngine &engine, const QString &file)
{
    // Main.qml's bundleToOpen, set before its Component.onCompleted runs.
    engine.setInitialProperties({{QStringLiteral("bundleToOpen"), QUrl::fromLocalFile(file)}});
}

void releaseStartupMemory(QQmlApplicationEngine &engine)
{
    const QList<QObject *> roots = engine.rootObjects();
    auto *window = roots.isEmpty() ? nullptr : qobject_cast<QQuickWindow *>(roots.constFirst());
    if (!window)
        return;
    // What the first page asks of the daemon has come back by then (or the page says why not).
    constexpr int kSettleMs = 3000;
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = QObject::connect(window, &QQuickWindow::frameSwapped, &engine, [once, &engine] {
        QObject::disconnect(*once);
        QTimer::singleShot(kSettleMs, &engine, [&engine] {
            engine.trimComponentCache();
            engine.collectGarbage();
#if defined(__GLIBC__)
            malloc_trim(0);
#endif
        });
    });
}

QUrl mainQmlUrl()
{
    return QUrl(QStringLiteral("qrc:/Paddock/Main.qml"));
}

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the GUI tests share: a private environment, the window loaded the way main() loads
// it, a record of every warning, and lookups of items by objectName.

#include "../../support/IsolatedHome.h"

#include "Application.h"

#include <QAccessible>
#include <QDir>
#include <QGuiApplication>
#include <QMutex>
#include <QMutexLocker>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QSet>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QtQml/qqmlextensionplugin.h>

#include <functional>

namespace paddock::guitest {

/**
 * @brief Records every warning, critical and fatal message of the process.
 *
 * Qt 6.4 has no QTest::failOnWarning, so tests compare messages() against an empty list.
 */
class WarningRecorder
{
public:
    static void install() { previousHandler() = qInstallMessageHandler(&WarningRecorder::handle); }
    static QStringList messages()
    {
        QMutexLocker lock(&mutex());
        return store();
    }
    static void clear()
    {
        QMutexLocker lock(&mutex());
        store().clear();
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        if (type != QtDebugMsg && type != QtInfoMsg && !isPlatformNoise(message)) {
            QMutexLocker lock(&mutex());
            store().append(message);
        }
        if (previousHandler())
            previousHandler()(type, context, message);
    }
    // The offscreen platform plugin says it cannot do what a window manager would do;
    // that is about the test platform, not about Paddock's QML.
    static bool isPlatformNoise(const QString &message)
    {
        return message.startsWith(QLatin1String("This plugin does not support"));
    }
    static QtMessageHandler &previousHandler()
    {
        static QtMessageHandler handler = nullptr;
        return handler;
    }
    static QStringList &store()
    {
        static QStringList list;
        return list;
    }
    static QMutex &mutex()
    {
        static QMutex m;
        return m;
    }
};

/** Points the XDG directories at a temporary directory for the life of the process. */
inline QString isolateEnvironment()
{
    static QTemporaryDir home;
    test::useXdgOf(test::isolatedEnvironment(home.path()));
    return home.path();
}

/** Every object under @p root, through both the QObject tree and the visual item tree. */
inline QList<QObject *> allObjects(QObject *root)
{
    QList<QObject *> result;
    QSet<QObject *> seen;
    std::function<void(QObject *)> visit = [&](QObject *object) {
        if (!object || seen.contains(object))
            return;
        seen.insert(object);
        result.append(object);
        for (QObject *child : object->children())
            visit(child);
        if (auto *item = qobject_cast<QQuickItem *>(object)) {
            for (QQuickItem *child : item->childItems())
                visit(child);
        }
    };
    visit(root);
    if (auto *window = qobject_cast<QQuickWindow *>(root))
        visit(window->contentItem());
    return result;
}

inline QQuickItem *findItem(QObject *root, const QString &objectName)
{
    for (QObject *object : allObjects(root)) {
        if (object->objectName() == objectName)
            if (auto *item = qobject_cast<QQuickItem *>(object))
                return item;
    }
    return nullptr;
}

inline QList<QQuickItem *> findItems(QObject *root, const QString &objectName)
{
    QList<QQuickItem *> items;
    for (QObject *object : allObjects(root)) {
        if (object->objectName() == objectName)
            if (auto *item = qobject_cast<QQuickItem *>(object))
                items.append(item);
    }
    return items;
}

/** The first object named @p objectName under @p root: a Popup (a dialog) is not an item. */
inline QObject *findObject(QObject *root, const QString &objectName)
{
    for (QObject *object : allObjects(root)) {
        if (object->objectName() == objectName)
            return object;
    }
    return nullptr;
}

/**
 * The dialog named @p objectName once it is open; nullptr when it does not open within
 * @p timeoutMs. A dialog is made the first time it opens: look it up after opening it.
 */
inline QObject *openedDialog(QObject *root, const QString &objectName, int timeoutMs = 5000)
{
    QObject *dialog = nullptr;
    const bool opened = QTest::qWaitFor(
        [&] {
            dialog = findObject(root, objectName);
            return dialog && dialog->property("opened").toBool();
        },
        timeoutMs);
    return opened ? dialog : nullptr;
}

/** True when @p item and all its ancestors are visible. */
inline bool isShown(const QQuickItem *item)
{
    return item && item->isVisible() && item->window();
}

/** What a screen reader announces for @p item. */
inline QString accessibleName(QQuickItem *item)
{
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(item);
    return iface ? iface->text(QAccessible::Name) : QString();
}

inline QAccessible::Role accessibleRole(QQuickItem *item)
{
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(item);
    return iface ? iface->role() : QAccessible::NoRole;
}

/** The page keys in navigation order, as used in objectNames ("page_kits", "nav_kits"). */
inline const QStringList &pageKeys()
{
    static const QStringList keys{QStringLiteral("sandboxes"), QStringLiteral("kits"), QStringLiteral("network"),
                                  QStringLiteral("secrets"), QStringLiteral("classroom")};
    return keys;
}

/** Loads Main.qml as main() does and returns its window, exposed. */
inline QQuickWindow *loadMainWindow(QQmlApplicationEngine &engine)
{
    gui::prepareEngine(engine);
    engine.load(gui::mainQmlUrl());
    if (engine.rootObjects().size() != 1)
        return nullptr;
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (window && !QTest::qWaitForWindowExposed(window))
        return nullptr;
    return window;
}

/**
 * Sets the application up as main() does (in English), loads Main.qml with a new engine owned
 * by @p parent (in @p engine) and returns its window, exposed; nullptr when it is not.
 */
inline QQuickWindow *openMainWindow(QObject *parent, QQmlApplicationEngine **engine)
{
    gui::setUpApplication(*qGuiApp);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
    *engine = new QQmlApplicationEngine(parent);
    return loadMainWindow(**engine);
}

/** openMainWindow(), and the window shown and active; nullptr when it is not. */
inline QQuickWindow *showMainWindow(QObject *parent, QQmlApplicationEngine **engine)
{
    QQuickWindow *window = openMainWindow(parent, engine);
    if (!window)
        return nullptr;
    window->requestActivate();
    return QTest::qWaitForWindowActive(window) ? window : nullptr;
}

/**
 * One page component (@p page, e.g. "KitsPage") alone in an ApplicationWindow of @p width by
 * @p height, loaded with @p engine prepared as main() does; the window shown and active, or
 * nullptr when it is not.
 */
inline QQuickWindow *showPageWindow(QQmlApplicationEngine &engine, const char *page, int width, int height)
{
    gui::prepareEngine(engine);
    engine.loadData(QStringLiteral("import QtQuick\nimport QtQuick.Controls\nimport Paddock\n"
                                   "ApplicationWindow { width: %1; height: %2; visible: true\n"
                                   "  %3 { anchors.fill: parent } }\n")
                        .arg(width)
                        .arg(height)
                        .arg(QLatin1String(page))
                        .toUtf8());
    if (engine.rootObjects().size() != 1)
        return nullptr;
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
    if (!window || !QTest::qWaitForWindowExposed(window))
        return nullptr;
    window->requestActivate();
    return QTest::qWaitForWindowActive(window) ? window : nullptr;
}

/** Goes to the Network page (Ctrl+3) and waits until it talks to the daemon; false when it never does. */
inline bool openNetworkPage(QQuickWindow *window)
{
    QTest::keyClick(window, Qt::Key_3, Qt::ControlModifier);
    return QTest::qWaitFor([window] { return isShown(findItem(window, QStringLiteral("page_network"))); }, 5000) &&
           QTest::qWaitFor([window] { return !isShown(findItem(window, QStringLiteral("networkNotConnected"))); },
                           15000);
}

/**
 * The warnings recorded since the last call, as the message of a failed test, and forgets
 * them; empty when there were none. Any warning from QML (a failed binding, an unknown
 * property) fails the test that caused it.
 */
inline QByteArray takeWarnings()
{
    const QStringList warnings = WarningRecorder::messages();
    WarningRecorder::clear();
    return warnings.isEmpty() ? QByteArray()
                              : (QStringLiteral("warnings:\n") + warnings.join(QLatin1Char('\n'))).toUtf8();
}

/** The centre of @p item in window coordinates, for mouse clicks. */
inline QPoint centreOf(QQuickItem *item)
{
    return item->mapToScene(QPointF(item->width() / 2, item->height() / 2)).toPoint();
}

/**
 * Opens the page @p key ("kits") by clicking its navigation button, as a user does, and returns
 * it once shown; nullptr when it never shows. A page is made on its first visit.
 */
inline QQuickItem *openPage(QQuickWindow *window, const QString &key)
{
    QQuickItem *page = nullptr;
    // Clicks again until the page shows: after a retranslation the buttons are made anew, and
    // where they are is known only once the rail is laid out again.
    const bool shown = QTest::qWaitFor(
        [&] {
            page = findItem(window, QStringLiteral("page_") + key);
            if (isShown(page))
                return true;
            for (QQuickItem *button : findItems(window, QStringLiteral("nav_") + key)) {
                if (isShown(button))
                    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, centreOf(button));
            }
            return false;
        },
        5000);
    return shown ? page : nullptr;
}

} // namespace paddock::guitest

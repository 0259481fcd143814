// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLocale>
#include <QString>
#include <QUrl>

class QCoreApplication;
class QGuiApplication;
class QQmlApplicationEngine;
class QQmlEngine;

/**
 * @brief What the `paddock` window needs before its QML loads, shared by main() and the
 * GUI tests so both start the window the same way.
 */
namespace paddock::gui {

/** True when a window can open: DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM is set. */
bool hasDisplay();

/** The sentence printed when there is no display, pointing at the command line. */
QString noDisplayMessage();

/**
 * Names (for settings paths), version, window icon, the Qt Quick Controls style and what screen
 * readers see of its buttons (AccessibleControls.h).
 */
void setUpApplication(QGuiApplication &app);

/**
 * Replaces the interface translation with the one for @p locale (its uiLanguages(), so
 * `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` decide for the system locale). English is
 * the source language, and its translation (plural forms) is used when the locale has none.
 * Returns true when a Paddock translation for @p locale was found.
 */
bool installTranslations(QCoreApplication &app, const QLocale &locale = QLocale());

/** Import paths for the Paddock module compiled into the program. */
void prepareEngine(QQmlEngine &engine);

/**
 * Has the window, once @p engine loads it, show the Classroom page with the preview of the
 * bundle @p file (`paddock open FILE`): nothing is imported before Import is pressed, and a
 * file that is not a bundle shows why on the page.
 */
void openBundleAtStart(QQmlApplicationEngine &engine, const QString &file);

/**
 * Once the window @p engine loaded has shown its first frame and settled (a few seconds),
 * gives back what start-up left unused: the QML engine's cached components no object uses
 * and its garbage, then the C library's free heap pages (glibc keeps them after the QML
 * compilation and the renderer's shader builds, in the main heap and the render thread's).
 */
void releaseStartupMemory(QQmlApplicationEngine &engine);

/** The window: Main.qml of the Paddock module. */
QUrl mainQmlUrl();

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the Sandboxes and Secrets page tests share: the window with the real paddockd started
// on demand (private XDG directories and keyring), keyboard driving of controls wherever they
// are scrolled to, and direct calls to the daemon for setting up and checking.

#include "GuiTestSupport.h"
#include "TestFiles.h"

#include "api/DaemonConnection.h"
#include "common/Paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace paddock::guitest {

/** Focuses @p item and presses Space, as a keyboard user does: it works wherever the item is scrolled. */
inline bool press(QQuickWindow *window, QQuickItem *item)
{
    if (!item || !isShown(item) || !item->isEnabled())
        return false;
    item->forceActiveFocus(Qt::TabFocusReason);
    if (!item->hasActiveFocus())
        return false;
    QTest::keyClick(window, Qt::Key_Space);
    return true;
}

/** Focuses the text field @p item, replaces its text by typing @p text, as a user does. */
inline bool type(QQuickWindow *window, QQuickItem *item, const QString &text)
{
    if (!item || !isShown(item))
        return false;
    item->forceActiveFocus(Qt::TabFocusReason);
    if (!item->hasActiveFocus())
        return false;
    QTest::keyClick(window, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(window, Qt::Key_Delete);
    // QTest::keyClicks() takes a widget only; a window gets its characters one by one.
    for (const QChar c : text)
        QTest::keyClick(window, c.toLatin1());
    return true;
}

/** A call to the daemon on a connection of the test's own. */
inline api::Reply daemonCall(const QString &method, const QJsonObject &params = {}, int timeoutMs = 60000)
{
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(paths::daemonSocket(), 5000, &error))
        return api::Reply::failure(QStringLiteral("test"), error);
    return connection.call(method, params, timeoutMs);
}

/** Removes every sandbox and stops the daemon, so nothing outlives the test. */
inline void stopEverything()
{
    const api::Reply list = daemonCall(QStringLiteral("sandbox.list"));
    for (const QJsonValue &value : list.result().value(QLatin1String("sandboxes")).toArray())
        daemonCall(QStringLiteral("sandbox.remove"),
                   {{QStringLiteral("name"), value.toObject().value(QLatin1String("name")).toString()},
                    {QStringLiteral("force"), true}});
    daemonCall(QStringLiteral("shutdown"));
}

using test::filesContaining;
using test::writeFile;

/**
 * Makes $TERMINAL a stand-in terminal, the script @p script, that writes the command it was
 * asked to run to @p record, one argument a line: no window opens.
 */
inline bool useRecordingTerminal(const QString &script, const QString &record)
{
    const QString text =
        QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1.tmp' && mv '%1.tmp' '%1'\n").arg(record);
    if (!writeFile(script, text.toUtf8()))
        return false;
    QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("TERMINAL", QFile::encodeName(script));
    return true;
}

/**
 * The window's terminal launcher, once the daemon has answered (New sandbox is enabled), set to
 * run the paddock this build made: this test program is not paddock. nullptr when there is none.
 */
inline QObject *readyTerminalLauncher(QQuickWindow *window)
{
    const bool answered = QTest::qWaitFor(
        [window] {
            QQuickItem *button = findItem(window, QStringLiteral("newSandboxButton"));
            return button && button->isEnabled();
        },
        20000);
    QObject *launcher = answered ? findObject(window, QStringLiteral("terminalLauncher")) : nullptr;
    if (launcher)
        launcher->setProperty("paddockProgram", QStringLiteral(PADDOCK_BIN));
    return launcher;
}

/** The item called @p objectName in the content, header or footer of the popup @p popup. */
inline QQuickItem *findInPopup(QObject *popup, const QString &objectName)
{
    if (!popup)
        return nullptr;
    for (const char *part : {"contentItem", "footer", "header"}) {
        auto *root = popup->property(part).value<QQuickItem *>();
        if (root && root->objectName() == objectName)
            return root;
        if (QQuickItem *found = root ? findItem(root, objectName) : nullptr)
            return found;
    }
    return nullptr;
}

} // namespace paddock::guitest

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Driving the Network page as a person does: bring an item into view in its scrolling page,
// click it, type, press keys.

#include "../shell/GuiTestSupport.h"

#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>

namespace paddock::guitest {

/** Scrolls every Flickable around @p item so that it is in view. */
inline void scrollIntoView(QQuickItem *item)
{
    for (QQuickItem *parent = item->parentItem(); parent; parent = parent->parentItem()) {
        if (!parent->inherits("QQuickFlickable"))
            continue;
        auto *content = parent->property("contentItem").value<QQuickItem *>();
        if (!content)
            continue;
        const QPointF at = item->mapToItem(content, QPointF(0, 0));
        const qreal viewHeight = parent->height();
        const qreal contentHeight = parent->property("contentHeight").toReal();
        const qreal currentY = parent->property("contentY").toReal();
        if (at.y() >= currentY && at.y() + item->height() <= currentY + viewHeight)
            continue;
        const qreal wanted = std::clamp(at.y() - viewHeight / 3, 0.0, std::max(0.0, contentHeight - viewHeight));
        parent->setProperty("contentY", wanted);
    }
}

/** Clicks the middle of @p item after bringing it into view; false when it cannot be clicked. */
inline bool clickItem(QQuickWindow *window, QQuickItem *item)
{
    if (!item || !isShown(item) || !item->isEnabled())
        return false;
    scrollIntoView(item);
    QTest::qWait(0); // let the scrolled page lay out
    if (auto *w = item->window())
        w->update();
    QTest::mouseClick(window, Qt::LeftButton, {}, centreOf(item));
    return true;
}

/** Gives @p item the keyboard focus and types @p text into it. */
inline void typeInto(QQuickWindow *window, QQuickItem *item, const QString &text)
{
    scrollIntoView(item);
    item->forceActiveFocus();
    // QTest::keyClicks() takes a widget; a window gets its keys one by one.
    for (const QChar character : text)
        QTest::keyClick(window, character.toLatin1());
}

/** The shown item named @p objectName whose property @p property is @p value. */
inline QQuickItem *findItemWith(QObject *root, const QString &objectName, const char *property, const QVariant &value)
{
    for (QQuickItem *item : findItems(root, objectName)) {
        if (isShown(item) && item->parentItem() && item->property(property) == value)
            return item;
    }
    return nullptr;
}

/** The child of @p row named @p objectName (a button of a list row). */
inline QQuickItem *childOf(QQuickItem *row, const QString &objectName)
{
    return row ? findItem(row, objectName) : nullptr;
}

} // namespace paddock::guitest

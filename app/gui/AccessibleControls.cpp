// SPDX-License-Identifier: GPL-3.0-or-later
#include "AccessibleControls.h"

#include <QAccessible>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QPointer>
#include <QQuickItem>
#include <QtQuick/private/qaccessiblequickitem_p.h>
#include <QtQuick/private/qquickitem_p.h>

namespace paddock::gui {
namespace {

// Sends @p key (with @p text) to @p item as the keyboard would, pressed then released.
void sendKey(QQuickItem *item, int key, const QString &text = QString())
{
    QPointer<QQuickItem> target = item;
    QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &press);
    if (!target)
        return;
    QKeyEvent release(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QCoreApplication::sendEvent(target, &release);
}

// Qt Quick 6.4 leaves out whether an item is disabled (its own `enabled` or a parent's).
QAccessible::State withEnabledState(QAccessible::State state, const QQuickItem *item)
{
    if (!item->isEnabled()) {
        state.disabled = true;
        state.focusable = false;
    }
    return state;
}

// Qt Quick's own description of a button, with the enabled state and a Press that clicks.
class AccessibleButton : public QAccessibleQuickItem
{
public:
    explicit AccessibleButton(QQuickItem *button) : QAccessibleQuickItem(button) {}

    QAccessible::State state() const override { return withEnabledState(QAccessibleQuickItem::state(), item()); }

    QStringList actionNames() const override
    {
        QStringList names = QAccessibleQuickItem::actionNames();
        // Tab buttons and delegates are pressed like any button.
        if (!names.contains(pressAction()))
            names.prepend(pressAction());
        return names;
    }

    void doAction(const QString &actionName) override
    {
        const bool toggles = actionName == toggleAction() && item()->property("checkable").toBool();
        if (actionName != pressAction() && !toggles) {
            QAccessibleQuickItem::doAction(actionName);
            return;
        }
        if (!item()->isEnabled() || !item()->isVisible())
            return;
        // The Space key clicks a button as the mouse does: pressed, checked when checkable,
        // released, then clicked() or its Action. Delivered to the button itself, it needs no
        // keyboard focus and leaves focus where it was.
        sendKey(item(), Qt::Key_Space, QStringLiteral(" "));
    }
};

// Qt Quick's own description of a text field, with the enabled state and its text editable as
// typing edits it: the field's textEdited() follows, as it does for the keyboard.
class AccessibleTextField : public QAccessibleQuickItem, public QAccessibleEditableTextInterface
{
public:
    explicit AccessibleTextField(QQuickItem *field) : QAccessibleQuickItem(field) {}

    QAccessible::State state() const override { return withEnabledState(QAccessibleQuickItem::state(), item()); }

    void *interface_cast(QAccessible::InterfaceType type) override
    {
        if (type == QAccessible::EditableTextInterface)
            return static_cast<QAccessibleEditableTextInterface *>(this);
        return QAccessibleQuickItem::interface_cast(type);
    }

    void deleteText(int startOffset, int endOffset) override { replaceText(startOffset, endOffset, QString()); }
    void insertText(int offset, const QString &text) override { replaceText(offset, offset, text); }
    void replaceText(int startOffset, int endOffset, const QString &text) override
    {
        if (!editable())
            return;
        QMetaObject::invokeMethod(item(), "select", Q_ARG(int, startOffset), Q_ARG(int, endOffset));
        if (startOffset != endOffset)
            sendKey(item(), Qt::Key_Delete);
        // One line: a line break would end the field's editing (Return accepts it).
        const QString line = QString(text).remove(QLatin1Char('\n')).remove(QLatin1Char('\r'));
        if (!line.isEmpty() && item())
            sendKey(item(), Qt::Key_unknown, line);
    }

private:
    bool editable() const
    {
        return item()->isEnabled() && item()->isVisible() && !item()->property("readOnly").toBool();
    }
};

// Tells assistive technology when a control becomes enabled or disabled.
void announceEnabledChanges(QQuickItem *item)
{
    QObject::connect(item, &QQuickItem::enabledChanged, item, [item] {
        QAccessible::State changed;
        changed.disabled = true;
        QAccessibleStateChangeEvent event(item, changed);
        QAccessible::updateAccessibility(&event);
    });
}

// Asked before Qt Quick's own factory (the last one installed is asked first); answers for
// the same items it would, those that are accessible and not Accessible.ignored.
QAccessibleInterface *controlFactory(const QString &, QObject *object)
{
    auto *item = qobject_cast<QQuickItem *>(object);
    if (!item || !QQuickItemPrivate::get(item)->isAccessible)
        return nullptr;
    const bool button = object->inherits("QQuickAbstractButton");
    // Single-line text fields; TextArea (a text document) keeps Qt Quick's own description.
    const bool field = object->inherits("QQuickTextInput");
    if (!button && !field)
        return nullptr;
    announceEnabledChanges(item);
    if (button)
        return new AccessibleButton(item);
    return new AccessibleTextField(item);
}

} // namespace

void installAccessibleControls()
{
    QAccessible::installFactory(&controlFactory);
}

} // namespace paddock::gui

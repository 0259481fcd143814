// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The desktop's clipboard for QML, which has none of its own: a command to paste in a
 * terminal is copied with `Clipboard.setText(...)`.
 */
class Clipboard : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

public:
    explicit Clipboard(QObject *parent = nullptr);

    Q_INVOKABLE static void setText(const QString &text);
    Q_INVOKABLE static QString text();
};

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Clipboard.h"

#include <QClipboard>
#include <QGuiApplication>

namespace paddock::gui {

Clipboard::Clipboard(QObject *parent) : QObject(parent) {}

void Clipboard::setText(const QString &text)
{
    QGuiApplication::clipboard()->setText(text);
}

QString Clipboard::text()
{
    return QGuiApplication::clipboard()->text();
}

} // namespace paddock::gui

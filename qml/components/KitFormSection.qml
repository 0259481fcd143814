// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A titled group of fields in the kit editor's form.
ColumnLayout {
    id: section

    property string title
    property string note
    default property alias content: body.data

    Layout.fillWidth: true
    spacing: Theme.spacingSmall

    Label {
        Layout.topMargin: Theme.spacing
        text: section.title
        textFormat: Text.PlainText
        font.weight: Font.DemiBold
        font.pixelSize: Theme.headlineFontSize * 0.85
        Accessible.role: Accessible.Heading
        Accessible.name: section.title
    }
    Label {
        visible: section.note.length > 0
        Layout.fillWidth: true
        text: section.note
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.7
        font.pixelSize: Theme.smallFontSize
    }
    ColumnLayout {
        id: body
        Layout.fillWidth: true
        Layout.leftMargin: Theme.spacingSmall
        spacing: Theme.spacingSmall
    }
}

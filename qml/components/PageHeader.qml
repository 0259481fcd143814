// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The title and one-line summary at the top of every page.
ColumnLayout {
    id: header

    property string title
    property string summary

    spacing: Theme.spacingSmall

    Label {
        objectName: "pageTitle"
        Layout.fillWidth: true
        text: header.title
        textFormat: Text.PlainText
        font.pixelSize: Theme.titleFontSize
        font.weight: Font.DemiBold
        elide: Text.ElideRight
        Accessible.role: Accessible.Heading
        Accessible.name: header.title
    }
    Label {
        Layout.fillWidth: true
        visible: header.summary.length > 0
        text: header.summary
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.75
    }
}

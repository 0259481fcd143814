// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import Paddock

// One destination of the navigation rail: an icon over a label, highlighted when current.
// A TabButton, so screen readers announce it as a page tab.
TabButton {
    id: button

    property string iconPath
    property bool current: false
    property string shortcutText

    implicitWidth: Theme.railWidth - 2 * Theme.spacingSmall
    implicitHeight: 64
    focusPolicy: Qt.StrongFocus
    hoverEnabled: true
    // The window decides which page is current; clicking only asks for it.
    checkable: false
    checked: current
    padding: 0

    Accessible.name: text
    // Screen readers announce the current page's tab as selected.
    Accessible.selected: current
    Accessible.description: shortcutText.length > 0 ? qsTr("Shortcut: %1").arg(shortcutText) : ""

    ToolTip.visible: hovered && shortcutText.length > 0
    ToolTip.delay: 800
    ToolTip.text: qsTr("%1 (%2)").arg(text).arg(shortcutText)

    Keys.onReturnPressed: clicked()
    Keys.onEnterPressed: clicked()

    background: Rectangle {
        radius: Theme.radius
        color: button.current ? Theme.mix(palette.window, palette.highlight, 0.22)
             : button.down ? Theme.mix(palette.window, palette.windowText, 0.12)
             : button.hovered ? Theme.mix(palette.window, palette.windowText, 0.06)
             : "transparent"
        border.width: button.visualFocus ? 2 : 0
        border.color: palette.highlight
    }

    contentItem: Column {
        spacing: 4
        topPadding: 8

        PathIcon {
            anchors.horizontalCenter: parent.horizontalCenter
            pathData: button.iconPath
            color: button.current ? palette.highlight : palette.windowText
            strokeWidth: button.current ? 2.1 : 1.8
        }
        Label {
            width: parent.width
            horizontalAlignment: Text.AlignHCenter
            text: button.text
            textFormat: Text.PlainText
            elide: Text.ElideRight
            font.pixelSize: Theme.smallFontSize
            font.weight: button.current ? Font.DemiBold : Font.Normal
            color: palette.windowText
        }
    }
}

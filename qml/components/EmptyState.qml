// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// What a page shows while it has nothing to list: its icon, a headline, a sentence that
// says what the page is for, and the commands that already work from a terminal.
ColumnLayout {
    id: emptyState

    property string iconPath
    property string headline
    property string explanation
    // [{ command: "paddock ...", purpose: "what it does" }]
    property var commands: []
    property string commandsIntro: qsTr("Available today from a terminal:")
    property string noCommandText

    spacing: Theme.spacing

    Rectangle {
        Layout.alignment: Qt.AlignHCenter
        Layout.bottomMargin: Theme.spacingSmall
        implicitWidth: 104
        implicitHeight: 104
        radius: width / 2
        color: Theme.mix(palette.window, palette.highlight, 0.14)
        border.color: Theme.mix(palette.window, palette.highlight, 0.35)
        border.width: 1

        PathIcon {
            anchors.centerIn: parent
            width: 52
            height: 52
            strokeWidth: 1.4
            pathData: emptyState.iconPath
            color: palette.highlight
        }
    }
    Label {
        objectName: "emptyHeadline"
        Layout.fillWidth: true
        horizontalAlignment: Text.AlignHCenter
        text: emptyState.headline
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
    }
    Label {
        objectName: "emptyExplanation"
        Layout.fillWidth: true
        Layout.maximumWidth: 560
        Layout.alignment: Qt.AlignHCenter
        horizontalAlignment: Text.AlignHCenter
        text: emptyState.explanation
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.8
    }
    Label {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        visible: emptyState.commands.length > 0
        text: emptyState.commandsIntro
        textFormat: Text.PlainText
        font.weight: Font.DemiBold
    }
    Repeater {
        model: emptyState.commands
        delegate: CommandHint {
            id: commandHint
            required property var modelData
            Layout.fillWidth: true
            command: commandHint.modelData.command
            purpose: commandHint.modelData.purpose
        }
    }
    Label {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        visible: emptyState.commands.length === 0 && emptyState.noCommandText.length > 0
        horizontalAlignment: Text.AlignHCenter
        text: emptyState.noCommandText
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.7
    }
}

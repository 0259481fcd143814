// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A command the user can run today in a terminal: what it does, the command in a monospace
// field that can be selected (on one line, scrolled sideways when long), and a button that
// copies it.
Rectangle {
    id: hint

    required property string command
    required property string purpose

    implicitHeight: row.implicitHeight + 2 * Theme.spacing
    radius: Theme.radius
    color: palette.base
    border.color: Theme.mix(palette.base, palette.windowText, 0.18)

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.margins: Theme.spacing
        spacing: Theme.spacing

        PathIcon {
            Layout.alignment: Qt.AlignVCenter
            pathData: Icons.terminal
            color: palette.text
            opacity: 0.6
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2

            Label {
                Layout.fillWidth: true
                text: hint.purpose
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: palette.text
                opacity: 0.75
                font.pixelSize: Theme.smallFontSize
            }
            // One line, never cut inside a word: a command longer than the field scrolls sideways
            // (its scroll bar shows that more follows), and Copy takes it whole.
            Flickable {
                id: commandScroll
                objectName: "commandScroll"
                Layout.fillWidth: true
                // As wide as the command would like, as the text field was: the row then shares
                // its width between the purpose and the command as before.
                implicitWidth: commandText.implicitWidth
                implicitHeight: commandText.implicitHeight + (overflows ? sideways.implicitHeight : 0)
                readonly property bool overflows: contentWidth > width + 1
                contentWidth: commandText.implicitWidth
                contentHeight: commandText.implicitHeight
                clip: true
                interactive: overflows
                flickableDirection: Flickable.HorizontalFlick
                boundsBehavior: Flickable.StopAtBounds
                ScrollBar.horizontal: ScrollBar {
                    id: sideways
                    policy: commandScroll.overflows ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff
                }

                TextEdit {
                    id: commandText
                    objectName: "commandText"
                    text: hint.command
                    textFormat: TextEdit.PlainText
                    readOnly: true
                    selectByMouse: true
                    activeFocusOnTab: false // the Copy button is the keyboard way in
                    wrapMode: TextEdit.NoWrap
                    font.family: "monospace"
                    font.pixelSize: Theme.baseFontSize
                    color: palette.text
                    selectionColor: palette.highlight
                    selectedTextColor: palette.highlightedText
                    Accessible.role: Accessible.StaticText
                    Accessible.name: hint.command
                }
            }
        }
        Button {
            id: copyButton
            objectName: "copyButton"
            property bool copied: false

            Layout.alignment: Qt.AlignVCenter
            text: copied ? qsTr("Copied") : qsTr("Copy")
            Accessible.name: qsTr("Copy the command %1").arg(hint.command)
            ToolTip.visible: hovered
            ToolTip.delay: 600
            ToolTip.text: qsTr("Copy to the clipboard")

            onClicked: {
                commandText.selectAll()
                commandText.copy()
                commandText.deselect()
                copied = true
                copiedReset.restart()
            }
            Timer {
                id: copiedReset
                interval: 1500
                onTriggered: copyButton.copied = false
            }
        }
    }
}

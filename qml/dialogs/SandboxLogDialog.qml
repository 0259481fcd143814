// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The output of a detached sandbox (as `paddock logs NAME` shows it), followed while open,
// with a search field: Enter finds the next match, Shift+Enter the previous one.
Dialog {
    id: dialog

    property alias sandboxName: log.name
    property int matchStart: -1

    function show(name) {
        log.name = name
        query.text = ""
        matchStart = -1
        open()
    }
    function search(backwards) {
        if (query.text.length === 0)
            return
        const from = matchStart < 0 ? 0 : (backwards ? matchStart : matchStart + 1)
        matchStart = log.find(query.text, from, backwards)
        if (matchStart >= 0) {
            output.select(matchStart, matchStart + query.text.length)
            // Keep the match in view.
            const rect = output.positionToRectangle(matchStart)
            flick.contentY = Math.max(0, Math.min(rect.y - flick.height / 3, flick.contentHeight - flick.height))
        } else {
            output.deselect()
        }
    }

    title: qsTr("Output of %1").arg(log.name)
    modal: true
    anchors.centerIn: parent
    width: parent ? parent.width * 0.85 : 800
    height: parent ? parent.height * 0.85 : 600
    padding: Theme.spacing

    SandboxLog {
        id: log
        daemon: DaemonStatus
        active: dialog.visible
        onTextChanged: {
            // Follow the end unless the user is looking at a match.
            if (dialog.matchStart < 0)
                Qt.callLater(() => flick.contentY = Math.max(0, flick.contentHeight - flick.height))
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacingSmall

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacingSmall
            TextField {
                id: query
                objectName: "logSearchField"
                Layout.fillWidth: true
                placeholderText: qsTr("Search the output")
                Accessible.name: qsTr("Search the output")
                selectByMouse: true
                onTextChanged: { dialog.matchStart = -1; dialog.search(false) }
                Keys.onReturnPressed: (event) => dialog.search((event.modifiers & Qt.ShiftModifier) !== 0)
                Keys.onEnterPressed: (event) => dialog.search((event.modifiers & Qt.ShiftModifier) !== 0)
            }
            Label {
                objectName: "logMatchCount"
                readonly property int matches: query.text.length === 0 ? 0 : log.countMatches(query.text) + 0 * log.text.length
                text: query.text.length === 0 ? ""
                      : matches === 1 ? qsTr("1 match") : qsTr("%1 matches").arg(matches)
                textFormat: Text.PlainText
            }
            Button {
                objectName: "logPreviousButton"
                text: qsTr("Previous")
                Accessible.name: qsTr("Previous match")
                enabled: query.text.length > 0
                onClicked: dialog.search(true)
            }
            Button {
                objectName: "logNextButton"
                text: qsTr("Next")
                Accessible.name: qsTr("Next match")
                enabled: query.text.length > 0
                onClicked: dialog.search(false)
            }
        }
        Label {
            objectName: "logError"
            Layout.fillWidth: true
            visible: log.error.length > 0
            text: log.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        ScrollView {
            id: scroll
            Layout.fillWidth: true
            Layout.fillHeight: true
            Flickable {
                id: flick
                contentWidth: width
                contentHeight: output.implicitHeight
                clip: true
                TextEdit {
                    id: output
                    objectName: "logText"
                    width: flick.width
                    text: log.text.length > 0 ? log.text : ""
                    textFormat: TextEdit.PlainText
                    readOnly: true
                    selectByMouse: true
                    wrapMode: TextEdit.WrapAnywhere
                    font.family: "monospace"
                    color: palette.text
                    selectionColor: palette.highlight
                    selectedTextColor: palette.highlightedText
                    Accessible.role: Accessible.EditableText
                    Accessible.name: qsTr("Output of %1").arg(log.name)
                }
            }
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "logCloseButton"
            text: qsTr("Close")
            Accessible.name: qsTr("Close")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

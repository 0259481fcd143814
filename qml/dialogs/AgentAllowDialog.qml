// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Allow a call the agent was refused: where the rule goes (this sandbox's project file, or
// the kit, whose running sandboxes get it too), then the lines it adds, then write. The rule
// is the narrowest one that lets the same call pass: the exact path or command.
Dialog {
    id: dialog
    objectName: "agentAllowDialog"

    property AgentRefusalsModel refusals
    property int refusalId: -1
    property string title_
    property string where: "project"
    property string path
    property string diff
    property string changes

    function openFor(refusal) {
        refusalId = refusal.refusalId
        title_ = refusal.tool + ": " + refusal.value
        where = "project"
        diff = ""
        open()
        refusals.preview(refusalId, where)
    }

    title: qsTr("Allow %1").arg(dialog.title_)
    modal: true
    anchors.centerIn: parent
    width: Math.min(640, parent ? parent.width - 2 * Theme.spacingLarge : 640)
    padding: Theme.spacingLarge

    Connections {
        target: dialog.refusals
        function onPreviewReady(id, where, path, diff, changes) {
            if (id !== dialog.refusalId || where !== dialog.where)
                return
            dialog.path = path
            dialog.diff = diff
            dialog.changes = changes
        }
        function onAllowed(path) { dialog.close() }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacingSmall

        RadioButton {
            objectName: "agentAllowProject"
            text: qsTr("In this sandbox's project file (its workspace)")
            checked: dialog.where === "project"
            onClicked: { dialog.where = "project"; dialog.diff = ""; dialog.refusals.preview(dialog.refusalId, "project") }
        }
        RadioButton {
            objectName: "agentAllowKit"
            text: qsTr("In the kit (and its running sandboxes)")
            checked: dialog.where === "kit"
            onClicked: { dialog.where = "kit"; dialog.diff = ""; dialog.refusals.preview(dialog.refusalId, "kit") }
        }
        Label {
            Layout.fillWidth: true
            text: dialog.changes.length > 0 ? qsTr("Rule: %1").arg(dialog.changes) : ""
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            font.weight: Font.DemiBold
        }
        Label {
            Layout.fillWidth: true
            text: dialog.path
            textFormat: Text.PlainText
            font.family: "monospace"
            font.pixelSize: Theme.smallFontSize
            elide: Text.ElideMiddle
        }
        Label {
            objectName: "agentAllowDiff"
            Layout.fillWidth: true
            text: dialog.diff.length > 0 ? dialog.diff : qsTr("Working out the change…")
            textFormat: Text.PlainText
            font.family: "monospace"
            wrapMode: Text.Wrap
        }
        Label {
            Layout.fillWidth: true
            visible: dialog.refusals && dialog.refusals.error.length > 0
            text: dialog.refusals ? dialog.refusals.error : ""
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        Label {
            Layout.fillWidth: true
            text: qsTr("From a terminal: paddock agent-perms allow %1 --where %2").arg(dialog.refusalId).arg(dialog.where)
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.7
        }
        RowLayout {
            Layout.fillWidth: true
            Item { Layout.fillWidth: true }
            Button {
                text: qsTr("Cancel")
                onClicked: dialog.close()
            }
            Button {
                objectName: "agentAllowWrite"
                text: qsTr("Write these lines")
                highlighted: true
                enabled: dialog.diff.length > 0
                onClicked: dialog.refusals.allow(dialog.refusalId, dialog.where)
            }
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// An environment file (sbxenv.yaml) picked from disk: the plan `paddock env plan` prints, each
// command it runs on this computer shown verbatim with a box to tick, and Bring up.
Dialog {
    id: dialog

    signal broughtUp(string name)

    // Picks the file, then shows its plan.
    function begin() {
        picker.active = true
    }

    // Every command not approved before is ticked here: Bring up runs none that is not.
    function allTicked() {
        for (let i = 0; i < commands.count; ++i) {
            const row = commands.itemAt(i)
            if (row && !row.ticked)
                return false
        }
        return true
    }
    function tickedIndexes() {
        const ticked = []
        for (let i = 0; i < commands.count; ++i) {
            const row = commands.itemAt(i)
            if (row && row.ticked && !row.approved)
                ticked.push(i)
        }
        return ticked
    }

    EnvironmentPlan {
        id: plan
        objectName: "environmentPlan"
        daemon: DaemonStatus
        onBroughtUp: (name) => { dialog.broughtUp(name); dialog.close() }
    }

    Loader {
        id: picker
        active: false
        sourceComponent: FileDialog {
            title: qsTr("Open an environment file")
            nameFilters: [qsTr("Environment files (sbxenv.yaml *.yaml)")]
            onAccepted: {
                plan.open(selectedFile.toString())
                picker.active = false
                dialog.open()
            }
            onRejected: picker.active = false
            Component.onCompleted: open()
        }
    }

    title: qsTr("Environment %1").arg(plan.file)
    modal: true
    // Made inside the page's button: shown over the whole window.
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: parent ? parent.width - 2 * Theme.spacingLarge : 900
    height: parent ? parent.height - 2 * Theme.spacingLarge : 700
    padding: Theme.spacingLarge

    contentItem: ScrollView {
        clip: true
        ColumnLayout {
            width: dialog.availableWidth
            spacing: Theme.spacing
            Label {
                objectName: "environmentPlanText"
                Layout.fillWidth: true
                text: plan.planText
                textFormat: Text.PlainText
                font.family: "monospace"
                wrapMode: Text.WrapAnywhere
            }
            Label {
                Layout.fillWidth: true
                visible: commands.count > 0
                text: qsTr("Commands run on this computer, outside the sandbox. Read each one; tick it to approve exactly this text.")
                wrapMode: Text.Wrap
                font.bold: true
            }
            Repeater {
                id: commands
                model: plan.hostCommands
                delegate: ColumnLayout {
                    id: commandRow
                    required property var modelData
                    required property int index
                    property bool approved: modelData.approved
                    property bool ticked: box.checked
                    Layout.fillWidth: true
                    CheckBox {
                        id: box
                        objectName: "hostCommandBox" + commandRow.index
                        checked: commandRow.approved
                        enabled: !commandRow.approved && !plan.busy
                        text: commandRow.approved
                              ? qsTr("%1 %2 (approved before)").arg(commandRow.modelData.phase).arg(commandRow.modelData.name)
                              : qsTr("Run %1 %2 on this computer").arg(commandRow.modelData.phase).arg(commandRow.modelData.name)
                        Accessible.name: qsTr("Approve the %1 command %2").arg(commandRow.modelData.phase).arg(commandRow.modelData.name)
                    }
                    Label {
                        objectName: "hostCommandText" + commandRow.index
                        Layout.fillWidth: true
                        Layout.leftMargin: Theme.spacingLarge
                        text: commandRow.modelData.command
                        textFormat: Text.PlainText
                        font.family: "monospace"
                        wrapMode: Text.WrapAnywhere
                    }
                }
            }
            Label {
                objectName: "environmentError"
                Layout.fillWidth: true
                visible: plan.error.length > 0 || plan.message.length > 0
                text: plan.error.length > 0 ? plan.error : plan.message
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: plan.error.length > 0 ? Theme.errorColor : palette.windowText
            }
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "environmentUpButton"
            text: plan.busy ? qsTr("Bringing up…") : qsTr("Bring up")
            enabled: plan.ok && !plan.busy && DaemonStatus.connected && dialog.allTicked()
            Accessible.name: qsTr("Bring up the environment")
            onClicked: plan.bringUp(dialog.tickedIndexes())
        }
        Button {
            objectName: "environmentCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

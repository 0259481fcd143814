// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asks before a sandbox and its home go away; a running one is stopped first.
Dialog {
    id: dialog

    property string sandboxName
    property bool running: false

    signal confirmed(string name)

    function ask(name, isRunning) {
        sandboxName = name
        running = isRunning
        open()
    }

    title: qsTr("Remove %1?").arg(sandboxName)
    modal: true
    anchors.centerIn: parent
    width: Math.min(480, parent ? parent.width - 2 * Theme.spacingLarge : 480)
    padding: Theme.spacingLarge

    onAccepted: dialog.confirmed(dialog.sandboxName)

    contentItem: Label {
        objectName: "sandboxRemoveText"
        text: (dialog.running ? qsTr("%1 is running: it will be stopped first.").arg(dialog.sandboxName) + " " : "")
              + qsTr("The sandbox and its home folder are deleted. Your project folder is kept.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }

    footer: DialogButtonBox {
        Button {
            objectName: "sandboxRemoveConfirmButton"
            text: dialog.running ? qsTr("Stop and remove") : qsTr("Remove")
            Accessible.name: qsTr("Remove %1").arg(dialog.sandboxName)
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            objectName: "sandboxRemoveCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

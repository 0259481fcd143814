// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import Paddock

// Asks before an engine added in Paddock is forgotten (`paddock engine rm`): the engine itself
// and its containers are left as they are.
Dialog {
    id: dialog

    property string engineName
    property string host

    signal confirmed(string name)

    function ask(name, address) {
        engineName = name
        host = address
        open()
    }

    title: qsTr("Remove the engine %1?").arg(engineName)
    modal: true
    anchors.centerIn: parent
    width: Math.min(520, parent ? parent.width - 2 * Theme.spacingLarge : 520)
    padding: Theme.spacingLarge

    onAccepted: dialog.confirmed(dialog.engineName)

    contentItem: Label {
        objectName: "engineRemoveText"
        text: qsTr("Paddock forgets the engine at %1: Docker sandboxes no longer run there, and if it was in use, they run on this computer's engine again. The engine itself is not touched. Sandboxes still on it must be removed first.").arg(dialog.host)
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }

    footer: DialogButtonBox {
        Button {
            objectName: "engineRemoveConfirmButton"
            text: qsTr("Remove")
            Accessible.name: qsTr("Remove the engine %1").arg(dialog.engineName)
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            objectName: "engineRemoveCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asks before a key is deleted from the keychain.
Dialog {
    id: dialog

    property string service
    property string sandbox

    signal confirmed(string service, string sandbox)

    function ask(serviceName, sandboxName) {
        service = serviceName
        sandbox = sandboxName
        open()
    }

    title: qsTr("Remove the key of %1?").arg(sandbox.length > 0 ? sandbox + "/" + service : service)
    modal: true
    anchors.centerIn: parent
    width: Math.min(480, parent ? parent.width - 2 * Theme.spacingLarge : 480)
    padding: Theme.spacingLarge

    onAccepted: dialog.confirmed(dialog.service, dialog.sandbox)

    contentItem: Label {
        text: qsTr("The key is deleted from the keychain. Sandboxes whose kit needs it will not start until you set it again; approvals are kept.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }

    footer: DialogButtonBox {
        Button {
            objectName: "secretRemoveConfirmButton"
            text: qsTr("Remove")
            Accessible.name: qsTr("Remove the key")
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            objectName: "secretRemoveCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

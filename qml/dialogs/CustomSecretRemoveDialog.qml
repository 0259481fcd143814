// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asks before a custom secret is removed, naming what sandboxes hold and where it was replaced.
Dialog {
    id: dialog

    property string name
    property string variable
    property string hosts

    signal confirmed(string name)

    function ask(secretName, variableName, hostList) {
        name = secretName
        variable = variableName
        hosts = hostList
        open()
    }

    title: qsTr("Remove the custom secret %1?").arg(name)
    modal: true
    anchors.centerIn: parent
    width: Math.min(520, parent ? parent.width - 2 * Theme.spacingLarge : 520)
    padding: Theme.spacingLarge

    onAccepted: dialog.confirmed(dialog.name)

    contentItem: Label {
        objectName: "customSecretRemoveText"
        text: qsTr("Sandboxes hold a placeholder in %1. From now on it is no longer replaced with the value in requests to %2, and its value is deleted from the keychain (or its command no longer runs). Sandboxes created afterwards no longer get %1.").arg(dialog.variable).arg(dialog.hosts)
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }

    footer: DialogButtonBox {
        Button {
            objectName: "customSecretRemoveConfirmButton"
            text: qsTr("Remove")
            Accessible.name: qsTr("Remove the custom secret %1").arg(dialog.name)
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            objectName: "customSecretRemoveCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

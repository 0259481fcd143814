// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asks before a sandbox is made again from its kit: its root and home are new, its volumes kept.
Dialog {
    id: dialog

    property string sandboxName

    signal confirmed(string name)

    function ask(name) {
        sandboxName = name
        open()
    }

    title: qsTr("Recreate %1?").arg(sandboxName)
    modal: true
    anchors.centerIn: parent
    width: Math.min(480, parent ? parent.width - 2 * Theme.spacingLarge : 480)
    padding: Theme.spacingLarge

    onAccepted: dialog.confirmed(dialog.sandboxName)

    contentItem: Label {
        objectName: "sandboxRecreateText"
        text: qsTr("The sandbox is made again from its kit as loaded now: its system and home folder are new and the kit's setup runs again. Its volumes and your project folder are kept; a running sandbox is started again.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }

    footer: DialogButtonBox {
        Button {
            objectName: "sandboxRecreateConfirmButton"
            text: qsTr("Recreate")
            Accessible.name: qsTr("Recreate %1").arg(dialog.sandboxName)
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            objectName: "sandboxRecreateCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

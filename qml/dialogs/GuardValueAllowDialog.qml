// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asks before a sandbox may send a value the secret guard refused: the domain is allowed
// already, so what is allowed is the value, for this sandbox only.
Dialog {
    id: dialog
    objectName: "guardValueAllowDialog"

    property NetworkPolicy policy
    property string host
    property string sandbox
    property string file
    property string name
    property string errorText
    property bool waiting: false

    // A word as a POSIX shell reads it back.
    function quoted(word) {
        return /^[A-Za-z0-9._\/@:+=-]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\\''") + "'"
    }

    function openFor(denial) {
        host = denial.host
        sandbox = denial.sandbox
        file = denial.guardFile
        name = denial.guardName
        errorText = ""
        waiting = false
        open()
    }

    title: qsTr("Allow this value for %1?").arg(dialog.sandbox)
    modal: true
    anchors.centerIn: parent
    width: Math.min(520, parent ? parent.width - 2 * Theme.spacingLarge : 520)
    padding: Theme.spacingLarge

    Connections {
        target: dialog.policy
        function onActionFinished(action, ok, message) {
            if (action !== "allowValue" || !dialog.waiting)
                return
            dialog.waiting = false
            if (ok)
                dialog.close()
            else
                dialog.errorText = message
        }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacingSmall

        Label {
            objectName: "guardValueAllowText"
            Layout.fillWidth: true
            text: qsTr("Sandbox %1 may then send the value of %2 from %3 in its requests, to %4 and every other domain its keys go to. The value may then reach the model provider, and whoever reads what the provider keeps.")
                  .arg(dialog.sandbox).arg(dialog.name).arg(dialog.file).arg(dialog.host)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        CommandHint {
            Layout.fillWidth: true
            Layout.topMargin: Theme.spacing
            command: ["paddock", "guard", "allow", dialog.sandbox, dialog.file, dialog.name].map(dialog.quoted).join(" ")
            purpose: qsTr("The same from a terminal:")
        }
        Label {
            objectName: "guardValueAllowError"
            Layout.fillWidth: true
            visible: dialog.errorText.length > 0
            text: dialog.errorText
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "guardValueAllowConfirmButton"
            text: qsTr("Allow this value")
            enabled: !dialog.waiting
            Accessible.name: qsTr("Allow the value of %1 from %2 for %3").arg(dialog.name).arg(dialog.file).arg(dialog.sandbox)
            // Not AcceptRole: the dialog closes on the daemon's answer, not on the click.
            DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
            onClicked: {
                dialog.errorText = ""
                dialog.waiting = true
                dialog.policy.allowValue(dialog.host, dialog.sandbox, dialog.file, dialog.name)
            }
        }
        Button {
            objectName: "guardValueAllowCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }

    // A refusal keeps the dialog open with its reason.
    closePolicy: Popup.CloseOnEscape
}

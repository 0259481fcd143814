// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Allow a refused host: where and what (AllowChoices), starting at the narrowest choice:
// this sandbox, this exact host.
Dialog {
    id: dialog
    objectName: "denialAllowDialog"

    property NetworkPolicy policy
    property string host
    property int port: 443
    property string sandbox
    property string kit
    property alias where: allowChoices.where
    property alias what: allowChoices.what
    property string errorText
    property bool waiting: false
    readonly property var choices: dialog.policy ? dialog.policy.allowChoices(dialog.host, dialog.port)
                                                 : ({ exact: "", anyport: "", wildcard: "", deep: "" })

    function openFor(denial) {
        host = denial.host
        port = denial.port
        sandbox = denial.sandbox
        kit = denial.kit
        allowChoices.reset()
        errorText = ""
        waiting = false
        open()
        allowChoices.focusFirst()
    }

    title: qsTr("Allow %1").arg(dialog.host)
    modal: true
    anchors.centerIn: parent
    width: Math.min(520, parent ? parent.width - 2 * Theme.spacingLarge : 520)
    padding: Theme.spacingLarge

    Connections {
        target: dialog.policy
        function onActionFinished(action, ok, message) {
            if (action !== "allow" || !dialog.waiting)
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

        AllowChoices {
            id: allowChoices
            Layout.fillWidth: true
            sandbox: dialog.sandbox
            kit: dialog.kit
            choices: dialog.choices
        }

        CommandHint {
            Layout.fillWidth: true
            Layout.topMargin: Theme.spacing
            command: dialog.policy ? dialog.policy.allowCommand(dialog.host, dialog.port, dialog.sandbox, dialog.where, dialog.what) : ""
            purpose: qsTr("The same from a terminal:")
        }
        Label {
            objectName: "allowError"
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
            objectName: "allowConfirmButton"
            text: qsTr("Allow")
            enabled: !dialog.waiting
            Accessible.name: qsTr("Allow %1").arg(dialog.host)
            // Not AcceptRole: the dialog closes on the daemon's answer, not on the click.
            DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
            onClicked: dialog.submit()
        }
        Button {
            objectName: "allowCancelButton"
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }

    // A refusal keeps the dialog open with its reason.
    closePolicy: Popup.CloseOnEscape
    function submit() {
        dialog.errorText = ""
        dialog.waiting = true
        dialog.policy.allow(dialog.host, dialog.port, dialog.sandbox, dialog.where, dialog.what)
    }
}

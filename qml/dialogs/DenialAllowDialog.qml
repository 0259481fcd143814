// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Allow a refused host: where (this sandbox, the kit's spec.yaml, every sandbox) and what
// (the host, its siblings, everything under its parent, or the host on this port only).
// Starts at the narrowest choice: this sandbox, this exact host.
Dialog {
    id: dialog
    objectName: "denialAllowDialog"

    property NetworkPolicy policy
    property string host
    property int port: 443
    property string sandbox
    property string kit
    property string where: "sandbox"
    property string what: "exact"
    property string errorText
    property bool waiting: false
    readonly property var choices: dialog.policy ? dialog.policy.allowChoices(dialog.host, dialog.port)
                                                 : ({ exact: "", wildcard: "", deep: "", hostport: "" })

    function openFor(denial) {
        host = denial.host
        port = denial.port
        sandbox = denial.sandbox
        kit = denial.kit
        where = "sandbox"
        what = "exact"
        errorText = ""
        waiting = false
        open()
        whereSandbox.forceActiveFocus()
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

        Label {
            text: qsTr("Where")
            font.weight: Font.DemiBold
        }
        ButtonGroup { id: whereGroup }
        RadioButton {
            id: whereSandbox
            objectName: "allowWhereSandbox"
            text: qsTr("This sandbox (%1)").arg(dialog.sandbox)
            checked: dialog.where === "sandbox"
            ButtonGroup.group: whereGroup
            onToggled: if (checked) dialog.where = "sandbox"
        }
        RadioButton {
            objectName: "allowWhereKit"
            text: qsTr("The kit's spec.yaml (%1)").arg(dialog.kit)
            checked: dialog.where === "kit"
            enabled: dialog.kit.length > 0
            ButtonGroup.group: whereGroup
            onToggled: if (checked) dialog.where = "kit"
        }
        RadioButton {
            objectName: "allowWhereGlobal"
            text: qsTr("Every sandbox")
            checked: dialog.where === "global"
            ButtonGroup.group: whereGroup
            onToggled: if (checked) dialog.where = "global"
        }

        Label {
            Layout.topMargin: Theme.spacing
            text: qsTr("What")
            font.weight: Font.DemiBold
        }
        ButtonGroup { id: whatGroup }
        RadioButton {
            objectName: "allowWhatExact"
            text: qsTr("Exactly %1").arg(dialog.choices.exact)
            checked: dialog.what === "exact"
            ButtonGroup.group: whatGroup
            onToggled: if (checked) dialog.what = "exact"
        }
        RadioButton {
            objectName: "allowWhatWildcard"
            text: dialog.choices.wildcard.length > 0
                  ? qsTr("%1 (one level under the parent domain)").arg(dialog.choices.wildcard)
                  : qsTr("One level under the parent domain (not possible for this host)")
            enabled: dialog.choices.wildcard.length > 0
            checked: dialog.what === "wildcard"
            ButtonGroup.group: whatGroup
            onToggled: if (checked) dialog.what = "wildcard"
        }
        RadioButton {
            objectName: "allowWhatDeep"
            text: dialog.choices.deep.length > 0
                  ? qsTr("%1 (any depth under the parent domain)").arg(dialog.choices.deep)
                  : qsTr("Any depth under the parent domain (not possible for this host)")
            enabled: dialog.choices.deep.length > 0
            checked: dialog.what === "deep"
            ButtonGroup.group: whatGroup
            onToggled: if (checked) dialog.what = "deep"
        }
        RadioButton {
            objectName: "allowWhatHostPort"
            text: qsTr("%1 (this port only)").arg(dialog.choices.hostport)
            checked: dialog.what === "hostport"
            ButtonGroup.group: whatGroup
            onToggled: if (checked) dialog.what = "hostport"
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

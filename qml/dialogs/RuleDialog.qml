// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Add a rule to policy.yaml, or change one: its pattern, decision and scope.
Dialog {
    id: dialog
    objectName: "ruleDialog"

    property NetworkPolicy policy
    property string ruleId // empty: a new rule
    property string errorText
    property bool waiting: false
    readonly property var scopeKinds: ["global", "sandbox", "kit"]

    function openForNew() {
        ruleId = ""
        patternField.text = ""
        decisionBox.currentIndex = 0
        scopeBox.currentIndex = 0
        scopeName.text = ""
        errorText = ""
        open()
        patternField.forceActiveFocus()
    }
    function openForRule(rule) {
        ruleId = rule.ruleId
        patternField.text = rule.pattern
        decisionBox.currentIndex = rule.decision === "deny" ? 1 : 0
        const kind = rule.scope.split(":")[0]
        scopeBox.currentIndex = Math.max(0, scopeKinds.indexOf(kind))
        scopeName.text = rule.scope.indexOf(":") >= 0 ? rule.scope.substring(rule.scope.indexOf(":") + 1) : ""
        errorText = ""
        open()
        patternField.forceActiveFocus()
    }
    function scopeText() {
        const kind = scopeKinds[scopeBox.currentIndex]
        return kind === "global" ? "global" : kind + ":" + scopeName.text.trim()
    }

    title: ruleId.length > 0 ? qsTr("Edit rule") : qsTr("Add rule")
    modal: true
    anchors.centerIn: parent
    width: Math.min(480, parent ? parent.width - 2 * Theme.spacingLarge : 480)
    padding: Theme.spacingLarge
    closePolicy: Popup.CloseOnEscape

    Connections {
        target: dialog.policy
        function onActionFinished(action, ok, message) {
            if ((action !== "add" && action !== "update") || !dialog.waiting)
                return
            dialog.waiting = false
            if (ok)
                dialog.close()
            else
                dialog.errorText = message
        }
    }

    GridLayout {
        anchors.fill: parent
        columns: 2
        columnSpacing: Theme.spacing
        rowSpacing: Theme.spacingSmall

        Label { text: qsTr("Pattern") }
        TextField {
            id: patternField
            objectName: "rulePatternField"
            Layout.fillWidth: true
            placeholderText: qsTr("example.com, *.example.com, host:8080")
            Accessible.name: qsTr("Pattern")
            onAccepted: dialog.submit()
        }
        Label { text: qsTr("Decision") }
        ComboBox {
            id: decisionBox
            objectName: "ruleDecisionBox"
            Layout.fillWidth: true
            model: [qsTr("allow"), qsTr("deny")]
            Accessible.name: qsTr("Decision")
        }
        Label { text: qsTr("Scope") }
        RowLayout {
            Layout.fillWidth: true
            ComboBox {
                id: scopeBox
                objectName: "ruleScopeBox"
                model: [qsTr("Every sandbox"), qsTr("One sandbox"), qsTr("One kit")]
                Accessible.name: qsTr("Scope")
            }
            TextField {
                id: scopeName
                objectName: "ruleScopeName"
                Layout.fillWidth: true
                visible: scopeBox.currentIndex > 0
                placeholderText: scopeBox.currentIndex === 1 ? qsTr("sandbox name") : qsTr("kit name")
                Accessible.name: placeholderText
            }
        }
        Label {
            objectName: "ruleError"
            Layout.columnSpan: 2
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
            objectName: "ruleSaveButton"
            text: dialog.ruleId.length > 0 ? qsTr("Save") : qsTr("Add")
            enabled: !dialog.waiting && patternField.text.trim().length > 0
            // Not AcceptRole: the dialog closes on the daemon's answer, not on the click.
            DialogButtonBox.buttonRole: DialogButtonBox.ActionRole
            onClicked: dialog.submit()
        }
        Button {
            text: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }

    function submit() {
        if (patternField.text.trim().length === 0 || dialog.waiting)
            return
        const decision = decisionBox.currentIndex === 1 ? "deny" : "allow"
        dialog.errorText = ""
        dialog.waiting = true
        if (dialog.ruleId.length > 0)
            dialog.policy.updateRule(dialog.ruleId, patternField.text.trim(), decision, dialog.scopeText())
        else
            dialog.policy.addRule(patternField.text.trim(), decision, dialog.scopeText())
    }
}

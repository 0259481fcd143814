// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The agent's own rules (pi-permission-system) of one scope: a table per surface whose
// patterns keep their order (the last match wins: drag a row by its handle, or use the
// arrows), a state for each, add and remove, the schema's messages at their rule, and the
// rule tester. Every change goes through the daemon, which rewrites only its lines.
ColumnLayout {
    id: pane
    objectName: "agentPermissionsPane"

    required property AgentPerms perms
    property bool readOnly: false
    readonly property var states: ["allow", "ask", "deny"]
    readonly property var surfaces: ["*", "path", "bash", "external_directory", "read", "write", "edit", "find",
                                     "grep", "ls", "mcp", "skill"]

    spacing: Theme.spacingSmall

    Label {
        Layout.fillWidth: true
        text: pane.perms.path.length > 0
              ? (pane.perms.exists ? pane.perms.path : qsTr("%1 (no file yet: a rule added creates it)").arg(pane.perms.path))
              : ""
        textFormat: Text.PlainText
        font.family: "monospace"
        font.pixelSize: Theme.smallFontSize
        elide: Text.ElideMiddle
        opacity: 0.8
    }
    Label {
        Layout.fillWidth: true
        visible: pane.perms.schemaVersion.length > 0
        text: qsTr("Checked against the schema of pi-permission-system %1. Within a surface the last matching pattern wins; across surfaces the most restrictive answer does.").arg(pane.perms.schemaVersion)
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.75
    }
    Repeater {
        model: pane.perms.problems
        delegate: Label {
            required property string modelData
            Layout.fillWidth: true
            text: modelData
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
    }

    ListView {
        id: ruleList
        objectName: "agentRuleList"
        Layout.fillWidth: true
        implicitHeight: contentHeight
        interactive: false
        model: pane.perms.rules
        delegate: AgentRuleRow {
            width: ruleList.width
            readOnly: pane.readOnly
            states: pane.states
            onStateChosen: (state) => pane.perms.setRule(surface, shorthand ? "" : pattern, state)
            onMoveRequested: (to) => pane.perms.moveRule(surface, pattern, to)
            onRemoveRequested: pane.perms.removeRule(surface, shorthand ? "" : pattern)
        }
    }
    Label {
        Layout.fillWidth: true
        visible: ruleList.count === 0 && pane.perms.error.length === 0
        text: qsTr("No rules in this file.")
        textFormat: Text.PlainText
        opacity: 0.7
    }

    // ---- a new rule
    RowLayout {
        Layout.fillWidth: true
        visible: !pane.readOnly
        spacing: Theme.spacingSmall
        ComboBox {
            id: newSurface
            objectName: "agentNewSurface"
            editable: true
            model: pane.surfaces
            Accessible.name: qsTr("Surface")
        }
        TextField {
            id: newPattern
            objectName: "agentNewPattern"
            Layout.fillWidth: true
            placeholderText: qsTr("Pattern, e.g. rm -rf * or *.env (empty: the whole surface)")
            Accessible.name: qsTr("Pattern")
        }
        ComboBox {
            id: newState
            objectName: "agentNewState"
            model: pane.states
            Accessible.name: qsTr("State")
        }
        Button {
            objectName: "agentAddRule"
            text: qsTr("Add")
            enabled: newSurface.editText.length > 0 && !pane.perms.busy
            onClicked: {
                pane.perms.setRule(newSurface.editText, newPattern.text, newState.currentText)
                newPattern.text = ""
            }
        }
    }

    // ---- the tester
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacingSmall
        TextField {
            id: query
            objectName: "agentTestQuery"
            Layout.fillWidth: true
            placeholderText: qsTr("What happens for… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa")
            Accessible.name: qsTr("Call to test")
            onAccepted: pane.perms.test(text)
        }
        Button {
            objectName: "agentTestButton"
            text: qsTr("Test")
            enabled: query.text.length > 0
            onClicked: pane.perms.test(query.text)
        }
    }
    Label {
        objectName: "agentTestResult"
        Layout.fillWidth: true
        visible: pane.perms.testResult.state !== undefined
        text: {
            const r = pane.perms.testResult
            if (r.state === undefined)
                return ""
            const rule = r.decidedBy ? qsTr(" by the %1 rule %2").arg(r.decidedBy.layer).arg(r.decidedBy.rule) : ""
            let lines = [qsTr("%1: %2%3").arg(r.query).arg(r.state).arg(rule)]
            for (const note of (r.notes || []))
                lines.push("• " + note)
            return lines.join("\n")
        }
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.weight: Font.DemiBold
        color: pane.perms.testResult.state === "allow" ? Theme.okColor : Theme.warningColor
    }

    Label {
        Layout.fillWidth: true
        visible: text.length > 0
        text: pane.perms.error.length > 0 ? pane.perms.error : pane.perms.message
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: pane.perms.error.length > 0 ? Theme.errorColor : palette.text
    }
}

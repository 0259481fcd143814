// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One call the agent was refused (deny) or asked about (ask) by pi-permission-system: the
// tool and its value, the sandbox, the rule that decided, how often and when last.
ItemDelegate {
    id: row
    objectName: "agentRefusalRow"

    required property int index
    required property int refusalId
    required property string sandbox
    required property string tool
    required property string value
    required property string state
    required property string rule
    required property int count
    required property string lastSeenText

    signal allowRequested()
    signal dismissRequested()

    width: ListView.view ? ListView.view.width : implicitWidth
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Agent %1: %2 %3 in sandbox %4").arg(row.state).arg(row.tool).arg(row.value).arg(row.sandbox)

    contentItem: RowLayout {
        spacing: Theme.spacing

        Label {
            text: row.state === "deny" ? qsTr("denied") : qsTr("asked")
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            color: row.state === "deny" ? Theme.errorColor : Theme.warningColor
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2
            Label {
                objectName: "agentRefusalValue"
                Layout.fillWidth: true
                text: row.tool + ": " + row.value
                textFormat: Text.PlainText
                font.family: "monospace"
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            Label {
                Layout.fillWidth: true
                text: qsTr("Agent · sandbox %1 · %2").arg(row.sandbox).arg(row.rule.length > 0 ? row.rule : qsTr("rule unknown"))
                textFormat: Text.PlainText
                font.pixelSize: Theme.smallFontSize
                opacity: 0.75
                elide: Text.ElideRight
            }
        }
        Label {
            text: qsTr("× %1").arg(row.count)
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        Label {
            Layout.minimumWidth: 64
            text: row.lastSeenText
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.75
        }
        Button {
            objectName: "agentRefusalAllow"
            text: qsTr("Allow…")
            Accessible.name: qsTr("Allow %1: %2").arg(row.tool).arg(row.value)
            onClicked: row.allowRequested()
        }
        Button {
            text: qsTr("Dismiss")
            flat: true
            Accessible.name: qsTr("Dismiss %1: %2").arg(row.tool).arg(row.value)
            onClicked: row.dismissRequested()
        }
    }
}

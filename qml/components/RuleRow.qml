// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One rule of the Network page's table. Rules from a kit's spec.yaml are changed in the kit.
ItemDelegate {
    id: row
    objectName: "ruleRow"

    required property int index
    required property string ruleId
    required property string scope
    required property string pattern
    required property string condition
    required property string decision
    required property string origin
    required property string createdText
    required property string source
    required property bool readOnly
    // Column widths, shared with the header row.
    property var columns: [150, 0, 70, 80, 120]

    signal editRequested()
    signal removeRequested()

    width: ListView.view ? ListView.view.width : implicitWidth
    highlighted: ListView.isCurrentItem
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("%1 %2, %3, from %4").arg(row.decision).arg(row.pattern).arg(row.scope).arg(row.origin)
    onClicked: ListView.view.currentIndex = row.index

    contentItem: RowLayout {
        spacing: Theme.spacingSmall
        Label {
            Layout.preferredWidth: row.columns[0]
            text: row.scope
            textFormat: Text.PlainText
            elide: Text.ElideRight
        }
        Label {
            objectName: "rulePattern"
            Layout.fillWidth: true
            text: row.condition.length > 0 ? row.pattern + "  " + row.condition : row.pattern
            textFormat: Text.PlainText
            font.family: "monospace"
            elide: Text.ElideRight
        }
        Label {
            Layout.preferredWidth: row.columns[2]
            text: row.decision === "deny" ? qsTr("deny") : qsTr("allow")
            textFormat: Text.PlainText
            color: row.decision === "deny" ? Theme.errorColor : palette.text
        }
        Label {
            Layout.preferredWidth: row.columns[3]
            text: row.origin
            textFormat: Text.PlainText
            elide: Text.ElideRight
            ToolTip.visible: row.readOnly && row.hovered
            ToolTip.text: row.source
        }
        Label {
            Layout.preferredWidth: row.columns[4]
            text: row.readOnly ? qsTr("in the kit") : row.createdText
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.75
            elide: Text.ElideRight
        }
        ToolButton {
            objectName: "ruleEditButton"
            text: qsTr("Edit")
            enabled: !row.readOnly
            Accessible.name: qsTr("Edit the rule %1").arg(row.pattern)
            onClicked: row.editRequested()
        }
        ToolButton {
            objectName: "ruleRemoveButton"
            text: qsTr("Remove")
            enabled: !row.readOnly
            Accessible.name: qsTr("Remove the rule %1").arg(row.pattern)
            onClicked: row.removeRequested()
        }
    }
}

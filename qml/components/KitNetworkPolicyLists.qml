// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One network-policy@1 request of a descriptor: its runtime allow and deny lists, and beside
// them its install-phase ones, in force only while the kit's install hooks run. A wide form
// shows the two phases side by side, a narrow one one above the other. Each host is added and
// removed through the kit writer, in the request where it is (a group's member in its group).
GridLayout {
    id: lists

    required property KitEditorModel editor
    // The request's config in the document's dotted paths ("capabilities.3.config."), or ""
    // while the kit has none (the first host adds it).
    required property string configPath
    // Names the controls: "v3" gives add_v3.allow, add_v3.install.allow...
    required property string fieldPrefix
    // The group (its index in capabilities) whose member this is; -1 for the kit's own request.
    property int group: -1
    // The group's name, said with each list's name to a screen reader; empty for the kit's own.
    property string groupName: ""
    function spoken(label) {
        if (group < 0)
            return label
        return groupName.length > 0 ? qsTr("%1, group %2").arg(label).arg(groupName) : qsTr("%1, group").arg(label)
    }

    columns: width >= 640 ? 2 : 1
    columnSpacing: Theme.spacing
    rowSpacing: Theme.spacingSmall
    Layout.fillWidth: true

    ColumnLayout {
        Layout.fillWidth: true
        Layout.alignment: Qt.AlignTop
        Layout.preferredWidth: 1
        spacing: Theme.spacingSmall
        Label {
            objectName: "phaseTitle_" + lists.fieldPrefix + ".runtime"
            text: qsTr("While the agent runs")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        KitStringList {
            editor: lists.editor
            path: lists.configPath + "runtime.allow"
            fieldName: lists.fieldPrefix + ".allow"
            networkList: "allow"
            networkGroup: lists.group
            label: qsTr("Allowed")
            spokenLabel: lists.spoken(label)
            placeholder: "github.com"
        }
        KitStringList {
            editor: lists.editor
            path: lists.configPath + "runtime.deny"
            fieldName: lists.fieldPrefix + ".deny"
            networkList: "deny"
            networkGroup: lists.group
            label: qsTr("Denied")
            spokenLabel: lists.spoken(label)
        }
    }
    ColumnLayout {
        Layout.fillWidth: true
        Layout.alignment: Qt.AlignTop
        Layout.preferredWidth: 1
        spacing: Theme.spacingSmall
        Label {
            objectName: "phaseTitle_" + lists.fieldPrefix + ".install"
            text: qsTr("While the kit installs")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        Label {
            objectName: "installNote_" + lists.fieldPrefix
            Layout.fillWidth: true
            text: qsTr("Only while the kit installs: its install commands reach these hosts when a sandbox is made. The agent never gets them.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.7
            font.pixelSize: Theme.smallFontSize
        }
        KitStringList {
            editor: lists.editor
            path: lists.configPath + "install.allow"
            fieldName: lists.fieldPrefix + ".install.allow"
            networkList: "allow"
            installPhase: true
            networkGroup: lists.group
            label: qsTr("Allowed while installing")
            spokenLabel: lists.spoken(label)
            placeholder: "registry.npmjs.org"
        }
        KitStringList {
            editor: lists.editor
            path: lists.configPath + "install.deny"
            fieldName: lists.fieldPrefix + ".install.deny"
            networkList: "deny"
            installPhase: true
            networkGroup: lists.group
            label: qsTr("Denied while installing")
            spokenLabel: lists.spoken(label)
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Learning mode: a sandbox runs with its connections let through and recorded, and what it
// reached becomes a proposed allowlist to apply in full or in part.
ColumnLayout {
    id: section
    objectName: "learningSection"

    required property LearningModel learning
    // Ask mode, switched per sandbox beside learning mode.
    property AskModel asks

    spacing: Theme.spacingSmall

    Label {
        text: qsTr("Learning mode")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("While learning, a sandbox's connections are let through and recorded. Run the agent on a typical task, then allow what it needed.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.75
    }
    Label {
        objectName: "learningUnavailable"
        Layout.fillWidth: true
        visible: !section.learning.available
        text: qsTr("This daemon does not offer learning mode.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.warningColor
    }
    RowLayout {
        Layout.fillWidth: true
        enabled: section.learning.available
        spacing: Theme.spacing
        Label { text: qsTr("Sandbox") }
        ComboBox {
            id: sandboxBox
            objectName: "learningSandboxBox"
            Layout.preferredWidth: 220
            model: section.learning.sandboxes
            currentIndex: section.learning.sandboxes.indexOf(section.learning.sandbox)
            displayText: section.learning.sandboxes.length > 0 ? currentText : qsTr("No sandbox")
            Accessible.name: qsTr("Sandbox to learn from")
            onActivated: (index) => section.learning.sandbox = section.learning.sandboxes[index]
        }
        Switch {
            objectName: "learningSwitch"
            text: qsTr("Learning")
            enabled: section.learning.sandbox.length > 0
            checked: section.learning.learning
            Accessible.name: qsTr("Learning mode for %1").arg(section.learning.sandbox)
            onToggled: section.learning.setLearning(checked)
        }
        Switch {
            objectName: "askSwitch"
            text: qsTr("Ask before connecting")
            enabled: section.asks !== null && section.learning.sandbox.length > 0
            checked: section.asks !== null && section.asks.askingSandboxes.indexOf(section.learning.sandbox) >= 0
            Accessible.name: qsTr("Ask mode for %1").arg(section.learning.sandbox)
            ToolTip.visible: hovered
            ToolTip.delay: 600
            ToolTip.text: qsTr("A connection no rule covers waits while you answer, instead of being refused.")
            onToggled: section.asks.setAsking(section.learning.sandbox, checked)
        }
        Item { Layout.fillWidth: true }
        Button {
            objectName: "learningRefreshButton"
            text: qsTr("Refresh")
            Accessible.name: qsTr("Refresh the proposed allowlist")
            onClicked: {
                section.learning.refresh()
                if (section.asks)
                    section.asks.reload()
            }
        }
    }
    Label {
        objectName: "learningError"
        Layout.fillWidth: true
        visible: section.learning.error.length > 0
        text: section.learning.error
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
    }
    Label {
        Layout.fillWidth: true
        visible: section.learning.available && section.learning.count === 0
        text: section.learning.learning ? qsTr("Nothing recorded yet.") : qsTr("No proposal: turn learning on for this sandbox first.")
        textFormat: Text.PlainText
        opacity: 0.7
    }
    Repeater {
        model: section.learning
        delegate: CheckBox {
            id: patternBox
            objectName: "learningPattern"
            required property int index
            required property string pattern
            required property bool chosen
            Layout.fillWidth: true
            text: patternBox.pattern
            checked: patternBox.chosen
            Accessible.name: qsTr("Allow %1").arg(patternBox.pattern)
            onToggled: section.learning.setChecked(patternBox.index, patternBox.checked)
        }
    }
    RowLayout {
        Layout.fillWidth: true
        visible: section.learning.count > 0
        spacing: Theme.spacing
        ComboBox {
            id: applyWhere
            objectName: "learningWhereBox"
            Layout.preferredWidth: 220
            model: [qsTr("For this sandbox"), qsTr("For every sandbox")]
            Accessible.name: qsTr("Where to allow the patterns")
        }
        Item { Layout.fillWidth: true }
        Button {
            objectName: "learningApplySelectedButton"
            text: qsTr("Allow selected (%1)").arg(section.learning.checkedCount)
            enabled: section.learning.checkedCount > 0
            onClicked: section.learning.apply(false, applyWhere.currentIndex === 1 ? "global" : "sandbox")
        }
        Button {
            objectName: "learningApplyAllButton"
            text: qsTr("Allow all")
            onClicked: section.learning.apply(true, applyWhere.currentIndex === 1 ? "global" : "sandbox")
        }
    }
}

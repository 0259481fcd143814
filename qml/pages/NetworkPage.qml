// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Network: the preset, the refused connections as they happen (allow or dismiss each), the
// rules, what each request did, learning mode, and the upstream (company) proxy. Every change
// goes through the daemon.
ScrollablePage {
    id: page
    objectName: "page_network"
    title: qsTr("Network")
    summary: qsTr("Which domains sandboxes may reach, and the connections that were refused.")

    // The window's, as they live for the whole session (see Main.qml).
    property NetworkPolicy policy
    property NetworkNotifier notifier
    readonly property alias learning: learningModel
    // Ask mode's waiting connections (the window's): the switch beside learning mode.
    property AskModel asks
    readonly property var presets: ["deny-all", "balanced", "allow-all"]
    property string message

    Connections {
        target: page.policy
        function onActionFinished(action, ok, text) {
            page.message = text
            if (ok)
                activitySection.activity.reload()
        }
    }
    LearningModel {
        id: learningModel
        policy: page.policy
    }
    // The agent's own refusals (pi-permission-system), listed beside the network's.
    AgentRefusalsModel {
        id: agentRefusals
        daemon: DaemonStatus
        onAllowed: (path) => page.message = qsTr("Changed %1").arg(path)
    }
    // Which refusals the list shows: all, the network's or the agent's.
    property string refusalKind: "all"

    function allowCurrent() {
        if (denialList.currentIndex < 0)
            return
        const denial = page.policy.denials.get(denialList.currentIndex)
        // The secret guard refused a value on its way to an allowed domain: the value is what to allow.
        if (denial.guardName.length > 0) {
            if (denial.guardFile !== "keychain")
                guardValueDialog.openFor(denial)
        } else {
            allowDialog.openFor(denial)
        }
    }
    function dismissCurrent() {
        if (denialList.currentIndex < 0)
            return
        const denial = page.policy.denials.get(denialList.currentIndex)
        page.policy.dismiss(denial.host, denial.sandbox)
    }

    Label {
        objectName: "networkNotConnected"
        Layout.fillWidth: true
        visible: !page.policy.connected
        text: qsTr("The daemon is not connected: rules and refused connections appear once it is.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.warningColor
    }

    // ---- preset and notifications
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        Label {
            text: qsTr("Preset")
            font.weight: Font.DemiBold
        }
        ComboBox {
            id: presetBox
            objectName: "presetBox"
            Layout.preferredWidth: 160
            model: page.presets
            enabled: page.policy.connected
            currentIndex: Math.max(0, page.presets.indexOf(page.policy.preset))
            Accessible.name: qsTr("Global preset")
            onActivated: (index) => {
                page.policy.setPreset(page.presets[index])
                // Shows the preset in force again once the daemon has answered (or refused).
                currentIndex = Qt.binding(() => Math.max(0, page.presets.indexOf(page.policy.preset)))
            }
        }
        Label {
            objectName: "presetDescription"
            Layout.fillWidth: true
            text: page.policy.presetDescription
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.75
        }
    }
    Switch {
        objectName: "notificationSwitch"
        text: qsTr("Notify me of refused connections while the window is in the background")
        checked: page.notifier.enabled
        Accessible.name: text
        onToggled: page.notifier.enabled = checked
    }

    // ---- activity at a glance: clicking a bar or a destination narrows the requests below
    ActivitySection {
        id: activitySection
        objectName: "activitySection"
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        sandboxes: learningModel.sandboxes
        chosenHost: requestsSection.requests.host
        chosenStart: requestsSection.requests.fromTime
        onBucketChosen: (from, until) => requestsSection.requests.narrow("", from, until)
        onHostChosen: (host) => requestsSection.requests.narrow(host, 0, 0)
        // The same dialog and promotion as a refused row's Allow, for where it was refused last.
        onAllowRequested: (destination) => allowDialog.openFor({ host: destination.host, port: destination.refusedPort,
                                                                 sandbox: destination.refusedSandbox,
                                                                 kit: destination.refusedKit })
    }
    // The requests follow the sandbox chosen for the activity.
    Connections {
        target: activitySection.activity
        function onSandboxChanged() { requestsSection.requests.sandbox = activitySection.activity.sandbox }
    }

    // ---- refused connections
    Label {
        Layout.topMargin: Theme.spacing
        text: qsTr("Refused connections")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("Live, one row per host and sandbox. Keys: A allows the selected row, D or Delete dismisses it.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.7
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacingSmall
        Label {
            text: qsTr("Show:")
            textFormat: Text.PlainText
        }
        Repeater {
            model: [{ kind: "all", text: qsTr("All") }, { kind: "network", text: qsTr("Network") },
                    { kind: "agent", text: qsTr("Agent") }]
            delegate: RadioButton {
                required property var modelData
                objectName: "refusalKind_" + modelData.kind
                text: modelData.text
                checked: page.refusalKind === modelData.kind
                Accessible.name: qsTr("Show refusals: %1").arg(modelData.text)
                onClicked: page.refusalKind = modelData.kind
            }
        }
    }
    Label {
        objectName: "denialsEmpty"
        Layout.fillWidth: true
        visible: denialList.count === 0 && page.refusalKind !== "agent"
        text: page.policy.denials.loading ? qsTr("Loading…") : qsTr("Nothing has been refused.")
        textFormat: Text.PlainText
        opacity: 0.7
    }
    Rectangle {
        Layout.fillWidth: true
        visible: denialList.count > 0 && page.refusalKind !== "agent"
        implicitHeight: Math.min(denialList.contentHeight, 340) + 2
        radius: Theme.radius
        color: palette.base
        border.color: denialList.activeFocus ? palette.highlight : Theme.mix(palette.base, palette.windowText, 0.18)
        border.width: denialList.activeFocus ? 2 : 1

        ListView {
            id: denialList
            objectName: "denialList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: page.policy.denials
            currentIndex: count > 0 ? 0 : -1
            activeFocusOnTab: true
            keyNavigationEnabled: true
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Refused connections")

            Keys.onPressed: (event) => {
                if (event.key === Qt.Key_A) {
                    page.allowCurrent()
                    event.accepted = true
                } else if (event.key === Qt.Key_D || event.key === Qt.Key_Delete) {
                    page.dismissCurrent()
                    event.accepted = true
                }
            }

            delegate: DenialRow {
                onAllowRequested: page.allowCurrent()
                onDismissRequested: page.policy.dismiss(host, sandbox)
            }
        }
    }

    // ---- what the agent was refused or asked, in the same list when "All" is chosen
    Label {
        objectName: "agentRefusalsEmpty"
        Layout.fillWidth: true
        visible: agentList.count === 0 && page.refusalKind === "agent"
        text: qsTr("The agents were refused nothing.")
        textFormat: Text.PlainText
        opacity: 0.7
    }
    Rectangle {
        Layout.fillWidth: true
        visible: agentList.count > 0 && page.refusalKind !== "network"
        implicitHeight: Math.min(agentList.contentHeight, 340) + 2
        radius: Theme.radius
        color: palette.base
        border.color: Theme.mix(palette.base, palette.windowText, 0.18)
        border.width: 1

        ListView {
            id: agentList
            objectName: "agentRefusalList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: agentRefusals
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Refused agent actions")
            delegate: AgentRefusalRow {
                onAllowRequested: agentAllowDialog.openFor(agentRefusals.get(index))
                onDismissRequested: agentRefusals.dismiss(refusalId)
            }
        }
    }
    Label {
        Layout.fillWidth: true
        visible: agentRefusals.error.length > 0
        text: agentRefusals.error
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
    }

    // ---- rules
    RowLayout {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        spacing: Theme.spacing
        Label {
            Layout.fillWidth: true
            text: qsTr("Rules")
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
            Accessible.role: Accessible.Heading
            Accessible.name: text
        }
        TextField {
            objectName: "ruleFilterField"
            Layout.preferredWidth: 220
            placeholderText: qsTr("Filter rules")
            Accessible.name: qsTr("Filter rules")
            onTextChanged: page.policy.rules.filter = text
        }
        Button {
            objectName: "ruleAddButton"
            text: qsTr("Add rule…")
            enabled: page.policy.connected
            onClicked: ruleDialog.openForNew()
        }
    }
    RowLayout {
        Layout.fillWidth: true
        visible: ruleList.count > 0
        spacing: Theme.spacingSmall
        // Same widths as RuleRow's columns, plus the delegate's padding.
        Item { implicitWidth: 12 }
        Label { Layout.preferredWidth: 150; text: qsTr("Scope"); font.weight: Font.DemiBold }
        Label { Layout.fillWidth: true; text: qsTr("Pattern"); font.weight: Font.DemiBold }
        Label { Layout.preferredWidth: 70; text: qsTr("Decision"); font.weight: Font.DemiBold }
        Label { Layout.preferredWidth: 80; text: qsTr("Origin"); font.weight: Font.DemiBold }
        Label { Layout.preferredWidth: 120; text: qsTr("Created"); font.weight: Font.DemiBold }
        Item { implicitWidth: 120 }
    }
    Label {
        objectName: "rulesEmpty"
        Layout.fillWidth: true
        visible: ruleList.count === 0
        text: page.policy.rules.totalCount > 0 ? qsTr("No rule matches the filter.")
                                                 : qsTr("No rules yet: with the %1 preset, only what you allow gets through.")
                                                       .arg(page.policy.preset.length > 0 ? page.policy.preset : "deny-all")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        opacity: 0.7
    }
    ListView {
        id: ruleList
        objectName: "ruleList"
        Layout.fillWidth: true
        implicitHeight: Math.min(contentHeight, 360)
        visible: count > 0
        clip: true
        model: page.policy.rules
        currentIndex: -1
        activeFocusOnTab: true
        keyNavigationEnabled: true
        boundsBehavior: Flickable.StopAtBounds
        ScrollBar.vertical: ScrollBar {}
        Accessible.role: Accessible.List
        Accessible.name: qsTr("Rules")
        Keys.onPressed: (event) => {
            if (currentIndex < 0)
                return
            const rule = page.policy.rules.get(currentIndex)
            if (rule.readOnly)
                return
            if (event.key === Qt.Key_Delete) {
                page.policy.removeRule(rule.ruleId)
                event.accepted = true
            } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                ruleDialog.openForRule(rule)
                event.accepted = true
            }
        }
        delegate: RuleRow {
            onEditRequested: ruleDialog.openForRule(page.policy.rules.get(index))
            onRemoveRequested: page.policy.removeRule(ruleId)
        }
    }

    Label {
        objectName: "networkMessage"
        Layout.fillWidth: true
        visible: page.message.length > 0
        text: page.message
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: page.policy.error.length > 0 ? Theme.errorColor : palette.windowText
    }

    RequestsSection {
        id: requestsSection
        objectName: "requestsSection"
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        policy: page.policy
        sandboxes: learningModel.sandboxes
    }

    LearningSection {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        learning: learningModel
        asks: page.asks
    }

    UpstreamProxySection {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
    }

    DenialAllowDialog {
        id: allowDialog
        parent: Overlay.overlay
        policy: page.policy
    }
    GuardValueAllowDialog {
        id: guardValueDialog
        parent: Overlay.overlay
        policy: page.policy
    }
    AgentAllowDialog {
        id: agentAllowDialog
        parent: Overlay.overlay
        refusals: agentRefusals
    }
    RuleDialog {
        id: ruleDialog
        parent: Overlay.overlay
        policy: page.policy
    }
}

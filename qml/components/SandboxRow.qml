// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One sandbox of the Sandboxes page: name, its state and its agent's, kit, backend, workspace,
// uptime and the refusals since it started, with its actions. Its agent and a shell open in a
// terminal emulator; without one, the row says what to install and offers the command to copy.
Rectangle {
    id: row

    required property string name
    required property string kit
    required property string backend
    required property string status
    required property string workspace
    required property string uptime
    required property int denials
    required property int agentRefusals
    // Its connections in the last hour, [[allowed, refused], ...]: drawn as a sparkline.
    required property var activity
    required property bool busy
    required property string agentState
    required property int agentAttached
    required property string stateText
    required property string rootText
    required property string sharesText
    // The terminal verbs the sandbox's kit declares (agent-interactive-sessions@1), by name.
    required property var agentVerbs
    // Whether a terminal emulator was found: the page knows, not the model.
    property bool terminalAvailable: true

    readonly property bool running: status === "running"
    readonly property bool agentRunning: running && agentState === "running"
    // What opens the agent from a terminal: --start when the sandbox or its agent must start.
    readonly property bool kitStartsSessions: agentVerbs.indexOf("new-session") >= 0
    readonly property bool kitResumes: agentVerbs.indexOf("resume") >= 0 || agentVerbs.indexOf("continue") >= 0
    // A kit that says how to start its agent's session gets it, unless the agent runs already.
    readonly property string agentCommand: kitStartsSessions && !agentRunning ? "paddock agent " + name
        : "paddock attach " + (agentRunning ? "" : "--start ") + name

    signal startRequested()
    signal stopRequested()
    signal removeRequested()
    signal recreateRequested()
    signal agentRequested()
    signal resumeRequested()
    signal shellRequested()
    signal logsRequested()
    signal reviewRequested()
    signal permissionsRequested()
    signal servicesRequested()

    objectName: "sandboxRow_" + name
    implicitHeight: content.implicitHeight + 2 * Theme.spacing
    radius: Theme.radius
    color: palette.base
    border.color: Theme.mix(palette.base, palette.windowText, 0.18)
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Sandbox %1, %2").arg(name).arg(statusLabel.text)

    ColumnLayout {
        id: content
        anchors.fill: parent
        anchors.margins: Theme.spacing
        spacing: Theme.spacingSmall

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacing

            Label {
                objectName: "sandboxName"
                Layout.fillWidth: true
                text: row.name
                textFormat: Text.PlainText
                elide: Text.ElideRight
                font.weight: Font.DemiBold
                font.pixelSize: Theme.headlineFontSize
                color: palette.text
            }
            Sparkline {
                objectName: "sandboxSparkline"
                buckets: row.activity
                visible: total > 0
                Accessible.name: qsTr("Connections in the last hour: %1").arg(total)
                ToolTip.visible: sparkHover.hovered
                ToolTip.delay: 300
                ToolTip.text: Accessible.name
                HoverHandler { id: sparkHover }
            }
            Rectangle {
                implicitWidth: statusLabel.implicitWidth + 2 * Theme.spacingSmall
                implicitHeight: statusLabel.implicitHeight + 4
                radius: height / 2
                // Green while the agent runs, amber once it exited: the sandbox waits for it.
                readonly property bool lit: row.running && (row.agentRunning || row.agentState === "exited")
                color: row.agentRunning ? Theme.okColor
                       : lit ? Theme.warningColor
                       : Theme.mix(palette.base, palette.windowText, 0.25)
                Label {
                    id: statusLabel
                    objectName: "sandboxStatus"
                    anchors.centerIn: parent
                    text: row.busy ? qsTr("Working…") : row.stateText
                    textFormat: Text.PlainText
                    color: parent.lit ? "white" : palette.text
                    font.pixelSize: Theme.smallFontSize
                }
            }
        }
        Label {
            objectName: "sandboxDetails"
            Layout.fillWidth: true
            text: qsTr("Kit %1 · %2").arg(row.kit).arg(row.backend)
                  + (row.running && row.uptime.length > 0 ? " · " + qsTr("up %1").arg(row.uptime) : "")
                  + (row.agentRunning && row.agentAttached > 0 ? " · " + qsTr("agent open in a terminal") : "")
                  + (row.rootText.length > 0 ? " · " + row.rootText : "")
            textFormat: Text.PlainText
            elide: Text.ElideRight
            color: palette.text
            opacity: 0.8
        }
        Label {
            objectName: "sandboxWorkspace"
            Layout.fillWidth: true
            text: row.workspace
            textFormat: Text.PlainText
            elide: Text.ElideMiddle
            font.family: "monospace"
            color: palette.text
            opacity: 0.8
        }
        Label {
            objectName: "sandboxShares"
            Layout.fillWidth: true
            visible: row.sharesText.length > 0
            text: row.sharesText
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: palette.text
            opacity: 0.8
        }
        Label {
            objectName: "sandboxDenials"
            Layout.fillWidth: true
            text: row.denials === 0 ? qsTr("No refused connections since it started")
                  : row.denials === 1 ? qsTr("1 refused connection since it started")
                  : qsTr("%1 refused connections since it started").arg(row.denials)
            textFormat: Text.PlainText
            color: row.denials > 0 ? Theme.warningColor : palette.text
            opacity: row.denials > 0 ? 1 : 0.7
        }
        // No terminal emulator: what to install, and the command for a terminal found elsewhere.
        ColumnLayout {
            objectName: "sandboxNoTerminal"
            Layout.fillWidth: true
            visible: !row.terminalAvailable
            spacing: 2
            Label {
                objectName: "sandboxNoTerminalText"
                Layout.fillWidth: true
                text: qsTr("Install a terminal (xterm, GNOME Terminal or Konsole) to open the agent here, or run this in one:")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: palette.text
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.spacingSmall
                TextEdit {
                    objectName: "sandboxAgentCommand"
                    Layout.fillWidth: true
                    text: row.agentCommand
                    textFormat: TextEdit.PlainText
                    readOnly: true
                    selectByMouse: true
                    activeFocusOnTab: false // the Copy button is the keyboard way in
                    wrapMode: TextEdit.WrapAnywhere
                    font.family: "monospace"
                    color: palette.text
                    selectionColor: palette.highlight
                    selectedTextColor: palette.highlightedText
                    Accessible.role: Accessible.StaticText
                    Accessible.name: row.agentCommand
                }
                Button {
                    id: copyButton
                    objectName: "sandboxCopyButton"
                    property bool copied: false
                    text: copied ? qsTr("Copied") : qsTr("Copy")
                    Accessible.name: qsTr("Copy the command %1").arg(row.agentCommand)
                    onClicked: {
                        Clipboard.setText(row.agentCommand)
                        copied = true
                        copiedReset.restart()
                    }
                    Timer {
                        id: copiedReset
                        interval: 1500
                        onTriggered: copyButton.copied = false
                    }
                }
            }
        }
        Label {
            objectName: "sandboxAgentRefusals"
            Layout.fillWidth: true
            visible: row.running || row.agentRefusals > 0
            text: row.agentRefusals === 0 ? qsTr("No agent action refused since it started")
                  : row.agentRefusals === 1 ? qsTr("1 agent action refused or asked since it started")
                  : qsTr("%1 agent actions refused or asked since it started").arg(row.agentRefusals)
            textFormat: Text.PlainText
            color: row.agentRefusals > 0 ? Theme.warningColor : palette.text
            opacity: row.agentRefusals > 0 ? 1 : 0.7
        }
        // The actions wrap onto a second line where the row is too narrow for them all.
        Flow {
            Layout.fillWidth: true
            spacing: Theme.spacingSmall

            Button {
                objectName: "sandboxStartStopButton"
                enabled: !row.busy
                text: row.running ? qsTr("Stop") : qsTr("Start")
                Accessible.name: row.running ? qsTr("Stop %1").arg(row.name) : qsTr("Start %1").arg(row.name)
                onClicked: row.running ? row.stopRequested() : row.startRequested()
            }
            Button {
                objectName: "sandboxAgentButton"
                visible: row.terminalAvailable
                enabled: !row.busy
                highlighted: row.agentRunning
                text: qsTr("Open agent")
                Accessible.name: row.running ? qsTr("Open the agent of %1 in a terminal").arg(row.name)
                                             : qsTr("Start %1 and open its agent in a terminal").arg(row.name)
                onClicked: row.agentRequested()
            }
            Button {
                objectName: "sandboxResumeButton"
                visible: row.terminalAvailable && row.kitResumes
                enabled: !row.busy
                text: qsTr("Resume session…")
                Accessible.name: qsTr("Resume a session of the agent of %1 in a terminal").arg(row.name)
                onClicked: row.resumeRequested()
            }
            Button {
                objectName: "sandboxShellButton"
                visible: row.terminalAvailable
                enabled: row.running && !row.busy
                text: qsTr("Open shell")
                Accessible.name: qsTr("Open a shell in %1 in a terminal").arg(row.name)
                onClicked: row.shellRequested()
            }
            Button {
                objectName: "sandboxLogsButton"
                text: qsTr("Logs")
                Accessible.name: qsTr("Show the output of %1").arg(row.name)
                onClicked: row.logsRequested()
            }
            Button {
                objectName: "sandboxReviewButton"
                text: qsTr("Review…")
                Accessible.name: qsTr("What %1 changed in the workspace that your tools run").arg(row.name)
                onClicked: row.reviewRequested()
            }
            Button {
                objectName: "sandboxPermissionsButton"
                text: qsTr("Permissions…")
                Accessible.name: qsTr("The agent's permissions in %1").arg(row.name)
                onClicked: row.permissionsRequested()
            }
            Button {
                objectName: "sandboxServicesButton"
                text: qsTr("Services…")
                Accessible.name: qsTr("The companion services of %1").arg(row.name)
                onClicked: row.servicesRequested()
            }
            Button {
                objectName: "sandboxRecreateButton"
                enabled: !row.busy
                text: qsTr("Recreate…")
                Accessible.name: qsTr("Make %1 again from its kit, keeping its volumes").arg(row.name)
                onClicked: row.recreateRequested()
            }
            Button {
                objectName: "sandboxRemoveButton"
                enabled: !row.busy
                text: qsTr("Remove…")
                Accessible.name: qsTr("Remove %1").arg(row.name)
                onClicked: row.removeRequested()
            }
        }
    }
}

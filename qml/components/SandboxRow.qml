// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One sandbox of the Sandboxes page: name and status, kit, backend, workspace, uptime and the
// refusals since it started, with its actions.
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
    required property bool busy
    required property int exitCode

    readonly property bool running: status === "running"

    signal startRequested()
    signal stopRequested()
    signal removeRequested()
    signal terminalRequested()
    signal logsRequested()
    signal permissionsRequested()

    objectName: "sandboxRow_" + name
    implicitHeight: content.implicitHeight + 2 * Theme.spacing
    radius: Theme.radius
    color: palette.base
    border.color: Theme.mix(palette.base, palette.windowText, 0.18)
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Sandbox %1, %2").arg(name).arg(statusLabel.text)

    function statusText(status) {
        if (status === "running") return qsTr("Running")
        if (status === "stopped") return qsTr("Stopped")
        if (status === "created") return qsTr("Created")
        return status
    }

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
            Rectangle {
                implicitWidth: statusLabel.implicitWidth + 2 * Theme.spacingSmall
                implicitHeight: statusLabel.implicitHeight + 4
                radius: height / 2
                color: row.running ? Theme.okColor : Theme.mix(palette.base, palette.windowText, 0.25)
                Label {
                    id: statusLabel
                    objectName: "sandboxStatus"
                    anchors.centerIn: parent
                    text: row.busy ? qsTr("Working…") : row.statusText(row.status)
                    textFormat: Text.PlainText
                    color: row.running ? "white" : palette.text
                    font.pixelSize: Theme.smallFontSize
                }
            }
        }
        Label {
            objectName: "sandboxDetails"
            Layout.fillWidth: true
            text: qsTr("Kit %1 · %2").arg(row.kit).arg(row.backend)
                  + (row.running && row.uptime.length > 0 ? " · " + qsTr("up %1").arg(row.uptime) : "")
                  + (!row.running && row.exitCode >= 0 ? " · " + qsTr("exited with status %1").arg(row.exitCode) : "")
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
            objectName: "sandboxDenials"
            Layout.fillWidth: true
            text: row.denials === 0 ? qsTr("No refused connections since it started")
                  : row.denials === 1 ? qsTr("1 refused connection since it started")
                  : qsTr("%1 refused connections since it started").arg(row.denials)
            textFormat: Text.PlainText
            color: row.denials > 0 ? Theme.warningColor : palette.text
            opacity: row.denials > 0 ? 1 : 0.7
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
        RowLayout {
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
                objectName: "sandboxTerminalButton"
                enabled: row.running && !row.busy
                text: qsTr("Open terminal")
                Accessible.name: qsTr("Open a terminal in %1").arg(row.name)
                onClicked: row.terminalRequested()
            }
            Button {
                objectName: "sandboxLogsButton"
                text: qsTr("Logs")
                Accessible.name: qsTr("Show the output of %1").arg(row.name)
                onClicked: row.logsRequested()
            }
            Button {
                objectName: "sandboxPermissionsButton"
                text: qsTr("Permissions…")
                Accessible.name: qsTr("The agent's permissions in %1").arg(row.name)
                onClicked: row.permissionsRequested()
            }
            Item { Layout.fillWidth: true }
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

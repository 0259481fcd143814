// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One request in the Network page's list of what each request did: method and URL (the query
// left out), which sandbox and program, bytes each way, how long, the status, and when.
ItemDelegate {
    id: row
    objectName: "requestRow"

    required property int index
    required property string timeText
    required property string sandbox
    required property string method
    required property string url
    required property int status
    required property string outcome
    required property string reason
    required property string program
    required property string written
    required property string command
    required property var bytesUp
    required property var bytesDown
    required property var durationMs

    readonly property bool refused: row.outcome === "denied"

    function size(bytes) {
        const n = Number(bytes)
        if (n < 1024)
            return qsTr("%1 B").arg(n)
        if (n < 1024 * 1024)
            return qsTr("%1 KiB").arg((n / 1024).toFixed(1))
        return qsTr("%1 MiB").arg((n / (1024 * 1024)).toFixed(1))
    }

    width: ListView.view ? ListView.view.width : implicitWidth
    highlighted: ListView.isCurrentItem
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("%1 %2, status %3, sandbox %4").arg(row.method).arg(row.url)
        .arg(row.status > 0 ? row.status : "-").arg(row.sandbox)
    // The command line of the program that asked (credentials already left out by the daemon).
    ToolTip.visible: hovered && row.command.length > 0
    ToolTip.text: row.command
    ToolTip.delay: 600

    onClicked: ListView.view.currentIndex = row.index

    contentItem: RowLayout {
        spacing: Theme.spacing

        Label {
            objectName: "requestMethod"
            Layout.preferredWidth: 64
            text: row.method
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
            elide: Text.ElideRight
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2
            Label {
                objectName: "requestUrl"
                Layout.fillWidth: true
                text: row.url
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
            }
            Label {
                objectName: "requestDetail"
                Layout.fillWidth: true
                text: {
                    const parts = [qsTr("Sandbox %1").arg(row.sandbox.length > 0 ? row.sandbox : "-")]
                    if (row.program.length > 0)
                        parts.push(row.written.length > 0
                                   ? qsTr("%1 (written inside the sandbox: %2)").arg(row.program).arg(row.written)
                                   : row.program)
                    parts.push(qsTr("%1 up, %2 down").arg(row.size(row.bytesUp)).arg(row.size(row.bytesDown)))
                    parts.push(qsTr("%1 ms").arg(Number(row.durationMs)))
                    if (row.refused && row.reason.length > 0)
                        parts.push(row.reason)
                    return parts.join(" · ")
                }
                textFormat: Text.PlainText
                font.pixelSize: Theme.smallFontSize
                opacity: 0.75
                elide: Text.ElideRight
            }
        }
        Label {
            objectName: "requestStatus"
            Layout.preferredWidth: 48
            horizontalAlignment: Text.AlignRight
            // 0: the connection ended before an answer came.
            text: row.status > 0 ? String(row.status) : "-"
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
            color: row.refused ? Theme.errorColor : row.status >= 400 || row.status === 0 ? Theme.warningColor
                                                                                        : palette.windowText
            Accessible.name: row.refused ? qsTr("Refused by Paddock, status %1").arg(row.status)
                                         : qsTr("Status %1").arg(row.status)
        }
        Label {
            objectName: "requestTime"
            Layout.minimumWidth: 64
            text: row.timeText
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.75
        }
    }
}

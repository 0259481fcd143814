// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The status line: whether paddockd is connected, and its version.
Rectangle {
    id: footer

    readonly property string statusText: DaemonStatus.connected
        ? (DaemonStatus.version.length > 0 ? qsTr("Daemon connected, version %1").arg(DaemonStatus.version)
                                           : qsTr("Daemon connected"))
        : DaemonStatus.checking && DaemonStatus.error.length === 0 ? qsTr("Looking for the daemon…")
        : qsTr("Daemon not connected")

    implicitHeight: row.implicitHeight + 2 * Theme.spacingSmall
    color: Theme.mix(palette.window, palette.windowText, 0.04)

    Rectangle {
        anchors.top: parent.top
        width: parent.width
        height: 1
        color: Theme.mix(palette.window, palette.windowText, 0.15)
    }

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.leftMargin: Theme.spacing
        anchors.rightMargin: Theme.spacing
        spacing: Theme.spacingSmall

        Rectangle {
            objectName: "daemonStatusDot"
            implicitWidth: 10
            implicitHeight: 10
            radius: 5
            color: DaemonStatus.connected ? Theme.okColor
                 : DaemonStatus.error.length > 0 ? Theme.errorColor : Theme.warningColor
            Accessible.ignored: true
        }
        Label {
            objectName: "daemonStatusText"
            text: footer.statusText
            textFormat: Text.PlainText
            Accessible.role: Accessible.StatusBar
            Accessible.name: footer.statusText
        }
        Label {
            objectName: "daemonStatusError"
            Layout.fillWidth: true
            visible: !DaemonStatus.connected && DaemonStatus.error.length > 0
            text: "— " + DaemonStatus.error
            textFormat: Text.PlainText
            elide: Text.ElideRight
            opacity: 0.7
            // The whole sentence when it does not fit.
            ToolTip.visible: errorHover.hovered && truncated
            ToolTip.text: DaemonStatus.error
            ToolTip.delay: 500

            HoverHandler {
                id: errorHover
            }
        }
        Item {
            Layout.fillWidth: true
            visible: DaemonStatus.connected || DaemonStatus.error.length === 0
        }
        Button {
            objectName: "daemonRetryButton"
            visible: !DaemonStatus.connected
            enabled: !DaemonStatus.checking
            flat: true
            text: qsTr("Check again")
            Accessible.name: qsTr("Check the daemon connection again")
            onClicked: DaemonStatus.refresh()
        }
        Label {
            text: qsTr("Paddock %1").arg(Qt.application.version)
            textFormat: Text.PlainText
            opacity: 0.6
        }
    }
}

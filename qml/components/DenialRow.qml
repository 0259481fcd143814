// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One refused host in the Network page's live list: where it was refused, how often and
// when last, and the two things to do about it. A request the secret guard refused went to an
// allowed domain: what can be allowed there is the value it carried, for its sandbox.
ItemDelegate {
    id: row
    objectName: "denialRow"

    required property int index
    required property string host
    required property string sandbox
    required property string kit
    required property int port
    required property string reason
    required property string program
    // Where the program's file was written inside the sandbox: not its base's, whatever its name.
    required property string written
    required property string protocol
    required property var count
    required property string lastSeenText
    // Set on a secret-guard refusal: the value's file and name.
    required property string guardFile
    required property string guardName
    readonly property bool guarded: row.guardName.length > 0

    signal allowRequested()
    signal dismissRequested()

    width: ListView.view ? ListView.view.width : implicitWidth
    highlighted: ListView.isCurrentItem
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("%1 refused for sandbox %2, %n time(s), last at %3", "", Number(row.count))
        .arg(row.host).arg(row.sandbox).arg(row.lastSeenText)

    onClicked: ListView.view.currentIndex = row.index

    contentItem: RowLayout {
        spacing: Theme.spacing

        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2
            Label {
                objectName: "denialHost"
                Layout.fillWidth: true
                text: row.port === 443 ? row.host : row.host + ":" + row.port
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            Label {
                Layout.fillWidth: true
                objectName: "denialDetail"
                // Which program inside asked, when paddock-init could tell, and how a connection
                // that did not use the proxy went (tcp, udp, dns): captured inside the sandbox.
                readonly property string how: ["tcp", "udp", "dns"].indexOf(row.protocol) >= 0
                                              ? " · " + row.protocol : ""
                readonly property string who: row.written.length > 0
                                              ? qsTr("%1 (written inside the sandbox: %2)").arg(row.program).arg(row.written)
                                              : row.program
                text: row.program.length > 0
                      ? qsTr("Sandbox %1 · %2 · %3").arg(row.sandbox.length > 0 ? row.sandbox : "-")
                            .arg(who + how).arg(row.reason)
                      : qsTr("Sandbox %1 · %2").arg(row.sandbox.length > 0 ? row.sandbox + how : "-").arg(row.reason)
                textFormat: Text.PlainText
                font.pixelSize: Theme.smallFontSize
                opacity: 0.75
                elide: Text.ElideRight
            }
        }
        Label {
            objectName: "denialCount"
            text: qsTr("× %1").arg(Number(row.count))
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
            Accessible.name: qsTr("%n refusal(s)", "", Number(row.count))
        }
        Label {
            objectName: "denialLastSeen"
            Layout.minimumWidth: 64
            text: row.lastSeenText
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.75
        }
        Button {
            objectName: "denialAllowButton"
            visible: !row.guarded
            text: qsTr("Allow…")
            // Only TCP leaves a sandbox: no rule lets a datagram out.
            enabled: row.protocol !== "udp"
            ToolTip.visible: hovered && !enabled
            ToolTip.text: qsTr("Only TCP leaves a sandbox; UDP has no rule to allow it")
            Accessible.name: qsTr("Allow %1").arg(row.host)
            onClicked: {
                row.ListView.view.currentIndex = row.index
                row.allowRequested()
            }
        }
        Button {
            objectName: "denialAllowValueButton"
            visible: row.guarded
            // A keychain secret is Paddock's to add where it is bound; no sandbox needs to send one.
            enabled: row.guardFile !== "keychain"
            ToolTip.visible: hovered && !enabled
            ToolTip.text: qsTr("A secret of Paddock's keychain: Paddock adds it where it is bound, the sandbox never needs to send it")
            text: qsTr("Allow this value for %1…").arg(row.sandbox)
            Accessible.name: qsTr("Allow the value of %1 from %2 for %3").arg(row.guardName).arg(row.guardFile).arg(row.sandbox)
            onClicked: {
                row.ListView.view.currentIndex = row.index
                row.allowRequested()
            }
        }
        Button {
            objectName: "denialDismissButton"
            text: qsTr("Dismiss")
            flat: true
            Accessible.name: qsTr("Dismiss %1").arg(row.host)
            onClicked: row.dismissRequested()
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One destination of the activity's top list: how many connections it got allowed and
// refused, drawn beside the busiest one's, the bytes each way, and Allow when it was refused.
ItemDelegate {
    id: row
    objectName: "activityHost"

    required property var modelData
    readonly property string host: modelData.host
    readonly property real allowed: modelData.allowed
    readonly property real refused: modelData.refused
    property real widest: 1
    property bool selected

    signal picked()
    signal allowRequested()

    highlighted: selected
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("%1: %2 allowed, %3 refused").arg(host).arg(allowed).arg(refused)
    onClicked: row.picked()

    contentItem: RowLayout {
        spacing: Theme.spacing
        Label {
            objectName: "activityHostName"
            Layout.preferredWidth: 220
            text: row.host
            textFormat: Text.PlainText
            elide: Text.ElideMiddle
            font.weight: Font.DemiBold
        }
        Item {
            Layout.fillWidth: true
            implicitHeight: 10
            Row {
                anchors.verticalCenter: parent.verticalCenter
                Rectangle {
                    width: parent.parent.width * row.allowed / Math.max(1, row.widest)
                    height: 10
                    color: Theme.okColor
                }
                Rectangle {
                    width: parent.parent.width * row.refused / Math.max(1, row.widest)
                    height: 10
                    color: Theme.errorColor
                }
            }
        }
        Label {
            objectName: "activityHostCounts"
            Layout.preferredWidth: 170
            text: qsTr("%1 allowed · %2 refused").arg(row.allowed).arg(row.refused)
                  + (row.modelData.bytesText.length > 0 ? "\n" + row.modelData.bytesText : "")
            textFormat: Text.PlainText
            font.pixelSize: Theme.smallFontSize
            opacity: 0.8
        }
        Button {
            objectName: "activityHostAllow"
            text: qsTr("Allow…")
            visible: row.refused > 0
            Accessible.name: qsTr("Allow %1").arg(row.host)
            onClicked: row.allowRequested()
        }
    }
}

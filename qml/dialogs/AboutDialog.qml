// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Name, version, purpose and licence of the program.
Dialog {
    id: dialog

    title: qsTr("About Paddock")
    modal: true
    anchors.centerIn: parent
    width: Math.min(440, parent ? parent.width - 2 * Theme.spacingLarge : 440)
    padding: Theme.spacingLarge

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        Image {
            Layout.alignment: Qt.AlignHCenter
            source: "qrc:/icons/paddock-128.png"
            sourceSize: Qt.size(96, 96)
            Accessible.ignored: true
        }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("Paddock %1").arg(Qt.application.version)
            textFormat: Text.PlainText
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
        }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("Runs coding agents in sandboxes whose only way out is a proxy that lets through the domains you allow.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("Free software under the GNU General Public License, version 3 or later.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.7
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "aboutCloseButton"
            text: qsTr("Close")
            Accessible.name: qsTr("Close")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

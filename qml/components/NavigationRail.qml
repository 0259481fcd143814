// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The column on the left: the logo, one button per page, and About at the bottom.
Rectangle {
    id: rail

    // [{ key, title, icon }] in page order
    property var pages: []
    property int currentIndex: 0

    signal pageRequested(int index)
    signal aboutRequested()

    implicitWidth: Theme.railWidth
    color: Theme.mix(palette.window, palette.windowText, 0.04)
    Accessible.role: Accessible.PageTabList
    Accessible.name: qsTr("Pages")

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: Theme.spacingSmall
        anchors.topMargin: Theme.spacing
        spacing: Theme.spacingSmall

        Image {
            Layout.alignment: Qt.AlignHCenter
            Layout.bottomMargin: Theme.spacing
            source: "qrc:/icons/paddock-128.png"
            sourceSize: Qt.size(48, 48)
            smooth: true
            Accessible.role: Accessible.Graphic
            Accessible.name: qsTr("Paddock")
        }
        Repeater {
            model: rail.pages
            delegate: NavigationButton {
                id: navButton
                required property var modelData
                required property int index
                objectName: "nav_" + navButton.modelData.key
                Layout.alignment: Qt.AlignHCenter
                text: navButton.modelData.title
                iconPath: navButton.modelData.icon
                current: rail.currentIndex === navButton.index
                // Keyboard focus starts on, and follows, the current page's button.
                focus: navButton.current
                shortcutText: "Ctrl+" + (navButton.index + 1)
                onClicked: rail.pageRequested(navButton.index)
            }
        }
        Item {
            Layout.fillHeight: true
        }
        ToolButton {
            id: aboutButton
            objectName: "nav_about"
            Layout.alignment: Qt.AlignHCenter
            implicitWidth: Theme.railWidth - 2 * Theme.spacingSmall
            implicitHeight: 56
            text: qsTr("About")
            focusPolicy: Qt.StrongFocus
            Accessible.name: qsTr("About Paddock")
            onClicked: rail.aboutRequested()

            contentItem: Column {
                spacing: 2
                PathIcon {
                    anchors.horizontalCenter: parent.horizontalCenter
                    width: 20
                    height: 20
                    pathData: Icons.info
                    opacity: 0.8
                }
                Label {
                    width: parent.width
                    horizontalAlignment: Text.AlignHCenter
                    text: aboutButton.text
                    textFormat: Text.PlainText
                    font.pixelSize: Theme.smallFontSize
                    opacity: 0.8
                }
            }
        }
    }
}

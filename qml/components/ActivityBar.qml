// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import Paddock

// One time bucket of the activity timeline: allowed connections from the bottom, refused ones
// above them, scaled to the busiest bucket. Clicking it picks its time.
Item {
    id: bar
    objectName: "activityBar"

    required property var modelData
    property real peak: 1
    property bool selected
    readonly property real allowed: modelData.allowed
    readonly property real refused: modelData.refused
    readonly property real start: modelData.start

    signal picked()

    Accessible.role: Accessible.Button
    Accessible.name: qsTr("%1: %2 allowed, %3 refused").arg(modelData.label).arg(allowed).arg(refused)

    Rectangle {
        anchors.fill: parent
        visible: bar.selected || hover.hovered
        color: Theme.mix(palette.base, palette.highlight, bar.selected ? 0.35 : 0.15)
    }
    Rectangle {
        id: allowedPart
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        width: Math.max(1, bar.width - 1)
        height: bar.allowed > 0 ? Math.max(1, bar.height * bar.allowed / bar.peak) : 0
        color: Theme.okColor
    }
    Rectangle {
        anchors.bottom: allowedPart.top
        anchors.horizontalCenter: parent.horizontalCenter
        width: allowedPart.width
        height: bar.refused > 0 ? Math.max(1, bar.height * bar.refused / bar.peak) : 0
        color: Theme.errorColor
    }
    HoverHandler { id: hover }
    TapHandler { onTapped: bar.picked() }
    ToolTip.visible: hover.hovered
    ToolTip.delay: 300
    ToolTip.text: Accessible.name
}

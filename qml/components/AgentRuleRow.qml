// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One pattern of a surface: a handle to drag it to another place, the pattern, its state,
// arrows and remove; the schema's message for it underneath.
Item {
    id: row

    required property var modelData
    readonly property string surface: modelData.surface
    readonly property string pattern: modelData.pattern
    readonly property bool shorthand: modelData.shorthand
    property bool readOnly: false
    property var states: []

    signal stateChosen(string state)
    signal moveRequested(int to)
    signal removeRequested()

    implicitHeight: column.implicitHeight + Theme.spacingSmall

    ColumnLayout {
        id: column
        width: parent.width
        spacing: 2

        // The first pattern of a surface names it.
        Label {
            Layout.fillWidth: true
            visible: row.modelData.index <= 0
            topPadding: Theme.spacingSmall
            text: row.surface === "*" ? qsTr("* (every tool without its own rule)") : row.surface
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacingSmall

            Label {
                id: handle
                objectName: "agentRuleHandle"
                visible: !row.readOnly && !row.shorthand && row.modelData.count > 1
                text: "≡"
                font.pixelSize: Theme.smallFontSize * 1.5
                Accessible.name: qsTr("Drag to move %1").arg(row.pattern)
                DragHandler {
                    id: drag
                    target: null
                    yAxis.enabled: true
                    xAxis.enabled: false
                    onActiveChanged: {
                        if (active)
                            return
                        const steps = Math.round(drag.centroid.scenePosition.y - drag.centroid.scenePressPosition.y) / row.height
                        const to = Math.max(0, Math.min(row.modelData.count - 1, row.modelData.index + Math.round(steps)))
                        if (to !== row.modelData.index)
                            row.moveRequested(to)
                    }
                }
            }
            Label {
                Layout.fillWidth: true
                text: row.shorthand ? qsTr("(every value)") : row.pattern
                textFormat: Text.PlainText
                font.family: "monospace"
                elide: Text.ElideRight
            }
            ComboBox {
                objectName: "agentRuleState"
                enabled: !row.readOnly
                model: row.states
                currentIndex: row.states.indexOf(row.modelData.state)
                Accessible.name: qsTr("State of %1").arg(row.pattern)
                onActivated: (index) => row.stateChosen(row.states[index])
            }
            ToolButton {
                visible: !row.readOnly && !row.shorthand
                enabled: row.modelData.index > 0
                text: "↑"
                Accessible.name: qsTr("Move %1 up").arg(row.pattern)
                onClicked: row.moveRequested(row.modelData.index - 1)
            }
            ToolButton {
                visible: !row.readOnly && !row.shorthand
                enabled: row.modelData.index < row.modelData.count - 1
                text: "↓"
                Accessible.name: qsTr("Move %1 down").arg(row.pattern)
                onClicked: row.moveRequested(row.modelData.index + 1)
            }
            ToolButton {
                objectName: "agentRuleRemove"
                visible: !row.readOnly
                text: "✕"
                Accessible.name: qsTr("Remove %1").arg(row.pattern)
                onClicked: row.removeRequested()
            }
        }
        Label {
            Layout.fillWidth: true
            visible: row.modelData.problem.length > 0
            text: row.modelData.line > 0 ? qsTr("Line %1: %2").arg(row.modelData.line).arg(row.modelData.problem)
                                         : row.modelData.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
            font.pixelSize: Theme.smallFontSize
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The Network page's "Activity": where the traffic of one sandbox (or of all) went, at a
// glance. A bar per minute of the last hour (or quarter hour of the last day), allowed below
// and refused above, and the busiest destinations. Plain Qt Quick items: a few hundred
// rectangles at most, drawn from the daemon's sums (ActivityModel).
ColumnLayout {
    id: section

    // The sandboxes to choose from (names).
    property var sandboxes: []
    readonly property alias activity: activityModel
    // The bucket (its start, ms) and host chosen last, shown highlighted; cleared by the page.
    property double chosenStart: 0
    property string chosenHost

    // A bar was clicked: the requests of that time.
    signal bucketChosen(double from, double until)
    // A destination was clicked: the requests of that host.
    signal hostChosen(string host)
    // Allow was pressed on a refused destination: {host, refusedSandbox, refusedPort, refusedKit}.
    signal allowRequested(var destination)

    spacing: Theme.spacingSmall

    ActivityModel {
        id: activityModel
        daemon: DaemonStatus
    }
    // Fresh sums while the page is shown, when connections came (or the window moved).
    Timer {
        interval: 5000
        repeat: true
        running: section.visible && activityModel.connected
        onTriggered: activityModel.refresh()
    }

    Label {
        text: qsTr("Activity")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        ComboBox {
            objectName: "activitySandboxBox"
            Layout.preferredWidth: 200
            model: [qsTr("All sandboxes")].concat(section.sandboxes)
            currentIndex: activityModel.sandbox.length === 0 ? 0 : section.sandboxes.indexOf(activityModel.sandbox) + 1
            Accessible.name: qsTr("Activity of sandbox")
            onActivated: (index) => activityModel.sandbox = index === 0 ? "" : section.sandboxes[index - 1]
        }
        Repeater {
            model: [{ hours: 1, text: qsTr("Last hour") }, { hours: 24, text: qsTr("Last day") }]
            delegate: RadioButton {
                required property var modelData
                objectName: "activityHours_" + modelData.hours
                text: modelData.text
                checked: activityModel.hours === modelData.hours
                Accessible.name: text
                onClicked: activityModel.hours = modelData.hours
            }
        }
        Label {
            objectName: "activityTotals"
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignRight
            text: qsTr("%1 allowed · %2 refused").arg(activityModel.allowedTotal).arg(activityModel.refusedTotal)
            textFormat: Text.PlainText
            opacity: 0.75
        }
    }

    // ---- the timeline
    Item {
        id: chart
        objectName: "activityChart"
        Layout.fillWidth: true
        implicitHeight: 110
        Accessible.role: Accessible.Chart
        Accessible.name: qsTr("Connections over time: %1 allowed, %2 refused")
            .arg(activityModel.allowedTotal).arg(activityModel.refusedTotal)

        Rectangle {
            anchors.fill: parent
            radius: Theme.radius
            color: palette.base
            border.color: Theme.mix(palette.base, palette.windowText, 0.18)
        }
        Row {
            id: bars
            anchors.fill: parent
            anchors.margins: 6
            readonly property real barWidth: activityModel.buckets.length > 0 ? width / activityModel.buckets.length : 0
            Repeater {
                model: activityModel.buckets
                delegate: ActivityBar {
                    width: bars.barWidth
                    height: bars.height
                    peak: activityModel.peak
                    selected: section.chosenStart === modelData.start
                    onPicked: section.bucketChosen(modelData.start, modelData.end)
                }
            }
        }
        Label {
            anchors.centerIn: parent
            visible: activityModel.loaded && activityModel.allowedTotal + activityModel.refusedTotal === 0
            text: activityModel.hours === 1 ? qsTr("No connections in the last hour.")
                                            : qsTr("No connections in the last day.")
            textFormat: Text.PlainText
            opacity: 0.7
        }
    }
    RowLayout {
        Layout.fillWidth: true
        Label {
            Layout.fillWidth: true
            text: activityModel.buckets.length > 0 ? activityModel.buckets[0].label : ""
            font.pixelSize: Theme.smallFontSize
            opacity: 0.7
        }
        Rectangle { implicitWidth: 10; implicitHeight: 10; color: Theme.okColor }
        Label { text: qsTr("allowed"); font.pixelSize: Theme.smallFontSize }
        Rectangle { implicitWidth: 10; implicitHeight: 10; color: Theme.errorColor }
        Label { text: qsTr("refused"); font.pixelSize: Theme.smallFontSize }
        Label {
            Layout.fillWidth: true
            horizontalAlignment: Text.AlignRight
            text: qsTr("now")
            font.pixelSize: Theme.smallFontSize
            opacity: 0.7
        }
    }

    // ---- the busiest destinations
    Label {
        Layout.topMargin: Theme.spacingSmall
        text: qsTr("Top destinations")
        font.weight: Font.DemiBold
    }
    Repeater {
        model: activityModel.hosts
        delegate: ActivityHostRow {
            Layout.fillWidth: true
            widest: activityModel.hosts.length > 0
                    ? activityModel.hosts[0].allowed + activityModel.hosts[0].refused : 1
            selected: section.chosenHost === modelData.host
            onPicked: section.hostChosen(modelData.host)
            onAllowRequested: section.allowRequested(modelData)
        }
    }
    Label {
        Layout.fillWidth: true
        text: (activityModel.hostCount > activityModel.hosts.length
               ? qsTr("%n more destination(s) not shown. ", "", activityModel.hostCount - activityModel.hosts.length) : "")
              + qsTr("Bytes are counted for allowed connections; a refused one carries none.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.7
    }
    Label {
        objectName: "activityError"
        Layout.fillWidth: true
        visible: activityModel.error.length > 0
        text: activityModel.error
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The Network page's "Requests": what each request Paddock saw into did, live, for one
// sandbox or all, filtered by what the person types.
ColumnLayout {
    id: section

    property NetworkPolicy policy
    // The sandboxes to choose from (names).
    property var sandboxes: []
    readonly property alias requests: requestsModel

    spacing: Theme.spacingSmall

    RequestsModel {
        id: requestsModel
        policy: section.policy
    }

    Label {
        text: qsTr("Requests")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("What each request did, live: plain HTTP, and HTTPS to hosts whose TLS Paddock terminates (those with a bound credential). Queries and header values are never kept.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.7
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        ComboBox {
            id: sandboxBox
            objectName: "requestSandboxBox"
            Layout.preferredWidth: 200
            model: [qsTr("All sandboxes")].concat(section.sandboxes)
            currentIndex: requestsModel.sandbox.length === 0 ? 0 : section.sandboxes.indexOf(requestsModel.sandbox) + 1
            Accessible.name: qsTr("Requests of sandbox")
            onActivated: (index) => requestsModel.sandbox = index === 0 ? "" : section.sandboxes[index - 1]
        }
        TextField {
            objectName: "requestFilterField"
            Layout.fillWidth: true
            placeholderText: qsTr("Filter by method, URL, status or program")
            Accessible.name: qsTr("Filter requests")
            onTextChanged: requestsModel.filter = text
        }
        Label {
            objectName: "requestCount"
            text: requestsModel.count === requestsModel.totalCount
                  ? qsTr("%n request(s)", "", requestsModel.count)
                  : qsTr("%1 of %2").arg(requestsModel.count).arg(requestsModel.totalCount)
            textFormat: Text.PlainText
            opacity: 0.75
        }
    }
    // Narrowed from the activity chart: one host, or one time bucket.
    RowLayout {
        Layout.fillWidth: true
        visible: requestsModel.host.length > 0 || requestsModel.fromTime > 0
        spacing: Theme.spacing
        Label {
            objectName: "requestNarrowing"
            Layout.fillWidth: true
            readonly property string span: requestsModel.fromTime > 0
                ? qsTr("from %1 to %2").arg(Qt.formatTime(new Date(requestsModel.fromTime)))
                                       .arg(Qt.formatTime(new Date(requestsModel.untilTime)))
                : ""
            text: requestsModel.host.length > 0 && span.length > 0 ? qsTr("Only %1, %2").arg(requestsModel.host).arg(span)
                  : requestsModel.host.length > 0 ? qsTr("Only %1").arg(requestsModel.host)
                  : qsTr("Only requests %1").arg(span)
            textFormat: Text.PlainText
            elide: Text.ElideRight
            font.weight: Font.DemiBold
        }
        Button {
            objectName: "requestNarrowClear"
            text: qsTr("Show all")
            onClicked: requestsModel.narrow("", 0, 0)
        }
    }
    Label {
        objectName: "requestsEmpty"
        Layout.fillWidth: true
        visible: requestList.count === 0
        text: requestsModel.loading ? qsTr("Loading…")
              : requestsModel.totalCount > 0 ? qsTr("No request matches the filter.")
              : qsTr("No requests recorded yet.")
        textFormat: Text.PlainText
        opacity: 0.7
    }
    Rectangle {
        Layout.fillWidth: true
        visible: requestList.count > 0
        implicitHeight: Math.min(requestList.contentHeight, 340) + 2
        radius: Theme.radius
        color: palette.base
        border.color: requestList.activeFocus ? palette.highlight : Theme.mix(palette.base, palette.windowText, 0.18)
        border.width: requestList.activeFocus ? 2 : 1

        ListView {
            id: requestList
            objectName: "requestList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: requestsModel
            currentIndex: -1
            activeFocusOnTab: true
            keyNavigationEnabled: true
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Requests")
            delegate: RequestRow {}
        }
    }
    Label {
        objectName: "requestsError"
        Layout.fillWidth: true
        visible: requestsModel.error.length > 0
        text: requestsModel.error
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
    }
}

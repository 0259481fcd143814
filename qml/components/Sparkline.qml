// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import Paddock

// A small picture of recent activity: one thin bar per bucket, oldest on the left, refused
// connections in the error colour above the allowed ones. `buckets` is [[allowed, refused], ...].
Item {
    id: spark
    objectName: "sparkline"

    property var buckets: []
    readonly property real peak: {
        let most = 1
        for (let i = 0; i < buckets.length; ++i)
            most = Math.max(most, buckets[i][0] + buckets[i][1])
        return most
    }
    readonly property real total: {
        let sum = 0
        for (let i = 0; i < buckets.length; ++i)
            sum += buckets[i][0] + buckets[i][1]
        return sum
    }

    implicitWidth: 90
    implicitHeight: 22
    Accessible.role: Accessible.Chart

    Rectangle {
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        height: 1
        color: Theme.mix(palette.window, palette.windowText, 0.25)
    }
    Row {
        anchors.fill: parent
        Repeater {
            model: spark.buckets
            delegate: Item {
                required property var modelData
                width: spark.buckets.length > 0 ? spark.width / spark.buckets.length : 0
                height: spark.height
                Rectangle {
                    id: allowedPart
                    anchors.bottom: parent.bottom
                    width: Math.max(1, parent.width - 1)
                    height: parent.height * modelData[0] / spark.peak
                    color: Theme.okColor
                }
                Rectangle {
                    anchors.bottom: allowedPart.top
                    width: allowedPart.width
                    height: parent.height * modelData[1] / spark.peak
                    color: Theme.errorColor
                }
            }
        }
    }
}

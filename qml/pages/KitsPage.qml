// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Kits: the spec.yaml recipes sandboxes are made from.
ScrollablePage {
    objectName: "page_kits"
    title: qsTr("Kits")
    summary: qsTr("Recipes that say which agent runs in a sandbox, what it may reach and which keys it needs.")

    EmptyState {
        Layout.fillWidth: true
        iconPath: Icons.kits
        headline: qsTr("The kit library is not available yet")
        explanation: qsTr("This page will list your kits, show what each one allows and check them for mistakes before you use them.")
        commands: [
            { command: "paddock kit validate DIR",
              purpose: qsTr("Check the kit in folder DIR and report each error with its file, line and column.") },
            { command: "paddock kit show DIR",
              purpose: qsTr("Show what the kit in folder DIR contains: its agent, allowed domains and credentials.") }
        ]
    }
}

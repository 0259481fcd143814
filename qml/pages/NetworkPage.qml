// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Network: the allowlist and the live list of refused connections.
ScrollablePage {
    objectName: "page_network"
    title: qsTr("Network")
    summary: qsTr("Which domains sandboxes may reach, and the connections that were refused.")

    EmptyState {
        Layout.fillWidth: true
        iconPath: Icons.network
        headline: qsTr("Network rules are not available yet")
        explanation: qsTr("This page will show the allowlist and every refused connection as it happens, and allow a blocked domain in one click.")
        commands: [
            { command: "paddock kit allow DIR PATTERN",
              purpose: qsTr("Allow a domain such as api.example.com or *.example.com in the kit in folder DIR.") }
        ]
    }
}

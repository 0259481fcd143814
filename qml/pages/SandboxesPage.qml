// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Sandboxes: start an agent on a project folder, and manage the running sandboxes.
ScrollablePage {
    objectName: "page_sandboxes"
    title: qsTr("Sandboxes")
    summary: qsTr("Coding agents running in sandboxes on your project folders.")

    EmptyState {
        Layout.fillWidth: true
        iconPath: Icons.sandboxes
        headline: qsTr("Sandboxes are not available yet")
        explanation: qsTr("This page will start a coding agent in a sandbox on a project folder and list the running sandboxes, so you can open, stop or remove them.")
        commands: [
            { command: "paddock daemon status",
              purpose: qsTr("Check whether paddockd, the background service that will run the sandboxes, is running.") }
        ]
    }
}

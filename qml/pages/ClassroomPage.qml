// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Classroom: one kit and one policy prepared for a whole class.
ScrollablePage {
    objectName: "page_classroom"
    title: qsTr("Classroom")
    summary: qsTr("One kit and one network policy, shared with a whole class.")

    EmptyState {
        Layout.fillWidth: true
        iconPath: Icons.classroom
        headline: qsTr("Classroom tools are not available yet")
        explanation: qsTr("This page will bundle a kit and its network policy for students to import, then run a checklist that proves each sandbox works.")
        commands: [
            { command: "paddock kit validate DIR",
              purpose: qsTr("Check the kit in folder DIR before you share it with students.") }
        ]
    }
}

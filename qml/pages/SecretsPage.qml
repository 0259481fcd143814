// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Secrets: provider API keys in the system keychain, and which kits may use them.
ScrollablePage {
    objectName: "page_secrets"
    title: qsTr("Secrets")
    summary: qsTr("Provider API keys, kept in the system keychain and never copied into a sandbox.")

    EmptyState {
        Layout.fillWidth: true
        iconPath: Icons.secrets
        headline: qsTr("Secrets are not available yet")
        explanation: qsTr("This page will store provider API keys in the system keychain and let you choose which kits may use each one.")
        noCommandText: qsTr("There is no command for this yet.")
    }
}

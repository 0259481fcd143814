// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The form of an authored schemaVersion "3" descriptor (STEM/STEM.yaml): its name, display
// name and description, and network-policy@1's runtime allow and deny lists. Credentials are
// shown; they and every other capability are edited in the descriptor's text.
ColumnLayout {
    id: form

    required property KitEditorModel editor
    readonly property string networkType: "com.docker.sandbox/network-policy@1"
    readonly property string credentialType: "com.docker.sandbox/credential@1"
    // Indexes of the capabilities requests of a type, re-read with every change.
    function requestsOf(type) {
        const found = []
        const count = editor.count("capabilities")
        for (let i = 0; i < count; ++i) {
            if (editor.value("capabilities." + i + ".type") === type)
                found.push(i)
        }
        return found
    }
    readonly property int networkIndex: {
        const found = editor.revision >= 0 ? requestsOf(networkType) : []
        return found.length > 0 ? found[0] : -1
    }
    readonly property string runtimePath: "capabilities." + networkIndex + ".config.runtime."

    Layout.fillWidth: true
    spacing: Theme.spacingSmall

    KitFormSection {
        title: qsTr("About the kit")
        Label {
            objectName: "descriptorName"
            Layout.fillWidth: true
            text: qsTr("Name: %1 (the descriptor's file name)").arg(form.editor.stem)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            Layout.fillWidth: true
            text: qsTr("Kind: %1").arg(form.editor.revision >= 0 ? form.editor.value("kind") : "")
            textFormat: Text.PlainText
        }
        KitField { editor: form.editor; path: "displayName"; label: qsTr("Display name") }
        KitField { editor: form.editor; path: "description"; label: qsTr("Description") }
    }
    KitFormSection {
        title: qsTr("Network while the agent runs")
        note: qsTr("network-policy@1: hosts such as github.com, api.example.com:443 or *.example.com. Deny wins over allow. The first allowed host adds the request.")
        KitStringList {
            editor: form.editor
            path: form.runtimePath + "allow"
            fieldName: "v3.allow"
            networkList: "allow"
            label: qsTr("Allowed")
            placeholder: "github.com"
        }
        KitStringList {
            editor: form.editor
            path: form.runtimePath + "deny"
            fieldName: "v3.deny"
            networkList: "deny"
            label: qsTr("Denied")
        }
    }
    KitFormSection {
        title: qsTr("Credentials")
        note: qsTr("Read-only here: credentials, the install-phase network lists and the other capabilities are edited in the descriptor's text.")
        Repeater {
            model: form.editor.revision >= 0 ? form.requestsOf(form.credentialType) : []
            delegate: Label {
                required property int modelData
                readonly property string base: "capabilities." + modelData + ".config."
                objectName: "descriptorCredential"
                Layout.fillWidth: true
                text: qsTr("%1 (%2), injected for %3")
                      .arg(form.editor.value(base + "service"))
                      .arg(form.editor.value(base + "phase"))
                      .arg(form.injectDomains(base + "apiKey.inject") || qsTr("no domain"))
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
        }
    }

    function injectDomains(path) {
        const domains = []
        const count = editor.count(path)
        for (let i = 0; i < count; ++i)
            domains.push(editor.value(path + "." + i + ".domain"))
        return domains.join(", ")
    }
}

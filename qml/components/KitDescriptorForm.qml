// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The form of an authored schemaVersion "3" descriptor (STEM/STEM.yaml): its name, display
// name and description, and network-policy@1's allow and deny lists, while the agent runs and
// while the kit installs: the kit's own request, and each group's, edited in its group.
// Credentials are shown; they and every other capability are edited in the descriptor's text.
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
        title: qsTr("Network")
        note: qsTr("network-policy@1: hosts such as github.com, api.example.com:443 or *.example.com. Deny wins over allow. The first host added adds the request.")
        KitNetworkPolicyLists {
            objectName: "descriptorNetwork"
            editor: form.editor
            configPath: "capabilities." + form.networkIndex + ".config."
            fieldPrefix: "v3"
        }
    }
    // A group's own network-policy@1, edited where it is: in force when the group is.
    // Compared as text, so an edit elsewhere does not make the sections anew under the typing.
    readonly property string networkGroups: JSON.stringify(editor.revision >= 0 ? groupsWithNetwork() : [])
    Repeater {
        model: JSON.parse(form.networkGroups)
        delegate: KitFormSection {
            id: groupSection
            required property var modelData
            objectName: "descriptorGroupNetwork_" + modelData.group
            title: modelData.name.length > 0 ? qsTr("Network of the group %1").arg(modelData.name)
                                             : qsTr("Network of a group")
            note: modelData.optional ? qsTr("In force only when the group, which is optional, is chosen.")
                                     : qsTr("In force with the rest of the group.")
            KitNetworkPolicyLists {
                editor: form.editor
                configPath: groupSection.modelData.configPath
                fieldPrefix: "v3.group" + groupSection.modelData.group
                group: groupSection.modelData.group
                groupName: groupSection.modelData.name
            }
        }
    }
    KitFormSection {
        title: qsTr("Credentials")
        note: qsTr("Read-only here: credentials and the other capabilities are edited in the descriptor's text.")
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

    // The groups that hold a network-policy@1 member: where each is, its member's config path.
    function groupsWithNetwork() {
        const groups = []
        const count = editor.count("capabilities")
        for (let i = 0; i < count; ++i) {
            const base = "capabilities." + i + ".group."
            const members = editor.count(base + "capabilities")
            for (let m = 0; m < members; ++m) {
                if (editor.value(base + "capabilities." + m + ".type") === networkType) {
                    groups.push({ group: i, name: editor.value(base + "name"),
                                  optional: editor.value(base + "optional") === "true",
                                  configPath: base + "capabilities." + m + ".config." })
                    break
                }
            }
        }
        return groups
    }

    function injectDomains(path) {
        const domains = []
        const count = editor.count(path)
        for (let i = 0; i < count; ++i)
            domains.push(editor.value(path + "." + i + ".domain"))
        return domains.join(", ")
    }
}

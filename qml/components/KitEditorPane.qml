// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The kit editor: every field of spec.yaml as a form on the left (for an authored v3
// descriptor, its name, texts and network lists: KitDescriptorForm), the YAML itself on the
// right (editable, kept in step with the form), the loader's or decoder's diagnostics on top,
// and a summary of the changed lines before saving.
Pane {
    id: pane

    required property KitEditorModel editor
    signal closeRequested()
    signal copyRequested(string directory)

    readonly property bool isSandbox: editor.revision >= 0 ? editor.value("kind") !== "mixin" : true
    readonly property bool commandIsMap: editor.revision >= 0 ? editor.exists("sandbox.command.default") || editor.exists("sandbox.command.interactive") : false

    padding: Theme.spacing

    function requestSave() {
        if (editor.modified && !editor.readOnly)
            saveDialog.open()
    }

    Shortcut {
        sequence: StandardKey.Save
        enabled: pane.visible
        onActivated: pane.requestSave()
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacingSmall

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacing
            Button {
                objectName: "kitEditorBack"
                text: qsTr("Back to kits")
                Accessible.name: text
                onClicked: pane.editor.modified ? discardDialog.open() : pane.closeRequested()
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 0
                Label {
                    objectName: "kitEditorTitle"
                    Layout.fillWidth: true
                    text: pane.editor.revision >= 0 ? pane.editor.value("displayName") || pane.editor.value("name") || pane.editor.stem : ""
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                    font.pixelSize: Theme.headlineFontSize
                    font.weight: Font.DemiBold
                    Accessible.role: Accessible.Heading
                    Accessible.name: text
                }
                Label {
                    Layout.fillWidth: true
                    text: pane.editor.filePath
                    textFormat: Text.PlainText
                    elide: Text.ElideMiddle
                    opacity: 0.7
                    font.pixelSize: Theme.smallFontSize
                }
            }
            Label {
                objectName: "kitEditorStatus"
                text: pane.editor.errorCount > 0
                      ? qsTr("%n error(s)", "", pane.editor.errorCount)
                      : (pane.editor.warningCount > 0 ? qsTr("Valid, %n warning(s)", "", pane.editor.warningCount)
                                                      : qsTr("Valid"))
                textFormat: Text.PlainText
                color: pane.editor.errorCount > 0 ? Theme.errorColor
                       : (pane.editor.warningCount > 0 ? Theme.warningColor : Theme.okColor)
            }
            Button {
                objectName: "kitCopyButton"
                visible: pane.editor.readOnly
                text: qsTr("Copy to…")
                Accessible.name: qsTr("Copy this sample kit to a folder of yours")
                onClicked: pane.copyRequested(pane.editor.directory)
            }
            Button {
                objectName: "kitRevertButton"
                visible: !pane.editor.readOnly
                enabled: pane.editor.modified
                text: qsTr("Revert")
                Accessible.name: qsTr("Drop the changes")
                onClicked: pane.editor.revert()
            }
            Button {
                objectName: "kitSaveButton"
                visible: !pane.editor.readOnly
                enabled: pane.editor.modified
                highlighted: true
                text: qsTr("Save…")
                Accessible.name: qsTr("Review the changes and save")
                onClicked: pane.requestSave()
            }
        }
        Label {
            objectName: "kitEditorMessage"
            visible: text.length > 0
            Layout.fillWidth: true
            text: pane.editor.message
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        // Every problem, with its line, including those no field of the form shows.
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 0
            visible: pane.editor.diagnostics.length > 0
            Repeater {
                model: pane.editor.diagnostics
                delegate: Label {
                    required property var modelData
                    objectName: "kitDiagnostic"
                    Layout.fillWidth: true
                    text: modelData.line > 0
                          ? qsTr("Line %1: %2").arg(modelData.line).arg(modelData.message) : modelData.message
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: modelData.error ? Theme.errorColor : Theme.warningColor
                    font.pixelSize: Theme.smallFontSize
                }
            }
        }

        // The kit's spec.yaml, and the agent's own rules it carries (pi-permission-system).
        TabBar {
            id: editorTabs
            objectName: "kitEditorTabs"
            Layout.fillWidth: true
            TabButton {
                text: pane.editor.isV3 ? pane.editor.fileName : qsTr("spec.yaml")
                Accessible.name: text
            }
            TabButton {
                objectName: "kitAgentPermissionsTab"
                // An authored v3 descriptor carries no agent permission file.
                visible: !pane.editor.isV3
                width: visible ? implicitWidth : 0
                text: qsTr("Agent permissions")
                Accessible.name: text
            }
        }
        ScrollView {
            objectName: "kitAgentPermissions"
            visible: editorTabs.currentIndex === 1
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            AgentPermissionsPane {
                width: pane.availableWidth - Theme.spacingLarge
                readOnly: pane.editor.readOnly
                perms: AgentPerms {
                    daemon: DaemonStatus
                    kit: pane.editor.directory
                }
            }
        }
        SplitView {
            visible: editorTabs.currentIndex === 0
            Layout.fillWidth: true
            Layout.fillHeight: true
            orientation: Qt.Horizontal

            ScrollView {
                id: formScroll
                SplitView.preferredWidth: pane.width * 0.55
                SplitView.minimumWidth: 280
                contentWidth: availableWidth
                clip: true

                ColumnLayout {
                    width: formScroll.availableWidth - Theme.spacing
                    spacing: Theme.spacingSmall

                    KitDescriptorForm {
                        objectName: "kitDescriptorForm"
                        visible: pane.editor.isV3
                        editor: pane.editor
                    }
                    // A spec.yaml: every field of the format.
                    ColumnLayout {
                        visible: !pane.editor.isV3
                        Layout.fillWidth: true
                        spacing: Theme.spacingSmall
                        KitFormSection {
                            title: qsTr("About the kit")
                            KitField { editor: pane.editor; path: "name"; label: qsTr("Name (lower-case letters, digits and dashes)"); removeWhenEmpty: false }
                            KitField { editor: pane.editor; path: "kind"; label: qsTr("Kind (sandbox or mixin)"); removeWhenEmpty: false }
                            KitField { editor: pane.editor; path: "displayName"; label: qsTr("Display name") }
                            KitField { editor: pane.editor; path: "description"; label: qsTr("Description") }
                            KitField { editor: pane.editor; path: "version"; label: qsTr("Version") }
                            KitField { editor: pane.editor; path: "sourceURL"; label: qsTr("Source URL") }
                            KitStringList { editor: pane.editor; path: "licenses"; label: qsTr("Licences"); placeholder: "MIT" }
                            KitField { editor: pane.editor; path: "security.privileged"; label: qsTr("Privileged sandbox"); type: "bool" }
                            KitField { visible: !pane.isSandbox; editor: pane.editor; path: "requires.agent"; label: qsTr("Requires agent (mixins)") }
                        }
                        KitFormSection {
                            visible: pane.isSandbox
                            title: qsTr("Sandbox")
                            KitField { editor: pane.editor; path: "sandbox.image"; label: qsTr("Image"); placeholder: "docker/sandbox-templates:shell" }
                            KitStringList { editor: pane.editor; path: "sandbox.entrypoint"; label: qsTr("Entrypoint (program, then its arguments)") }
                            KitStringList { visible: !pane.commandIsMap; editor: pane.editor; path: "sandbox.command"; label: qsTr("Command (arguments after the entrypoint)") }
                            KitStringList { visible: pane.commandIsMap; editor: pane.editor; path: "sandbox.command.default"; label: qsTr("Command when not interactive") }
                            KitStringList { visible: pane.commandIsMap; editor: pane.editor; path: "sandbox.command.interactive"; label: qsTr("Command on a terminal") }
                            KitField { editor: pane.editor; path: "sandbox.resources.cpu"; label: qsTr("CPUs"); type: "number" }
                            KitField { editor: pane.editor; path: "sandbox.resources.memory"; label: qsTr("Memory"); placeholder: "4g" }
                            KitField { editor: pane.editor; path: "sandbox.resources.gpu"; label: qsTr("GPU") }
                            KitField { editor: pane.editor; path: "sandbox.build.context"; label: qsTr("Build context") }
                            KitField { editor: pane.editor; path: "sandbox.build.dockerfile"; label: qsTr("Dockerfile") }
                            KitField { editor: pane.editor; path: "sandbox.build.target"; label: qsTr("Build target") }
                            KitField { editor: pane.editor; path: "extends"; label: qsTr("Extends (another kit)") }
                            KitStringList { editor: pane.editor; path: "mixins"; label: qsTr("Mixins") }
                        }
                        KitFormSection {
                            title: qsTr("Network")
                            note: qsTr("Patterns such as github.com, *.example.com or host:8080. Deny wins over allow.")
                            KitStringList { editor: pane.editor; path: "permissions.network.allow"; networkList: "allow"; label: qsTr("Allowed"); placeholder: "github.com" }
                            KitStringList { editor: pane.editor; path: "permissions.network.deny"; networkList: "deny"; label: qsTr("Denied") }
                        }
                        KitFormSection {
                            title: qsTr("Environment variables")
                            Repeater {
                                model: pane.editor.revision >= 0 ? pane.editor.keys("environment.variables") : []
                                delegate: RowLayout {
                                    id: variableRow
                                    required property string modelData
                                    Layout.fillWidth: true
                                    Label {
                                        text: variableRow.modelData
                                        textFormat: Text.PlainText
                                        font.family: "monospace"
                                        Layout.preferredWidth: 160
                                        elide: Text.ElideRight
                                    }
                                    TextField {
                                        objectName: "variable_" + variableRow.modelData
                                        Layout.fillWidth: true
                                        text: pane.editor.revision >= 0 ? pane.editor.value("environment.variables." + variableRow.modelData) : ""
                                        readOnly: pane.editor.readOnly
                                        selectByMouse: true
                                        Accessible.name: qsTr("Value of %1").arg(variableRow.modelData)
                                        onTextEdited: pane.editor.setVariable(variableRow.modelData, text)
                                    }
                                    Button {
                                        visible: !pane.editor.readOnly
                                        text: qsTr("Remove")
                                        Accessible.name: qsTr("Remove the variable %1").arg(variableRow.modelData)
                                        onClicked: pane.editor.removeVariable(variableRow.modelData)
                                    }
                                }
                            }
                            RowLayout {
                                visible: !pane.editor.readOnly
                                Layout.fillWidth: true
                                TextField {
                                    id: newVariableName
                                    objectName: "newVariableName"
                                    Layout.preferredWidth: 160
                                    placeholderText: qsTr("NAME")
                                    selectByMouse: true
                                    Accessible.name: qsTr("New variable name")
                                }
                                TextField {
                                    id: newVariableValue
                                    objectName: "newVariableValue"
                                    Layout.fillWidth: true
                                    placeholderText: qsTr("value")
                                    selectByMouse: true
                                    Accessible.name: qsTr("New variable value")
                                    onAccepted: addVariable.clicked()
                                }
                                Button {
                                    id: addVariable
                                    text: qsTr("Add")
                                    enabled: newVariableName.text.trim().length > 0
                                    Accessible.name: qsTr("Add the variable")
                                    onClicked: {
                                        if (pane.editor.setVariable(newVariableName.text, newVariableValue.text)) {
                                            newVariableName.clear()
                                            newVariableValue.clear()
                                        }
                                    }
                                }
                            }
                            Label {
                                visible: text.length > 0
                                Layout.fillWidth: true
                                text: pane.editor.revision >= 0 ? pane.editor.messageFor("environment") : ""
                                textFormat: Text.PlainText
                                wrapMode: Text.Wrap
                                color: Theme.errorColor
                                font.pixelSize: Theme.smallFontSize
                            }
                        }
                        KitFormSection {
                            title: qsTr("Credentials")
                            note: qsTr("Keys the proxy adds to requests; the sandbox only sees a placeholder. OAuth settings are edited in the YAML text.")
                            KitItemList {
                                editor: pane.editor
                                path: "credentials"
                                itemLabel: qsTr("Credential")
                                titleKey: "service"
                                addText: qsTr("Add a credential")
                                newItem: ({ service: "service-name" })
                                fields: [
                                    { key: "service", label: qsTr("Service"), required: true },
                                    { key: "description", label: qsTr("Description") },
                                    { key: "required", label: qsTr("Required"), type: "bool" },
                                    { key: "provider", label: qsTr("Provider") },
                                    { key: "apiKey.name", label: qsTr("Variable set in the sandbox") },
                                    { key: "apiKey.proxyManaged", label: qsTr("Managed by the proxy"), type: "bool" },
                                    { key: "apiKey.inject", type: "items", itemLabel: qsTr("Injection"), titleKey: "domain",
                                      addText: qsTr("Add an injection rule"),
                                      newItem: { domain: "api.example.com", header: "Authorization", format: "Bearer %s" },
                                      keyOrder: ["domain", "header", "format"],
                                      fields: [
                                          { key: "domain", label: qsTr("Domain"), required: true },
                                          { key: "header", label: qsTr("Header") },
                                          { key: "format", label: qsTr("Format (one %s for the key)") },
                                          { key: "scheme", label: qsTr("Scheme (bearer or basic)") },
                                          { key: "username", label: qsTr("User name (basic)") }
                                      ] }
                                ]
                            }
                        }
                        KitFormSection {
                            title: qsTr("Setup")
                            KitItemList {
                                editor: pane.editor
                                path: "setup.install"
                                itemLabel: qsTr("Install command")
                                addText: qsTr("Add an install command")
                                newItem: ({ command: "true" })
                                fields: [
                                    { key: "command", label: qsTr("Shell command, run once at creation"), required: true },
                                    { key: "user", label: qsTr("User") },
                                    { key: "description", label: qsTr("Description") }
                                ]
                            }
                            KitItemList {
                                editor: pane.editor
                                path: "setup.startup"
                                itemLabel: qsTr("Startup command")
                                addText: qsTr("Add a startup command")
                                newItem: ({ command: ["true"] })
                                fields: [
                                    { key: "command", label: qsTr("Program and arguments, run at every start"), type: "list" },
                                    { key: "user", label: qsTr("User") },
                                    { key: "background", label: qsTr("In the background"), type: "bool" },
                                    { key: "description", label: qsTr("Description") }
                                ]
                            }
                            KitItemList {
                                editor: pane.editor
                                path: "setup.files"
                                itemLabel: qsTr("File")
                                titleKey: "path"
                                addText: qsTr("Add a file")
                                newItem: ({ path: "/home/agent/example.txt", content: "" })
                                keyOrder: ["path", "content"]
                                fields: [
                                    { key: "path", label: qsTr("Path in the sandbox"), required: true },
                                    { key: "content", label: qsTr("Content"), type: "multiline", required: true },
                                    { key: "mode", label: qsTr("Mode"), placeholder: "0644" },
                                    { key: "onlyIfMissing", label: qsTr("Only if missing"), type: "bool" },
                                    { key: "description", label: qsTr("Description") }
                                ]
                            }
                        }
                        KitFormSection {
                            title: qsTr("Volumes and ports")
                            KitItemList {
                                editor: pane.editor
                                path: "volumes"
                                itemLabel: qsTr("Volume")
                                titleKey: "path"
                                addText: qsTr("Add a volume")
                                newItem: ({ path: "/cache" })
                                fields: [
                                    { key: "path", label: qsTr("Path"), required: true },
                                    { key: "type", label: qsTr("Type (empty or tmpfs)") },
                                    { key: "size", label: qsTr("Size") },
                                    { key: "mode", label: qsTr("Mode") }
                                ]
                            }
                            KitItemList {
                                editor: pane.editor
                                path: "ports"
                                itemLabel: qsTr("Port")
                                titleKey: "container"
                                addText: qsTr("Add a port")
                                newItem: ({ container: 8080 })
                                fields: [
                                    { key: "container", label: qsTr("Port in the sandbox"), type: "number", required: true },
                                    { key: "protocol", label: qsTr("Protocol (tcp or udp)") },
                                    { key: "name", label: qsTr("Name") }
                                ]
                            }
                        }
                        KitFormSection {
                            title: qsTr("Agent instructions")
                            KitField { editor: pane.editor; path: "agentInstructions.filename"; label: qsTr("File name"); placeholder: "AGENTS.md" }
                            KitField { editor: pane.editor; path: "agentInstructions.content"; label: qsTr("Content (Markdown)"); type: "multiline" }
                        }
                        KitFormSection {
                            title: qsTr("Arguments")
                            note: qsTr("Values supplied when the kit is used, referenced as ${{ kit.args.NAME }}.")
                            KitItemList {
                                editor: pane.editor
                                path: "args"
                                itemLabel: qsTr("Argument")
                                titleKey: "name"
                                addText: qsTr("Add an argument")
                                newItem: ({ name: "value", "default": "" })
                                keyOrder: ["name", "default"]
                                fields: [
                                    { key: "name", label: qsTr("Name"), required: true },
                                    { key: "description", label: qsTr("Description") },
                                    { key: "default", label: qsTr("Default value") },
                                    { key: "required", label: qsTr("Required"), type: "bool" },
                                    { key: "pattern", label: qsTr("Pattern (regular expression)") },
                                    { key: "enum", label: qsTr("Accepted values"), type: "list" }
                                ]
                            }
                        }
                    }
                }
            }

            ColumnLayout {
                SplitView.fillWidth: true
                SplitView.minimumWidth: 240
                spacing: 2
                Label {
                    text: pane.editor.isV3 ? pane.editor.fileName
                          : (pane.editor.readOnly ? qsTr("spec.yaml (read-only)") : qsTr("spec.yaml"))
                    textFormat: Text.PlainText
                    font.pixelSize: Theme.smallFontSize
                    opacity: 0.8
                }
                ScrollView {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    TextArea {
                        id: yamlText
                        objectName: "kitYamlText"
                        text: pane.editor.text
                        readOnly: pane.editor.readOnly
                        selectByMouse: true
                        textFormat: TextEdit.PlainText
                        font.family: "monospace"
                        wrapMode: TextEdit.NoWrap
                        Accessible.name: qsTr("spec.yaml text")
                        // Typing here is applied after a pause, so the form follows without
                        // fighting the cursor; the form's edits replace the text right away.
                        onTextChanged: if (activeFocus && text !== pane.editor.text) applyText.restart()
                        onActiveFocusChanged: if (!activeFocus && text !== pane.editor.text) pane.editor.setText(text)
                    }
                }
            }
        }
    }

    Timer {
        id: applyText
        interval: 400
        onTriggered: pane.editor.setText(yamlText.text)
    }

    Dialog {
        id: discardDialog
        objectName: "kitDiscardDialog"
        title: qsTr("Leave without saving?")
        modal: true
        anchors.centerIn: parent
        width: Math.min(440, pane.width - 2 * Theme.spacingLarge)
        onAccepted: {
            pane.editor.revert()
            pane.closeRequested()
        }

        Label {
            width: parent.width
            text: pane.editor.isV3
                  ? qsTr("Your changes to %1 have not been saved. Leaving drops them.").arg(pane.editor.fileName)
                  : qsTr("Your changes to spec.yaml have not been saved. Leaving drops them.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        footer: DialogButtonBox {
            Button {
                objectName: "kitDiscardConfirm"
                text: qsTr("Drop the changes")
                DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
                Accessible.name: text
            }
            Button {
                text: qsTr("Keep editing")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: text
            }
        }
    }

    Dialog {
        id: saveDialog
        objectName: "kitSaveDialog"
        title: pane.editor.isV3 ? qsTr("Save %1").arg(pane.editor.fileName) : qsTr("Save spec.yaml")
        modal: true
        anchors.centerIn: parent
        width: Math.min(640, pane.width - 2 * Theme.spacingLarge)
        onAccepted: pane.editor.save()

        ColumnLayout {
            anchors.fill: parent
            spacing: Theme.spacingSmall
            Label {
                Layout.fillWidth: true
                text: qsTr("These lines change; everything else in the file stays as it is.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            ScrollView {
                Layout.fillWidth: true
                Layout.preferredHeight: Math.min(320, changeColumn.implicitHeight + 8)
                ColumnLayout {
                    id: changeColumn
                    objectName: "kitChangeSummary"
                    spacing: 0
                    Repeater {
                        model: saveDialog.visible ? pane.editor.changes : []
                        delegate: Label {
                            required property var modelData
                            objectName: "kitChangeLine"
                            text: (modelData.added ? "+ " : "- ") + modelData.line + "  " + modelData.text
                            textFormat: Text.PlainText
                            font.family: "monospace"
                            color: modelData.added ? Theme.okColor : Theme.errorColor
                        }
                    }
                }
            }
            Label {
                visible: pane.editor.errorCount > 0
                Layout.fillWidth: true
                text: qsTr("The kit has errors: it cannot be saved until they are fixed.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: Theme.errorColor
            }
        }
        footer: DialogButtonBox {
            Button {
                objectName: "kitConfirmSave"
                text: qsTr("Save")
                enabled: pane.editor.errorCount === 0
                DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
                Accessible.name: qsTr("Save the changes")
            }
            Button {
                text: qsTr("Cancel")
                DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                Accessible.name: text
            }
        }
    }
}

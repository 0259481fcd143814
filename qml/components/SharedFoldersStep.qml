// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// Folders of this computer and variables the sandbox gets besides the project folder (what
// `--mount` and `--env` give on the command line): a step of the sandbox wizard. Each entry is
// checked by the daemon as it is added; a refused one says why and keeps Next off.
ScrollView {
    id: step

    required property WizardShares shares

    clip: true
    contentWidth: availableWidth

    FolderDialog {
        id: hostPicker
        title: qsTr("Choose a folder to share")
        currentFolder: step.shares.homeUrl()
        onAccepted: hostField.text = step.shares.pathOfUrl(selectedFolder)
    }

    ColumnLayout {
        width: parent.width
        spacing: Theme.spacingSmall

        Label {
            Layout.fillWidth: true
            text: qsTr("Optional. Share a package cache or a settings file, or set variables such as PGHOST. Your home folder, ~/.ssh, keyrings and Paddock's own folders are never shared, and keys belong in Secrets, not in variables.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            Layout.topMargin: Theme.spacing
            text: qsTr("Shared folders")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        Repeater {
            model: step.shares.folders
            delegate: ColumnLayout {
                required property var modelData
                required property int index
                Layout.fillWidth: true
                spacing: 2
                RowLayout {
                    Layout.fillWidth: true
                    Label {
                        objectName: "wizardSharedFolder"
                        Layout.fillWidth: true
                        text: modelData.text
                        textFormat: Text.PlainText
                        elide: Text.ElideMiddle
                        font.family: "monospace"
                    }
                    Button {
                        objectName: "wizardRemoveFolderButton"
                        text: qsTr("Remove")
                        Accessible.name: qsTr("Stop sharing %1").arg(modelData.host)
                        onClicked: step.shares.removeFolder(index)
                    }
                }
                Label {
                    objectName: "wizardSharedFolderProblem"
                    Layout.fillWidth: true
                    visible: text.length > 0
                    text: modelData.problem || modelData.warning
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: modelData.problem ? Theme.errorColor : Theme.warningColor
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: hostField
                objectName: "wizardShareHostField"
                Layout.fillWidth: true
                placeholderText: qsTr("~/.nuget")
                Accessible.name: qsTr("Folder on this computer")
                selectByMouse: true
            }
            Button {
                text: qsTr("Choose…")
                Accessible.name: qsTr("Choose a folder to share")
                onClicked: hostPicker.open()
            }
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: insideField
                objectName: "wizardShareInsideField"
                Layout.fillWidth: true
                placeholderText: qsTr("where it appears inside: the same path if empty, e.g. /home/agent/.nuget")
                Accessible.name: qsTr("Path inside the sandbox")
                selectByMouse: true
            }
            CheckBox {
                id: readOnlyBox
                objectName: "wizardShareReadOnly"
                text: qsTr("Read-only")
            }
            Button {
                objectName: "wizardAddFolderButton"
                text: qsTr("Add folder")
                enabled: hostField.text.trim().length > 0
                onClicked: {
                    step.shares.addFolder(hostField.text, insideField.text, readOnlyBox.checked)
                    if (step.shares.entryError.length === 0) {
                        hostField.clear()
                        insideField.clear()
                        readOnlyBox.checked = false
                    }
                }
            }
        }

        Label {
            Layout.topMargin: Theme.spacing
            text: qsTr("Variables")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        Repeater {
            model: step.shares.variables
            delegate: ColumnLayout {
                required property var modelData
                required property int index
                Layout.fillWidth: true
                spacing: 2
                RowLayout {
                    Layout.fillWidth: true
                    Label {
                        objectName: "wizardVariable"
                        Layout.fillWidth: true
                        text: modelData.name + "=" + modelData.value
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        font.family: "monospace"
                    }
                    Button {
                        text: qsTr("Remove")
                        Accessible.name: qsTr("Remove variable %1").arg(modelData.name)
                        onClicked: step.shares.removeVariable(index)
                    }
                }
                Label {
                    objectName: "wizardVariableProblem"
                    Layout.fillWidth: true
                    visible: text.length > 0
                    text: modelData.problem
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: Theme.errorColor
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: variableField
                objectName: "wizardVariableField"
                Layout.fillWidth: true
                placeholderText: qsTr("NAME=VALUE, e.g. PGHOST=postgres")
                Accessible.name: qsTr("Variable")
                selectByMouse: true
                onAccepted: addVariableButton.clicked()
            }
            Button {
                id: addVariableButton
                objectName: "wizardAddVariableButton"
                text: qsTr("Add variable")
                enabled: variableField.text.trim().length > 0
                onClicked: {
                    step.shares.addVariable(variableField.text)
                    if (step.shares.entryError.length === 0)
                        variableField.clear()
                }
            }
        }
        Label {
            objectName: "wizardShareEntryError"
            Layout.fillWidth: true
            visible: text.length > 0
            text: step.shares.entryError
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        CheckBox {
            objectName: "wizardRememberShares"
            Layout.topMargin: Theme.spacing
            checked: step.shares.rememberForKit
            text: qsTr("Use these for every new sandbox of this kit")
            onToggled: step.shares.rememberForKit = checked
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// The project folder the agent works on, typed or chosen: a step of the sandbox wizard and of
// the Classroom page's "Create my sandbox".
ColumnLayout {
    id: step

    required property SandboxWizard wizard
    // Prefix of the objectNames, so two dialogs holding this step stay apart.
    property string namePrefix: "wizard"
    property string explanation: qsTr("The agent works on this folder. With a direct workspace it can change every file in it; with a clone it works on a copy of the repository.")

    function focusField() {
        folderField.forceActiveFocus()
    }

    spacing: Theme.spacing

    // Made anew at each "Choose…": Qt 6.4's FolderDialog takes its folder when it is first
    // shown, so a dialog shown before would open where it was then.
    Loader {
        id: folderPicker
        visible: false // holds a dialog only: no room in the layout
        active: false
        sourceComponent: FolderDialog {
            objectName: step.namePrefix + "FolderPicker"
            title: qsTr("Choose the project folder")
            currentFolder: step.wizard.folderToOpen(step.wizard.folder)
            onAccepted: step.wizard.setFolderUrl(selectedFolder)
        }
        function show() {
            active = false
            active = true
            item.open()
        }
    }

    Label {
        Layout.fillWidth: true
        text: step.explanation
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }
    RowLayout {
        Layout.fillWidth: true
        TextField {
            id: folderField
            objectName: step.namePrefix + "FolderField"
            Layout.fillWidth: true
            text: step.wizard.folder
            placeholderText: qsTr("/home/you/projects/app")
            Accessible.name: qsTr("Project folder")
            selectByMouse: true
            onTextEdited: step.wizard.folder = text
        }
        Button {
            objectName: step.namePrefix + "FolderBrowseButton"
            text: qsTr("Choose…")
            Accessible.name: qsTr("Choose the project folder")
            // In the current choice, or in home (not in home's parent).
            onClicked: folderPicker.show()
        }
    }
    Label {
        objectName: step.namePrefix + "FolderProblem"
        Layout.fillWidth: true
        visible: step.wizard.folder.length > 0 && !step.wizard.folderValid
        text: qsTr("This is not an existing folder.")
        textFormat: Text.PlainText
        color: Theme.errorColor
    }
}

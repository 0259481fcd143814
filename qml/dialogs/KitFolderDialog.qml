// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// Asks for a folder: to add a kit ("add"), to write a new kit from a template ("new"),
// or to copy a sample kit to ("copy"). The path can be typed or picked with Browse.
Dialog {
    id: dialog

    required property KitListModel kits
    // "add", "new" or "copy"
    property string mode: "add"
    property string sourceDirectory
    // The folder of the kit the dialog made or added, to open it afterwards.
    signal done(string directory)

    function openFor(newMode, source) {
        mode = newMode
        sourceDirectory = source || ""
        folderField.text = ""
        nameField.text = ""
        errorLabel.text = ""
        open()
        folderField.forceActiveFocus()
    }

    function accept() {
        const folder = folderField.text
        let ok = false
        if (mode === "add")
            ok = kits.add(folder)
        else if (mode === "new")
            ok = kits.createFromTemplate(kits.templates[templateBox.currentIndex].name, folder, nameField.text)
        else
            ok = kits.copyTo(sourceDirectory, folder)
        if (!ok) {
            errorLabel.text = kits.error
            return
        }
        close()
        done(dialog.kits.localPath(folder))
    }

    title: mode === "add" ? qsTr("Add a kit folder")
         : mode === "new" ? qsTr("New kit") : qsTr("Copy the sample kit")
    modal: true
    anchors.centerIn: parent
    width: Math.min(560, parent ? parent.width - 2 * Theme.spacingLarge : 560)
    padding: Theme.spacingLarge
    // The Loader beside the form is a second child: the popup cannot size itself from one.
    contentHeight: form.implicitHeight

    ColumnLayout {
        id: form
        anchors.fill: parent
        spacing: Theme.spacing

        Label {
            Layout.fillWidth: true
            text: dialog.mode === "add" ? qsTr("A folder holding a spec.yaml. Paddock remembers it; the files stay where they are.")
                : dialog.mode === "new" ? qsTr("Paddock writes spec.yaml from the template into this folder and adds it to your kits.")
                : qsTr("The sample is copied into this folder, where you can change it.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        RowLayout {
            visible: dialog.mode === "new"
            Layout.fillWidth: true
            Label { text: qsTr("Template"); textFormat: Text.PlainText }
            ComboBox {
                id: templateBox
                objectName: "kitTemplateBox"
                Layout.fillWidth: true
                model: dialog.kits.templates
                textRole: "name"
                Accessible.name: qsTr("Template")
            }
        }
        Label {
            visible: dialog.mode === "new"
            Layout.fillWidth: true
            text: dialog.kits.templates.length > templateBox.currentIndex
                  ? dialog.kits.templates[templateBox.currentIndex].description : ""
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.75
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: folderField
                objectName: "kitFolderField"
                Layout.fillWidth: true
                placeholderText: qsTr("/home/you/kits/my-agent")
                selectByMouse: true
                Accessible.name: qsTr("Folder")
                onAccepted: dialog.accept()
            }
            Button {
                text: qsTr("Browse…")
                Accessible.name: qsTr("Choose the folder")
                onClicked: folderPicker.active = true
            }
        }
        TextField {
            id: nameField
            objectName: "kitNameField"
            visible: dialog.mode === "new"
            Layout.fillWidth: true
            placeholderText: qsTr("Kit name (default: from the folder name)")
            selectByMouse: true
            Accessible.name: qsTr("Kit name")
        }
        Label {
            id: errorLabel
            objectName: "kitFolderError"
            visible: text.length > 0
            Layout.fillWidth: true
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "kitFolderAccept"
            text: dialog.mode === "add" ? qsTr("Add") : dialog.mode === "new" ? qsTr("Create") : qsTr("Copy")
            enabled: folderField.text.trim().length > 0
            Accessible.name: text
            onClicked: dialog.accept()
        }
        Button {
            text: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
            Accessible.name: text
        }
    }

    // Made only when asked for: the system's folder chooser is not needed to type a path.
    Loader {
        id: folderPicker
        active: false
        sourceComponent: FolderDialog {
            title: dialog.title
            onAccepted: {
                folderField.text = dialog.kits.localPath(selectedFolder.toString())
                folderPicker.active = false
            }
            onRejected: folderPicker.active = false
            Component.onCompleted: open()
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// Imports a schemaVersion 3 kit (an OCI image) from an archive: an OCI layout or a
// `docker save` .tar. The path can be typed or picked with Browse; the name is optional.
Dialog {
    id: dialog

    // The folder of the kit the import wrote, to show it in the list afterwards.
    signal done(string directory)

    function openDialog() {
        importer.reset()
        approveBox.checked = false
        fileField.text = ""
        nameField.text = ""
        open()
        fileField.forceActiveFocus()
    }

    function accept() {
        if (!importer.busy)
            importer.importArchive(fileField.text, nameField.text, approveBox.checked)
    }

    title: qsTr("Import a kit image")
    modal: true
    closePolicy: importer.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(620, parent ? parent.width - 2 * Theme.spacingLarge : 620)
    padding: Theme.spacingLarge
    // The Loader beside the form is a second child: the popup cannot size itself from one.
    contentHeight: form.implicitHeight

    KitImporter {
        id: importer
        objectName: "kitImporter"
        daemon: DaemonStatus
        onImported: (directory) => {
            dialog.close()
            dialog.done(directory)
        }
    }

    ColumnLayout {
        id: form
        anchors.fill: parent
        spacing: Theme.spacing

        Label {
            Layout.fillWidth: true
            text: qsTr("A kit published as an image (schemaVersion 3), saved as an OCI layout or with docker save. Paddock reads its descriptor, puts its layers in its own image store, so that it runs without Docker, and lists what each of its capabilities becomes here.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: fileField
                objectName: "kitImportFileField"
                Layout.fillWidth: true
                enabled: !importer.busy
                placeholderText: qsTr("/home/you/Downloads/kit.tar")
                selectByMouse: true
                Accessible.name: qsTr("Archive file")
                onAccepted: dialog.accept()
            }
            Button {
                text: qsTr("Browse…")
                enabled: !importer.busy
                Accessible.name: qsTr("Choose the archive file")
                onClicked: filePicker.active = true
            }
        }
        TextField {
            id: nameField
            objectName: "kitImportNameField"
            Layout.fillWidth: true
            enabled: !importer.busy
            placeholderText: qsTr("Kit name (default: from the image reference)")
            selectByMouse: true
            Accessible.name: qsTr("Kit name")
        }
        CommandHint {
            Layout.fillWidth: true
            command: importer.command(fileField.text, nameField.text)
            purpose: qsTr("The same import from a terminal.")
        }
        RowLayout {
            visible: importer.busy
            BusyIndicator { running: importer.busy; implicitWidth: 28; implicitHeight: 28 }
            Label { text: qsTr("Reading the archive…"); textFormat: Text.PlainText }
        }
        Label {
            objectName: "kitImportError"
            visible: importer.error.length > 0
            Layout.fillWidth: true
            text: importer.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        // An update granted more than the loaded kit: what it adds, and the person's yes.
        Repeater {
            model: importer.widenings
            delegate: Label {
                required property string modelData
                objectName: "kitImportWidening"
                Layout.fillWidth: true
                text: qsTr("+ %1").arg(modelData)
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
        }
        CheckBox {
            id: approveBox
            objectName: "kitImportApprove"
            visible: importer.widenings.length > 0
            text: qsTr("Accept what this update adds")
            Accessible.name: text
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "kitImportAccept"
            text: qsTr("Import")
            enabled: fileField.text.trim().length > 0 && !importer.busy
            Accessible.name: text
            onClicked: dialog.accept()
        }
        Button {
            text: qsTr("Cancel")
            enabled: !importer.busy
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
            Accessible.name: text
        }
    }

    // Made only when asked for: the system's file chooser is not needed to type a path.
    Loader {
        id: filePicker
        active: false
        sourceComponent: FileDialog {
            title: dialog.title
            nameFilters: [qsTr("Image archives (*.tar)"), qsTr("All files (*)")]
            onAccepted: {
                fileField.text = importer.localPath(selectedFile.toString())
                filePicker.active = false
            }
            onRejected: filePicker.active = false
            Component.onCompleted: open()
        }
    }
}

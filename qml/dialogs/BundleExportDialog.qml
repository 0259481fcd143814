// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// "Export bundle…": a kit packed into one .paddock file to hand a class, with the options of
// `paddock bundle export`: the network policy, a notes file shown to students, the output file.
Dialog {
    id: dialog

    function ask(directory, name) {
        exporter.reset(directory, name)
        open()
    }

    title: qsTr("Export a bundle of %1").arg(exporter.kitName)
    modal: true
    closePolicy: exporter.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(620, parent ? parent.width - 2 * Theme.spacingLarge : 620)
    padding: Theme.spacingLarge

    BundleExporter {
        id: exporter
        objectName: "bundleExporter"
    }
    FileDialog {
        id: notesPicker
        title: qsTr("Choose the notes shown to students")
        nameFilters: [qsTr("Text files (*.txt *.md)"), qsTr("All files (*)")]
        onAccepted: exporter.notesFile = exporter.localPath(selectedFile)
    }
    FileDialog {
        id: outputPicker
        title: qsTr("Save the bundle as")
        fileMode: FileDialog.SaveFile
        defaultSuffix: "paddock"
        nameFilters: [qsTr("Paddock bundles (*.paddock)")]
        onAccepted: exporter.outputFile = exporter.localPath(selectedFile)
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacing

        Label {
            Layout.fillWidth: true
            text: qsTr("A bundle holds the kit and the list of keys students provide (names only, never a value). Students import it on their Classroom page.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        CheckBox {
            objectName: "exportPolicyCheck"
            checked: exporter.includePolicy
            text: qsTr("Include the network policy: its preset and your global rules")
            Accessible.name: qsTr("Include the network policy")
            onToggled: exporter.includePolicy = checked
        }
        Label { text: qsTr("Notes for students (optional)"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                objectName: "exportNotesField"
                Layout.fillWidth: true
                text: exporter.notesFile
                placeholderText: qsTr("A text file shown on import")
                Accessible.name: qsTr("Notes file")
                selectByMouse: true
                onTextEdited: exporter.notesFile = text
            }
            Button {
                text: qsTr("Choose…")
                Accessible.name: qsTr("Choose the notes file")
                onClicked: notesPicker.open()
            }
        }
        Label { text: qsTr("Bundle file"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                objectName: "exportOutputField"
                Layout.fillWidth: true
                text: exporter.outputFile
                Accessible.name: qsTr("Bundle file")
                selectByMouse: true
                onTextEdited: exporter.outputFile = text
            }
            Button {
                text: qsTr("Choose…")
                Accessible.name: qsTr("Choose where to save the bundle")
                onClicked: outputPicker.open()
            }
        }
        BusyIndicator {
            visible: exporter.busy
            running: exporter.busy
            implicitWidth: 28
            implicitHeight: 28
            Accessible.ignored: true
        }
        Label {
            objectName: "exportResult"
            Layout.fillWidth: true
            visible: text.length > 0
            text: exporter.error.length > 0 ? exporter.error : exporter.result
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: exporter.error.length > 0 ? Theme.errorColor : Theme.okColor
        }
        CommandHint {
            Layout.fillWidth: true
            command: exporter.command
            purpose: qsTr("The same from a terminal.")
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "exportButton"
            enabled: !exporter.busy && exporter.outputFile.length > 0
            highlighted: true
            text: qsTr("Export")
            Accessible.name: qsTr("Write the bundle")
            onClicked: exporter.exportBundle()
        }
        Button {
            objectName: "exportCloseButton"
            enabled: !exporter.busy
            text: exporter.result.length > 0 ? qsTr("Close") : qsTr("Cancel")
            Accessible.name: qsTr("Close")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

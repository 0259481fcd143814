// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// `paddock engine add` in a dialog: a name, an address, and for a tcp:// engine the TLS files
// picked from disk. The daemon checks them and asks the engine; its refusal shows here, and what
// was typed stays for another try.
Dialog {
    id: dialog

    required property EngineSettings engines
    readonly property bool tcp: addressField.text.trim().startsWith("tcp://")
    // The name and address the daemon last answered about: its refusal is of those, and goes
    // once either is edited.
    property string askedName
    property string askedAddress

    function begin() {
        dialog.open()
        nameField.forceActiveFocus()
    }
    function submit() {
        askedName = nameField.text
        askedAddress = addressField.text
        dialog.engines.add(nameField.text, addressField.text, tcp ? caRow.field.text : "",
                           tcp ? certRow.field.text : "", tcp ? keyRow.field.text : "", remoteCheck.checked)
    }

    title: qsTr("Add a container engine")
    modal: true
    anchors.centerIn: parent
    width: Math.min(640, parent ? parent.width - 2 * Theme.spacingLarge : 640)
    padding: Theme.spacingLarge

    Connections {
        target: dialog.engines
        function onAdded(name) {
            nameField.text = ""
            addressField.text = ""
            caRow.field.text = ""
            certRow.field.text = ""
            keyRow.field.text = ""
            remoteCheck.checked = false
            dialog.close()
        }
    }

    // One picker, made anew for each field's "Choose…", which it fills.
    property TextField pickingFor: null
    property string pickerTitle
    Loader {
        id: picker
        active: false
        sourceComponent: FileDialog {
            objectName: "engineFilePicker"
            title: dialog.pickerTitle
            onAccepted: dialog.pickingFor.text = dialog.engines.pathOf(selectedFile)
        }
        function show(field, title) {
            dialog.pickingFor = field
            dialog.pickerTitle = title
            active = false
            active = true
            item.open()
        }
    }

    // A TLS file: typed, or picked with "Choose…". Inline: it reaches nothing of the dialog's.
    component FileRow: RowLayout {
        id: fileRow
        property alias field: fileField
        property string label
        property string fieldName
        property string pickerName
        signal submitted()
        signal chooseRequested()
        Layout.fillWidth: true
        TextField {
            id: fileField
            objectName: fileRow.fieldName
            Layout.fillWidth: true
            placeholderText: fileRow.label
            Accessible.name: fileRow.label
            selectByMouse: true
            onAccepted: fileRow.submitted()
        }
        Button {
            objectName: fileRow.pickerName
            text: qsTr("Choose…")
            Accessible.name: qsTr("Choose: %1").arg(fileRow.label)
            onClicked: fileRow.chooseRequested()
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacingSmall
        Label {
            Layout.fillWidth: true
            text: qsTr("Docker sandboxes can run on another Docker engine: one reached over TCP with TLS, through ssh, or at another socket. Paddock adds it once it has answered.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label { text: qsTr("Name"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
        TextField {
            id: nameField
            objectName: "engineNameField"
            Layout.fillWidth: true
            placeholderText: qsTr("letters, digits, '.', '_' and '-'")
            Accessible.name: qsTr("Engine name")
            selectByMouse: true
            onAccepted: dialog.submit()
        }
        Label { text: qsTr("Address"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
        TextField {
            id: addressField
            objectName: "engineAddressField"
            Layout.fillWidth: true
            placeholderText: "tcp://HOST:PORT, ssh://USER@HOST, unix:///PATH"
            Accessible.name: qsTr("Engine address")
            selectByMouse: true
            onAccepted: dialog.submit()
        }
        Label {
            Layout.fillWidth: true
            visible: dialog.tcp
            text: qsTr("TLS: the CA that signs the engine's certificate, and the client certificate with its key that the engine asks for.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            font.pixelSize: Theme.smallFontSize
            opacity: 0.8
        }
        FileRow {
            id: caRow
            visible: dialog.tcp
            onSubmitted: dialog.submit()
            onChooseRequested: picker.show(caRow.field, caRow.label)
            label: qsTr("CA certificate file")
            pickerName: "engineCaChoose"
            fieldName: "engineCaField"
        }
        FileRow {
            id: certRow
            visible: dialog.tcp
            onSubmitted: dialog.submit()
            onChooseRequested: picker.show(certRow.field, certRow.label)
            label: qsTr("Client certificate file")
            pickerName: "engineCertChoose"
            fieldName: "engineCertField"
        }
        FileRow {
            id: keyRow
            visible: dialog.tcp
            onSubmitted: dialog.submit()
            onChooseRequested: picker.show(keyRow.field, keyRow.label)
            label: qsTr("Client key file")
            pickerName: "engineKeyChoose"
            fieldName: "engineKeyField"
        }
        CheckBox {
            id: remoteCheck
            objectName: "engineRemoteCheck"
            Layout.fillWidth: true
            text: qsTr("It shares no folder with this computer (a virtual machine or a tunnel on a loopback address)")
            Accessible.name: qsTr("The engine shares no folder with this computer")
        }
        Label {
            objectName: "engineAddError"
            Layout.fillWidth: true
            visible: text.length > 0 && nameField.text === dialog.askedName
                     && addressField.text === dialog.askedAddress
            text: dialog.engines.addError
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        RowLayout {
            visible: dialog.engines.busy
            BusyIndicator { running: dialog.engines.busy; implicitWidth: 24; implicitHeight: 24; Accessible.ignored: true }
            Label { text: qsTr("Asking the engine…"); textFormat: Text.PlainText }
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "engineAddConfirmButton"
            text: qsTr("Add")
            enabled: !dialog.engines.busy && nameField.text.trim().length > 0 && addressField.text.trim().length > 0
            Accessible.name: qsTr("Add the engine")
            // Not the accept role: the dialog stays open until the daemon has added it.
            onClicked: dialog.submit()
        }
        Button {
            objectName: "engineAddCancelButton"
            text: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

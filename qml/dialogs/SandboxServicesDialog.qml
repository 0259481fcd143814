// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A sandbox's companion services (as `paddock service ls|add|rm SANDBOX`): the list, one removed,
// one added from a local image of the Docker engine, the daemon's refusal said as it gives it.
Dialog {
    id: dialog

    function show(name) {
        services.name = name
        services.reload()
        open()
    }

    title: qsTr("Services of %1").arg(services.name)
    modal: true
    anchors.centerIn: parent
    width: parent ? Math.min(parent.width * 0.85, 720) : 720
    padding: Theme.spacing
    standardButtons: Dialog.Close

    SandboxServices {
        id: services
        objectName: "sandboxServicesModel"
        daemon: DaemonStatus
        onChanged: {
            nameField.text = ""
            imageField.text = ""
            portField.text = ""
            envField.text = ""
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacingSmall

        Label {
            Layout.fillWidth: true
            text: qsTr("Containers on the Docker engine beside the sandbox, started and stopped with it. Inside, the sandbox reaches each by its name and port.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            objectName: "sandboxServicesNone"
            visible: services.services.length === 0
            text: qsTr("No services.")
        }
        Repeater {
            model: services.services
            delegate: RowLayout {
                required property var modelData
                Layout.fillWidth: true
                Label {
                    objectName: "sandboxService_" + modelData.name
                    Layout.fillWidth: true
                    text: qsTr("%1 · %2 · port %3").arg(modelData.name).arg(modelData.image).arg(modelData.ports)
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                }
                Button {
                    objectName: "sandboxServiceRemove_" + modelData.name
                    enabled: !services.busy
                    text: qsTr("Remove")
                    Accessible.name: qsTr("Remove service %1 and its volumes").arg(modelData.name)
                    onClicked: services.remove(modelData.name)
                }
            }
        }
        GridLayout {
            Layout.fillWidth: true
            columns: 2
            Label { text: qsTr("Name") }
            TextField {
                id: nameField
                objectName: "sandboxServiceName"
                Layout.fillWidth: true
                placeholderText: "postgres"
                Accessible.name: qsTr("Service name")
            }
            Label { text: qsTr("Image") }
            TextField {
                id: imageField
                objectName: "sandboxServiceImage"
                Layout.fillWidth: true
                placeholderText: "postgres:15"
                Accessible.name: qsTr("Image")
            }
            Label { text: qsTr("Port") }
            TextField {
                id: portField
                objectName: "sandboxServicePort"
                Layout.fillWidth: true
                placeholderText: "5432"
                inputMethodHints: Qt.ImhDigitsOnly
                Accessible.name: qsTr("Port")
            }
            Label {
                Layout.alignment: Qt.AlignTop
                topPadding: Theme.spacingSmall
                text: qsTr("Variables")
            }
            TextArea {
                id: envField
                objectName: "sandboxServiceEnv"
                Layout.fillWidth: true
                Layout.preferredHeight: 72
                placeholderText: qsTr("NAME=VALUE, one a line")
                textFormat: TextEdit.PlainText
                font.family: "monospace"
                selectByMouse: true
                background: Rectangle {
                    color: "white"
                    border.color: "#b0b0b0"
                }
                Accessible.name: qsTr("Variables, one NAME=VALUE a line")
            }
        }
        Button {
            objectName: "sandboxServiceAdd"
            enabled: !services.busy && nameField.text.length > 0 && imageField.text.length > 0
            text: qsTr("Add service")
            Accessible.name: qsTr("Add the service to %1").arg(services.name)
            onClicked: services.add(nameField.text, imageField.text, portField.text, envField.text)
        }
        Label {
            objectName: "sandboxServicesError"
            Layout.fillWidth: true
            visible: services.error.length > 0
            text: services.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The container engines Docker sandboxes run on: this computer's, the docker CLI's contexts and
// those added in Paddock (here or with `paddock engine add`), with the one in use, a button to
// use another, and adding and removing Paddock's own.
ColumnLayout {
    id: section
    objectName: "enginesSection"

    property alias engines: engineModel
    spacing: Theme.spacingSmall

    EngineSettings {
        id: engineModel
        daemon: DaemonStatus
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        Label {
            Layout.fillWidth: true
            text: qsTr("Container engines")
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
            Accessible.role: Accessible.Heading
            Accessible.name: text
        }
        Button {
            objectName: "engineAddButton"
            text: qsTr("Add engine…")
            enabled: DaemonStatus.connected
            Accessible.name: qsTr("Add a container engine")
            onClicked: addDialog.dialog().begin()
        }
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("Docker sandboxes run on the engine in use unless the New sandbox wizard or --engine names another. An engine on another computer gets a clone of the workspace (its committed files), not the folder itself.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.7
    }
    Repeater {
        model: engineModel.engines
        delegate: RowLayout {
            required property var modelData
            objectName: "engineRow_" + modelData.name
            Layout.fillWidth: true
            spacing: Theme.spacing
            Label {
                Layout.fillWidth: true
                text: modelData.inUse ? qsTr("%1 (in use): %2, %3, %4").arg(modelData.name).arg(modelData.host)
                                                                          .arg(modelData.source).arg(modelData.where)
                                      : qsTr("%1: %2, %3, %4").arg(modelData.name).arg(modelData.host)
                                                              .arg(modelData.source).arg(modelData.where)
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                font.weight: modelData.inUse ? Font.DemiBold : Font.Normal
            }
            Button {
                objectName: "engineUseButton_" + modelData.name
                text: qsTr("Use")
                visible: !modelData.inUse
                enabled: DaemonStatus.connected && !engineModel.busy
                Accessible.name: qsTr("Use engine %1").arg(modelData.name)
                onClicked: engineModel.use(modelData.name)
            }
            Button {
                objectName: "engineRemoveButton_" + modelData.name
                text: qsTr("Remove…")
                visible: modelData.removable
                enabled: DaemonStatus.connected && !engineModel.busy
                Accessible.name: qsTr("Remove engine %1").arg(modelData.name)
                onClicked: removeDialog.dialog().ask(modelData.name, modelData.host)
            }
        }
    }
    Label {
        objectName: "enginesProblem"
        Layout.fillWidth: true
        visible: text.length > 0
        text: engineModel.error.length > 0 ? engineModel.error : engineModel.problems
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
    }

    LazyDialog {
        id: addDialog
        sourceComponent: Component {
            EngineAddDialog {
                objectName: "engineAddDialog"
                parent: Overlay.overlay
                engines: engineModel
            }
        }
    }
    LazyDialog {
        id: removeDialog
        sourceComponent: Component {
            EngineRemoveDialog {
                objectName: "engineRemoveDialog"
                parent: Overlay.overlay
                onConfirmed: (name) => engineModel.remove(name)
            }
        }
    }
}

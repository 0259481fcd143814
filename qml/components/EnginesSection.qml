// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The container engines Docker sandboxes run on: this computer's, the docker CLI's contexts and
// those added with `paddock engine add`, with the one in use and a button to use another.
ColumnLayout {
    id: section
    objectName: "enginesSection"

    property alias engines: engineModel
    spacing: Theme.spacingSmall

    EngineSettings {
        id: engineModel
        daemon: DaemonStatus
    }

    Label {
        text: qsTr("Container engines")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("Docker sandboxes run on the engine in use unless --engine names another. Add one with paddock engine add NAME tcp://HOST:PORT --tls-ca FILE --tls-cert FILE --tls-key FILE.")
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
}

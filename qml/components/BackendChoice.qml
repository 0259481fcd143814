// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// bubblewrap or Docker: how a new sandbox runs (the wizard's and the Classroom page's choice).
ColumnLayout {
    id: choice

    required property SandboxWizard wizard
    property string namePrefix: "wizard"

    spacing: Theme.spacingSmall

    ButtonGroup { id: backendGroup }
    Label { text: qsTr("Backend"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
    RadioButton {
        objectName: choice.namePrefix + "BackendBwrap"
        ButtonGroup.group: backendGroup
        checked: choice.wizard.backend === "bwrap"
        text: qsTr("bubblewrap: starts in a moment, nothing else to install")
        Accessible.name: qsTr("bubblewrap backend")
        onToggled: if (checked) choice.wizard.backend = "bwrap"
    }
    RadioButton {
        objectName: choice.namePrefix + "BackendDocker"
        ButtonGroup.group: backendGroup
        checked: choice.wizard.backend === "docker"
        text: qsTr("Docker: runs the kit's image in a container")
        Accessible.name: qsTr("Docker backend")
        onToggled: if (checked) choice.wizard.backend = "docker"
    }
}

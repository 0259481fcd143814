// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The wizard's mixins for a schemaVersion "3" workload: the library's mixins, each ticked onto
// the composition in the order chosen (what `paddock run --kit KIT --kit MIXIN` does). The list
// changes only with the library: a tick changes the choice, not the delegates.
ColumnLayout {
    id: choices

    required property SandboxWizard wizard

    visible: wizard.composable && wizard.mixins.length > 0
    spacing: Theme.spacingSmall

    Label {
        Layout.topMargin: Theme.spacing
        text: qsTr("Mixins")
        textFormat: Text.PlainText
        font.weight: Font.DemiBold
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("A mixin adds its tools, rules and credentials to the kit, and its files over the kit's image.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }
    Repeater {
        model: choices.wizard.mixins
        delegate: CheckBox {
            required property var modelData
            objectName: "wizardMixin_" + modelData.name
            Layout.fillWidth: true
            checked: choices.wizard.chosenMixins.indexOf(modelData.directory) >= 0
            text: modelData.description.length > 0
                  ? qsTr("%1 — %2").arg(modelData.displayName).arg(modelData.description)
                  : modelData.displayName
            Accessible.name: qsTr("Compose with %1").arg(modelData.displayName)
            onToggled: choices.wizard.chooseMixin(modelData.directory, checked)
        }
    }
}

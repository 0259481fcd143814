// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// How a new sandbox runs: bubblewrap, Docker, or Docker with gVisor's kernel of its own (the
// wizard's and the Classroom page's choice), and a table of what each level protects. With
// offerEngines, the container engine Docker runs it on, the one in use chosen first.
ColumnLayout {
    id: choice

    required property SandboxWizard wizard
    property string namePrefix: "wizard"
    property bool offerEngines: false
    readonly property bool gvisorChosen: wizard.isolation === "gvisor"
    readonly property var chosenEngine: engineModel.engines.find(e => e.name === wizard.engine) ?? null
    // A Docker sandbox on another computer's engine: it always works on a clone.
    readonly property bool engineElsewhere: offerEngines && wizard.backend === "docker" && chosenEngine !== null
                                            && !chosenEngine.onThisComputer

    spacing: Theme.spacingSmall
    // Whether the engine runs gVisor is asked each time the step shows: it may have changed.
    onVisibleChanged: if (visible) { wizard.checkIsolations(); choice.chooseEngineInUse() }
    Component.onCompleted: wizard.checkIsolations()

    // The engine in use, until one is chosen here: what is shown is what the request names.
    function chooseEngineInUse() {
        if (offerEngines && engineModel.inUse.length > 0 && !engineModel.engines.some(e => e.name === wizard.engine))
            wizard.engine = engineModel.inUse
    }
    EngineSettings {
        id: engineModel
        daemon: choice.offerEngines ? DaemonStatus : null
        onEnginesChanged: choice.chooseEngineInUse()
    }

    function engineLabel(engine) {
        if (!engine)
            return ""
        const where = engine.onThisComputer ? qsTr("this computer") : qsTr("another computer")
        return engine.inUse ? qsTr("%1 (in use) — %2, %3").arg(engine.name).arg(engine.host).arg(where)
                            : qsTr("%1 — %2, %3").arg(engine.name).arg(engine.host).arg(where)
    }

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
        enabled: choice.wizard.dockerAvailable
        checked: choice.wizard.backend === "docker" && !choice.gvisorChosen
        text: qsTr("Docker: runs the kit's image in a container")
        Accessible.name: qsTr("Docker backend")
        onToggled: if (checked) { choice.wizard.backend = "docker"; choice.wizard.isolation = "container" }
    }
    Label {
        objectName: choice.namePrefix + "DockerProblem"
        Layout.fillWidth: true
        Layout.leftMargin: Theme.spacing * 2
        visible: !choice.wizard.dockerAvailable && choice.wizard.dockerProblem.length > 0
        text: choice.wizard.dockerProblem
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }
    Label {
        objectName: choice.namePrefix + "ComposedNote"
        Layout.fillWidth: true
        Layout.leftMargin: Theme.spacing * 2
        visible: choice.wizard.composed && choice.wizard.backend === "docker"
        text: qsTr("The kit is composed with mixins: the Docker engine builds their layers over the kit's image, once for these kits.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }
    RadioButton {
        objectName: choice.namePrefix + "BackendGvisor"
        ButtonGroup.group: backendGroup
        enabled: choice.wizard.gvisorAvailable
        checked: choice.gvisorChosen
        text: qsTr("Docker + gVisor: the image in a container with a kernel of its own, slower to start")
        Accessible.name: qsTr("Docker backend with gVisor isolation")
        onToggled: if (checked) choice.wizard.isolation = "gvisor"
    }
    Label {
        objectName: choice.namePrefix + "GvisorProblem"
        Layout.fillWidth: true
        Layout.leftMargin: Theme.spacing * 2
        visible: !choice.wizard.gvisorAvailable && choice.wizard.gvisorProblem.length > 0
        text: qsTr("Not available: %1").arg(choice.wizard.gvisorProblem)
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }

    RowLayout {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacingSmall
        visible: choice.offerEngines && choice.wizard.backend === "docker"
        spacing: Theme.spacing
        Label { text: qsTr("Engine"); textFormat: Text.PlainText; font.weight: Font.DemiBold }
        ComboBox {
            id: engineBox
            objectName: choice.namePrefix + "EngineChoice"
            Layout.fillWidth: true
            model: engineModel.engines
            displayText: currentIndex >= 0 ? choice.engineLabel(engineModel.engines[currentIndex]) : ""
            currentIndex: engineIndex()
            function engineIndex() { return engineModel.engines.findIndex(e => e.name === choice.wizard.engine) }
            delegate: ItemDelegate {
                required property var modelData
                required property int index
                objectName: choice.namePrefix + "Engine_" + modelData.name
                width: engineBox.width
                text: choice.engineLabel(modelData)
                highlighted: engineBox.highlightedIndex === index
            }
            Accessible.name: qsTr("Container engine")
            onActivated: (index) => {
                choice.wizard.engine = engineModel.engines[index].name
                // Choosing sets currentIndex, which ends its binding: it follows the wizard again.
                currentIndex = Qt.binding(() => engineIndex())
            }
        }
    }
    Label {
        objectName: choice.namePrefix + "EngineRemoteNote"
        Layout.fillWidth: true
        visible: choice.engineElsewhere
        text: qsTr("%1 is on another computer: the sandbox gets a clone of the workspace (its committed files), not the folder itself. Its commits come back as branches paddock/NAME/… of your repository; files not committed stay here. It cannot share folders of this computer.").arg(choice.wizard.engine)
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        color: Theme.warningColor
    }

    Button {
        objectName: choice.namePrefix + "CompareButton"
        flat: true
        text: qsTr("What does each level protect?")
        onClicked: compareDialog.open()
    }
    Dialog {
        id: compareDialog
        objectName: choice.namePrefix + "IsolationDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: qsTr("What each isolation level protects")
        standardButtons: Dialog.Close
        width: Math.min(900, parent ? parent.width - 2 * Theme.spacingLarge : 900)
        height: Math.min(table.implicitHeight + 160, parent ? parent.height - 2 * Theme.spacingLarge : 600)
        padding: Theme.spacingLarge

        ScrollView {
            id: scroll
            anchors.fill: parent
            contentWidth: availableWidth
            clip: true
            IsolationTable {
                id: table
                objectName: choice.namePrefix + "IsolationTable"
                width: scroll.availableWidth
            }
        }
    }
}

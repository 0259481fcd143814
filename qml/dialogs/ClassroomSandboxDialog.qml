// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// "Create my sandbox" for the kit a student imported: the project folder and the backend, the
// keys and approvals the kit still needs, its Docker image when it runs in Docker, then create
// and start. The steps are the sandbox wizard's own (ProjectFolderStep, BackendChoice,
// CredentialsStep) over the same SandboxWizard; the kit is the imported one.
WizardFrame {
    id: dialog

    readonly property int stepFolder: 0
    readonly property int stepCredentials: 1
    readonly property int stepImage: 2
    readonly property int stepCreate: 3
    property string kitName
    property alias image: image
    // Whether the agent can be opened in a terminal emulator once it runs.
    property bool terminalAvailable: true
    readonly property bool needsImage: dialog.wizard.backend === "docker" && image.image.length > 0

    // The engine the class's bundle names: Docker on it when this computer has it.
    property string engine
    readonly property bool engineHere: engine.length > 0 && engineList.engines.some(e => e.name === engine)
    function chooseEngine() {
        if (engineHere) {
            dialog.wizard.backend = "docker"
            dialog.wizard.engine = engine
        }
    }
    onEngineHereChanged: chooseEngine()

    function begin(directory, name, bundleEngine) {
        dialog.wizard.reset()
        dialog.wizard.kitDirectory = directory
        image.kitDirectory = directory
        kitName = name
        engine = bundleEngine ?? ""
        chooseEngine()
        start()
        folderStep.focusField()
    }

    EngineSettings {
        id: engineList
        daemon: dialog.engine.length > 0 ? DaemonStatus : null
    }

    title: qsTr("Create my sandbox")
    heading: qsTr("Create my sandbox: %1").arg(dialog.kitName)
    namePrefix: "classroom"
    // The page's own error line is "classroomError".
    errorName: "classroomWizardError"
    errorText: dialog.wizard.error.length > 0 ? dialog.wizard.error
               : !dialog.wizard.kitValid ? dialog.wizard.kitError : ""
    maximumWidth: 680
    maximumHeight: 560
    wizard: SandboxWizard {
        objectName: "classroomWizard"
        daemon: DaemonStatus
    }
    // The keys only when the kit still needs some, the image only for Docker; the first step asks.
    shown: [true, dialog.wizard.needsCredentialStep, needsImage, true]
    checkStep: stepFolder
    canGoNext: {
        switch (step) {
        case stepFolder: return dialog.wizard.folderValid && dialog.wizard.kitValid
        case stepCredentials: return dialog.wizard.credentialsReady
        case stepImage: return image.ready
        }
        return false
    }
    stepTitle: [qsTr("1. Your project folder"), qsTr("2. Keys and approvals"), qsTr("3. The image"),
                qsTr("4. Create and start")][step]
    onAdvanced: (from, to) => {
        if (to === stepImage)
            image.check()
    }

    ImagePreparation {
        id: image
        objectName: "classroomImage"
        daemon: DaemonStatus
    }

    ColumnLayout {
        spacing: Theme.spacingLarge
        ProjectFolderStep {
            id: folderStep
            Layout.fillWidth: true
            wizard: dialog.wizard
            namePrefix: "classroom"
            explanation: qsTr("The folder of your project: the agent reads and changes the files in it, and nothing else of yours.")
        }
        BackendChoice {
            Layout.fillWidth: true
            wizard: dialog.wizard
            namePrefix: "classroom"
            offerEngines: dialog.engine.length > 0
        }
        Label {
            objectName: "classroomEngineNote"
            Layout.fillWidth: true
            visible: dialog.engine.length > 0
            text: dialog.engineHere
                  ? qsTr("Your class's sandboxes run on the container engine %1: Docker on %1 is chosen.").arg(dialog.engine)
                  : qsTr("Your class's sandboxes run on the container engine %1, which this computer does not have yet: add it on the Sandboxes page (Container engines, Add engine…) with the address and files your teacher gives, or create this sandbox with bubblewrap here.").arg(dialog.engine)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: dialog.engineHere ? palette.windowText : Theme.warningColor
        }
        Item { Layout.fillHeight: true }
    }
    CredentialsStep {
        wizard: dialog.wizard
        namePrefix: "classroom"
    }
    ImageStep {
        preparation: image
        namePrefix: "classroom"
    }
    ColumnLayout {
        spacing: Theme.spacing
        Label {
            objectName: "classroomSummary"
            Layout.fillWidth: true
            text: (dialog.terminalAvailable
                   ? qsTr("Create a sandbox of the kit %1 on %2, start it, and open its agent in a terminal.")
                   : qsTr("Create a sandbox of the kit %1 on %2, then start it."))
                  .arg(dialog.kitName).arg(dialog.wizard.folder)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            objectName: "classroomNoTerminal"
            Layout.fillWidth: true
            visible: !dialog.terminalAvailable
            text: qsTr("No terminal emulator was found, so the agent cannot open here: it starts, and the page shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.warningColor
        }
        Label {
            objectName: "classroomHostSystem"
            Layout.fillWidth: true
            visible: dialog.wizard.backend === "bwrap"
            text: qsTr("bubblewrap runs the agent on this computer's own system: there is no image to build or load.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.8
        }
        RowLayout {
            visible: dialog.wizard.busy
            BusyIndicator { running: dialog.wizard.busy; implicitWidth: 32; implicitHeight: 32; Accessible.ignored: true }
            Label {
                objectName: "classroomPhase"
                text: dialog.wizard.phase === "creating" ? qsTr("Creating the sandbox (the kit's setup runs now)…")
                      : dialog.wizard.phase === "starting" ? qsTr("Starting %1…").arg(dialog.wizard.createdName)
                      : qsTr("Working…")
                textFormat: Text.PlainText
            }
        }
        Item { Layout.fillHeight: true }
    }
}

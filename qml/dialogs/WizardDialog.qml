// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// A new sandbox, step by step: the project folder, the kit, the backend and workspace mode,
// a review of what the kit asks for, the keys and approvals it still needs, then create and
// start; the page then opens the agent in a terminal (what `paddock run --kit DIR` does from one).
WizardFrame {
    id: dialog

    readonly property int stepFolder: 0
    readonly property int stepKit: 1
    readonly property int stepOptions: 2
    readonly property int stepShares: 3
    readonly property int stepReview: 4
    readonly property int stepCredentials: 5
    readonly property int stepCreate: 6
    // Whether this run of the wizard showed the key step: the steps after it are numbered so.
    property bool keyStepShown: false
    // Whether the agent can be opened in a terminal emulator once it runs.
    property bool terminalAvailable: true

    function begin() {
        dialog.wizard.reset()
        dialog.wizard.reloadKits()
        keyStepShown = false
        start()
        folderStep.focusField()
    }

    title: qsTr("New sandbox")
    wizard: SandboxWizard {
        objectName: "sandboxWizard"
        daemon: DaemonStatus
    }
    // The key step only when the kit still needs keys or approvals; the review asks.
    shown: [true, true, true, true, true, dialog.wizard.needsCredentialStep, true]
    checkStep: stepReview
    canGoNext: {
        switch (step) {
        case stepFolder: return dialog.wizard.folderValid
        case stepKit: return dialog.wizard.kitValid
        case stepOptions: return true
        case stepShares: return dialog.wizard.shares.ready
        case stepReview: return dialog.wizard.kitValid && dialog.wizard.hostGrantsReady
        case stepCredentials: return dialog.wizard.credentialsReady
        }
        return false
    }
    // Numbered as shown: without a key step, creating is the step after the review.
    stepTitle: step === stepCreate && !keyStepShown
               ? qsTr("6. Create and start")
               : [qsTr("1. Project folder"), qsTr("2. Kit"), qsTr("3. Backend and workspace"),
                  qsTr("4. Shared folders and variables"), qsTr("5. Review"), qsTr("6. Keys and approvals"),
                  qsTr("7. Create and start")][step]
    onAdvanced: (from, to) => {
        if (from === stepReview)
            keyStepShown = to === stepCredentials
    }

    // 1. The folder the agent works on.
    ProjectFolderStep {
        id: folderStep
        wizard: dialog.wizard
        Item { Layout.fillHeight: true }
    }

    // 2. The kit: a sample, or any folder with a spec.yaml.
    ColumnLayout {
        spacing: Theme.spacing
        // Made anew at each "Choose a folder…", as ProjectFolderStep's picker.
        Loader {
            id: kitPicker
            visible: false // holds a dialog only: no room in the layout
            active: false
            sourceComponent: FolderDialog {
                objectName: "wizardKitPicker"
                title: qsTr("Choose a kit folder (it holds spec.yaml)")
                currentFolder: dialog.wizard.folderToOpen(dialog.wizard.kitDirectory)
                onAccepted: dialog.wizard.setKitUrl(selectedFolder)
            }
            function show() {
                active = false
                active = true
                item.open()
            }
        }
        Label {
            Layout.fillWidth: true
            text: dialog.wizard.kits.length > 0
                  ? qsTr("Choose the kit that describes the agent, or a kit folder of your own.")
                  : qsTr("Choose a kit folder (it holds spec.yaml).")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        ButtonGroup { id: kitGroup }
        Repeater {
            model: dialog.wizard.kits
            delegate: RadioButton {
                required property var modelData
                objectName: "wizardKit_" + modelData.name
                Layout.fillWidth: true
                ButtonGroup.group: kitGroup
                checked: dialog.wizard.kitDirectory === modelData.directory
                text: modelData.description.length > 0
                      ? qsTr("%1 — %2").arg(modelData.displayName).arg(modelData.description)
                      : modelData.displayName
                Accessible.name: modelData.displayName
                onToggled: if (checked) dialog.wizard.kitDirectory = modelData.directory
            }
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: kitField
                objectName: "wizardKitField"
                Layout.fillWidth: true
                text: dialog.wizard.kitDirectory
                placeholderText: qsTr("Kit folder")
                Accessible.name: qsTr("Kit folder")
                selectByMouse: true
                onEditingFinished: dialog.wizard.kitDirectory = text
            }
            Button {
                objectName: "wizardKitBrowseButton"
                text: qsTr("Choose a folder…")
                Accessible.name: qsTr("Choose a kit folder")
                onClicked: kitPicker.show()
            }
        }
        Label {
            objectName: "wizardKitError"
            Layout.fillWidth: true
            visible: dialog.wizard.kitDirectory.length > 0 && !dialog.wizard.kitValid
            text: dialog.wizard.kitError
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        MixinChoices { Layout.fillWidth: true; wizard: dialog.wizard }
        Item { Layout.fillHeight: true }
    }

    // 3. How the sandbox runs.
    ColumnLayout {
        spacing: Theme.spacingSmall
        BackendChoice { id: backendChoice; wizard: dialog.wizard; offerEngines: true }
        // Its own group: radio buttons of one parent are otherwise exclusive together.
        ButtonGroup { id: modeGroup }
        Label {
            Layout.topMargin: Theme.spacing
            visible: !backendChoice.engineElsewhere // the note above says it gets a clone
            text: qsTr("Workspace")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        RadioButton {
            objectName: "wizardModeDirect"
            visible: !backendChoice.engineElsewhere
            ButtonGroup.group: modeGroup
            checked: dialog.wizard.workspaceMode === "direct"
            text: qsTr("Direct: the agent edits the folder itself")
            Accessible.name: qsTr("Direct workspace")
            onToggled: if (checked) dialog.wizard.workspaceMode = "direct"
        }
        RadioButton {
            objectName: "wizardModeClone"
            visible: !backendChoice.engineElsewhere
            ButtonGroup.group: modeGroup
            checked: dialog.wizard.workspaceMode === "clone"
            text: qsTr("Clone: the agent works on a clone of the folder's git repository")
            Accessible.name: qsTr("Clone workspace")
            onToggled: if (checked) dialog.wizard.workspaceMode = "clone"
        }
        Label {
            Layout.topMargin: Theme.spacing
            text: qsTr("Name")
            textFormat: Text.PlainText
            font.weight: Font.DemiBold
        }
        TextField {
            objectName: "wizardNameField"
            Layout.fillWidth: true
            text: dialog.wizard.sandboxName
            placeholderText: qsTr("optional: made from the kit and the folder")
            Accessible.name: qsTr("Sandbox name")
            selectByMouse: true
            onTextEdited: dialog.wizard.sandboxName = text
        }
        Item { Layout.fillHeight: true }
    }

    // 4. Folders and variables shared beyond the project folder.
    SharedFoldersStep { shares: dialog.wizard.shares }

    // 5. What the kit asks for.
    ScrollView {
        clip: true
        contentWidth: availableWidth
        ColumnLayout {
            width: parent.width
            spacing: Theme.spacingSmall
            Label {
                objectName: "wizardReviewTitle"
                Layout.fillWidth: true
                text: (dialog.wizard.review.displayName || "") + (dialog.wizard.review.version ? " " + dialog.wizard.review.version : "")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
                font.pixelSize: Theme.headlineFontSize
            }
            Label {
                Layout.fillWidth: true
                visible: text.length > 0
                text: dialog.wizard.review.description || ""
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            Label {
                objectName: "wizardReviewComposition"
                Layout.fillWidth: true
                visible: (dialog.wizard.review.parts || []).length > 1
                text: qsTr("Composed of: %1").arg((dialog.wizard.review.parts || []).join(" + "))
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            Label {
                objectName: "wizardReviewImage"
                Layout.fillWidth: true
                text: qsTr("Image: %1").arg(dialog.wizard.review.reference || dialog.wizard.review.image || qsTr("none"))
                textFormat: Text.PlainText
                wrapMode: Text.WrapAnywhere
            }
            Label {
                objectName: "wizardReviewRoot"
                Layout.fillWidth: true
                visible: text.length > 0
                text: dialog.wizard.rootNote
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            Label {
                objectName: "wizardReviewDomains"
                Layout.fillWidth: true
                text: (dialog.wizard.review.domains || []).length > 0
                      ? qsTr("Allowed domains: %1").arg(dialog.wizard.review.domains.join(", "))
                      : qsTr("Allowed domains: none of its own (your network policy applies)")
                textFormat: Text.PlainText
                wrapMode: Text.WrapAnywhere
            }
            Label {
                objectName: "wizardReviewCredentials"
                Layout.fillWidth: true
                text: {
                    const list = dialog.wizard.review.credentials || []
                    if (list.length === 0)
                        return qsTr("Keys: none")
                    return qsTr("Keys: %1").arg(list.map(c => c.domains.length > 0
                        ? qsTr("%1 (sent to %2)").arg(c.service).arg(c.domains.join(", "))
                        : c.service).join("; "))
                }
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            Label {
                objectName: "wizardReviewShares"
                Layout.fillWidth: true
                visible: text.length > 0
                text: dialog.wizard.shares.summary
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            Label {
                Layout.topMargin: Theme.spacing
                visible: dialog.wizard.warnings.length > 0
                text: qsTr("What it can reach on this computer")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
            }
            Repeater {
                model: dialog.wizard.warnings
                delegate: Label {
                    required property string modelData
                    objectName: "wizardWarning"
                    Layout.fillWidth: true
                    text: "⚠ " + modelData
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: Theme.warningColor
                }
            }
            // Host grants: the kit's rules that open this computer and its networks to the
            // sandbox. Nothing goes on until they are allowed; the daemon records the choice.
            Label {
                objectName: "wizardHostGrantsTitle"
                Layout.topMargin: Theme.spacing
                Layout.fillWidth: true
                visible: dialog.wizard.hostGrants.length > 0
                text: qsTr("It asks to reach this computer and the networks it is on")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
                wrapMode: Text.Wrap
            }
            Repeater {
                model: dialog.wizard.hostGrants
                delegate: Label {
                    required property var modelData
                    objectName: "wizardHostGrant"
                    Layout.fillWidth: true
                    text: (modelData.approved ? "✓ " : "⚠ ")
                          + (modelData.approved ? qsTr("%1 reaches %2 (approved for this kit)")
                                                : qsTr("%1 reaches %2")).arg(modelData.pattern).arg(modelData.reaches)
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: modelData.approved ? palette.text : Theme.warningColor
                }
            }
            Label {
                Layout.fillWidth: true
                visible: dialog.wizard.hostGrants.length > 0
                text: qsTr("Services that trust this computer, such as databases, your router or the cloud metadata service, will answer the sandbox.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }
            CheckBox {
                objectName: "wizardHostGrantsCheck"
                visible: dialog.wizard.hostGrantsPending
                checked: dialog.wizard.hostGrantsAllowed
                text: qsTr("Allow this kit to reach them")
                Accessible.name: qsTr("Allow this kit to reach this computer and its networks")
                onToggled: dialog.wizard.hostGrantsAllowed = checked
            }
        }
    }

    // 6. Keys to enter and approvals to give.
    CredentialsStep { wizard: dialog.wizard }

    // 7. Create and start.
    ColumnLayout {
        spacing: Theme.spacing
        Label {
            objectName: "wizardSummary"
            Layout.fillWidth: true
            text: (dialog.terminalAvailable
                   ? qsTr("Create a %1 sandbox from the kit %2 on %3 (%4 workspace), start it, and open its agent in a terminal.")
                   : qsTr("Create a %1 sandbox from the kit %2 on %3 (%4 workspace), then start it."))
                  .arg(dialog.wizard.backend !== "docker" ? "bubblewrap"
                       : dialog.wizard.engine.length > 0 ? qsTr("Docker (engine %1)").arg(dialog.wizard.engine)
                       : "Docker")
                  .arg(dialog.wizard.review.name || "")
                  .arg(dialog.wizard.folder)
                  .arg(dialog.wizard.workspaceMode === "clone" || backendChoice.engineElsewhere ? qsTr("clone")
                                                                                     : qsTr("direct"))
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            objectName: "wizardNoTerminal"
            Layout.fillWidth: true
            visible: !dialog.terminalAvailable
            text: qsTr("No terminal emulator was found, so the agent cannot open here: it starts, and its row shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.warningColor
        }
        RowLayout {
            visible: dialog.wizard.busy
            BusyIndicator { running: dialog.wizard.busy; implicitWidth: 32; implicitHeight: 32; Accessible.ignored: true }
            Label {
                objectName: "wizardPhase"
                text: dialog.wizard.phase === "creating" ? qsTr("Creating the sandbox (the kit's setup runs now)…")
                      : dialog.wizard.phase === "starting" ? qsTr("Starting %1…").arg(dialog.wizard.createdName)
                      : qsTr("Working…")
                textFormat: Text.PlainText
            }
        }
        Item { Layout.fillHeight: true }
    }
}

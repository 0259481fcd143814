// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// A new sandbox, step by step: the project folder, the kit, the backend and workspace mode,
// a review of what the kit asks for, the keys and approvals it still needs, then create and
// start; the page then opens the agent in a terminal (what `paddock run --kit DIR` does from one).
Dialog {
    id: dialog

    readonly property int stepFolder: 0
    readonly property int stepKit: 1
    readonly property int stepOptions: 2
    readonly property int stepShares: 3
    readonly property int stepReview: 4
    readonly property int stepCredentials: 5
    readonly property int stepCreate: 6
    property int step: stepFolder
    property bool advanceAfterCheck: false
    // Whether this run of the wizard showed the key step: the steps after it are numbered so.
    property bool keyStepShown: false
    property alias wizard: wizard
    // Whether the agent can be opened in a terminal emulator once it runs.
    property bool terminalAvailable: true

    signal sandboxCreated(string name)

    function begin() {
        wizard.reset()
        wizard.reloadKits()
        step = stepFolder
        advanceAfterCheck = false
        keyStepShown = false
        open()
        folderStep.focusField()
    }
    function canGoNext() {
        if (wizard.busy)
            return false
        switch (step) {
        case stepFolder: return wizard.folderValid
        case stepKit: return wizard.kitValid
        case stepOptions: return true
        case stepShares: return wizard.shares.ready
        case stepReview: return wizard.kitValid && wizard.hostGrantsReady
        case stepCredentials: return wizard.credentialsReady
        }
        return false
    }
    function next() {
        if (step === stepReview) {
            // What the kit still needs decides whether the key step is shown.
            advanceAfterCheck = true
            wizard.checkCredentials()
            return
        }
        step = step + 1
    }
    function back() {
        if (step === stepCreate && !wizard.needsCredentialStep)
            step = stepReview
        else if (step > stepFolder)
            step = step - 1
    }

    title: qsTr("New sandbox")
    modal: true
    closePolicy: wizard.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(720, parent ? parent.width - 2 * Theme.spacingLarge : 720)
    height: Math.min(620, parent ? parent.height - 2 * Theme.spacingLarge : 620)
    padding: Theme.spacingLarge

    SandboxWizard {
        id: wizard
        objectName: "sandboxWizard"
        daemon: DaemonStatus
        onCredentialsChanged: {
            if (!dialog.advanceAfterCheck || !wizard.credentialsChecked)
                return
            dialog.advanceAfterCheck = false
            dialog.keyStepShown = wizard.needsCredentialStep
            dialog.step = wizard.needsCredentialStep ? dialog.stepCredentials : dialog.stepCreate
        }
        onErrorChanged: if (wizard.error.length > 0) dialog.advanceAfterCheck = false
        onCreated: (name) => {
            dialog.sandboxCreated(name)
            dialog.close()
        }
    }

    FolderDialog {
        id: kitPicker
        title: qsTr("Choose a kit folder (it holds spec.yaml)")
        onAccepted: wizard.setKitUrl(selectedFolder)
    }

    header: ColumnLayout {
        spacing: Theme.spacingSmall
        Label {
            Layout.fillWidth: true
            Layout.topMargin: Theme.spacing
            Layout.leftMargin: Theme.spacingLarge
            text: dialog.title
            textFormat: Text.PlainText
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
        }
        Label {
            objectName: "wizardStepTitle"
            Layout.fillWidth: true
            Layout.leftMargin: Theme.spacingLarge
            // Numbered as shown: without a key step, creating is the step after the review.
            text: dialog.step === dialog.stepCreate && !dialog.keyStepShown
                  ? qsTr("6. Create and start")
                  : [qsTr("1. Project folder"), qsTr("2. Kit"), qsTr("3. Backend and workspace"),
                     qsTr("4. Shared folders and variables"), qsTr("5. Review"), qsTr("6. Keys and approvals"),
                     qsTr("7. Create and start")][dialog.step]
            textFormat: Text.PlainText
            opacity: 0.75
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacing

        StackLayout {
            id: steps
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: dialog.step

            // 1. The folder the agent works on.
            ProjectFolderStep {
                id: folderStep
                wizard: dialog.wizard
                Item { Layout.fillHeight: true }
            }

            // 2. The kit: a sample, or any folder with a spec.yaml.
            ColumnLayout {
                spacing: Theme.spacing
                Label {
                    Layout.fillWidth: true
                    text: wizard.kits.length > 0 ? qsTr("Choose the kit that describes the agent, or a kit folder of your own.")
                                                 : qsTr("Choose a kit folder (it holds spec.yaml).")
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                }
                ButtonGroup { id: kitGroup }
                Repeater {
                    model: wizard.kits
                    delegate: RadioButton {
                        required property var modelData
                        objectName: "wizardKit_" + modelData.name
                        Layout.fillWidth: true
                        ButtonGroup.group: kitGroup
                        checked: wizard.kitDirectory === modelData.directory
                        text: modelData.description.length > 0
                              ? qsTr("%1 — %2").arg(modelData.displayName).arg(modelData.description)
                              : modelData.displayName
                        Accessible.name: modelData.displayName
                        onToggled: if (checked) wizard.kitDirectory = modelData.directory
                    }
                }
                RowLayout {
                    Layout.fillWidth: true
                    TextField {
                        id: kitField
                        objectName: "wizardKitField"
                        Layout.fillWidth: true
                        text: wizard.kitDirectory
                        placeholderText: qsTr("Kit folder")
                        Accessible.name: qsTr("Kit folder")
                        selectByMouse: true
                        onEditingFinished: wizard.kitDirectory = text
                    }
                    Button {
                        objectName: "wizardKitBrowseButton"
                        text: qsTr("Choose a folder…")
                        Accessible.name: qsTr("Choose a kit folder")
                        onClicked: kitPicker.open()
                    }
                }
                Label {
                    objectName: "wizardKitError"
                    Layout.fillWidth: true
                    visible: wizard.kitDirectory.length > 0 && !wizard.kitValid
                    text: wizard.kitError
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: Theme.errorColor
                }
                Item { Layout.fillHeight: true }
            }

            // 3. How the sandbox runs.
            ColumnLayout {
                spacing: Theme.spacingSmall
                BackendChoice { wizard: dialog.wizard }
                // Its own group: radio buttons of one parent are otherwise exclusive together.
                ButtonGroup { id: modeGroup }
                Label {
                    Layout.topMargin: Theme.spacing
                    text: qsTr("Workspace")
                    textFormat: Text.PlainText
                    font.weight: Font.DemiBold
                }
                RadioButton {
                    objectName: "wizardModeDirect"
                    ButtonGroup.group: modeGroup
                    checked: wizard.workspaceMode === "direct"
                    text: qsTr("Direct: the agent edits the folder itself")
                    Accessible.name: qsTr("Direct workspace")
                    onToggled: if (checked) wizard.workspaceMode = "direct"
                }
                RadioButton {
                    objectName: "wizardModeClone"
                    ButtonGroup.group: modeGroup
                    checked: wizard.workspaceMode === "clone"
                    text: qsTr("Clone: the agent works on a clone of the folder's git repository")
                    Accessible.name: qsTr("Clone workspace")
                    onToggled: if (checked) wizard.workspaceMode = "clone"
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
                    text: wizard.sandboxName
                    placeholderText: qsTr("optional: made from the kit and the folder")
                    Accessible.name: qsTr("Sandbox name")
                    selectByMouse: true
                    onTextEdited: wizard.sandboxName = text
                }
                Item { Layout.fillHeight: true }
            }

            // 4. Folders and variables shared beyond the project folder.
            SharedFoldersStep { shares: wizard.shares }

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
                        text: (wizard.review.displayName || "") + (wizard.review.version ? " " + wizard.review.version : "")
                        textFormat: Text.PlainText
                        font.weight: Font.DemiBold
                        font.pixelSize: Theme.headlineFontSize
                    }
                    Label {
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: wizard.review.description || ""
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                    }
                    Label {
                        objectName: "wizardReviewImage"
                        Layout.fillWidth: true
                        text: qsTr("Image: %1").arg(wizard.review.image || qsTr("none"))
                        textFormat: Text.PlainText
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        objectName: "wizardReviewRoot"
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: wizard.rootNote
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                    }
                    Label {
                        objectName: "wizardReviewDomains"
                        Layout.fillWidth: true
                        text: (wizard.review.domains || []).length > 0
                              ? qsTr("Allowed domains: %1").arg(wizard.review.domains.join(", "))
                              : qsTr("Allowed domains: none of its own (your network policy applies)")
                        textFormat: Text.PlainText
                        wrapMode: Text.WrapAnywhere
                    }
                    Label {
                        objectName: "wizardReviewCredentials"
                        Layout.fillWidth: true
                        text: {
                            const list = wizard.review.credentials || []
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
                        text: wizard.shares.summary
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                    }
                    Label {
                        Layout.topMargin: Theme.spacing
                        visible: wizard.warnings.length > 0
                        text: qsTr("What it can reach on this computer")
                        textFormat: Text.PlainText
                        font.weight: Font.DemiBold
                    }
                    Repeater {
                        model: wizard.warnings
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
                        visible: wizard.hostGrants.length > 0
                        text: qsTr("It asks to reach this computer and the networks it is on")
                        textFormat: Text.PlainText
                        font.weight: Font.DemiBold
                        wrapMode: Text.Wrap
                    }
                    Repeater {
                        model: wizard.hostGrants
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
                        visible: wizard.hostGrants.length > 0
                        text: qsTr("Services that trust this computer, such as databases, your router or the cloud metadata service, will answer the sandbox.")
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                    }
                    CheckBox {
                        objectName: "wizardHostGrantsCheck"
                        visible: wizard.hostGrantsPending
                        checked: wizard.hostGrantsAllowed
                        text: qsTr("Allow this kit to reach them")
                        Accessible.name: qsTr("Allow this kit to reach this computer and its networks")
                        onToggled: wizard.hostGrantsAllowed = checked
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
                          .arg(wizard.backend === "docker" ? "Docker" : "bubblewrap")
                          .arg(wizard.review.name || "")
                          .arg(wizard.folder)
                          .arg(wizard.workspaceMode === "clone" ? qsTr("clone") : qsTr("direct"))
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
                    visible: wizard.busy
                    BusyIndicator { running: wizard.busy; implicitWidth: 32; implicitHeight: 32; Accessible.ignored: true }
                    Label {
                        objectName: "wizardPhase"
                        text: wizard.phase === "creating" ? qsTr("Creating the sandbox (the kit's setup runs now)…")
                              : wizard.phase === "starting" ? qsTr("Starting %1…").arg(wizard.createdName)
                              : qsTr("Working…")
                        textFormat: Text.PlainText
                    }
                }
                Item { Layout.fillHeight: true }
            }
        }

        Label {
            objectName: "wizardError"
            Layout.fillWidth: true
            visible: wizard.error.length > 0
            text: wizard.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
            maximumLineCount: 6
            elide: Text.ElideRight
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "wizardBackButton"
            enabled: dialog.step > dialog.stepFolder && !wizard.busy
            text: qsTr("Back")
            Accessible.name: qsTr("Back")
            onClicked: dialog.back()
        }
        Button {
            objectName: "wizardNextButton"
            visible: dialog.step < dialog.stepCreate
            enabled: dialog.canGoNext()
            text: qsTr("Next")
            Accessible.name: qsTr("Next")
            onClicked: dialog.next()
        }
        Button {
            objectName: "wizardCreateButton"
            visible: dialog.step === dialog.stepCreate
            enabled: !wizard.busy
            text: qsTr("Create and start")
            Accessible.name: qsTr("Create and start the sandbox")
            onClicked: wizard.create()
        }
        Button {
            objectName: "wizardCancelButton"
            enabled: !wizard.busy
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

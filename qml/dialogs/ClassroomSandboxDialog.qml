// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// "Create my sandbox" for the kit a student imported: the project folder and the backend, the
// keys and approvals the kit still needs, its Docker image when it runs in Docker, then create
// and start. The steps are the sandbox wizard's own (ProjectFolderStep, BackendChoice,
// CredentialsStep) over the same SandboxWizard; the kit is the imported one.
Dialog {
    id: dialog

    readonly property int stepFolder: 0
    readonly property int stepCredentials: 1
    readonly property int stepImage: 2
    readonly property int stepCreate: 3
    property int step: stepFolder
    property bool advanceAfterCheck: false
    property string kitName
    property alias wizard: wizard
    property alias image: image
    // Whether the agent can be opened in a terminal emulator once it runs.
    property bool terminalAvailable: true
    readonly property bool needsImage: wizard.backend === "docker" && image.image.length > 0

    signal sandboxCreated(string name)

    function begin(directory, name) {
        wizard.reset()
        wizard.kitDirectory = directory
        image.kitDirectory = directory
        kitName = name
        step = stepFolder
        advanceAfterCheck = false
        open()
        folderStep.focusField()
    }
    function afterCredentials() {
        if (needsImage) {
            image.check()
            return stepImage
        }
        return stepCreate
    }
    function canGoNext() {
        if (wizard.busy)
            return false
        switch (step) {
        case stepFolder: return wizard.folderValid && wizard.kitValid
        case stepCredentials: return wizard.credentialsReady
        case stepImage: return image.ready
        }
        return false
    }
    function next() {
        if (step === stepFolder) {
            // What the kit still needs decides whether the key step is shown.
            advanceAfterCheck = true
            wizard.checkCredentials()
            return
        }
        step = step === stepCredentials ? afterCredentials() : step + 1
    }
    function back() {
        if (step === stepCreate && needsImage)
            step = stepImage
        else if ((step === stepCreate || step === stepImage) && wizard.needsCredentialStep)
            step = stepCredentials
        else
            step = stepFolder
    }

    title: qsTr("Create my sandbox")
    modal: true
    closePolicy: wizard.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(680, parent ? parent.width - 2 * Theme.spacingLarge : 680)
    height: Math.min(560, parent ? parent.height - 2 * Theme.spacingLarge : 560)
    padding: Theme.spacingLarge

    SandboxWizard {
        id: wizard
        objectName: "classroomWizard"
        daemon: DaemonStatus
        onCredentialsChanged: {
            if (!dialog.advanceAfterCheck || !wizard.credentialsChecked)
                return
            dialog.advanceAfterCheck = false
            dialog.step = wizard.needsCredentialStep ? dialog.stepCredentials : dialog.afterCredentials()
        }
        onErrorChanged: if (wizard.error.length > 0) dialog.advanceAfterCheck = false
        onCreated: (name) => {
            dialog.sandboxCreated(name)
            dialog.close()
        }
    }
    ImagePreparation {
        id: image
        objectName: "classroomImage"
        daemon: DaemonStatus
    }

    header: ColumnLayout {
        spacing: Theme.spacingSmall
        Label {
            Layout.fillWidth: true
            Layout.topMargin: Theme.spacing
            Layout.leftMargin: Theme.spacingLarge
            text: qsTr("Create my sandbox: %1").arg(dialog.kitName)
            textFormat: Text.PlainText
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
        }
        Label {
            objectName: "classroomStepTitle"
            Layout.fillWidth: true
            Layout.leftMargin: Theme.spacingLarge
            text: [qsTr("1. Your project folder"), qsTr("2. Keys and approvals"), qsTr("3. The image"),
                   qsTr("4. Create and start")][dialog.step]
            textFormat: Text.PlainText
            opacity: 0.75
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacing

        StackLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: dialog.step

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
                          .arg(dialog.kitName).arg(wizard.folder)
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
                    visible: wizard.backend === "bwrap"
                    text: qsTr("bubblewrap runs the agent on this computer's own system: there is no image to build or load.")
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    opacity: 0.8
                }
                RowLayout {
                    visible: wizard.busy
                    BusyIndicator { running: wizard.busy; implicitWidth: 32; implicitHeight: 32; Accessible.ignored: true }
                    Label {
                        objectName: "classroomPhase"
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
            objectName: "classroomWizardError"
            Layout.fillWidth: true
            visible: wizard.error.length > 0 || (!wizard.kitValid && wizard.kitError.length > 0)
            text: wizard.error.length > 0 ? wizard.error : wizard.kitError
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
            maximumLineCount: 6
            elide: Text.ElideRight
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "classroomBackButton"
            enabled: dialog.step > dialog.stepFolder && !wizard.busy
            text: qsTr("Back")
            Accessible.name: qsTr("Back")
            onClicked: dialog.back()
        }
        Button {
            objectName: "classroomNextButton"
            visible: dialog.step < dialog.stepCreate
            enabled: dialog.canGoNext()
            text: qsTr("Next")
            Accessible.name: qsTr("Next")
            onClicked: dialog.next()
        }
        Button {
            objectName: "classroomCreateButton"
            visible: dialog.step === dialog.stepCreate
            enabled: !wizard.busy
            highlighted: true
            text: qsTr("Create and start")
            Accessible.name: qsTr("Create and start the sandbox")
            onClicked: wizard.create()
        }
        Button {
            objectName: "classroomCancelButton"
            enabled: !wizard.busy
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// What the sandbox wizard and the Classroom page's "Create my sandbox" share around a
// SandboxWizard: the steps and how one leads to the next, the heading, the error line and the
// Back, Next, Create and Cancel buttons. The items given to it are the steps, in order; the
// last one creates and starts the sandbox. `shown` leaves out the steps a run does not need
// (the keys, when the kit needs none), and leaving `checkStep` first asks the daemon what the
// kit still needs, so the answer decides which step comes next.
Dialog {
    id: frame

    property SandboxWizard wizard
    property int step: 0
    // Per step, false when this run leaves it out; a step not listed is shown.
    property var shown: []
    // Leaving this step asks the daemon what the kit still needs first (-1: none).
    property int checkStep: -1
    // Whether the current step lets Next go on.
    property bool canGoNext: true
    property string heading: title
    property string stepTitle
    // Object names start with it: "wizard" names wizardNextButton, wizardStepTitle and so on.
    property string namePrefix: "wizard"
    property string errorName: namePrefix + "Error"
    property string errorText: wizard ? wizard.error : ""
    property int maximumWidth: 720
    property int maximumHeight: 620
    property bool advanceAfterCheck: false
    readonly property int createStep: steps.count - 1
    default property alias stepItems: steps.data

    // From step @p from to step @p to, going on (not back).
    signal advanced(int from, int to)
    signal sandboxCreated(string name)

    // Opens on the first step.
    function start() {
        step = 0
        advanceAfterCheck = false
        open()
    }
    function isShown(index) {
        return index >= shown.length || shown[index] !== false
    }
    function next() {
        if (step === checkStep) {
            // What the kit still needs decides the next step: go on once the daemon answered.
            advanceAfterCheck = true
            wizard.checkCredentials()
            return
        }
        goOn()
    }
    function goOn() {
        let to = step + 1
        while (to < createStep && !isShown(to))
            ++to
        const from = step
        step = to
        advanced(from, to)
    }
    function back() {
        let to = step - 1
        while (to > 0 && !isShown(to))
            --to
        step = Math.max(0, to)
    }

    modal: true
    closePolicy: frame.wizard && frame.wizard.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(frame.maximumWidth, parent ? parent.width - 2 * Theme.spacingLarge : frame.maximumWidth)
    height: Math.min(frame.maximumHeight, parent ? parent.height - 2 * Theme.spacingLarge : frame.maximumHeight)
    padding: Theme.spacingLarge

    header: ColumnLayout {
        spacing: Theme.spacingSmall
        Label {
            Layout.fillWidth: true
            Layout.topMargin: Theme.spacing
            Layout.leftMargin: Theme.spacingLarge
            text: frame.heading
            textFormat: Text.PlainText
            font.pixelSize: Theme.headlineFontSize
            font.weight: Font.DemiBold
        }
        Label {
            objectName: frame.namePrefix + "StepTitle"
            Layout.fillWidth: true
            Layout.leftMargin: Theme.spacingLarge
            text: frame.stepTitle
            textFormat: Text.PlainText
            opacity: 0.75
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacing

        Connections {
            target: frame.wizard
            function onCredentialsChanged() {
                if (!frame.advanceAfterCheck || !frame.wizard.credentialsChecked)
                    return
                frame.advanceAfterCheck = false
                frame.goOn()
            }
            function onErrorChanged() {
                if (frame.wizard.error.length > 0)
                    frame.advanceAfterCheck = false
            }
            function onCreated(name) {
                frame.sandboxCreated(name)
                frame.close()
            }
        }

        StackLayout {
            id: steps
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: frame.step
        }

        Label {
            objectName: frame.errorName
            Layout.fillWidth: true
            visible: frame.errorText.length > 0
            text: frame.errorText
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
            maximumLineCount: 6
            elide: Text.ElideRight
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: frame.namePrefix + "BackButton"
            enabled: frame.step > 0 && !frame.wizard.busy
            text: qsTr("Back")
            Accessible.name: qsTr("Back")
            onClicked: frame.back()
        }
        Button {
            objectName: frame.namePrefix + "NextButton"
            visible: frame.step < frame.createStep
            enabled: frame.canGoNext && !frame.wizard.busy
            text: qsTr("Next")
            Accessible.name: qsTr("Next")
            onClicked: frame.next()
        }
        Button {
            objectName: frame.namePrefix + "CreateButton"
            visible: frame.step === frame.createStep
            enabled: !frame.wizard.busy
            highlighted: true
            text: qsTr("Create and start")
            Accessible.name: qsTr("Create and start the sandbox")
            onClicked: frame.wizard.create()
        }
        Button {
            objectName: frame.namePrefix + "CancelButton"
            enabled: !frame.wizard.busy
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

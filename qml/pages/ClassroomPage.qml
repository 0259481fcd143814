// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// Classroom: import the bundle a teacher shared (choose the file, read what it changes,
// import), create a sandbox of the imported kit (folder, keys, approvals, image, start with the
// agent in a terminal), then the checklist that proves it is set up as the course asks. The
// same as `paddock bundle import`, `paddock run --kit NAME` and `paddock verify NAME`.
ScrollablePage {
    id: page
    objectName: "page_classroom"
    title: qsTr("Classroom")
    summary: qsTr("Import the bundle your teacher shared, create your sandbox, then check that it works.")

    property string createMessage
    property bool createMessageIsError: false

    // A bundle the window was asked to open (`paddock open FILE`): its preview, as when chosen.
    function openBundle(file) {
        classroom.openBundle(file)
    }

    ClassroomModel {
        id: classroom
        objectName: "classroomModel"
        daemon: DaemonStatus
        active: page.visible
    }

    TerminalLauncher {
        id: terminal
        objectName: "classroomTerminal"
    }
    ClassroomSandboxDialog {
        id: createDialog
        objectName: "classroomSandboxDialog"
        parent: Overlay.overlay
        terminalAvailable: terminal.available
        onSandboxCreated: (name) => {
            classroom.refreshSandboxes(name)
            // Its agent started with it: the terminal joins it.
            page.createMessageIsError = false
            if (terminal.openAgent(name, false)) {
                page.createMessage = qsTr("%1 is running; its agent opens in a terminal ('%2' joins it again).")
                                     .arg(name).arg(terminal.typedAgentCommand(name, false))
            } else if (!terminal.available) {
                page.createMessage = qsTr("%1 is running. No terminal emulator was found: '%2' in a terminal opens its agent.")
                                     .arg(name).arg(terminal.typedAgentCommand(name, false))
            } else {
                page.createMessage = terminal.error
                page.createMessageIsError = true
            }
        }
    }

    FileDialog {
        id: bundleDialog
        objectName: "bundleFileDialog"
        title: qsTr("Choose a Paddock bundle")
        nameFilters: [qsTr("Paddock bundles (*.paddock)"), qsTr("All files (*)")]
        onAccepted: classroom.openBundle(selectedFile)
    }

    Label {
        objectName: "classroomError"
        Layout.fillWidth: true
        visible: classroom.error.length > 0
        text: classroom.error
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
        Accessible.role: Accessible.AlertMessage
        Accessible.name: text
    }

    // ---- Import ------------------------------------------------------------------------
    Label {
        text: qsTr("1. Import a bundle")
        font.pixelSize: Theme.headlineFontSize
        font.bold: true
        Accessible.role: Accessible.Heading
    }
    Label {
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        text: qsTr("A bundle (.paddock file) holds a kit, the network rules of the course and the list of keys you will need. Nothing is written before you press Import.")
    }
    EmptyState {
        objectName: "classroomEmpty"
        Layout.fillWidth: true
        visible: classroom.preview.length === 0 && classroom.importResult.length === 0
        iconPath: Icons.classroom
        headline: qsTr("No bundle opened yet")
        explanation: qsTr("Your teacher gives you one .paddock file. Choose it below: Paddock shows everything the import would change before anything is written.")
        commands: [
            { command: "paddock bundle import FILE --dry-run",
              purpose: qsTr("Preview a bundle from a terminal.") }
        ]
    }
    RowLayout {
        spacing: Theme.spacing
        Button {
            objectName: "chooseBundleButton"
            text: qsTr("Choose a bundle…")
            enabled: !classroom.busy
            Accessible.name: qsTr("Choose a bundle file")
            onClicked: bundleDialog.open()
        }
        Button {
            objectName: "importBundleButton"
            text: qsTr("Import")
            highlighted: true
            enabled: classroom.canImport
            Accessible.name: qsTr("Import the bundle")
            onClicked: classroom.importBundle()
        }
        BusyIndicator {
            running: classroom.busy
            visible: running
            implicitWidth: 28
            implicitHeight: 28
        }
    }
    Label {
        objectName: "bundleFileLabel"
        Layout.fillWidth: true
        visible: classroom.bundleFile.length > 0
        text: classroom.bundleFile
        textFormat: Text.PlainText
        elide: Text.ElideMiddle
        font.pixelSize: Theme.smallFontSize
    }
    Pane {
        Layout.fillWidth: true
        visible: classroom.preview.length > 0
        padding: Theme.spacing
        background: Rectangle {
            radius: Theme.radius
            color: Theme.mix(palette.window, palette.windowText, 0.05)
        }
        Label {
            objectName: "bundlePreview"
            width: parent.width
            text: classroom.preview
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            Accessible.name: qsTr("What the import will change")
            Accessible.description: text
        }
    }
    Label {
        objectName: "importResult"
        Layout.fillWidth: true
        visible: classroom.importResult.length > 0
        text: classroom.importResult
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.okColor
    }

    // ---- Create --------------------------------------------------------------------------
    Label {
        objectName: "createHeading"
        visible: classroom.kitDirectory.length > 0
        text: qsTr("2. Create your sandbox")
        font.pixelSize: Theme.headlineFontSize
        font.bold: true
        Accessible.role: Accessible.Heading
    }
    Label {
        objectName: "createExplanation"
        Layout.fillWidth: true
        visible: classroom.kitDirectory.length > 0
        wrapMode: Text.Wrap
        textFormat: Text.PlainText
        text: qsTr("The kit %1 runs the course's agent on a project folder of yours. Paddock asks for the keys it needs, then starts it and opens the agent in a terminal.").arg(classroom.kit)
    }
    RowLayout {
        visible: classroom.kitDirectory.length > 0
        spacing: Theme.spacing
        Button {
            objectName: "createSandboxButton"
            text: qsTr("Create my sandbox…")
            highlighted: classroom.sandboxes.length === 0
            enabled: DaemonStatus.connected
            Accessible.name: qsTr("Create a sandbox of the kit %1").arg(classroom.kit)
            onClicked: {
                page.createMessage = ""
                createDialog.begin(classroom.kitDirectory, classroom.kit, classroom.engine)
            }
        }
        Label {
            visible: !DaemonStatus.connected
            text: qsTr("Sandboxes are made by the daemon, which is not connected.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.warningColor
        }
    }
    Label {
        objectName: "createMessage"
        Layout.fillWidth: true
        visible: page.createMessage.length > 0
        text: page.createMessage
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: page.createMessageIsError ? Theme.errorColor : Theme.okColor
    }

    // ---- Checklist ---------------------------------------------------------------------
    Label {
        text: classroom.kitDirectory.length > 0 ? qsTr("3. Check your sandbox") : qsTr("2. Check a sandbox")
        font.pixelSize: Theme.headlineFontSize
        font.bold: true
        Accessible.role: Accessible.Heading
    }
    Label {
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        text: qsTr("With the sandbox running, the checklist proves that the key stays outside, that an unlisted domain is refused and logged, that your edits reach your project, and that no refusal surprised the policy.")
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        ComboBox {
            id: sandboxChoice
            objectName: "checkSandboxChoice"
            Layout.fillWidth: true
            model: classroom.sandboxes
            currentIndex: classroom.sandboxes.indexOf(classroom.sandbox)
            displayText: count > 0 ? currentText
                                   : (classroom.kit.length > 0 ? qsTr("No sandbox of the kit %1 is running").arg(classroom.kit)
                                                               : qsTr("No sandbox is running"))
            enabled: count > 0 && !classroom.checking
            Accessible.name: qsTr("Sandbox to check")
            onActivated: (index) => classroom.sandbox = classroom.sandboxes[index]
        }
        Button {
            objectName: "runChecksButton"
            text: qsTr("Run the checks")
            enabled: !classroom.checking && classroom.sandbox.length > 0 && DaemonStatus.connected
            Accessible.name: qsTr("Run the checks on the sandbox")
            onClicked: classroom.runChecks()
        }
    }
    RowLayout {
        visible: classroom.checking
        spacing: Theme.spacing
        BusyIndicator { running: classroom.checking; implicitWidth: 28; implicitHeight: 28; Accessible.ignored: true }
        Label {
            objectName: "checkProgress"
            text: classroom.checkProgress
            textFormat: Text.PlainText
        }
    }
    Repeater {
        model: classroom.checks
        delegate: RowLayout {
            id: checkRow
            required property string checkId
            required property string title
            required property string status
            required property string message
            required property string details
            objectName: "check_" + checkId
            Layout.fillWidth: true
            spacing: Theme.spacing
            Accessible.role: Accessible.ListItem
            Accessible.name: title + ": " + (status === "ok" ? qsTr("passed") : status === "failed" ? qsTr("failed")
                                                                                                  : qsTr("skipped")) + ". " + message

            Label {
                Layout.alignment: Qt.AlignTop
                Layout.preferredWidth: Theme.headlineFontSize
                horizontalAlignment: Text.AlignHCenter
                Accessible.ignored: true
                text: checkRow.status === "ok" ? "✓" : (checkRow.status === "failed" ? "✗" : "–")
                font.pixelSize: Theme.headlineFontSize
                font.bold: true
                color: checkRow.status === "ok" ? Theme.okColor
                                                : (checkRow.status === "failed" ? Theme.errorColor : palette.windowText)
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2
                Label {
                    Layout.fillWidth: true
                    text: checkRow.title
                    textFormat: Text.PlainText
                    font.bold: true
                    wrapMode: Text.Wrap
                }
                Label {
                    Layout.fillWidth: true
                    text: checkRow.message + (checkRow.details.length > 0 ? "\n" + checkRow.details : "")
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                }
            }
        }
    }
    Label {
        objectName: "checklistVerdict"
        Layout.fillWidth: true
        visible: classroom.checklistVerdict.length > 0
        text: classroom.checklistVerdict
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.bold: true
        color: classroom.checklistPassed ? Theme.okColor : Theme.errorColor
    }
    CommandHint {
        Layout.fillWidth: true
        command: "paddock bundle import FILE  ·  paddock run --kit KIT  ·  paddock verify NAME"
        purpose: qsTr("The same from a terminal.")
    }
}

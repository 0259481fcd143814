// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Sandboxes: start an agent on a project folder, and manage the sandboxes paddockd knows,
// whether they were made here or from a terminal.
ScrollablePage {
    id: page
    objectName: "page_sandboxes"
    title: qsTr("Sandboxes")
    summary: qsTr("Coding agents running in sandboxes on your project folders.")

    property string message
    property bool messageIsError: false
    function showMessage(text, isError) {
        message = text
        messageIsError = isError
    }

    SandboxListModel {
        id: sandboxes
        objectName: "sandboxListModel"
        daemon: DaemonStatus
        onActionSucceeded: (text) => page.showMessage(text, false)
        onActionFailed: (text) => page.showMessage(text, true)
        onApprovalNeeded: (name, kitDirectory, pending) => {
            page.approvingSandbox = name
            bindingDialog.dialog().ask(kitDirectory, sandboxes.get(sandboxes.rowOf(name)).kit, pending)
        }
    }
    property string approvingSandbox

    TerminalLauncher {
        id: terminal
        objectName: "terminalLauncher"
    }
    // A terminal installed while the window was in the background is found on coming back.
    Connections {
        target: page.Window.window
        function onActiveChanged() {
            if (page.Window.window.active)
                terminal.refresh()
        }
    }
    function openAgentVerb(name, args) {
        if (terminal.openAgentVerb(name, args))
            page.showMessage(qsTr("The agent of %1 opens in a terminal.").arg(name), false)
        else
            page.showMessage(terminal.error, true)
    }
    // Resume session…: the ids the kit's list command prints, most recent first, or Continue.
    property string sessionsOf
    property var sessionIds: []
    property bool sessionsResume: false
    property bool sessionsContinue: false
    function askSessions(name, verbs) {
        page.sessionsOf = name
        page.sessionIds = []
        page.sessionsResume = verbs.indexOf("resume") >= 0
        page.sessionsContinue = verbs.indexOf("continue") >= 0
        if (page.sessionsResume && verbs.indexOf("list") >= 0)
            terminal.listSessions(name)
        else
            sessionsMenu.popup()
    }
    Connections {
        target: terminal
        function onSessionsListed(name, ids, error) {
            if (name !== page.sessionsOf)
                return
            if (error !== "")
                page.showMessage(error, true)
            page.sessionIds = ids
            sessionsMenu.popup()
        }
    }
    Popup {
        id: sessionsMenu
        objectName: "sessionsMenu"
        parent: Overlay.overlay
        anchors.centerIn: parent
        padding: Theme.spacingSmall
        function popup() { open() }
        contentItem: ColumnLayout {
            spacing: 0
            ItemDelegate {
                objectName: "continueSessionItem"
                Layout.fillWidth: true
                visible: page.sessionsContinue
                text: qsTr("Continue the most recent session")
                onClicked: {
                    sessionsMenu.close()
                    page.openAgentVerb(page.sessionsOf, ["-t", "--continue"])
                }
            }
            Label {
                objectName: "noSessionItem"
                Layout.margins: Theme.spacingSmall
                visible: page.sessionsResume && page.sessionIds.length === 0
                text: qsTr("No session to resume")
                textFormat: Text.PlainText
                opacity: 0.7
            }
            Repeater {
                // The most recent first, as the kit's list command gives them.
                model: page.sessionsResume ? page.sessionIds.slice(0, 20) : []
                delegate: ItemDelegate {
                    required property string modelData
                    objectName: "sessionItem_" + modelData
                    Layout.fillWidth: true
                    text: modelData
                    onClicked: {
                        sessionsMenu.close()
                        page.openAgentVerb(page.sessionsOf, ["-t", "--resume", modelData])
                    }
                }
            }
        }
    }
    function openAgent(name, start) {
        if (terminal.openAgent(name, start))
            page.showMessage(qsTr("The agent of %1 opens in a terminal.").arg(name), false)
        else
            page.showMessage(terminal.error, true)
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spacing
        Button {
            id: newButton
            objectName: "newSandboxButton"
            // A sandbox is made by the daemon: without it there is nothing to do here.
            enabled: DaemonStatus.connected
            highlighted: true
            text: qsTr("New sandbox…")
            Accessible.name: qsTr("Create a new sandbox")
            onClicked: wizardDialog.dialog().begin()
        }
        OpenEnvironmentButton {}
        Label {
            objectName: "sandboxesMessage"
            Layout.fillWidth: true
            visible: DaemonStatus.connected && (page.message.length > 0 || sandboxes.error.length > 0)
            text: page.message.length > 0 ? page.message : sandboxes.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: page.messageIsError || page.message.length === 0 ? Theme.errorColor : palette.windowText
        }
    }

    Loader {
        Layout.fillWidth: true
        sourceComponent: !DaemonStatus.connected ? offlineComponent
                         : sandboxes.loaded && sandboxes.count === 0 ? emptyComponent
                         : listComponent
    }

    EnginesSection {
        Layout.fillWidth: true
        Layout.topMargin: Theme.spacing
        visible: DaemonStatus.connected
    }

    Component {
        id: offlineComponent
        EmptyState {
            iconPath: Icons.sandboxes
            headline: qsTr("Sandboxes are run by the daemon")
            explanation: qsTr("paddockd, Paddock's background service, runs the sandboxes. Once it is connected (see the status line below), this page lists every sandbox with its status, and creates new ones on your project folders.")
            commands: [
                { command: "paddock daemon status",
                  purpose: qsTr("Check whether paddockd, the background service that runs the sandboxes, is running.") }
            ]
        }
    }
    Component {
        id: emptyComponent
        EmptyState {
            iconPath: Icons.sandboxes
            headline: qsTr("No sandboxes yet")
            explanation: qsTr("Create one with New sandbox: choose a project folder and a kit, review what the kit asks for, and Paddock starts the agent in a sandbox whose only way out is its proxy.")
            commands: [
                { command: "paddock run --kit DIR",
                  purpose: qsTr("The same from a terminal, in the current folder: the agent runs on that terminal, and the sandbox keeps running when you leave it.") }
            ]
        }
    }
    Component {
        id: listComponent
        ColumnLayout {
            spacing: Theme.spacing
            Repeater {
                model: sandboxes
                delegate: SandboxRow {
                    Layout.fillWidth: true
                    terminalAvailable: terminal.available
                    onStartRequested: { page.message = ""; sandboxes.start(name) }
                    onStopRequested: { page.message = ""; sandboxes.stop(name) }
                    onRemoveRequested: removeDialog.dialog().ask(name, running)
                    onRecreateRequested: recreateDialog.dialog().ask(name)
                    onLogsRequested: logDialog.dialog().show(name)
                    onReviewRequested: reviewDialog.dialog().show(name)
                    onServicesRequested: servicesDialog.dialog().show(name)
                    onPermissionsRequested: permissionsDialog.dialog().show(name)
                    // --start: a stopped sandbox, or an agent that exited, starts again.
                    onAgentRequested: {
                        if (kitStartsSessions && !agentRunning)
                            page.openAgentVerb(name, [])
                        else
                            page.openAgent(name, true)
                    }
                    onResumeRequested: page.askSessions(name, agentVerbs)
                    onShellRequested: {
                        if (terminal.openShell(name))
                            page.showMessage(qsTr("A terminal opens on a shell in %1.").arg(name), false)
                        else
                            page.showMessage(terminal.error, true)
                    }
                }
            }
        }
    }

    // Each dialog is made when it first opens.
    LazyDialog {
        id: wizardDialog
        sourceComponent: Component {
            WizardDialog {
                objectName: "wizardDialog"
                parent: Overlay.overlay
                terminalAvailable: terminal.available
                onSandboxCreated: (name) => {
                    sandboxes.refresh()
                    // Its agent started with it: the terminal joins it.
                    if (terminal.openAgent(name, false))
                        page.showMessage(qsTr("%1 is running; its agent opens in a terminal.").arg(name), false)
                    else if (!terminal.available)
                        page.showMessage(qsTr("%1 is running. No terminal emulator was found: its row shows the command that opens its agent.").arg(name), false)
                    else
                        page.showMessage(terminal.error, true)
                }
            }
        }
    }
    LazyDialog {
        id: removeDialog
        sourceComponent: Component {
            SandboxRemoveDialog {
                objectName: "sandboxRemoveDialog"
                parent: Overlay.overlay
                onConfirmed: (name) => { page.message = ""; sandboxes.remove(name) }
            }
        }
    }
    LazyDialog {
        id: recreateDialog
        sourceComponent: Component {
            SandboxRecreateDialog {
                objectName: "sandboxRecreateDialog"
                parent: Overlay.overlay
                onConfirmed: (name) => { page.message = ""; sandboxes.recreate(name) }
            }
        }
    }
    LazyDialog {
        id: permissionsDialog
        sourceComponent: Component {
            SandboxPermissionsDialog {
                parent: Overlay.overlay
            }
        }
    }
    LazyDialog {
        id: reviewDialog
        sourceComponent: Component {
            SandboxReviewDialog {
                objectName: "sandboxReviewDialog"
                parent: Overlay.overlay
            }
        }
    }
    LazyDialog {
        id: servicesDialog
        sourceComponent: Component {
            SandboxServicesDialog {
                objectName: "sandboxServicesDialog"
                parent: Overlay.overlay
            }
        }
    }
    LazyDialog {
        id: logDialog
        sourceComponent: Component {
            SandboxLogDialog {
                objectName: "sandboxLogDialog"
                parent: Overlay.overlay
            }
        }
    }
    LazyDialog {
        id: bindingDialog
        sourceComponent: Component {
            BindingDialog {
                id: bindingPopup
                objectName: "bindingDialog"
                parent: Overlay.overlay
                onApprovalsRecorded: sandboxes.start(page.approvingSandbox, true)
                onDenied: page.showMessage(qsTr("%1 was not started: its kit's keys were not approved, and nothing was recorded. To approve later, press Start again, or run: %2")
                                           .arg(page.approvingSandbox).arg(bindingPopup.approveCommand), true)
            }
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The Paddock window: navigation on the left, the current page, the status line below.
ApplicationWindow {
    id: window
    objectName: "mainWindow"

    // The product name, the same in every language.
    title: "Paddock"
    width: 1100
    height: 720
    minimumWidth: 820
    minimumHeight: 560
    visible: true

    property int currentIndex: 0
    // The pages shown so far, one bit each: a page is made on its first visit and kept from
    // then on (what was typed, where it was scrolled), so the window starts with one page.
    property int visitedPages: 1 << currentIndex
    onCurrentIndexChanged: visitedPages |= 1 << currentIndex
    readonly property var pages: [
        { key: "sandboxes", title: qsTr("Sandboxes"), icon: Icons.sandboxes },
        { key: "kits", title: qsTr("Kits"), icon: Icons.kits },
        { key: "network", title: qsTr("Network"), icon: Icons.network },
        { key: "secrets", title: qsTr("Secrets"), icon: Icons.secrets },
        { key: "classroom", title: qsTr("Classroom"), icon: Icons.classroom }
    ]

    function showPage(index) {
        if (index >= 0 && index < pages.length)
            currentIndex = index
    }

    // A bundle given on the command line (`paddock open FILE`, a .paddock file opened from the
    // file manager): the Classroom page with its preview; nothing is imported before Import.
    property url bundleToOpen
    function openBundle(file) {
        showPage(4)
        classroomLoader.item.openBundle(file)
    }
    Component.onCompleted: {
        if (bundleToOpen.toString().length > 0)
            openBundle(bundleToOpen)
    }

    // Ctrl+1 to Ctrl+5 open the pages in navigation order, from anywhere in the window.
    Shortcut { sequence: "Ctrl+1"; context: Qt.WindowShortcut; onActivated: window.showPage(0) }
    Shortcut { sequence: "Ctrl+2"; context: Qt.WindowShortcut; onActivated: window.showPage(1) }
    Shortcut { sequence: "Ctrl+3"; context: Qt.WindowShortcut; onActivated: window.showPage(2) }
    Shortcut { sequence: "Ctrl+4"; context: Qt.WindowShortcut; onActivated: window.showPage(3) }
    Shortcut { sequence: "Ctrl+5"; context: Qt.WindowShortcut; onActivated: window.showPage(4) }

    RowLayout {
        anchors.fill: parent
        spacing: 0

        NavigationRail {
            id: rail
            objectName: "navigationRail"
            Layout.fillHeight: true
            pages: window.pages
            currentIndex: window.currentIndex
            onPageRequested: (index) => window.showPage(index)
            onAboutRequested: aboutDialog.dialog().open()
        }
        Rectangle {
            Layout.fillHeight: true
            implicitWidth: 1
            color: Theme.mix(palette.window, palette.windowText, 0.15)
        }
        StackLayout {
            id: stack
            objectName: "pageStack"
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: window.currentIndex

            Loader {
                active: (window.visitedPages & (1 << 0)) !== 0
                sourceComponent: Component { SandboxesPage {} }
            }
            Loader {
                active: (window.visitedPages & (1 << 1)) !== 0
                sourceComponent: Component { KitsPage {} }
            }
            Loader {
                active: (window.visitedPages & (1 << 2)) !== 0
                sourceComponent: Component {
                    NetworkPage {
                        policy: networkPolicy
                        notifier: networkNotifier
                        asks: askModel
                    }
                }
            }
            Loader {
                active: (window.visitedPages & (1 << 3)) !== 0
                sourceComponent: Component { SecretsPage {} }
            }
            Loader {
                id: classroomLoader
                active: (window.visitedPages & (1 << 4)) !== 0
                sourceComponent: Component { ClassroomPage {} }
            }
        }
    }

    footer: StatusFooter {
        objectName: "statusFooter"
    }

    // The network policy and the desktop notifications of refused connections, for the whole
    // session: they notify from start-up, whichever page is shown. The Network page shows them.
    NetworkPolicy {
        id: networkPolicy
        objectName: "networkPolicy"
        daemon: DaemonStatus
    }
    NetworkNotifier {
        id: networkNotifier
        objectName: "networkNotifier"
        policy: networkPolicy
        windowActive: window.active
    }

    // Ask mode: what waits for an answer, asked here from any page, or by a desktop
    // notification while the window is in the background.
    AskModel {
        id: askModel
        objectName: "askModel"
        daemon: DaemonStatus
    }
    AskNotifier {
        objectName: "askNotifier"
        asks: askModel
        windowActive: window.active
    }
    AskPrompt {
        parent: Overlay.overlay
        asks: askModel
    }

    LazyDialog {
        id: aboutDialog
        sourceComponent: Component {
            AboutDialog {
                objectName: "aboutDialog"
                parent: Overlay.overlay
            }
        }
    }
}

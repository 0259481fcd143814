// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A sandbox's agent permissions (pi-permission-system): a tab for the rules of its project
// (its workspace's file) and one for its kit's, which its running sandboxes share.
Dialog {
    id: dialog
    objectName: "sandboxPermissionsDialog"

    function show(name) {
        perms.sandbox = name
        tabs.currentIndex = 0
        perms.scope = "project"
        open()
    }

    title: qsTr("Permissions of %1").arg(perms.sandbox)
    modal: true
    anchors.centerIn: parent
    width: parent ? parent.width * 0.85 : 800
    height: parent ? parent.height * 0.85 : 600
    standardButtons: Dialog.Close

    AgentPerms {
        id: perms
        daemon: DaemonStatus
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.spacingSmall
        TabBar {
            id: tabs
            Layout.fillWidth: true
            TabButton {
                text: qsTr("Project")
                Accessible.name: qsTr("The rules of this sandbox's project")
                onClicked: perms.scope = "project"
            }
            TabButton {
                text: qsTr("Kit")
                Accessible.name: qsTr("The rules of its kit")
                onClicked: perms.scope = "global"
            }
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            AgentPermissionsPane {
                width: dialog.availableWidth - Theme.spacingLarge
                perms: perms
            }
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import Paddock

// Sandboxes page: "Open environment…" picks an sbxenv.yaml and shows what bringing it up does.
Button {
    id: button
    objectName: "openEnvironmentButton"
    enabled: DaemonStatus.connected
    text: qsTr("Open environment…")
    Accessible.name: qsTr("Open an environment file (sbxenv.yaml)")
    onClicked: environmentDialog.dialog().begin()

    LazyDialog {
        id: environmentDialog
        sourceComponent: EnvironmentDialog {}
    }
}

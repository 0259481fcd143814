// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Paddock

// The Docker image a kit names, made ready before its sandbox is created: found on this
// computer, built from the kit, or loaded from an image file, with the daemon's progress.
ColumnLayout {
    id: step

    required property ImagePreparation preparation
    property string namePrefix: "classroom"

    spacing: Theme.spacing

    FileDialog {
        id: archivePicker
        title: qsTr("Choose an image file (docker save)")
        nameFilters: [qsTr("Image archives (*.tar *.tar.gz)"), qsTr("All files (*)")]
        onAccepted: step.preparation.load(selectedFile)
    }

    Label {
        Layout.fillWidth: true
        text: qsTr("The sandbox runs in the Docker image %1.").arg(step.preparation.image)
        textFormat: Text.PlainText
        wrapMode: Text.WrapAnywhere
    }
    Label {
        objectName: step.namePrefix + "ImageState"
        Layout.fillWidth: true
        text: {
            switch (step.preparation.state) {
            case "checking": return qsTr("Looking for the image on this computer…")
            case "present": return qsTr("The image is on this computer: the sandbox can be created.")
            case "missing": return step.preparation.canBuild
                                   ? qsTr("The image is not on this computer yet: build it from the kit, or load the image file you were given.")
                                   : qsTr("The image is not on this computer yet: load the image file you were given.")
            case "working": return step.preparation.message
            case "failed": return step.preparation.error
            }
            return ""
        }
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: step.preparation.state === "present" ? Theme.okColor
               : step.preparation.state === "failed" ? Theme.errorColor : palette.windowText
    }
    ProgressBar {
        objectName: step.namePrefix + "ImageProgress"
        Layout.fillWidth: true
        visible: step.preparation.state === "working"
        from: 0
        to: 100
        value: step.preparation.percent
        indeterminate: step.preparation.percent === 0
        Accessible.name: qsTr("Image progress")
    }
    RowLayout {
        spacing: Theme.spacing
        Button {
            objectName: step.namePrefix + "ImageBuildButton"
            visible: step.preparation.canBuild
            enabled: step.preparation.state === "missing" || step.preparation.state === "failed"
            text: qsTr("Build the image")
            Accessible.name: qsTr("Build the kit's image")
            onClicked: step.preparation.build()
        }
        Button {
            objectName: step.namePrefix + "ImageLoadButton"
            enabled: step.preparation.state !== "working" && step.preparation.state !== "checking"
            text: qsTr("Load an image file…")
            Accessible.name: qsTr("Load the image from a file")
            onClicked: archivePicker.open()
        }
        Button {
            enabled: step.preparation.state !== "working" && step.preparation.state !== "checking"
            text: qsTr("Check again")
            Accessible.name: qsTr("Look for the image again")
            onClicked: step.preparation.check()
        }
    }
    Item { Layout.fillHeight: true }
}

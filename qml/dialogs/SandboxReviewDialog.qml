// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// After a session: the workspace files the host runs or trusts (git hooks and config, .envrc,
// editor tasks, Makefile, package.json, CI files...) that the sandbox changed since it started,
// each with its diff and, when Paddock kept the original, a Revert (as `paddock review NAME`).
Dialog {
    id: dialog

    function show(name) {
        review.name = name
        review.refresh()
        open()
    }

    title: qsTr("What %1 changed that your tools run").arg(review.name)
    modal: true
    anchors.centerIn: parent
    width: parent ? parent.width * 0.85 : 800
    height: parent ? parent.height * 0.85 : 600
    padding: Theme.spacing
    standardButtons: Dialog.Close

    SandboxReview {
        id: review
        objectName: "sandboxReviewModel"
        daemon: DaemonStatus
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacingSmall

        Label {
            Layout.fillWidth: true
            text: qsTr("Files in the workspace that git, make, your editor or CI run or trust. Read each change before you run anything in this folder on your computer.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            objectName: "sandboxReviewError"
            Layout.fillWidth: true
            visible: review.error.length > 0
            text: review.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        Label {
            objectName: "sandboxReviewMessage"
            Layout.fillWidth: true
            visible: review.message.length > 0
            text: review.message
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.okColor
        }
        Label {
            objectName: "sandboxReviewNothing"
            Layout.fillWidth: true
            visible: review.loaded && review.changes.length === 0 && review.error.length === 0
            text: qsTr("Nothing your tools run or trust changed since the sandbox started.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        ScrollView {
            id: scroll
            Layout.fillWidth: true
            Layout.fillHeight: true
            contentWidth: availableWidth
            clip: true
            ColumnLayout {
                width: scroll.availableWidth
                spacing: Theme.spacing
                Repeater {
                    model: review.changes
                    ColumnLayout {
                        objectName: "sandboxReviewChange_" + modelData.path
                        Layout.fillWidth: true
                        spacing: Theme.spacingSmall
                        RowLayout {
                            Layout.fillWidth: true
                            Label {
                                Layout.fillWidth: true
                                text: qsTr("%1 (%2): %3").arg(modelData.path).arg(modelData.change).arg(modelData.what)
                                textFormat: Text.PlainText
                                wrapMode: Text.Wrap
                                font.weight: Font.DemiBold
                            }
                            Button {
                                objectName: "sandboxReviewRevert_" + modelData.path
                                visible: modelData.revertible
                                enabled: !review.busy
                                text: qsTr("Revert")
                                Accessible.name: qsTr("Put %1 back as it was when the sandbox started").arg(modelData.path)
                                onClicked: review.revert(modelData.path)
                            }
                        }
                        TextArea {
                            Layout.fillWidth: true
                            readOnly: true
                            text: modelData.diff
                            textFormat: TextEdit.PlainText
                            wrapMode: TextEdit.WrapAnywhere
                            font.family: "monospace"
                            font.pixelSize: Theme.smallFontSize
                            selectByMouse: true
                        }
                    }
                }
            }
        }
    }
}

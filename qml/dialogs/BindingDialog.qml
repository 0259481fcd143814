// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Asked before a sandbox starts when its kit would send a key to domains not approved yet:
// which service, what for, and where to. Approve all, review each, or deny; approvals are
// recorded in credentials.yaml (as `paddock binding approve --kit DIR SERVICE` does).
Dialog {
    id: dialog

    // The credentials still to approve: binding.check rows (service, description, domains…).
    property var pending: []
    property string kitDirectory
    property string kitName
    // "summary", or "review" while going through the credentials one at a time.
    property string mode: "summary"
    property int reviewIndex: 0
    property var chosen: []
    readonly property var current: mode === "review" && reviewIndex < pending.length ? pending[reviewIndex] : null
    // How to approve later, for what is said after a Deny.
    readonly property string approveCommand: request.approveCommand(kitDirectory)

    // The user approved @p services (every pending one, or those chosen while reviewing).
    signal approvalsRecorded(var services)
    // The user denied, or approved none while reviewing.
    signal denied()

    function ask(directory, name, rows) {
        kitDirectory = directory
        kitName = name
        pending = rows
        mode = "summary"
        reviewIndex = 0
        chosen = []
        request.kitDirectory = directory
        request.kitName = name
        request.pending = rows
        open()
    }
    function hasWildcard(domains) {
        for (let i = 0; i < domains.length; ++i)
            if (request.isWildcard(domains[i]))
                return true
        return false
    }
    function finishReview() {
        if (chosen.length === 0) {
            dialog.denied()
            dialog.close()
            return
        }
        request.approve(chosen)
    }
    function reviewAnswer(approve) {
        if (approve)
            chosen = chosen.concat([pending[reviewIndex].service])
        if (reviewIndex + 1 < pending.length)
            reviewIndex = reviewIndex + 1
        else
            finishReview()
    }

    title: qsTr("Allow this kit to use your keys?")
    modal: true
    closePolicy: Popup.CloseOnEscape
    anchors.centerIn: parent
    width: Math.min(560, parent ? parent.width - 2 * Theme.spacingLarge : 560)
    padding: Theme.spacingLarge

    onRejected: if (!request.busy) dialog.denied()

    BindingRequest {
        id: request
        daemon: DaemonStatus
        onApproved: (services) => {
            dialog.approvalsRecorded(services)
            dialog.close()
        }
    }

    contentItem: ColumnLayout {
        spacing: Theme.spacing

        Label {
            objectName: "bindingIntro"
            Layout.fillWidth: true
            text: dialog.mode === "summary"
                ? qsTr("The kit %1 asks Paddock to add your keys to its requests to these domains. The keys stay on this computer; the proxy adds them on the way out.").arg(dialog.kitName)
                : qsTr("Credential %1 of %2 in the kit %3.").arg(dialog.reviewIndex + 1).arg(dialog.pending.length).arg(dialog.kitName)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }

        Repeater {
            model: dialog.mode === "summary" ? dialog.pending : (dialog.current ? [dialog.current] : [])
            delegate: Rectangle {
                id: entry
                required property var modelData
                Layout.fillWidth: true
                implicitHeight: entryColumn.implicitHeight + 2 * Theme.spacing
                radius: Theme.radius
                color: palette.base
                border.color: Theme.mix(palette.base, palette.windowText, 0.18)

                ColumnLayout {
                    id: entryColumn
                    anchors.fill: parent
                    anchors.margins: Theme.spacing
                    spacing: Theme.spacingSmall

                    Label {
                        objectName: "bindingService"
                        Layout.fillWidth: true
                        text: entry.modelData.required ? qsTr("%1 (required)").arg(entry.modelData.service)
                                                       : qsTr("%1 (optional)").arg(entry.modelData.service)
                        textFormat: Text.PlainText
                        font.weight: Font.DemiBold
                        color: palette.text
                    }
                    Label {
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: entry.modelData.description || ""
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: palette.text
                        opacity: 0.8
                    }
                    Label {
                        objectName: "bindingDomains"
                        Layout.fillWidth: true
                        text: qsTr("Sent to: %1").arg((entry.modelData.domains || []).join(", "))
                        textFormat: Text.PlainText
                        wrapMode: Text.WrapAnywhere
                        font.family: "monospace"
                        color: palette.text
                    }
                    Label {
                        objectName: "bindingWildcardWarning"
                        Layout.fillWidth: true
                        visible: dialog.hasWildcard(entry.modelData.domains || [])
                        text: qsTr("Warning: a wildcard domain sends this key to every host it matches, not to one server.")
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: Theme.warningColor
                        font.weight: Font.DemiBold
                    }
                }
            }
        }

        Label {
            objectName: "bindingError"
            Layout.fillWidth: true
            visible: request.error.length > 0
            text: request.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
    }

    footer: DialogButtonBox {
        Button {
            objectName: "bindingApproveAllButton"
            visible: dialog.mode === "summary"
            enabled: !request.busy
            text: qsTr("Approve all")
            Accessible.name: qsTr("Approve all credentials")
            onClicked: request.approve([])
        }
        Button {
            objectName: "bindingReviewButton"
            visible: dialog.mode === "summary" && dialog.pending.length > 1
            enabled: !request.busy
            text: qsTr("Review each")
            Accessible.name: qsTr("Review each credential")
            onClicked: {
                dialog.chosen = []
                dialog.reviewIndex = 0
                dialog.mode = "review"
            }
        }
        Button {
            objectName: "bindingReviewApproveButton"
            visible: dialog.mode === "review"
            enabled: !request.busy
            text: qsTr("Approve")
            Accessible.name: qsTr("Approve this credential")
            onClicked: dialog.reviewAnswer(true)
        }
        Button {
            objectName: "bindingReviewSkipButton"
            visible: dialog.mode === "review"
            enabled: !request.busy
            text: qsTr("Skip")
            Accessible.name: qsTr("Do not approve this credential")
            onClicked: dialog.reviewAnswer(false)
        }
        Button {
            objectName: "bindingDenyButton"
            text: qsTr("Deny")
            Accessible.name: qsTr("Deny: approve nothing")
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}

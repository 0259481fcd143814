// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The keys a kit still needs and the approvals it asks for, before its sandbox is made: each
// missing key typed into the keychain, the kit's use of the keys approved in the binding
// dialog. A step of the sandbox wizard and of the Classroom page's "Create my sandbox".
ScrollView {
    id: step

    required property SandboxWizard wizard
    property string namePrefix: "wizard"
    // Set by a Deny in the binding dialog: what happened and how to approve later.
    property string deniedText: ""

    clip: true
    contentWidth: availableWidth

    BindingDialog {
        id: bindingDialog
        objectName: step.namePrefix + "BindingDialog"
        parent: Overlay.overlay
        onApprovalsRecorded: {
            step.deniedText = ""
            step.wizard.markApproved()
        }
        onDenied: step.deniedText = qsTr("Nothing was approved: the kit may not send your keys, so its sandbox cannot use them. To approve later, press \"Review and approve…\" again, or run: %1")
                                        .arg(bindingDialog.approveCommand)
    }

    ColumnLayout {
        width: parent.width
        spacing: Theme.spacing
        Label {
            objectName: step.namePrefix + "KeychainProblem"
            Layout.fillWidth: true
            visible: !step.wizard.keychainAvailable
            text: qsTr("No keychain is reachable: keys cannot be stored. Install GNOME Keyring or KWallet and try again.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.errorColor
        }
        Repeater {
            model: step.wizard.credentials
            delegate: ColumnLayout {
                id: keyEntry
                required property var modelData
                readonly property bool missing: modelData.kind === "apiKey" && !modelData.secret
                Layout.fillWidth: true
                visible: missing
                spacing: Theme.spacingSmall
                Label {
                    Layout.fillWidth: true
                    text: (keyEntry.modelData.required ? qsTr("The key of %1 (required)") : qsTr("The key of %1 (optional)"))
                          .arg(keyEntry.modelData.service)
                          + (keyEntry.modelData.description ? ": " + keyEntry.modelData.description : "")
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    font.weight: Font.DemiBold
                }
                RowLayout {
                    Layout.fillWidth: true
                    TextField {
                        id: keyField
                        objectName: step.namePrefix + "KeyField_" + keyEntry.modelData.service
                        Layout.fillWidth: true
                        echoMode: TextInput.Password
                        inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
                        placeholderText: qsTr("Paste the key; it goes to the keychain")
                        Accessible.name: qsTr("Key of %1").arg(keyEntry.modelData.service)
                        Accessible.passwordEdit: true
                        onAccepted: keySave.clicked()
                    }
                    Button {
                        id: keySave
                        objectName: step.namePrefix + "KeySave_" + keyEntry.modelData.service
                        enabled: keyField.text.length > 0 && !step.wizard.busy
                        text: qsTr("Save key")
                        Accessible.name: qsTr("Save the key of %1").arg(keyEntry.modelData.service)
                        onClicked: {
                            step.wizard.storeKey(keyEntry.modelData.service, keyField.text)
                            keyField.clear()
                        }
                    }
                }
            }
        }
        Label {
            objectName: step.namePrefix + "ApprovalText"
            Layout.fillWidth: true
            visible: step.wizard.pendingApprovals.length > 0
            text: qsTr("The kit sends keys to domains you have not approved: %1.")
                  .arg(step.wizard.pendingApprovals.map(p => p.service + " → " + p.domains.join(", ")).join("; "))
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        Label {
            objectName: step.namePrefix + "ApprovalDenied"
            Layout.fillWidth: true
            visible: step.deniedText.length > 0 && step.wizard.pendingApprovals.length > 0
            text: step.deniedText
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.warningColor
        }
        Button {
            objectName: step.namePrefix + "ApproveButton"
            visible: step.wizard.pendingApprovals.length > 0
            text: qsTr("Review and approve…")
            Accessible.name: qsTr("Review and approve the kit's use of your keys")
            onClicked: bindingDialog.ask(step.wizard.kitDirectory, step.wizard.review.name, step.wizard.pendingApprovals)
        }
        Label {
            objectName: step.namePrefix + "CredentialsReady"
            Layout.fillWidth: true
            visible: step.wizard.credentialsReady
            text: qsTr("Every required key is stored and approved.")
            textFormat: Text.PlainText
            color: Theme.okColor
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Secrets: provider API keys in the system keychain, shown masked; set, replace and remove.
// The daemon holds the keychain; a key typed here is sent to it once and the field cleared.
ScrollablePage {
    id: page
    objectName: "page_secrets"
    title: qsTr("Secrets")
    summary: qsTr("Provider API keys, kept in the system keychain and never copied into a sandbox.")

    SecretListModel {
        id: secrets
        objectName: "secretListModel"
        daemon: DaemonStatus
        onActionSucceeded: (message) => page.showMessage(message, false)
        onActionFailed: (message) => page.showMessage(message, true)
    }

    property string message
    property bool messageIsError: false
    function showMessage(text, isError) {
        message = text
        messageIsError = isError
    }

    Loader {
        id: contentLoader
        Layout.fillWidth: true
        sourceComponent: DaemonStatus.connected ? keysComponent : offlineComponent
    }

    SecretRemoveDialog {
        id: removeDialog
        objectName: "secretRemoveDialog"
        parent: Overlay.overlay
        onConfirmed: (service, sandbox) => secrets.remove(service, sandbox)
    }

    CustomSecretRemoveDialog {
        id: removeCustomDialog
        objectName: "customSecretRemoveDialog"
        parent: Overlay.overlay
        onConfirmed: (name) => secrets.removeCustom(name)
    }

    Component {
        id: offlineComponent
        EmptyState {
            iconPath: Icons.secrets
            headline: qsTr("Keys are kept by the daemon")
            explanation: qsTr("Paddock's daemon holds the keychain for every sandbox. When it is connected (see the status line below), this page lists your provider keys, masked, and lets you add, replace and remove them.")
            noCommandText: qsTr("Use Check again in the status line to start the daemon.")
        }
    }

    Component {
        id: keysComponent
        ColumnLayout {
            id: keys
            spacing: Theme.spacing

            readonly property string serviceText: serviceField.text.trim()
            readonly property string sandboxText: sandboxField.text.trim()
            readonly property string valueText: valueField.text
            function clearValue() { valueField.clear() }

            // No keychain: say so and what to install, instead of failing on every action.
            Rectangle {
                objectName: "keychainBanner"
                Layout.fillWidth: true
                visible: secrets.keychainKnown && !secrets.keychainAvailable
                implicitHeight: bannerColumn.implicitHeight + 2 * Theme.spacing
                radius: Theme.radius
                color: Theme.mix(palette.window, Theme.errorColor, 0.15)
                border.color: Theme.errorColor
                Accessible.role: Accessible.AlertMessage
                Accessible.name: bannerTitle.text

                ColumnLayout {
                    id: bannerColumn
                    anchors.fill: parent
                    anchors.margins: Theme.spacing
                    spacing: Theme.spacingSmall
                    Label {
                        id: bannerTitle
                        objectName: "keychainBannerTitle"
                        Layout.fillWidth: true
                        text: qsTr("No keychain is reachable, so no key can be stored.")
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        font.weight: Font.DemiBold
                    }
                    Label {
                        objectName: "keychainBannerInstall"
                        Layout.fillWidth: true
                        visible: secrets.keychainInstall.length > 0
                        text: qsTr("Install and start %1, then check again. Paddock never keeps keys in a plain file.").arg(secrets.keychainInstall)
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                    }
                    Label {
                        objectName: "keychainBannerDetail"
                        Layout.fillWidth: true
                        text: secrets.keychainMessage
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        opacity: 0.75
                        font.pixelSize: Theme.smallFontSize
                    }
                    Button {
                        objectName: "keychainRetryButton"
                        text: qsTr("Check again")
                        Accessible.name: qsTr("Check the keychain again")
                        onClicked: secrets.refresh()
                    }
                }
            }

            Label {
                text: qsTr("Add a key")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
                font.pixelSize: Theme.headlineFontSize
            }
            // Which services the kits Paddock knows need, and whether each is stored.
            Repeater {
                model: secrets.neededKeys
                delegate: Label {
                    required property var modelData
                    objectName: "secretNeeded_" + modelData.kit + "_" + modelData.service
                    Layout.fillWidth: true
                    text: modelData.text
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: modelData.stored ? Theme.okColor : palette.windowText
                    Accessible.name: modelData.text
                }
            }
            GridLayout {
                Layout.fillWidth: true
                columns: 2
                columnSpacing: Theme.spacing
                rowSpacing: Theme.spacingSmall
                enabled: !secrets.keychainKnown || secrets.keychainAvailable

                Label { text: qsTr("Service"); textFormat: Text.PlainText }
                TextField {
                    id: serviceField
                    objectName: "secretServiceField"
                    Layout.fillWidth: true
                    placeholderText: secrets.suggestedService.length > 0
                                     ? qsTr("as the kit names it, e.g. %1").arg(secrets.suggestedService)
                                     : qsTr("as the kit names it")
                    Accessible.name: qsTr("Service")
                    selectByMouse: true
                }
                Label { text: qsTr("Sandbox"); textFormat: Text.PlainText }
                TextField {
                    id: sandboxField
                    objectName: "secretSandboxField"
                    Layout.fillWidth: true
                    placeholderText: qsTr("optional: only for this sandbox")
                    Accessible.name: qsTr("Sandbox (optional)")
                    selectByMouse: true
                }
                Label { text: qsTr("Key"); textFormat: Text.PlainText }
                TextField {
                    id: valueField
                    objectName: "secretValueField"
                    Layout.fillWidth: true
                    echoMode: TextInput.Password
                    inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
                    placeholderText: qsTr("pasted here, never shown")
                    Accessible.name: qsTr("Key")
                    Accessible.passwordEdit: true
                    onAccepted: if (saveButton.enabled) saveButton.clicked()
                }
                Item { implicitWidth: 1 }
                RowLayout {
                    spacing: Theme.spacing
                    Button {
                        id: saveButton
                        objectName: "secretSaveButton"
                        enabled: secrets.isValidName(serviceField.text.trim()) && valueField.text.length > 0
                                 && (sandboxField.text.trim().length === 0 || secrets.isValidName(sandboxField.text.trim()))
                        text: qsTr("Save in the keychain")
                        Accessible.name: qsTr("Save the key in the keychain")
                        onClicked: {
                            secrets.set(serviceField.text.trim(), sandboxField.text.trim(), valueField.text)
                            valueField.clear()
                        }
                    }
                    BusyIndicator {
                        running: secrets.busy
                        visible: secrets.busy
                        implicitWidth: 24
                        implicitHeight: 24
                        Accessible.ignored: true
                    }
                }
            }

            Label {
                objectName: "secretsMessage"
                Layout.fillWidth: true
                visible: page.message.length > 0 || secrets.error.length > 0
                text: page.message.length > 0 ? page.message : secrets.error
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: page.messageIsError || page.message.length === 0 ? Theme.errorColor : palette.windowText
            }

            Label {
                Layout.topMargin: Theme.spacing
                text: qsTr("Stored keys")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
                font.pixelSize: Theme.headlineFontSize
            }
            Label {
                objectName: "secretsEmpty"
                Layout.fillWidth: true
                visible: secrets.loaded && secrets.count === 0
                text: qsTr("No keys yet. A kit names the services it needs; add their keys above.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                opacity: 0.75
            }
            Repeater {
                model: secrets
                delegate: SecretRow {
                    Layout.fillWidth: true
                    onReplaceRequested: (service, sandbox, value) => secrets.set(service, sandbox, value)
                    onRemoveRequested: (service, sandbox) => removeDialog.ask(service, sandbox)
                    onRemoveCustomRequested: (name, variable, hosts) => removeCustomDialog.ask(name, variable, hosts)
                    onTestRequested: (service, sandbox) => secrets.test(service, sandbox)
                }
            }
        }
    }
}

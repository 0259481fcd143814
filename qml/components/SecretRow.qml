// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One key of the Secrets page: the service (and the sandbox it belongs to), its value masked
// (or the command or 1Password reference it comes from, and when that last gave a value), when
// it was last set, and Test / Replace / Remove. A replacement is typed in a password field that
// is cleared once the key is handed on. A custom secret (set on the command line) has Remove only.
Rectangle {
    id: row

    required property string service
    required property string sandbox
    required property string masked
    required property bool present
    required property string updated
    required property string displayName
    required property string source
    required property string sourceText
    required property string resolved
    required property string variable
    required property string hosts

    property bool replacing: false

    signal replaceRequested(string service, string sandbox, string value)
    signal removeRequested(string service, string sandbox)
    signal removeCustomRequested(string name, string variable, string hosts)
    signal testRequested(string service, string sandbox)

    objectName: "secretRow_" + displayName
    implicitHeight: content.implicitHeight + 2 * Theme.spacing
    radius: Theme.radius
    color: palette.base
    border.color: Theme.mix(palette.base, palette.windowText, 0.18)
    Accessible.role: Accessible.ListItem
    Accessible.name: qsTr("Key of %1").arg(displayName)

    function submitReplacement() {
        if (replacement.text.length === 0)
            return
        row.replaceRequested(row.service, row.sandbox, replacement.text)
        replacement.clear()
        row.replacing = false
    }

    ColumnLayout {
        id: content
        anchors.fill: parent
        anchors.margins: Theme.spacing
        spacing: Theme.spacingSmall

        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spacing

            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2
                Label {
                    objectName: "secretService"
                    Layout.fillWidth: true
                    text: row.service
                    textFormat: Text.PlainText
                    font.weight: Font.DemiBold
                    color: palette.text
                    elide: Text.ElideRight
                }
                Label {
                    Layout.fillWidth: true
                    text: row.sandbox.length > 0 ? qsTr("Only for the sandbox %1").arg(row.sandbox)
                                                 : qsTr("For every sandbox")
                    textFormat: Text.PlainText
                    color: palette.text
                    opacity: 0.7
                    font.pixelSize: Theme.smallFontSize
                }
            }
            ColumnLayout {
                spacing: 2
                Label {
                    objectName: "secretMasked"
                    Layout.alignment: Qt.AlignRight
                    visible: row.source === "keychain"
                    text: row.present ? row.masked : qsTr("missing from the keychain")
                    textFormat: Text.PlainText
                    font.family: row.present ? "monospace" : Qt.application.font.family
                    color: row.present ? palette.text : Theme.warningColor
                }
                Label {
                    objectName: "secretSource"
                    Layout.alignment: Qt.AlignRight
                    Layout.maximumWidth: 420
                    visible: row.source !== "keychain"
                    text: row.sourceText
                    textFormat: Text.PlainText
                    font.family: "monospace"
                    color: palette.text
                    // A custom secret's hosts are read whole; a long command line is cut.
                    elide: row.source === "custom" ? Text.ElideNone : Text.ElideMiddle
                    wrapMode: row.source === "custom" ? Text.Wrap : Text.NoWrap
                }
                Label {
                    objectName: "secretResolved"
                    Layout.alignment: Qt.AlignRight
                    Layout.maximumWidth: 420
                    visible: row.resolved.length > 0
                    text: row.resolved
                    textFormat: Text.PlainText
                    color: row.resolved.startsWith(qsTr("Failed")) ? Theme.warningColor : palette.text
                    opacity: 0.85
                    wrapMode: Text.Wrap
                    font.pixelSize: Theme.smallFontSize
                }
                Label {
                    Layout.alignment: Qt.AlignRight
                    visible: row.updated.length > 0
                    text: qsTr("Set %1").arg(row.updated)
                    textFormat: Text.PlainText
                    color: palette.text
                    opacity: 0.7
                    font.pixelSize: Theme.smallFontSize
                }
            }
            Button {
                objectName: "secretTestButton"
                visible: row.source !== "custom" // set on the command line
                text: qsTr("Test")
                Accessible.name: qsTr("Test the key of %1 with its provider").arg(row.displayName)
                onClicked: row.testRequested(row.service, row.sandbox)
            }
            Button {
                objectName: "secretReplaceButton"
                visible: row.source !== "custom" // set on the command line
                text: row.replacing ? qsTr("Cancel") : qsTr("Replace…")
                Accessible.name: row.replacing ? qsTr("Cancel replacing the key of %1").arg(row.displayName)
                                               : qsTr("Replace the key of %1").arg(row.displayName)
                onClicked: {
                    replacement.clear()
                    row.replacing = !row.replacing
                    if (row.replacing)
                        replacement.forceActiveFocus()
                }
            }
            Button {
                objectName: "secretRemoveButton"
                text: qsTr("Remove…")
                Accessible.name: row.source === "custom" ? qsTr("Remove the custom secret %1").arg(row.service)
                                                         : qsTr("Remove the key of %1").arg(row.displayName)
                onClicked: {
                    if (row.source === "custom")
                        row.removeCustomRequested(row.service, row.variable, row.hosts)
                    else
                        row.removeRequested(row.service, row.sandbox)
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            visible: row.replacing
            spacing: Theme.spacingSmall
            TextField {
                id: replacement
                objectName: "secretReplaceField"
                Layout.fillWidth: true
                echoMode: TextInput.Password
                inputMethodHints: Qt.ImhSensitiveData | Qt.ImhNoPredictiveText | Qt.ImhNoAutoUppercase
                placeholderText: qsTr("New key for %1").arg(row.displayName)
                Accessible.name: qsTr("New key for %1").arg(row.displayName)
                Accessible.passwordEdit: true
                onAccepted: row.submitReplacement()
            }
            Button {
                objectName: "secretReplaceSaveButton"
                enabled: replacement.text.length > 0
                text: qsTr("Save")
                Accessible.name: qsTr("Save the new key of %1").arg(row.displayName)
                onClicked: row.submitReplacement()
            }
        }
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The upstream (corporate) proxy: where allowed connections go out on a network where only the
// company's proxy reaches the internet. What is in force and where it comes from, Paddock's
// own setting (above the environment's and the desktop's), and the password, which goes to the
// keychain and is never shown again.
ColumnLayout {
    id: section
    objectName: "upstreamProxySection"

    property alias settings: model
    property string message
    // The file's values last shown: a field still showing one follows a change made elsewhere,
    // one the person edited keeps what they typed.
    property string shownUrl
    property string shownNoProxy
    spacing: Theme.spacingSmall

    UpstreamProxySettings {
        id: model
        daemon: DaemonStatus
        onSaved: (ok, text) => {
            section.message = text
            if (ok)
                passwordField.text = ""
        }
        onSettingsChanged: {
            if (urlField.text === section.shownUrl)
                urlField.text = model.fileUrl
            if (noProxyField.text === section.shownNoProxy)
                noProxyField.text = model.fileNoProxy
            section.shownUrl = model.fileUrl
            section.shownNoProxy = model.fileNoProxy
        }
    }

    Label {
        text: qsTr("Upstream proxy")
        font.pixelSize: Theme.headlineFontSize
        font.weight: Font.DemiBold
        Accessible.role: Accessible.Heading
        Accessible.name: text
    }
    Label {
        objectName: "upstreamProxySummary"
        Layout.fillWidth: true
        text: model.summary
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
    }
    Label {
        objectName: "upstreamProxyProblem"
        Layout.fillWidth: true
        visible: model.problem.length > 0
        text: model.problem
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.warningColor
    }
    Label {
        Layout.fillWidth: true
        text: qsTr("Behind a company's proxy, set it here. Without a setting, Paddock uses HTTPS_PROXY, ALL_PROXY or http_proxy from the environment it started in, then the desktop's proxy settings. The rules still decide first: a refused connection never reaches the proxy.")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        font.pixelSize: Theme.smallFontSize
        opacity: 0.7
    }
    GridLayout {
        Layout.fillWidth: true
        columns: 2
        columnSpacing: Theme.spacing
        rowSpacing: Theme.spacingSmall
        enabled: DaemonStatus.connected && !model.busy

        Label { text: qsTr("Proxy URL") }
        TextField {
            id: urlField
            objectName: "upstreamProxyUrlField"
            Layout.fillWidth: true
            placeholderText: qsTr("http://user@proxy.example.com:3128 or socks5h://host:1080")
            Accessible.name: qsTr("Upstream proxy URL")
        }
        Label { text: qsTr("Not for") }
        TextField {
            id: noProxyField
            objectName: "upstreamNoProxyField"
            Layout.fillWidth: true
            placeholderText: qsTr("intranet.example.com, 10.0.0.0/8")
            Accessible.name: qsTr("Hosts reached without the upstream proxy")
        }
        Label { text: qsTr("Password") }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: passwordField
                objectName: "upstreamPasswordField"
                Layout.fillWidth: true
                echoMode: TextInput.Password
                placeholderText: model.passwordSet ? qsTr("kept in the keychain; type to replace it")
                                                   : qsTr("none")
                Accessible.name: qsTr("Upstream proxy password")
            }
            Button {
                objectName: "upstreamForgetPasswordButton"
                text: qsTr("Forget")
                visible: model.passwordSet
                onClicked: model.forgetPassword()
            }
        }
    }
    RowLayout {
        Layout.fillWidth: true
        Button {
            objectName: "upstreamSaveButton"
            text: qsTr("Save")
            enabled: DaemonStatus.connected && !model.busy
            onClicked: model.save(urlField.text, noProxyField.text, passwordField.text)
        }
        Label {
            objectName: "upstreamMessage"
            Layout.fillWidth: true
            visible: section.message.length > 0
            text: section.message
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: model.error.length > 0 ? Theme.errorColor : palette.windowText
        }
    }
}

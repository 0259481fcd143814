// SPDX-License-Identifier: GPL-3.0-or-later
import QtQml
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Ask mode's question: a sandbox's connection that no rule covers waits until it is answered
// here. One at a time, oldest first; it closes by itself when its connections are answered
// elsewhere (the CLI), time out or leave. Escape denies once; Enter does nothing, so a stray
// key never lets a connection through.
Dialog {
    id: prompt
    objectName: "askPrompt"

    property AskModel asks
    readonly property var ask: prompt.asks ? prompt.asks.oldest : ({})
    readonly property string askId: prompt.ask.askId !== undefined ? prompt.ask.askId : ""
    readonly property string host: prompt.ask.host !== undefined ? prompt.ask.host : ""
    readonly property int port: prompt.ask.port !== undefined ? prompt.ask.port : 0
    readonly property string sandbox: prompt.ask.sandbox !== undefined ? prompt.ask.sandbox : ""
    readonly property string kit: prompt.ask.kit !== undefined ? prompt.ask.kit : ""
    readonly property int waitingCount: prompt.ask.waiting !== undefined ? prompt.ask.waiting : 0
    readonly property int secondsLeft: prompt.ask.secondsLeft !== undefined ? prompt.ask.secondsLeft : 0
    readonly property int moreWaiting: prompt.asks ? Math.max(0, prompt.asks.count - 1) : 0
    // "Allow…" shows where and what to allow, as the Allow dialog does.
    property bool choosing: false
    property bool answering: false
    property string errorText

    function answer(decision, where, what) {
        if (prompt.askId.length === 0 || prompt.answering)
            return
        prompt.errorText = ""
        prompt.answering = true
        prompt.asks.answer(prompt.askId, decision, where, what)
    }
    function follow() {
        prompt.choosing = false
        prompt.answering = false
        prompt.errorText = ""
        allowChoices.reset()
        if (prompt.askId.length === 0) {
            prompt.close()
            return
        }
        if (!prompt.opened)
            prompt.open()
        // The question itself has the focus, not a button: Enter must not answer.
        questionScope.forceActiveFocus()
    }

    onAskIdChanged: prompt.follow()
    onOpened: questionScope.forceActiveFocus()

    Connections {
        target: prompt.asks
        function onAnswered(id, ok, message) {
            if (id !== prompt.askId)
                return
            prompt.answering = false
            if (!ok)
                prompt.errorText = message
        }
    }

    title: qsTr("A connection waits for your answer")
    modal: true
    // Only an answer closes it: Escape is "Deny once" (below), a click outside does nothing.
    closePolicy: Popup.NoAutoClose
    anchors.centerIn: parent
    width: Math.min(560, parent ? parent.width - 2 * Theme.spacingLarge : 560)
    padding: Theme.spacingLarge

    // Answer buttons: only a click or Space answers; Enter and Return are swallowed.
    component AnswerButton: Button {
        focusPolicy: Qt.TabFocus
        enabled: !prompt.answering
        Keys.onReturnPressed: (event) => event.accepted = true
        Keys.onEnterPressed: (event) => event.accepted = true
    }

    FocusScope {
        id: questionScope
        anchors.fill: parent
        implicitWidth: column.implicitWidth
        implicitHeight: column.implicitHeight
        Keys.onReturnPressed: (event) => event.accepted = true
        Keys.onEnterPressed: (event) => event.accepted = true

        Shortcut {
            sequence: "Escape"
            enabled: prompt.opened && !prompt.answering
            onActivated: {
                // Out of the choices first, as Back does; then Escape denies.
                if (prompt.choosing)
                    prompt.choosing = false
                else
                    prompt.answer("deny", "", "")
            }
        }

        ColumnLayout {
            id: column
            anchors.fill: parent
            spacing: Theme.spacingSmall

            Label {
                objectName: "askDestination"
                Layout.fillWidth: true
                text: prompt.host + ":" + prompt.port
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
                font.pixelSize: Theme.headlineFontSize
                font.weight: Font.DemiBold
                Accessible.name: qsTr("Destination %1").arg(text)
            }
            Label {
                objectName: "askExplanation"
                Layout.fillWidth: true
                text: qsTr("Sandbox %1 is in ask mode and no rule covers this destination.").arg(prompt.sandbox)
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                opacity: 0.8
            }
            GridLayout {
                Layout.fillWidth: true
                Layout.topMargin: Theme.spacingSmall
                columns: 2
                columnSpacing: Theme.spacing
                rowSpacing: 2

                Label { text: qsTr("Sandbox"); opacity: 0.7 }
                Label {
                    objectName: "askSandbox"
                    Layout.fillWidth: true
                    text: prompt.sandbox
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                }
                Label { text: qsTr("Kit"); opacity: 0.7 }
                Label {
                    objectName: "askKit"
                    Layout.fillWidth: true
                    text: prompt.kit.length > 0 ? prompt.kit : qsTr("none")
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                }
                Label { text: qsTr("Program"); opacity: 0.7 }
                Label {
                    objectName: "askProgram"
                    Layout.fillWidth: true
                    // What paddock-init saw run inside; the command line is the program's own say.
                    text: prompt.ask.command !== undefined && prompt.ask.command.length > 0
                          ? prompt.ask.command
                          : qsTr("not known")
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                    maximumLineCount: 2
                    wrapMode: Text.WrapAnywhere
                    ToolTip.visible: programHover.hovered && truncated
                    ToolTip.text: text
                    HoverHandler { id: programHover }
                }
                Label {
                    visible: askWritten.visible
                    text: ""
                }
                Label {
                    id: askWritten
                    objectName: "askWritten"
                    Layout.fillWidth: true
                    // A file the sandbox wrote itself: its name is its own choice, not the base's program.
                    visible: prompt.ask.written !== undefined && prompt.ask.written.length > 0
                    text: visible ? qsTr("Written inside the sandbox (%1): not the sandbox's own %2, whatever its name says")
                                        .arg(prompt.ask.written).arg(prompt.ask.program)
                                  : ""
                    textFormat: Text.PlainText
                    color: Theme.warningColor
                    font.weight: Font.DemiBold
                    wrapMode: Text.Wrap
                }
                Label { text: qsTr("Protocol"); opacity: 0.7 }
                Label {
                    objectName: "askProtocol"
                    Layout.fillWidth: true
                    text: prompt.ask.protocol !== undefined ? prompt.ask.protocol : ""
                    textFormat: Text.PlainText
                }
                Label { text: qsTr("Waiting"); opacity: 0.7 }
                Label {
                    objectName: "askWaiting"
                    Layout.fillWidth: true
                    text: qsTr("%n connection(s)", "", prompt.waitingCount)
                    textFormat: Text.PlainText
                }
            }
            ProgressBar {
                Layout.fillWidth: true
                Layout.topMargin: Theme.spacingSmall
                from: 0
                to: 30
                value: Math.min(prompt.secondsLeft, 30)
                Accessible.name: countdown.text
            }
            Label {
                id: countdown
                objectName: "askCountdown"
                Layout.fillWidth: true
                text: qsTr("Refused in %n second(s) unless you answer.", "", prompt.secondsLeft)
                textFormat: Text.PlainText
                color: prompt.secondsLeft <= 5 ? Theme.warningColor : palette.windowText
            }
            Label {
                objectName: "askMoreWaiting"
                Layout.fillWidth: true
                visible: prompt.moreWaiting > 0
                text: qsTr("%n more waiting after this one.", "", prompt.moreWaiting)
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
            }

            AllowChoices {
                id: allowChoices
                Layout.fillWidth: true
                Layout.topMargin: Theme.spacing
                visible: prompt.choosing
                namePrefix: "askAllow"
                sandbox: prompt.sandbox
                kit: prompt.kit
                choices: prompt.asks ? prompt.asks.allowChoices(prompt.host, prompt.port)
                                     : ({ exact: "", anyport: "", wildcard: "", deep: "" })
            }
            Loader {
                Layout.fillWidth: true
                active: prompt.choosing
                visible: active
                sourceComponent: CommandHint {
                    command: prompt.asks ? prompt.asks.answerCommand(prompt.askId, "allow", allowChoices.where, allowChoices.what) : ""
                    purpose: qsTr("The same from a terminal:")
                }
            }
            Label {
                objectName: "askError"
                Layout.fillWidth: true
                visible: prompt.errorText.length > 0
                text: prompt.errorText
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: Theme.errorColor
            }
        }
    }

    footer: Pane {
        padding: Theme.spacingLarge
        topPadding: Theme.spacingSmall
        background: null

        RowLayout {
            anchors.fill: parent
            spacing: Theme.spacingSmall

            Item { Layout.fillWidth: true }
            AnswerButton {
                objectName: "askAllowOnceButton"
                visible: !prompt.choosing
                text: qsTr("Allow once")
                Accessible.name: qsTr("Allow %1 this time only").arg(prompt.host)
                onClicked: prompt.answer("allow", "", "")
            }
            AnswerButton {
                objectName: "askAllowChooseButton"
                visible: !prompt.choosing
                text: qsTr("Allow…")
                Accessible.name: qsTr("Allow %1 with a rule").arg(prompt.host)
                onClicked: {
                    prompt.choosing = true
                    allowChoices.focusFirst()
                }
            }
            AnswerButton {
                objectName: "askAllowConfirmButton"
                visible: prompt.choosing
                text: qsTr("Allow")
                Accessible.name: qsTr("Allow %1 as chosen").arg(prompt.host)
                onClicked: prompt.answer("allow", allowChoices.where, allowChoices.what)
            }
            AnswerButton {
                objectName: "askBackButton"
                visible: prompt.choosing
                text: qsTr("Back")
                onClicked: prompt.choosing = false
            }
            AnswerButton {
                objectName: "askDenyOnceButton"
                visible: !prompt.choosing
                text: qsTr("Deny once")
                Accessible.name: qsTr("Deny %1 this time only").arg(prompt.host)
                onClicked: prompt.answer("deny", "", "")
            }
            AnswerButton {
                objectName: "askDenyAlwaysButton"
                visible: !prompt.choosing
                text: qsTr("Deny always")
                Accessible.name: qsTr("Deny %1 for sandbox %2 from now on").arg(prompt.host).arg(prompt.sandbox)
                onClicked: prompt.answer("deny", "sandbox", "exact")
            }
        }
    }
}

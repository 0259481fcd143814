// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// One field of a kit's spec.yaml: a label, the value (edited as you type), and the
// loader's messages about that field right under it.
ColumnLayout {
    id: field

    required property KitEditorModel editor
    required property string path
    property string label
    property string placeholder
    // "text", "number", "multiline" or "bool"
    property string type: "text"
    // Optional fields disappear from the file when emptied; required ones stay, empty.
    property bool removeWhenEmpty: true
    readonly property string message: editor.revision >= 0 ? editor.messageFor(path) : ""
    readonly property string value: editor.revision >= 0 ? editor.value(path) : ""

    spacing: 2
    Layout.fillWidth: true

    Label {
        visible: field.type !== "bool"
        text: field.label
        textFormat: Text.PlainText
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }
    TextField {
        id: textInput
        objectName: visible ? "field_" + field.path : ""
        visible: field.type === "text" || field.type === "number"
        Layout.fillWidth: true
        text: field.value
        placeholderText: field.placeholder
        readOnly: field.editor.readOnly
        selectByMouse: true
        inputMethodHints: field.type === "number" ? Qt.ImhDigitsOnly : Qt.ImhNone
        Accessible.name: field.label
        Accessible.description: field.message
        onTextEdited: {
            if (field.type === "number")
                field.editor.setNumber(field.path, text)
            else
                field.editor.setValue(field.path, text, false)
        }
        // Emptied while typing, the value stays in place as ""; left empty, an optional field goes.
        onEditingFinished: if (text.length === 0 && field.removeWhenEmpty && field.type !== "number")
            field.editor.setValue(field.path, "", true)
    }
    TextArea {
        id: area
        objectName: visible ? "field_" + field.path : ""
        visible: field.type === "multiline"
        Layout.fillWidth: true
        Layout.minimumHeight: visible ? 90 : 0
        text: field.value
        placeholderText: field.placeholder
        readOnly: field.editor.readOnly
        selectByMouse: true
        wrapMode: TextEdit.Wrap
        textFormat: TextEdit.PlainText
        font.family: "monospace"
        Accessible.name: field.label
        Accessible.description: field.message
        // A TextArea has no textEdited: follow the user's typing only.
        onTextChanged: if (activeFocus && text !== field.value)
            field.editor.setValue(field.path, text, false)
        onEditingFinished: if (text.length === 0 && field.removeWhenEmpty)
            field.editor.setValue(field.path, "", true)
    }
    CheckBox {
        objectName: visible ? "field_" + field.path : ""
        visible: field.type === "bool"
        text: field.label
        checked: field.value === "true"
        enabled: !field.editor.readOnly
        Accessible.name: field.label
        onToggled: field.editor.setBool(field.path, checked)
    }
    Label {
        objectName: "message_" + field.path
        visible: field.message.length > 0
        Layout.fillWidth: true
        text: field.message
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
        font.pixelSize: Theme.smallFontSize
    }
}

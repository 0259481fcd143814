// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A list of strings of a kit (entrypoint, allowed domains, licences): one editable row per
// item, a remove button on each, and a field to add one more.
ColumnLayout {
    id: list

    required property KitEditorModel editor
    required property string path
    // Names the list's controls (objectName); the path unless it can change while editing.
    property string fieldName: path
    property string label
    // What a screen reader calls the list: the label, unless several lists share it.
    property string spokenLabel: label
    property string placeholder
    // "allow" or "deny" for the network lists (permissions.network, or a descriptor's
    // network-policy@1), whose patterns go through the kit writer.
    property string networkList: ""
    // For a descriptor's network lists: the install-phase list rather than the runtime one,
    // and the group (its index in capabilities) whose network-policy@1 member holds it.
    property bool installPhase: false
    property int networkGroup: -1
    readonly property var items: editor.revision >= 0 ? editor.strings(path) : []
    readonly property string message: editor.revision >= 0 ? editor.messageFor(path) : ""

    spacing: 2
    Layout.fillWidth: true

    Label {
        text: list.label
        textFormat: Text.PlainText
        font.pixelSize: Theme.smallFontSize
        opacity: 0.8
    }
    Repeater {
        model: list.items
        delegate: RowLayout {
            id: row
            required property int index
            required property string modelData
            Layout.fillWidth: true
            TextField {
                objectName: "item_" + list.fieldName + "." + row.index
                Layout.fillWidth: true
                text: row.modelData
                readOnly: list.editor.readOnly || list.networkList.length > 0
                selectByMouse: true
                Accessible.name: qsTr("%1, item %2").arg(list.spokenLabel).arg(row.index + 1)
                onTextEdited: list.editor.setItem(list.path, row.index, text)
            }
            Button {
                objectName: "remove_" + list.fieldName + "." + row.index
                text: qsTr("Remove")
                visible: !list.editor.readOnly
                Accessible.name: qsTr("Remove %1 from %2").arg(row.modelData).arg(list.spokenLabel)
                onClicked: {
                    if (list.networkList.length > 0)
                        list.editor.removeNetworkPattern(list.networkList === "deny", row.modelData,
                                                         list.installPhase, list.networkGroup)
                    else
                        list.editor.removeItem(list.path, row.index)
                }
            }
        }
    }
    RowLayout {
        visible: !list.editor.readOnly
        Layout.fillWidth: true
        TextField {
            id: newItem
            objectName: "add_" + list.fieldName
            Layout.fillWidth: true
            placeholderText: list.placeholder
            selectByMouse: true
            Accessible.name: qsTr("New item of %1").arg(list.spokenLabel)
            onAccepted: addButton.clicked()
        }
        Button {
            id: addButton
            objectName: "addButton_" + list.fieldName
            text: qsTr("Add")
            enabled: newItem.text.trim().length > 0
            Accessible.name: qsTr("Add to %1").arg(list.spokenLabel)
            onClicked: {
                const ok = list.networkList.length > 0
                    ? list.editor.addNetworkPattern(list.networkList === "deny", newItem.text,
                                                  list.installPhase, list.networkGroup)
                    : list.editor.appendItem(list.path, newItem.text.trim())
                if (ok)
                    newItem.clear()
            }
        }
    }
    Label {
        objectName: "message_" + list.fieldName
        visible: list.message.length > 0
        Layout.fillWidth: true
        text: list.message
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
        font.pixelSize: Theme.smallFontSize
    }
}

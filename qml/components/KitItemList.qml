// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// A list of objects of a kit (credentials, setup commands, volumes, ports, arguments):
// one framed group of fields per item, a button to remove it and one to add an item.
// `fields` describes each item's fields:
//   [{ key, label, type: "text"|"number"|"multiline"|"bool"|"list"|"items",
//      placeholder, required, and for "items" the nested fields/newItem/keyOrder/itemLabel }]
ColumnLayout {
    id: itemList

    required property KitEditorModel editor
    required property string path
    property string itemLabel
    property string titleKey
    property var fields: []
    property var newItem: ({})
    property var keyOrder: []
    property string addText: qsTr("Add")
    readonly property int itemCount: editor.revision >= 0 ? editor.count(path) : 0
    readonly property string message: editor.revision >= 0 ? editor.messageFor(path) : ""

    Layout.fillWidth: true
    spacing: Theme.spacingSmall

    Repeater {
        model: itemList.itemCount
        delegate: Frame {
            id: itemFrame
            required property int index
            readonly property string itemPath: itemList.path + "." + index
            Layout.fillWidth: true

            ColumnLayout {
                anchors.fill: parent
                spacing: Theme.spacingSmall

                RowLayout {
                    Layout.fillWidth: true
                    Label {
                        Layout.fillWidth: true
                        text: {
                            const title = itemList.editor.revision >= 0 && itemList.titleKey.length > 0
                                ? itemList.editor.value(itemFrame.itemPath + "." + itemList.titleKey) : ""
                            return title.length > 0 ? qsTr("%1 %2: %3").arg(itemList.itemLabel).arg(itemFrame.index + 1).arg(title)
                                                    : qsTr("%1 %2").arg(itemList.itemLabel).arg(itemFrame.index + 1)
                        }
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        font.weight: Font.DemiBold
                    }
                    Button {
                        objectName: "removeItem_" + itemFrame.itemPath
                        visible: !itemList.editor.readOnly
                        text: qsTr("Remove")
                        Accessible.name: qsTr("Remove %1 %2").arg(itemList.itemLabel).arg(itemFrame.index + 1)
                        onClicked: itemList.editor.removeItem(itemList.path, itemFrame.index)
                    }
                }
                Repeater {
                    model: itemList.fields
                    delegate: Loader {
                        id: fieldLoader
                        required property var modelData
                        Layout.fillWidth: true
                        Component.onCompleted: {
                            const spec = modelData
                            const fieldPath = itemFrame.itemPath + "." + spec.key
                            if (spec.type === "list") {
                                setSource(Qt.resolvedUrl("KitStringList.qml"),
                                          { editor: itemList.editor, path: fieldPath, label: spec.label,
                                            placeholder: spec.placeholder || "" })
                            } else if (spec.type === "items") {
                                setSource(Qt.resolvedUrl("KitItemList.qml"),
                                          { editor: itemList.editor, path: fieldPath, itemLabel: spec.itemLabel,
                                            titleKey: spec.titleKey || "", fields: spec.fields,
                                            newItem: spec.newItem, keyOrder: spec.keyOrder || [],
                                            addText: spec.addText })
                            } else {
                                setSource(Qt.resolvedUrl("KitField.qml"),
                                          { editor: itemList.editor, path: fieldPath, label: spec.label,
                                            type: spec.type || "text", placeholder: spec.placeholder || "",
                                            removeWhenEmpty: !spec.required })
                            }
                        }
                    }
                }
            }
        }
    }
    Label {
        objectName: "message_" + itemList.path
        visible: itemList.itemCount === 0 && itemList.message.length > 0
        Layout.fillWidth: true
        text: itemList.message
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        color: Theme.errorColor
        font.pixelSize: Theme.smallFontSize
    }
    Button {
        objectName: "addItem_" + itemList.path
        visible: !itemList.editor.readOnly
        text: itemList.addText
        Accessible.name: itemList.addText
        onClicked: itemList.editor.appendItem(itemList.path, itemList.newItem, itemList.keyOrder)
    }
}

// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Kits: the spec.yaml recipes sandboxes are made from. The list of the kits Paddock knows
// (folders you added, kits imported from bundles, the samples it ships), the editor for one of
// them, and "Export bundle…" to hand a kit to a class.
Item {
    id: page
    objectName: "page_kits"

    Accessible.role: Accessible.Pane
    Accessible.name: qsTr("Kits")

    // A bundle imported on the Classroom page, or a kit edited from a terminal, shows up here.
    onVisibleChanged: if (visible && stack.currentIndex === 0) kitList.reload()

    function openKit(directory, readOnly) {
        if (editorModel.open(directory, readOnly))
            stack.currentIndex = 1
    }

    KitListModel { id: kitList; objectName: "kitListModel" }
    KitEditorModel {
        id: editorModel
        objectName: "kitEditorModel"
        onSaved: kitList.reload()
    }

    StackLayout {
        id: stack
        anchors.fill: parent
        currentIndex: 0

        ScrollablePage {
            title: qsTr("Kits")
            summary: qsTr("Recipes that say which agent runs in a sandbox, what it may reach and which keys it needs.")

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.spacing
                Button {
                    objectName: "kitAddButton"
                    text: qsTr("Add folder…")
                    Accessible.name: qsTr("Add a kit folder")
                    onClicked: folderDialog.openFor("add")
                }
                Button {
                    objectName: "kitNewButton"
                    text: qsTr("New kit…")
                    Accessible.name: qsTr("New kit from a template")
                    onClicked: folderDialog.openFor("new")
                }
                Button {
                    objectName: "kitImportButton"
                    text: qsTr("Import kit image…")
                    Accessible.name: qsTr("Import a kit image from an archive")
                    onClicked: importDialog.openDialog()
                }
                Item { Layout.fillWidth: true }
                Button {
                    text: qsTr("Check again")
                    Accessible.name: qsTr("Read every kit again")
                    onClicked: kitList.reload()
                }
            }
            Label {
                objectName: "kitConfigError"
                visible: kitList.configError.length > 0
                Layout.fillWidth: true
                text: qsTr("Your added kits cannot be listed: %1").arg(kitList.configError)
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: Theme.errorColor
            }
            Label {
                visible: kitList.count === 0
                Layout.fillWidth: true
                text: qsTr("No kits yet: add a folder that holds a spec.yaml, or make a new kit from a template.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
            }

            Repeater {
                model: kitList
                delegate: Rectangle {
                    id: row
                    required property int index
                    required property string name
                    required property string displayName
                    required property string version
                    required property string kind
                    required property string description
                    required property string directory
                    required property string source
                    required property bool readOnly
                    required property bool valid
                    required property int errorCount
                    required property int warningCount
                    required property string firstProblem
                    required property string schemaVersion
                    required property string reference
                    required property string digest
                    required property string provides
                    required property var capabilities
                    required property bool authored
                    // A kit image (schemaVersion 3) is read as published: viewed here, not edited.
                    // An authored descriptor folder (STEM/STEM.yaml) is edited like a spec.yaml.
                    readonly property bool isImage: schemaVersion === "3" && !authored

                    objectName: "kitRow_" + name
                    Layout.fillWidth: true
                    implicitHeight: rowLayout.implicitHeight + 2 * Theme.spacing
                    radius: Theme.radius
                    color: palette.base
                    border.color: Theme.mix(palette.base, palette.windowText, 0.18)

                    RowLayout {
                        id: rowLayout
                        anchors.fill: parent
                        anchors.margins: Theme.spacing
                        spacing: Theme.spacing

                        ColumnLayout {
                            Layout.fillWidth: true
                            spacing: 2
                            RowLayout {
                                spacing: Theme.spacingSmall
                                Label {
                                    objectName: "kitName"
                                    text: row.displayName.length > 0 ? row.displayName : row.name
                                    textFormat: Text.PlainText
                                    font.weight: Font.DemiBold
                                }
                                Label {
                                    text: row.version.length > 0 ? qsTr("%1 · %2").arg(row.name).arg(row.version) : row.name
                                    textFormat: Text.PlainText
                                    opacity: 0.7
                                }
                                Label {
                                    objectName: "kitSource"
                                    text: row.source === "sample" ? qsTr("sample")
                                          : row.source === "imported" ? qsTr("imported") : qsTr("your folder")
                                    textFormat: Text.PlainText
                                    font.pixelSize: Theme.smallFontSize
                                    padding: 2
                                    leftPadding: 6
                                    rightPadding: 6
                                    background: Rectangle {
                                        radius: 4
                                        color: Theme.mix(palette.base, palette.highlight, 0.18)
                                    }
                                }
                            }
                            Label {
                                visible: row.description.length > 0
                                Layout.fillWidth: true
                                text: row.description
                                textFormat: Text.PlainText
                                elide: Text.ElideRight
                                maximumLineCount: 1
                            }
                            Label {
                                objectName: "kitStatus"
                                Layout.fillWidth: true
                                text: row.errorCount > 0
                                      ? qsTr("%n error(s)", "", row.errorCount) + " — " + row.firstProblem
                                      : (row.warningCount > 0 ? qsTr("Valid, %n warning(s)", "", row.warningCount) : qsTr("Valid"))
                                textFormat: Text.PlainText
                                elide: Text.ElideRight
                                color: row.errorCount > 0 ? Theme.errorColor
                                       : (row.warningCount > 0 ? Theme.warningColor : Theme.okColor)
                            }
                            Label {
                                objectName: "kitAuthored"
                                visible: row.authored
                                Layout.fillWidth: true
                                text: qsTr("A kit's descriptor and recipe (schemaVersion 3): paddock kit build %1 makes the kit a sandbox runs.").arg(row.directory)
                                textFormat: Text.PlainText
                                wrapMode: Text.Wrap
                                font.pixelSize: Theme.smallFontSize
                            }
                            Label {
                                objectName: "kitOrigin"
                                visible: row.isImage
                                Layout.fillWidth: true
                                text: qsTr("Kit image (schemaVersion 3) from %1").arg(
                                          row.reference.length > 0 ? row.reference : qsTr("an archive"))
                                      + (row.digest.length > 0 ? " · " + row.digest.substring(0, 19) : "")
                                      + (row.provides.length > 0 ? "\n" + qsTr("Provides %1").arg(row.provides) : "")
                                textFormat: Text.PlainText
                                wrapMode: Text.Wrap
                                font.pixelSize: Theme.smallFontSize
                            }
                            Repeater {
                                model: row.isImage ? row.capabilities : []
                                delegate: Label {
                                    required property var modelData
                                    objectName: "kitCapability"
                                    Layout.fillWidth: true
                                    text: (modelData.status === "applied" ? qsTr("• %1").arg(modelData.what)
                                           : qsTr("• Not here: %1").arg(modelData.what))
                                    textFormat: Text.PlainText
                                    wrapMode: Text.Wrap
                                    font.pixelSize: Theme.smallFontSize
                                    color: modelData.status === "applied" ? palette.windowText : Theme.warningColor
                                    Accessible.name: text
                                }
                            }
                            Label {
                                Layout.fillWidth: true
                                text: row.directory
                                textFormat: Text.PlainText
                                elide: Text.ElideMiddle
                                opacity: 0.6
                                font.pixelSize: Theme.smallFontSize
                            }
                        }
                        Button {
                            objectName: "kitOpenButton"
                            visible: !row.isImage
                            text: row.readOnly ? qsTr("View") : qsTr("Edit")
                            Accessible.name: (row.readOnly ? qsTr("View %1") : qsTr("Edit %1")).arg(row.name)
                            onClicked: page.openKit(row.directory, row.readOnly)
                        }
                        Button {
                            objectName: "kitCopyButton"
                            visible: row.readOnly
                            text: qsTr("Copy to…")
                            Accessible.name: qsTr("Copy %1 to a folder of yours").arg(row.name)
                            onClicked: folderDialog.openFor("copy", row.directory)
                        }
                        Button {
                            objectName: "kitExportButton"
                            visible: row.valid && !row.isImage && !row.authored
                            text: qsTr("Export bundle…")
                            Accessible.name: qsTr("Export %1 as a bundle for a class").arg(row.name)
                            onClicked: exportDialog.ask(row.directory, row.name)
                        }
                        Button {
                            objectName: "kitForgetButton"
                            // Imported kits stay listed while their folder is in the kits folder.
                            visible: row.source === "added"
                            text: qsTr("Forget")
                            Accessible.name: qsTr("Forget %1 (its files stay)").arg(row.name)
                            onClicked: kitList.forget(row.directory)
                        }
                    }
                }
            }
            Label {
                objectName: "kitListError"
                visible: kitList.error.length > 0 && !folderDialog.visible
                Layout.fillWidth: true
                text: kitList.error
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: Theme.errorColor
            }

            Label {
                Layout.topMargin: Theme.spacing
                text: qsTr("From a terminal")
                textFormat: Text.PlainText
                font.weight: Font.DemiBold
            }
            CommandHint {
                Layout.fillWidth: true
                command: "paddock kit validate DIR"
                purpose: qsTr("Check the kit in folder DIR and report each error with its file, line and column.")
            }
            CommandHint {
                Layout.fillWidth: true
                command: "paddock kit load FILE"
                purpose: qsTr("Load a kit image (schemaVersion 3) from an OCI layout or docker save archive.")
            }
            CommandHint {
                Layout.fillWidth: true
                command: "paddock kit show DIR"
                purpose: qsTr("Show what the kit in folder DIR contains: its agent, allowed domains and credentials.")
            }
        }

        // Made when a kit is opened: the form is large, and most visits only look at the list.
        Loader {
            active: editorModel.loaded
            sourceComponent: KitEditorPane {
                objectName: "kitEditorPane"
                editor: editorModel
                onCloseRequested: {
                    editorModel.close()
                    stack.currentIndex = 0
                }
                onCopyRequested: (directory) => folderDialog.openFor("copy", directory)
            }
        }
    }

    BundleExportDialog {
        id: exportDialog
        objectName: "bundleExportDialog"
        parent: Overlay.overlay
    }

    KitImportDialog {
        id: importDialog
        objectName: "kitImportDialog"
        parent: Overlay.overlay
        onDone: (directory) => kitList.reload()
    }

    KitFolderDialog {
        id: folderDialog
        objectName: "kitFolderDialog"
        kits: kitList
        parent: Overlay.overlay
        onDone: (directory) => { if (folderDialog.mode !== "add") page.openKit(directory, false) }
    }
}

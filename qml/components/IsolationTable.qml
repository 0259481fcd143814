// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// What each isolation level protects, in the terms the course compares them by, and what it
// costs. The micro-VM of Docker Sandboxes is there for reference: it needs KVM.
GridLayout {
    id: table

    columns: 5
    columnSpacing: Theme.spacingSmall
    rowSpacing: Theme.spacingSmall

    // Each row: what is at stake, then bubblewrap, Docker, Docker + gVisor, micro-VM.
    readonly property var rows: [
        [qsTr("The working tree"),
         qsTr("Shared read-write (or a disposable clone)"), qsTr("Shared read-write"),
         qsTr("Shared read-write, through gVisor's file proxy"), qsTr("Synced into the VM")],
        [qsTr("Your home folder"),
         qsTr("Hidden: a private home"), qsTr("Hidden: a private home"), qsTr("Hidden: a private home"),
         qsTr("Hidden: the VM's own disk")],
        [qsTr("Outbound network"),
         qsTr("Only through Paddock's proxy"), qsTr("Only through Paddock's proxy"),
         qsTr("Only through Paddock's proxy"), qsTr("Only through its proxy")],
        [qsTr("Your API keys"),
         qsTr("Stay on this computer: the proxy adds them"), qsTr("Stay on this computer: the proxy adds them"),
         qsTr("Stay on this computer: the proxy adds them"), qsTr("Stay on the host: its proxy adds them")],
        [qsTr("The host kernel"),
         qsTr("Shared: a kernel flaw is a way out"), qsTr("Shared: a kernel flaw is a way out"),
         qsTr("Not reached directly: gVisor answers system calls in user space"),
         qsTr("Separate: a kernel of its own")],
        [qsTr("Start"),
         qsTr("Tens of milliseconds"), qsTr("Under a second"),
         qsTr("Under a second, a tenth more than Docker"), qsTr("Seconds")],
        [qsTr("Memory"),
         qsTr("Nothing beyond the agent"), qsTr("About 13 MB for the engine's shim"),
         qsTr("About 45 MB more for its kernel and file proxy"), qsTr("The VM's whole memory")],
        [qsTr("Compatibility"),
         qsTr("Every program"), qsTr("Every program"),
         qsTr("Most programs, but file-heavy work is far slower (git status on 10,000 files: 40 times) and a few system calls are missing"),
         qsTr("Every program; needs KVM")]
    ]
    readonly property var headers: ["", qsTr("bubblewrap"), qsTr("Docker"), qsTr("Docker + gVisor"),
                                    qsTr("Docker Sandboxes micro-VM")]

    Repeater {
        model: table.headers
        Label {
            Layout.fillWidth: true
            Layout.preferredWidth: 1
            Layout.alignment: Qt.AlignTop
            text: modelData
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            font.weight: Font.DemiBold
            font.pixelSize: Theme.smallFontSize
        }
    }
    Repeater {
        model: table.rows.length * 5
        Label {
            readonly property int row: Math.floor(index / 5)
            readonly property int column: index % 5
            Layout.fillWidth: true
            Layout.preferredWidth: 1
            Layout.alignment: Qt.AlignTop
            text: table.rows[row][column]
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            font.weight: column === 0 ? Font.DemiBold : Font.Normal
            font.pixelSize: Theme.smallFontSize
            opacity: column === 4 ? 0.7 : 1
        }
    }
}

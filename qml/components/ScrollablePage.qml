// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// The frame of every page: a header with the title and summary, then the page's own
// content in a centred column of readable width that scrolls when the window is short.
ScrollView {
    id: page

    property string title
    property string summary
    default property alias content: body.data

    contentWidth: availableWidth
    contentHeight: column.implicitHeight + 2 * Theme.pageMargin
    clip: true
    Accessible.role: Accessible.Pane
    Accessible.name: title

    ColumnLayout {
        id: column
        x: Math.max(Theme.pageMargin, (page.availableWidth - width) / 2)
        y: Theme.pageMargin
        width: Math.max(0, Math.min(page.availableWidth - 2 * Theme.pageMargin, Theme.contentMaxWidth))
        spacing: Theme.spacingLarge

        PageHeader {
            Layout.fillWidth: true
            title: page.title
            summary: page.summary
        }
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: 1
            color: Theme.mix(palette.window, palette.windowText, 0.15)
        }
        ColumnLayout {
            id: body
            Layout.fillWidth: true
            spacing: Theme.spacing
        }
    }
}

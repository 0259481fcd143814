// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick

// One icon from Icons, stroked in a colour that follows the palette. Drawn with Canvas so
// no image format plugin is needed and the colour can change with the theme.
Canvas {
    id: icon

    property string pathData
    property color color: palette.windowText
    property real strokeWidth: 1.8

    implicitWidth: 24
    implicitHeight: 24
    Accessible.ignored: true

    onPathDataChanged: requestPaint()
    onColorChanged: requestPaint()
    onStrokeWidthChanged: requestPaint()
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()

    onPaint: {
        const ctx = getContext("2d")
        ctx.reset()
        if (pathData.length === 0 || width <= 0 || height <= 0)
            return
        ctx.scale(width / 24, height / 24)
        ctx.lineWidth = strokeWidth
        ctx.lineCap = "round"
        ctx.lineJoin = "round"
        ctx.strokeStyle = icon.color
        ctx.path = pathData
        ctx.stroke()
    }
}

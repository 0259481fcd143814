// SPDX-License-Identifier: GPL-3.0-or-later
pragma Singleton
import QtQuick

// Sizes shared by every page. Colours come from the palette so light and dark both work.
QtObject {
    readonly property int spacingSmall: 6
    readonly property int spacing: 12
    readonly property int spacingLarge: 24
    readonly property int pageMargin: 32
    readonly property int radius: 8
    readonly property int railWidth: 104
    readonly property int contentMaxWidth: 760

    readonly property real baseFontSize: Qt.application.font.pixelSize > 0
        ? Qt.application.font.pixelSize : Qt.application.font.pointSize * 4 / 3
    readonly property real titleFontSize: Math.round(baseFontSize * 1.9)
    readonly property real headlineFontSize: Math.round(baseFontSize * 1.35)
    readonly property real smallFontSize: Math.max(10, Math.round(baseFontSize * 0.9))

    // Daemon status dot: the same hues read on light and dark backgrounds.
    readonly property color okColor: "#2e9e5b"
    readonly property color warningColor: "#d08a00"
    readonly property color errorColor: "#d0453a"

    // A colour between two others, for subtle fills derived from the palette.
    function mix(a, b, amount) {
        return Qt.rgba(a.r + (b.r - a.r) * amount, a.g + (b.g - a.g) * amount,
                       a.b + (b.b - a.b) * amount, a.a + (b.a - a.a) * amount)
    }
}

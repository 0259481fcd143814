// SPDX-License-Identifier: GPL-3.0-or-later
pragma Singleton
import QtQuick

// Outline icons drawn for Paddock on a 24 by 24 grid, as SVG path data. PathIcon strokes
// them in the palette's text colour, so they follow light and dark themes.
QtObject {
    // A box seen from above a corner: one sandbox.
    readonly property string sandboxes: "M12 3 L20.5 7.25 L20.5 16.75 L12 21 L3.5 16.75 L3.5 7.25 Z "
        + "M3.5 7.25 L12 11.5 L20.5 7.25 M12 11.5 L12 21"
    // A case with a handle and a latch: a kit.
    readonly property string kits: "M4 8 L20 8 Q21 8 21 9 L21 19 Q21 20 20 20 L4 20 Q3 20 3 19 L3 9 Q3 8 4 8 Z "
        + "M9 8 L9 5.5 Q9 4.5 10 4.5 L14 4.5 Q15 4.5 15 5.5 L15 8 M3 13 L21 13 M10.5 12 L10.5 15 L13.5 15 L13.5 12"
    // A globe: the network beyond the sandbox.
    readonly property string network: "M12 3 A9 9 0 1 0 12 21 A9 9 0 1 0 12 3 Z M3.5 9 L20.5 9 M3.5 15 L20.5 15 "
        + "M12 3 Q7.5 12 12 21 M12 3 Q16.5 12 12 21"
    // A key: provider secrets.
    readonly property string secrets: "M8 11 A4.5 4.5 0 1 0 8 20 A4.5 4.5 0 1 0 8 11 Z M11.2 12.3 L20 3.5 "
        + "M17 6.5 L19.5 9 M14.5 9 L16.5 11 M7 15.5 L7.01 15.5"
    // A mortarboard: a class of students.
    readonly property string classroom: "M2.5 9.5 L12 5 L21.5 9.5 L12 14 Z M6.5 11.7 L6.5 16 Q12 20 17.5 16 L17.5 11.7 "
        + "M21.5 9.5 L21.5 15"
    // A circled i: about Paddock.
    readonly property string info: "M12 3 A9 9 0 1 0 12 21 A9 9 0 1 0 12 3 Z M12 11 L12 16.5 M12 7.6 L12 7.7"
    // Two overlapping sheets: copy.
    readonly property string copy: "M9 9 L19 9 L19 20 L9 20 Z M6 15 L5 15 L5 4 L15 4 L15 5"
    // A tick: done.
    readonly property string check: "M5 12.5 L10 17.5 L19 7"
    // An arrow going round: check again.
    readonly property string refresh: "M19.5 12 A7.5 7.5 0 1 1 17 6.4 M17.5 3 L17.5 6.8 L13.7 6.8"
    // A terminal prompt: the command line.
    readonly property string terminal: "M4 5 L20 5 Q21 5 21 6 L21 18 Q21 19 20 19 L4 19 Q3 19 3 18 L3 6 Q3 5 4 5 Z "
        + "M7 10 L10 12.5 L7 15 M12 15 L16 15"
}

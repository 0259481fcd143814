// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick

// A dialog made the first time it is asked for, then kept (what was typed in it stays). Every
// dialog made up front would weigh on the window for the whole session, and a session opens
// few of them. Set sourceComponent to a Component holding the dialog; call dialog() to use it.
Loader {
    id: lazy
    active: false
    // Takes no room in a page's layout: the dialog shows on the window's overlay.
    visible: false

    /** The dialog, made on the first call. */
    function dialog() {
        lazy.active = true
        return lazy.item
    }
}

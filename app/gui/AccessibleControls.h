// SPDX-License-Identifier: GPL-3.0-or-later
// What screen readers (AT-SPI on Linux, as Orca uses it) see of the window's controls.
//
// Qt Quick 6.4 describes Qt Quick Controls to assistive technology with gaps that keep a
// screen-reader user from working the window: a disabled control is announced as enabled
// (sensitive), the Press action of a button, tab button, check box, switch, radio button or
// delegate does nothing, and a text field's text cannot be edited (no EditableText).
// installAccessibleControls() registers a description of its own for those controls (every
// QQuickAbstractButton and single-line text input) that closes the gaps:
// - a control is disabled when it is (its own `enabled` or a parent's), and its changes are
//   announced;
// - Press (and Toggle, for what can be checked) clicks a button as the Space key does: checked
//   when it is checkable, then clicked() or its Action; nothing while it is disabled;
// - a text field's text is edited as typing edits it, so its textEdited() handlers run; nothing
//   while it is disabled or read-only.
#pragma once

namespace paddock::gui {

/** Registers the description above; call once, after the QGuiApplication exists. */
void installAccessibleControls();

} // namespace paddock::gui

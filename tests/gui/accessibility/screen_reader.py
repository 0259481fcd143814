#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window as a screen reader sees and works it, through AT-SPI (pyatspi, as Orca uses it).

    screen_reader.py SCENARIO PADDOCK PADDOCKD

Starts the real window (PADDOCK, which starts the real daemon PADDOCKD on demand) with a
private home on the display and D-Bus session it is given, finds it through the AT-SPI registry
and works it by AT-SPI alone: names, roles and states read, text set through EditableText,
buttons pressed through their Press action. Scenarios:

  wizard      the new-sandbox wizard: Next is not enabled before a project folder is given,
              pressing it then does nothing, a folder typed in enables it, and pressing it
              goes on to the kit step.
  navigation  the navigation rail: pressing a page's button shows that page and announces its
              button as selected; pressing a check box checks it; the About button opens
              its dialog and the dialog's Close button closes it.

Exits 0 when the scenario passes, 1 with what went wrong otherwise.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyatspi

WAIT_SECONDS = 60


class Failure(Exception):
    pass


def wait_for(what, probe):
    """Polls probe() until it returns something true (returned), or fails after a minute."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure("gave up waiting for " + what)
        time.sleep(0.2)


def children(accessible):
    try:
        return [accessible.getChildAtIndex(i) for i in range(accessible.childCount)]
    except Exception:  # an object that went away while being read
        return []


def find_all(root, role, name):
    """Every descendant of root with this role name ("push button") and accessible name."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        try:
            if node.getRoleName() == role and node.name == name:
                found.append(node)
        except Exception:
            continue
        stack.extend(children(node))
    return found


def states(accessible):
    return {pyatspi.stateToString(s) for s in accessible.getState().getStates()}


def showing(root, role, name):
    """The one showing descendant with this role and name, or None."""
    for node in find_all(root, role, name):
        if {"showing", "visible"} <= states(node):
            return node
    return None


def press(accessible):
    """Does the Press action, as a screen reader does when the user activates a control."""
    action = accessible.queryAction()
    names = [action.getName(i).lower() for i in range(action.nActions)]
    if "press" not in names:
        raise Failure("%r offers no Press action, only %s" % (accessible.name, names))
    action.doAction(names.index("press"))


def enabled(accessible):
    s = states(accessible)
    return "enabled" in s and "sensitive" in s


def find_application(window):
    def probe():
        if window.poll() is not None:
            raise Failure("the window exited with status %d" % window.returncode)
        desktop = pyatspi.Registry.getDesktop(0)
        for app in children(desktop):
            try:
                if app is not None and app.get_process_id() == window.pid and app.childCount > 0:
                    return app
            except Exception:
                continue
        return None

    return wait_for("the window in the AT-SPI registry", probe)


def wizard(app, project):
    new = wait_for("the New sandbox button", lambda: showing(app, "push button", "Create a new sandbox"))
    wait_for("New sandbox to be enabled (the daemon connected)", lambda: enabled(new))
    press(new)
    dialog = wait_for("the New sandbox dialog", lambda: showing(app, "dialog", "New sandbox"))
    wait_for("the project folder step", lambda: showing(dialog, "label", "1. Project folder"))

    next_button = wait_for("the Next button", lambda: showing(dialog, "push button", "Next"))
    if enabled(next_button):
        raise Failure("Next is announced as enabled before a project folder is given: %s" % sorted(states(next_button)))
    press(next_button)
    if not showing(dialog, "label", "1. Project folder") or showing(dialog, "label", "2. Kit"):
        raise Failure("pressing the disabled Next left the project folder step")

    field = wait_for("the Project folder field", lambda: showing(dialog, "text", "Project folder"))
    try:
        editable = field.queryEditableText()
    except NotImplementedError:
        raise Failure("the Project folder field's text cannot be edited through AT-SPI (no EditableText)")
    editable.setTextContents(project)
    wait_for("the folder in the field", lambda: field.queryText().getText(0, -1) == project)
    wait_for("Next to be announced as enabled once a folder is given", lambda: enabled(next_button))

    press(next_button)
    wait_for("the kit step after pressing Next", lambda: showing(dialog, "label", "2. Kit"))
    if showing(dialog, "label", "1. Project folder"):
        raise Failure("the project folder step is still shown after Next")


def navigation(app, _project):
    wait_for("the Sandboxes page", lambda: showing(app, "panel", "Sandboxes"))
    kits = wait_for("the Kits page's button", lambda: showing(app, "page tab", "Kits"))
    if "selected" in states(kits):
        raise Failure("the Kits page's button is announced as selected before it is pressed")
    press(kits)
    wait_for("the Kits page after pressing its button", lambda: showing(app, "panel", "Kits"))
    if showing(app, "panel", "Sandboxes"):
        raise Failure("the Sandboxes page is still shown after pressing Kits")
    wait_for("the Kits page's button to be announced as selected", lambda: "selected" in states(kits))

    # A check box on a page: Press checks it as a click does.
    press(wait_for("the Network page's button", lambda: showing(app, "page tab", "Network")))
    notify = wait_for("the notification check box", lambda: showing(
        app, "check box", "Notify me of refused connections while the window is in the background"))
    was_checked = "checked" in states(notify)
    press(notify)
    wait_for("the check box to change when pressed", lambda: ("checked" in states(notify)) != was_checked)

    # The rail's About button opens its dialog, whose Close button closes it.
    press(wait_for("the About button", lambda: showing(app, "push button", "About Paddock")))
    about = wait_for("the About dialog", lambda: showing(app, "dialog", "About Paddock"))
    press(wait_for("the About dialog's Close button", lambda: showing(about, "push button", "Close")))
    wait_for("the About dialog to close", lambda: not showing(app, "dialog", "About Paddock"))


SCENARIOS = {"wizard": wizard, "navigation": navigation}


def hold_display():
    """A client that stays connected to the display for the whole run.

    Xvfb resets when its last client leaves and refuses connections while it does: the AT-SPI
    bus launcher connects and leaves as it starts, and the window starting then would fail to
    open the display. xprop -spy (x11-utils) stays connected until it is stopped.
    """
    for _ in range(50):
        holder = subprocess.Popen(["xprop", "-root", "-spy"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        if holder.poll() is None:
            return holder
    raise Failure("could not open the display " + os.environ.get("DISPLAY", ""))


def private_environment(home, paddockd):
    """The window's environment: XDG folders under home, English, AT-SPI on, Fusion."""
    env = dict(os.environ)
    for variable, folder in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                             ("XDG_DATA_HOME", "data"), ("XDG_RUNTIME_DIR", "run")):
        os.makedirs(os.path.join(home, folder), mode=0o700)
        env[variable] = os.path.join(home, folder)
    env.update(PADDOCKD=paddockd, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
               LANGUAGE="en", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("QT_QUICK_CONTROLS_STYLE", None)
    return env


def run(name, paddock, paddockd, home):
    env = private_environment(home, paddockd)
    project = os.path.join(home, "project")
    os.makedirs(project)
    holder = hold_display()
    window = None
    log_path = os.path.join(home, "paddock.log")
    try:
        # The AT-SPI bus and registry, started on demand by the session bus, up before the window.
        pyatspi.Registry.getDesktop(0)
        with open(log_path, "wb") as log:
            window = subprocess.Popen([paddock], env=env, stdout=log, stderr=subprocess.STDOUT)
        SCENARIOS[name](find_application(window), project)
    finally:
        if window is not None:
            window.terminate()
            try:
                window.wait(timeout=30)
            except subprocess.TimeoutExpired:
                window.kill()
                window.wait()
            # The daemon the window started.
            subprocess.run([paddock, "daemon", "stop"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=60, check=False)
        holder.terminate()
        holder.wait()


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in SCENARIOS:
        print(__doc__, file=sys.stderr)
        return 2
    home = tempfile.mkdtemp(prefix="paddock-a11y-")
    try:
        run(sys.argv[1], sys.argv[2], sys.argv[3], home)
        print("PASS: " + sys.argv[1])
        return 0
    except Failure as failure:
        print("FAIL: %s: %s" % (sys.argv[1], failure))
        log_path = os.path.join(home, "paddock.log")
        if os.path.exists(log_path):
            with open(log_path, "rb") as text:
                print("The window's output:\n" + text.read().decode("utf-8", "replace")[-4000:])
        return 1
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

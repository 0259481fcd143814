<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Paddock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs coding agents in sandboxes whose only way out is a proxy that lets through the domains you allow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free software under the GNU General Public License, version 3 or later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ClassroomPage</name>
    <message>
        <source>Classroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One kit and one network policy, shared with a whole class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classroom tools are not available yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page will bundle a kit and its network policy for students to import, then run a checklist that proves each sandbox works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the kit in folder DIR before you share it with students.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CommandHint</name>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the command %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Available today from a terminal:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitsPage</name>
    <message>
        <source>Kits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recipes that say which agent runs in a sandbox, what it may reach and which keys it needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit library is not available yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page will list your kits, show what each one allows and check them for mistakes before you use them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Main</name>
    <message>
        <source>Sandboxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NavigationButton</name>
    <message>
        <source>Shortcut: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NavigationRail</name>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Paddock</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NetworkPage</name>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which domains sandboxes may reach, and the connections that were refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network rules are not available yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page will show the allowlist and every refused connection as it happens, and allow a blocked domain in one click.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow a domain such as api.example.com or *.example.com in the kit in folder DIR.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxesPage</name>
    <message>
        <source>Sandboxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coding agents running in sandboxes on your project folders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandboxes are not available yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page will start a coding agent in a sandbox on a project folder and list the running sandboxes, so you can open, stop or remove them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that will run the sandboxes, is running.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SecretsPage</name>
    <message>
        <source>Secrets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider API keys, kept in the system keychain and never copied into a sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets are not available yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page will store provider API keys in the system keychain and let you choose which kits may use each one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no command for this yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StatusFooter</name>
    <message>
        <source>Daemon connected, version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daemon connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for the daemon…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Daemon not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the daemon connection again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonStatus</name>
    <message>
        <source>The connection to paddockd closed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

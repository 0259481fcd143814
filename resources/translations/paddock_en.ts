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
    <name>ActivityBar</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ActivityHostRow</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ActivitySection</name>
    <message>
        <source>Activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activity of sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connections over time: %1 allowed, %2 refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No connections in the last hour.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No connections in the last day.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top destinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more destination(s) not shown. </source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Bytes are counted for allowed connections; a refused one carries none.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In this sandbox&apos;s project file (its workspace)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the kit (and its running sandboxes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working out the change…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a terminal: paddock agent-perms allow %1 --where %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write these lines</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentPermissionsPane</name>
    <message>
        <source>%1 (no file yet: a rule added creates it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked against the schema of pi-permission-system %1. Within a surface the last matching pattern wins; across surfaces the most restrictive answer does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules in this file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Surface</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern, e.g. rm -rf * or *.env (empty: the whole surface)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happens for… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call to test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> by the %1 rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentRefusalRow</name>
    <message>
        <source>Agent %1: %2 %3 in sandbox %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent · sandbox %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rule unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>× %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentRuleRow</name>
    <message>
        <source>* (every tool without its own rule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag to move %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(every value)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AllowChoices</name>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This sandbox (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit&apos;s spec.yaml (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This host on this port: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This host on any port: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every name one level under the domain: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every name one level under the domain (not possible for this host)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole domain, at any depth: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole domain, at any depth (not possible for this host)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AskPrompt</name>
    <message>
        <source>A connection waits for your answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1 is in ask mode and no rule covers this destination.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n connection(s)</source>
        <translation>
            <numerusform>%n connection</numerusform>
            <numerusform>%n connections</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Refused in %n second(s) unless you answer.</source>
        <translation>
            <numerusform>Refused in %n second unless you answer.</numerusform>
            <numerusform>Refused in %n seconds unless you answer.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting after this one.</source>
        <translation>
            <numerusform>%n more waiting after this one.</numerusform>
            <numerusform>%n more waiting after this one.</numerusform>
        </translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1 this time only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1 with a rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1 as chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny %1 this time only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny %1 for sandbox %2 from now on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written inside the sandbox (%1): not the sandbox&apos;s own %2, whatever its name says</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BackendChoice</name>
    <message>
        <source>Backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bubblewrap: starts in a moment, nothing else to install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bubblewrap backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker: runs the kit&apos;s image in a container</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker + gVisor: the image in a container with a kernel of its own, slower to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker backend with gVisor isolation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What does each level protect?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What each isolation level protects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (in use) — %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Container engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is on another computer: the sandbox gets a clone of the workspace (its committed files), not the folder itself. Its commits come back as branches paddock/NAME/… of your repository; files not committed stay here. It cannot share folders of this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit is composed with mixins: the Docker engine builds their layers over the kit&apos;s image, once for these kits.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BindingDialog</name>
    <message>
        <source>Allow this kit to use your keys?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit %1 asks Paddock to add your keys to its requests to these domains. The keys stay on this computer; the proxy adds them on the way out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credential %1 of %2 in the kit %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent to: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: a wildcard domain sends this key to every host it matches, not to one server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve all credentials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review each credential</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve this credential</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not approve this credential</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny: approve nothing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BundleExportDialog</name>
    <message>
        <source>Export a bundle of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the notes shown to students</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text files (*.txt *.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the bundle as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle holds the kit and the list of keys students provide (names only, never a value). Students import it on their Classroom page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include the network policy: its preset and your global rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include the network policy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes for students (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A text file shown on import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the notes file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundle file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where to save the bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
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
        <source>Choose a Paddock bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1. Import a bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A bundle (.paddock file) holds a kit, the network rules of the course and the list of keys you will need. Nothing is written before you press Import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No bundle opened yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your teacher gives you one .paddock file. Choose it below: Paddock shows everything the import would change before anything is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview a bundle from a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a bundle…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a bundle file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the import will change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2. Check a sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With the sandbox running, the checklist proves that the key stays outside, that an unlisted domain is refused and logged, that your edits reach your project, and that no refusal surprised the policy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox to check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the checks on the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the bundle your teacher shared, create your sandbox, then check that it works.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal (&apos;%2&apos; joins it again).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: &apos;%2&apos; in a terminal opens its agent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2. Create your sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit %1 runs the course&apos;s agent on a project folder of yours. Paddock asks for the keys it needs, then starts it and opens the agent in a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create my sandbox…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandboxes are made by the daemon, which is not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3. Check your sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sandbox of the kit %1 is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sandbox is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ClassroomSandboxDialog</name>
    <message>
        <source>Create my sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create my sandbox: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1. Your project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2. Keys and approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3. The image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4. Create and start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder of your project: the agent reads and changes the files in it, and nothing else of yours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, start it, and open its agent in a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, then start it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and the page shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bubblewrap runs the agent on this computer&apos;s own system: there is no image to build or load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1: Docker on %1 is chosen.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1, which this computer does not have yet: add it on the Sandboxes page (Container engines, Add engine…) with the address and files your teacher gives, or create this sandbox with bubblewrap here.</source>
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
    <name>CredentialsStep</name>
    <message>
        <source>No keychain is reachable: keys cannot be stored. Install GNOME Keyring or KWallet and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key of %1 (required)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key of %1 (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the key; it goes to the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit sends keys to domains you have not approved: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review and approve…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review and approve the kit&apos;s use of your keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every required key is stored and approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was approved: the kit may not send your keys, so its sandbox cannot use them. To approve later, press &quot;Review and approve…&quot; again, or run: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CustomSecretRemoveDialog</name>
    <message>
        <source>Remove the custom secret %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandboxes hold a placeholder in %1. From now on it is no longer replaced with the value in requests to %2, and its value is deleted from the keychain (or its command no longer runs). Sandboxes created afterwards no longer get %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DenialAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DenialRow</name>
    <message numerus="yes">
        <source>%1 refused for sandbox %2, %n time(s), last at %3</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Sandbox %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>× %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n refusal(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only TCP leaves a sandbox; UDP has no rule to allow it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A secret of Paddock&apos;s keychain: Paddock adds it where it is bound, the sandbox never needs to send it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow this value for %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
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
    <name>EngineAddDialog</name>
    <message>
        <source>Add a container engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker sandboxes can run on another Docker engine: one reached over TCP with TLS, through ssh, or at another socket. Paddock adds it once it has answered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS: the CA that signs the engine&apos;s certificate, and the client certificate with its key that the engine asks for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It shares no folder with this computer (a virtual machine or a tunnel on a loopback address)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine shares no folder with this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineRemoveDialog</name>
    <message>
        <source>Remove the engine %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock forgets the engine at %1: Docker sandboxes no longer run there, and if it was in use, they run on this computer&apos;s engine again. The engine itself is not touched. Sandboxes still on it must be removed first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the engine %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EnginesSection</name>
    <message>
        <source>Container engines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (in use): %2, %3, %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, %3, %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use engine %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a container engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker sandboxes run on the engine in use unless the New sandbox wizard or --engine names another. An engine on another computer gets a clone of the workspace (its committed files), not the folder itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove engine %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EnvironmentDialog</name>
    <message>
        <source>Open an environment file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment files (sbxenv.yaml *.yaml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands run on this computer, outside the sandbox. Read each one; tick it to approve exactly this text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 (approved before)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 %2 on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve the %1 command %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bringing up…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring up the environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GuardValueAllowDialog</name>
    <message>
        <source>Allow this value for %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1 may then send the value of %2 from %3 in its requests, to %4 and every other domain its keys go to. The value may then reach the model provider, and whoever reads what the provider keeps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow this value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImageStep</name>
    <message>
        <source>Choose an image file (docker save)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image archives (*.tar *.tar.gz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox runs in the Docker image %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for the image on this computer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image is on this computer: the sandbox can be created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image is not on this computer yet: build it from the kit, or load the image file you were given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image is not on this computer yet: load the image file you were given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build the image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build the kit&apos;s image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load an image file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the image from a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look for the image again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>IsolationTable</name>
    <message>
        <source>The working tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared read-write (or a disposable clone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared read-write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared read-write, through gVisor&apos;s file proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Synced into the VM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your home folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden: a private home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden: the VM&apos;s own disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outbound network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only through Paddock&apos;s proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only through its proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your API keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stay on this computer: the proxy adds them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stay on the host: its proxy adds them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared: a kernel flaw is a way out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not reached directly: gVisor answers system calls in user space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Separate: a kernel of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tens of milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Under a second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Under a second, a tenth more than Docker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing beyond the agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About 13 MB for the engine&apos;s shim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About 45 MB more for its kernel and file proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The VM&apos;s whole memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compatibility</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most programs, but file-heavy work is far slower (git status on 10,000 files: 40 times) and a few system calls are missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every program; needs KVM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bubblewrap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker + gVisor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker Sandboxes micro-VM</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitEditorPane</name>
    <message>
        <source>Back to kits</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this sample kit to a folder of yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop the changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the changes and save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About the kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name (lower-case letters, digits and dashes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind (sandbox or mixin)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Display name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Licences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Privileged sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requires agent (mixins)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entrypoint (program, then its arguments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command (arguments after the entrypoint)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command when not interactive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command on a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dockerfile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extends (another kit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patterns such as github.com, *.example.com or host:8080. Deny wins over allow.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New variable name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New variable value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys the proxy adds to requests; the sandbox only sees a placeholder. OAuth settings are edited in the YAML text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credential</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a credential</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variable set in the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Managed by the proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Injection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an injection rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format (one %s for the key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheme (bearer or basic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User name (basic)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an install command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shell command, run once at creation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Startup command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a startup command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program and arguments, run at every start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path in the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only if missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volumes and ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a volume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type (empty or tmpfs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port in the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol (tcp or udp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent instructions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content (Markdown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values supplied when the kit is used, referenced as ${{ kit.args.NAME }}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Argument</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an argument</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern (regular expression)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accepted values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spec.yaml (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spec.yaml</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spec.yaml text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave without saving?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your changes to spec.yaml have not been saved. Leaving drops them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save spec.yaml</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These lines change; everything else in the file stays as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit has errors: it cannot be saved until they are fixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent permissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your changes to %1 have not been saved. Leaving drops them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitDescriptorForm</name>
    <message>
        <source>About the kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name: %1 (the descriptor&apos;s file name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Display name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2), injected for %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no domain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network-policy@1: hosts such as github.com, api.example.com:443 or *.example.com. Deny wins over allow. The first host added adds the request.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network of the group %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network of a group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In force only when the group, which is optional, is chosen.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In force with the rest of the group.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only here: credentials and the other capabilities are edited in the descriptor&apos;s text.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitFolderDialog</name>
    <message>
        <source>Add a kit folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the sample kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder holding a spec.yaml. Paddock remembers it; the files stay where they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock writes spec.yaml from the template into this folder and adds it to your kits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sample is copied into this folder, where you can change it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/home/you/kits/my-agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit name (default: from the folder name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitImportDialog</name>
    <message>
        <source>Import a kit image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A kit published as an image (schemaVersion 3), saved as an OCI layout or with docker save. Paddock reads its descriptor, puts its layers in its own image store, so that it runs without Docker, and lists what each of its capabilities becomes here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/home/you/Downloads/kit.tar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the archive file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit name (default: from the image reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same import from a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the archive…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept what this update adds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image archives (*.tar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitItemList</name>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitStringList</name>
    <message>
        <source>%1, item %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New item of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to %1</source>
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
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a kit folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New kit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New kit from a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read every kit again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your added kits cannot be listed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No kits yet: add a folder that holds a spec.yaml, or make a new kit from a template.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy %1 to a folder of yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget %1 (its files stay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export bundle…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export %1 as a bundle for a class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import kit image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a kit image from an archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit image (schemaVersion 3) from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provides %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• Not here: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a kit image (schemaVersion 3) from an OCI layout or docker save archive.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A kit&apos;s descriptor and recipe (schemaVersion 3): paddock kit build %1 makes the kit a sandbox runs.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearningSection</name>
    <message>
        <source>Learning mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While learning, a sandbox&apos;s connections are let through and recorded. Run the agent on a typical task, then allow what it needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This daemon does not offer learning mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox to learn from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning mode for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No proposal: turn learning on for this sandbox first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For this sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where to allow the patterns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow selected (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh the proposed allowlist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask before connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask mode for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A connection no rule covers waits while you answer, instead of being refused.</source>
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
    <name>MixinChoices</name>
    <message>
        <source>Mixins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A mixin adds its tools, rules and credentials to the kit, and its files over the kit&apos;s image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compose with %1</source>
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
        <source>The daemon is not connected: rules and refused connections appear once it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Global preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notify me of refused connections while the window is in the background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused connections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live, one row per host and sandbox. Keys: A allows the selected row, D or Delete dismisses it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing has been refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rule matches the filter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules yet: with the %1 preset, only what you allow gets through.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show refusals: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agents were refused nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused agent actions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenEnvironmentButton</name>
    <message>
        <source>Open environment…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an environment file (sbxenv.yaml)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProjectFolderStep</name>
    <message>
        <source>The agent works on this folder. With a direct workspace it can change every file in it; with a clone it works on a copy of the repository.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/home/you/projects/app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not an existing folder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RequestRow</name>
    <message>
        <source>%1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2, status %3, sandbox %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 up, %2 down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused by Paddock, status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RequestsSection</name>
    <message>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What each request did, live: plain HTTP, and HTTPS to hosts whose TLS Paddock terminates (those with a bound credential). Queries and header values are never kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests of sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by method, URL, status or program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n request(s)</source>
        <translation>
            <numerusform>%n request</numerusform>
            <numerusform>%n requests</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No request matches the filter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No requests recorded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only requests %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleDialog</name>
    <message>
        <source>Edit rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example.com, *.example.com, host:8080</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sandbox name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kit name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleRow</name>
    <message>
        <source>%1 %2, %3, from %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the rule %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the rule %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxLogDialog</name>
    <message>
        <source>Output of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxPermissionsDialog</name>
    <message>
        <source>Permissions of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules of this sandbox&apos;s project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules of its kit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxRecreateDialog</name>
    <message>
        <source>Recreate %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox is made again from its kit as loaded now: its system and home folder are new and the kit&apos;s setup runs again. Its volumes and your project folder are kept; a running sandbox is started again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recreate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recreate %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxRemoveDialog</name>
    <message>
        <source>Remove %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running: it will be stopped first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox and its home folder are deleted. Your project folder is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop and remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxReviewDialog</name>
    <message>
        <source>What %1 changed that your tools run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files in the workspace that git, make, your editor or CI run or trust. Read each change before you run anything in this folder on your computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing your tools run or trust changed since the sandbox started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put %1 back as it was when the sandbox started</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxRow</name>
    <message>
        <source>Sandbox %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent open in a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No refused connections since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 refused connection since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused connections since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install a terminal (xterm, GNOME Terminal or Konsole) to open the agent here, or run this in one:</source>
        <translation type="unfinished"></translation>
    </message>
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
        <source>No agent action refused since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 agent action refused or asked since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 agent actions refused or asked since it started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the agent of %1 in a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start %1 and open its agent in a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open shell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a shell in %1 in a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the output of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Permissions…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent&apos;s permissions in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What %1 changed in the workspace that your tools run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connections in the last hour: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Services…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The companion services of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume a session of the agent of %1 in a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recreate…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make %1 again from its kit, keeping its volumes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SandboxServicesDialog</name>
    <message>
        <source>Services of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Containers on the Docker engine beside the sandbox, started and stopped with it. Inside, the sandbox reaches each by its name and port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No services.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 · port %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove service %1 and its volumes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME=VALUE, one a line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables, one NAME=VALUE a line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the service to %1</source>
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
        <source>New sandbox…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a new sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandboxes are run by the daemon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paddockd, Paddock&apos;s background service, runs the sandboxes. Once it is connected (see the status line below), this page lists every sandbox with its status, and creates new ones on your project folders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that runs the sandboxes, is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sandboxes yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create one with New sandbox: choose a project folder and a kit, review what the kit asks for, and Paddock starts the agent in a sandbox whose only way out is its proxy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A terminal opens on a shell in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent of %1 opens in a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same from a terminal, in the current folder: the agent runs on that terminal, and the sandbox keeps running when you leave it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: its row shows the command that opens its agent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not started: its kit&apos;s keys were not approved, and nothing was recorded. To approve later, press Start again, or run: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the most recent session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session to resume</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SecretRemoveDialog</name>
    <message>
        <source>Remove the key of %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is deleted from the keychain. Sandboxes whose kit needs it will not start until you set it again; approvals are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SecretRow</name>
    <message>
        <source>Key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for the sandbox %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing from the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel replacing the key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New key for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the new key of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test the key of %1 with its provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
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
        <source>Keys are kept by the daemon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paddock&apos;s daemon holds the keychain for every sandbox. When it is connected (see the status line below), this page lists your provider keys, masked, and lets you add, replace and remove them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Check again in the status line to start the daemon.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is reachable, so no key can be stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install and start %1, then check again. Paddock never keeps keys in a plain file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the keychain again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: only for this sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pasted here, never shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the key in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keys yet. A kit names the services it needs; add their keys above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as the kit names it, e.g. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as the kit names it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SharedFoldersStep</name>
    <message>
        <source>Choose a folder to share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional. Share a package cache or a settings file, or set variables such as PGHOST. Your home folder, ~/.ssh, keyrings and Paddock&apos;s own folders are never shared, and keys belong in Secrets, not in variables.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared folders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop sharing %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>~/.nuget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>where it appears inside: the same path if empty, e.g. /home/agent/.nuget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path inside the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME=VALUE, e.g. PGHOST=postgres</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use these for every new sandbox of this kit</source>
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
    <name>UpstreamProxySection</name>
    <message>
        <source>Upstream proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Behind a company&apos;s proxy, set it here. Without a setting, Paddock uses HTTPS_PROXY, ALL_PROXY or http_proxy from the environment it started in, then the desktop&apos;s proxy settings. The rules still decide first: a refused connection never reaches the proxy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proxy URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http://user@proxy.example.com:3128 or socks5h://host:1080</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upstream proxy URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>intranet.example.com, 10.0.0.0/8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hosts reached without the upstream proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept in the keychain; type to replace it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upstream proxy password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WizardDialog</name>
    <message>
        <source>New sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1. Project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2. Kit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3. Backend and workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6. Create and start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the kit that describes the agent, or a kit folder of your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a kit folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direct: the agent edits the folder itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direct workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clone: the agent works on a clone of the folder&apos;s git repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clone workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: made from the kit and the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed domains: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed domains: none of its own (your network policy applies)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (sent to %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What it can reach on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>direct</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), start it, and open its agent in a terminal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and its row shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), then start it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It asks to reach this computer and the networks it is on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 reaches %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Services that trust this computer, such as databases, your router or the cloud metadata service, will answer the sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow this kit to reach them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow this kit to reach this computer and its networks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4. Shared folders and variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5. Review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6. Keys and approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>7. Create and start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 reaches %2 (approved for this kit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docker (engine %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Composed of: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WizardFrame</name>
    <message>
        <source>Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create and start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create and start the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::ActivityModel</name>
    <message>
        <source>%1 up · %2 down</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::AgentPerms</name>
    <message>
        <source>Line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No change: the file already says so.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::AskNotifier</name>
    <message>
        <source>Sandbox %1 waits to reach %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>No rule covers it. Answer within %n second(s), or it is refused.</source>
        <translation>
            <numerusform>No rule covers it. Answer within %n second, or it is refused.</numerusform>
            <numerusform>No rule covers it. Answer within %n seconds, or it is refused.</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::BundleExporter</name>
    <message>
        <source>%1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where to write the bundle (a full path).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1: kit %2, %3 files (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Policy: preset %1, %n rule(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Students provide no key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Students provide their own keys for: %1 (the bundle holds no value).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::ChecklistModel</name>
    <message>
        <source>The credential variable inside is the sentinel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A domain on no list is refused and logged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file edited inside appears on the host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The policy log shows no refusal the policy did not choose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key reaches its provider</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::ClassroomModel</name>
    <message>
        <source>Kit %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes from the bundle&apos;s author:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing it will:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• replace the kit folder %1 (%2 files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• write the kit folder %1 (%2 files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• set the network policy preset: %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• keep the rule %1 (already present)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• add the rule %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• leave the network policy as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets you will enter afterwards (never in the bundle):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was refused: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kit %1 imported into %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No check failed: this sandbox is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some checks failed: read each sentence for what to fix.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next: create your sandbox (the keys it needs are asked for there), then run the checklist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the checks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked %1 of %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent&apos;s own rules it brings (pi-permission-system):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, a host grant: reaches %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit reaches this computer or its networks (asked before its first sandbox):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 reaches %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: allow-all lets every sandbox reach every public host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its sandboxes run on the container engine %1, whose address your teacher gives.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonBound</name>
    <message>
        <source>The daemon is not connected.</source>
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
<context>
    <name>paddock::gui::EngineSettings</name>
    <message>
        <source>this computer&apos;s engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a docker context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added in Paddock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on another computer: sandboxes get a clone of the workspace</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::EnvironmentPlan</name>
    <message>
        <source>Refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed since it was shown: read its host commands again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick each command that runs on this computer to approve it, once you have read it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment %1 is up.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::ImagePreparation</name>
    <message>
        <source>The kit names no image (sandbox.image).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitEditorModel</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sample kit shipped with Paddock: copy it to a folder of yours to change it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a kit first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample kits are read-only: use “Copy to…” to make a copy you can edit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitImporter</name>
    <message>
        <source>This update is granted more than the kit loaded before. Nothing was loaded; tick the box below to accept it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not loaded:
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1 (%2) from %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mixin</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n optional capability(s) skipped: Paddock does not implement them.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Choose the archive to import first (an OCI layout or docker save .tar).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitListModel</name>
    <message>
        <source>line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a kit folder first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the new kit first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the copy first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::LearningModel</name>
    <message numerus="yes">
        <source>Allowed %n pattern(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkNotifier</name>
    <message>
        <source>Paddock refused %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A connection to %1 was refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1 tried to reach %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 key was not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1&apos;s request went without its %2 key and was refused.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkPolicy</name>
    <message>
        <source>The preset is now %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was already there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed the rule to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed the rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed %1 in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed %1 for every sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed %1 for sandbox %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismissed %1; it shows again if it is refused again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox %1 may now send the value of %2 from %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::RulesModel</name>
    <message>
        <source>for %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxListModel</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot start: the key of %2 is not set. Add it on the Secrets page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · agent running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · agent exited (status %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · agent exited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · agent not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>size unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>root %1 over image %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · the agent exited: %1 (exit %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · the agent did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>variables %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>services %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shares %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on engine %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 recreated.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxReview</name>
    <message>
        <source>%1 is back as it was when the sandbox started.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxServices</name>
    <message>
        <source>The port is a number from 1 to 65535.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most %1 variables.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each variable is a line NAME=VALUE, not &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxWizard</name>
    <message>
        <source>Choose a kit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no spec.yaml in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This kit cannot be used: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a mixin, not a sandbox kit: choose a kit of kind sandbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your %1 key would be sent to every host matching %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit asks for a privileged sandbox (security.privileged).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit allows connections to every host matching %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit publishes ports %1 of the sandbox on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit writes a file into your project folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit writes %1 files into your project folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent works on a clone of the repository in %1; your folder changes only when you fetch from the clone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent can read, change and delete every file in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an existing project folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was created but did not start: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is the image %1, under a layer of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image %1 is not loaded: it is pulled from its registry when the sandbox is made; if that fails, the sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, read-only: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow the kit to reach this computer and its networks in the review, or choose another kit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent starts only if the kit&apos;s setup installs it, or once the kit&apos;s image is loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent cannot start until the kit&apos;s image is loaded (paddock template load FILE) or %1 is installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kit&apos;s shared folders were not kept: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These kits do not go together: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::SecretListModel</name>
    <message>
        <source>Names may use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key of %1 is stored in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key of %1 was removed from the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run for every request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1Password: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Placeholder in %1, replaced for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not resolved yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needed by %1: %2 — stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needed by %1: %2 — not stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider accepted the %1 key: %2 answered %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 key was not accepted: %2 answered %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The custom secret %1 was removed: its placeholder is no longer replaced.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::TerminalLauncher</name>
    <message>
        <source>No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. The command is: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The terminal %1 could not be started.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[ended with status %1: press Enter to close this window]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: shell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing the sessions of %1 took too long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::UpstreamProxySettings</name>
    <message>
        <source>Reading the settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: connections that are allowed go straight out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, with a password from the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed connections go out through %1 (from %2%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: in force for every connection from now on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is removed from the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>paddock::gui::WizardShares</name>
    <message>
        <source>%1 → %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shares: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give a value: NAME=VALUE</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KitNetworkPolicyLists</name>
    <message>
        <source>%1, group %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While the agent runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While the kit installs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only while the kit installs: its install commands reach these hosts when a sandbox is made. The agent never gets them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed while installing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied while installing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

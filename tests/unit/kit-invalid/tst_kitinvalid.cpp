// SPDX-License-Identifier: GPL-3.0-or-later
// Invalid variants of real published kits: each row takes a kit's spec.yaml, changes one
// thing, and checks the error's line (and column where it is meaningful) and its gist.
#include "kit/KitLoader.h"

#include <QFile>
#include <QTest>

using namespace paddock::kit;

namespace {

/** One variant: in FIXTURE's spec.yaml, FIND (which occurs once) becomes REPLACE. */
struct Variant
{
    const char *name;
    const char *fixture;
    const char *find;
    const char *replace;
    int line;
    int column; ///< 0: not checked
    const char *gist;
};

// sample-agent-v2 is the specification's own full-surface kit; gitea a mixin with args.
constexpr const char *kSample = "sample-agent-v2";
constexpr const char *kGitea = "gitea";

const Variant kVariants[] = {
    // identity
    {"name with capitals", kSample, "name: sample-agent-v2", "name: Sample_Agent", 3, 7, "`name` must be"},
    {"name too long", kSample, "name: sample-agent-v2",
     "name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 3, 7, "`name` must be"},
    {"name ending in a hyphen", kSample, "name: sample-agent-v2", "name: sample-agent-", 3, 7, "`name` must be"},
    // A name is never a template, and never a path: it names the kit's folder on import.
    {"name from an argument", kGitea, "name: gitea", "name: \"${{ kit.args.host }}\"", 5, 8,
     "cannot use a placeholder"},
    {"name leading out of the kits folder", kGitea, "name: gitea",
     "name: \"${{ kit.args.host }}/../../../../.config/autostart\"", 5, 8, "cannot use a placeholder"},
    {"name with a slash", kSample, "name: sample-agent-v2", "name: sample/agent", 3, 7, "`name` must be"},
    {"name is a parent folder", kSample, "name: sample-agent-v2", "name: \"..\"", 3, 7, "found '..'"},
    {"name is an absolute path", kSample, "name: sample-agent-v2", "name: /home/me/.config/autostart", 3, 7,
     "found '/home/me/.config/autostart'"},
    {"unknown kind", kSample, "kind: sandbox", "kind: agentic", 2, 7, "`kind` must be sandbox or mixin"},
    {"v1 kind agent", kSample, "kind: sandbox", "kind: agent", 2, 7, "`kind: sandbox`"},
    {"schemaVersion 3", kSample, "schemaVersion: \"2\"", "schemaVersion: \"3\"", 1, 16, "unsupported schemaVersion"},
    {"missing schemaVersion", kGitea, "schemaVersion: \"2\"\n", "", 3, 1, "`schemaVersion`"},
    {"duplicate field", kSample, "version: \"2.0.0\"", "version: \"2.0.0\"\nversion: \"2.0.1\"", 5, 1,
     "duplicate field `version`"},
    {"unknown top-level field", kSample, "sourceURL: https", "sourceUrl: https", 7, 1, "unknown field `sourceUrl`"},
    {"locked not a dotted path", kSample, "  - sandbox.image", "  - Sandbox.Image", 9, 5, "dotted path"},
    {"locked duplicate", kSample, "  - sandbox.image", "  - sandbox.image\n  - sandbox.image", 10, 5, "repeats"},
    {"empty license", kGitea, "  - MIT", "  - MIT\n  - \"\"", 11, 5, "must not be empty"},

    // kind rules
    {"mixin with a sandbox block", kSample, "kind: sandbox", "kind: mixin", 11, 1, "forbidden for kind: mixin"},
    {"sandbox without a sandbox block", kGitea, "kind: mixin", "kind: sandbox", 4, 7, "needs a `sandbox:` block"},
    {"requires on a sandbox", kSample, "\nsandbox:\n", "\nrequires:\n  agent: claude\nsandbox:\n", 11, 1,
     "only valid for kind: mixin"},
    {"extends on a mixin", kGitea, "kind: mixin", "kind: mixin\nextends: shell", 5, 1, "`extends` is only valid"},
    {"mixins on a mixin", kGitea, "kind: mixin", "kind: mixin\nmixins: [shell-tools]", 5, 1, "`mixins` is only valid"},
    {"requires.agent not a name", kGitea, "kind: mixin", "kind: mixin\nrequires:\n  agent: Claude Code", 6, 10,
     "`requires.agent` must be a kit name"},

    // sandbox block
    {"sandbox without image", kSample, "  image: \"docker/sandbox-templates:shell-docker\"\n", "", 11, 1,
     "`sandbox.image` is required"},
    {"build without image", kSample, "  image: \"docker/sandbox-templates:shell-docker\"\n",
     "  build:\n    context: .\n", 11, 1, "set `sandbox.image`"},
    {"misspelt image", kSample, "  image: \"docker", "  imag: \"docker", 12, 3, "unknown field `imag` in `sandbox`"},
    {"draft sandbox.aiFilename", kSample, "  image: \"docker/sandbox-templates:shell-docker\"",
     "  image: \"docker/sandbox-templates:shell-docker\"\n  aiFilename: SAMPLE.md", 13, 3,
     "agentInstructions.filename"},
    {"entrypoint as a string", kSample, "entrypoint: [\"sample-bin\", \"--verbose\"]",
     "entrypoint: sample-bin --verbose", 15, 15, "must be a list of strings"},
    {"command as a string", kSample, "  command:\n    default: [\"--task-mode\"]\n    interactive: [\"--interactive\"]",
     "  command: \"--task-mode\"", 16, 12, "must be a list, or a mapping"},
    {"unknown command mode", kSample, "interactive: [\"--interactive\"]", "tty: [\"--interactive\"]", 18, 5,
     "unknown field `tty`"},
    {"negative cpu", kSample, "cpu: 2.0", "cpu: -1", 20, 10, "must not be negative"},
    {"cpu not a number", kSample, "cpu: 2.0", "cpu: two", 20, 10, "must be a number"},
    {"memory not a size", kSample, "memory: 4096m", "memory: lots", 21, 13, "not a byte size"},

    // agent instructions and network
    {"agentInstructions typo", kSample, "  filename: SAMPLE.md", "  file: SAMPLE.md", 27, 3, "unknown field `file`"},
    {"draft caps", kSample, "permissions:\n  network:", "caps:\n  network:", 32, 1,
     "caps.network → permissions.network"},
    {"network allow typo", kSample, "    allow:\n      - api.anthropic.com", "    allowed:\n      - api.anthropic.com",
     34, 5, "unknown field `allowed`"},
    {"v1 allowedDomains", kSample, "    allow:\n      - api.anthropic.com",
     "    allowedDomains:\n      - api.anthropic.com", 34, 5, "`permissions.network.allow`"},
    {"deny as a string", kSample, "    deny:\n      - telemetry.example.com", "    deny: telemetry.example.com", 38, 11,
     "must be a list of strings"},

    // credentials
    {"service missing", kSample, "  - service: anthropic\n    description", "  - description", 45, 5,
     "required field `service`"},
    {"required not a boolean", kSample, "    required: true", "    required: maybe", 47, 15, "must be true or false"},
    {"apiKey name not a variable", kSample, "name: ANTHROPIC_API_KEY", "name: ANTHROPIC-API-KEY", 49, 13,
     "environment variable name"},
    {"inject without domain", kSample, "        - domain: api.anthropic.com\n          header: x-api-key",
     "        - header: x-api-key", 51, 11, "required field `domain`"},
    {"format without header", kSample, "          header: x-api-key\n", "", 52, 19, "no `header`"},
    {"format with two %s", kSample, "format: \"%s\"", "format: \"%s %s\"", 53, 19, "exactly one %s"},
    {"format without %s", kSample, "format: \"%s\"", "format: \"Bearer\"", 53, 19, "exactly one %s"},
    {"unknown scheme", kSample, "scheme: bearer", "scheme: digest", 61, 19, "must be bearer or basic"},
    {"format and scheme", kSample, "          scheme: bearer",
     "          scheme: bearer\n          format: \"Bearer %s\"", 62, 19, "mutually exclusive"},
    {"bearer with username", kSample, "          scheme: bearer", "          scheme: bearer\n          username: me",
     62, 21, "`username` is not valid with scheme: bearer"},
    {"basic without username", kSample, "          username: x-access-token\n", "", 64, 19, "needs a `username`"},
    {"oauth without tokenEndpoint", kSample,
     "      tokenEndpoint:\n        host: api.workos.com\n        path: /oauth/token\n", "", 69, 7, "`tokenEndpoint`"},
    {"tokenEndpoint without host", kSample, "        host: api.workos.com\n", "", 70, 9, "required field `host`"},
    {"sentinels missing", kSample, "      passthrough: true", "      passthrough: false", 74, 7, "sentinels"},
    {"v1 passthroughResponse", kSample, "      passthrough: true", "      passthroughResponse: true", 75, 7,
     "`credentials[].oauth.passthrough`"},
    {"quoted boolean", kGitea, "proxyManaged: true", "proxyManaged: \"true\"", 40, 21, "must be true or false"},

    // ports, environment, volumes
    {"port out of range", kSample, "container: 9418", "container: 70000", 80, 16, "1..65535"},
    {"port not a number", kSample, "container: 8080", "container: web", 81, 16, "must be an integer"},
    {"unknown protocol", kSample, "protocol: udp", "protocol: sctp", 85, 15, "tcp or udp"},
    {"ports and publishedPorts", kSample,
     "environment:\n  variables:", "ports:\n  - container: 1\nenvironment:\n  variables:", 79, 1, "keep only `ports`"},
    {"variable name with hyphens", kSample, "    SAMPLE_AGENT_HOME:", "    SAMPLE-AGENT-HOME:", 90, 5,
     "environment variable name"},
    {"environment typo", kSample, "  variables:\n    SAMPLE", "  vars:\n    SAMPLE", 89, 3, "unknown field `vars`"},
    {"v1 environment.proxyManaged", kSample, "  variables:\n    SAMPLE",
     "  proxyManaged: [X]\n  variables:\n    SAMPLE", 89, 3, "credentials[].apiKey.proxyManaged"},
    {"relative volume path", kSample, "  - path: /tmp/scratch", "  - path: tmp/scratch", 95, 11, "absolute"},
    {"unknown volume type", kSample, "type: tmpfs", "type: ramdisk", 96, 11, "tmpfs"},
    {"volume size not a size", kSample, "size: 512m", "size: 512 megabytes", 97, 11, "byte size"},
    {"volume mode not octal", kSample, "mode: \"1777\"", "mode: \"u+rwx\"", 98, 11, "octal"},

    // setup
    {"install command as a list", kSample, "- command: \"echo agent-installed\"",
     "- command: [\"echo\", \"agent-installed\"]", 103, 16, "must be a string"},
    {"empty install command", kSample, "- command: \"echo agent-installed\"", "- command: \"\"", 103, 16,
     "must not be empty"},
    {"startup command as a string", kSample, "- command: [\"echo\", \"agent-started\"]",
     "- command: \"echo agent-started\"", 107, 16, "must be a list of strings"},
    {"empty startup command", kSample, "- command: [\"echo\", \"agent-started\"]", "- command: []", 107, 16,
     "non-empty"},
    {"background quoted", kSample, "background: true", "background: \"true\"", 109, 19, "must be true or false"},
    {"v1 initFiles", kSample, "  files:\n    - path: /home", "  initFiles:\n    - path: /home", 111, 3,
     "`setup.files`"},
    {"relative setup file path", kSample, "- path: /home/agent/.sample-agent-v2/init.json",
     "- path: home/agent/init.json", 112, 13, "absolute"},
    {"setup file placeholder", kSample, "content: '{\"initialized\": true}'", "content: '{\"home\": \"${HOME}\"}'", 113,
     16, "only ${WORKDIR}"},
    {"setup file mode not octal", kSample, "mode: \"0644\"", "mode: \"0899\"", 114, 13, "octal"},

    // args
    {"undeclared argument", kGitea, "format: \"token %s\"", "format: \"${{ kit.args.scheme }} %s\"", 54, 20,
     "`scheme`, which the args: block does not declare"},
    {"default outside its pattern", kGitea, "default: \"gitea.com\"", "default: \"https://gitea.com\"", 22, 14,
     "does not match its pattern"},
    {"default and required", kGitea, "default: \"gitea.com\"", "default: \"gitea.com\"\n    required: true", 15, 3,
     "both `default` and `required"},
    {"neither default nor required", kGitea, "    default: \"gitea.com\"\n", "", 15, 3, "neither `default`"},
    {"enum and pattern", kGitea, "    pattern:", "    enum: [gitea.com]\n    pattern:", 23, 14, "mutually exclusive"},
    {"argument name", kGitea, "  host:\n    default", "  9host:\n    default", 15, 3, "argument name"},
    {"unknown argument field", kGitea, "    description: >-", "    help: >-", 17, 5, "unknown field `help`"},
    {"malformed reference", kGitea, "- domain: \"${{ kit.args.host }}\"", "- domain: \"${{ kit.args.host.name }}\"", 42,
     20, "malformed argument reference"},
    {"unterminated reference", kGitea, "- domain: \"${{ kit.args.host }}\"", "- domain: \"${{ kit.args.host\"", 42, 20,
     "unterminated"},

    // syntax
    // An unclosed flow collection is named where it opens, not where the parser gave up.
    {"YAML syntax error", kSample, "entrypoint: [\"sample-bin\", \"--verbose\"]",
     "entrypoint: [\"sample-bin\", \"--verbose\"", 15, 15, "the '[' opened here is never closed"},
    {"unclosed flow map", kSample, "sentinels: {}", "sentinels: {", 74, 18, "the '{' opened here is never closed"},
    {"other syntax errors keep the parser's place", kSample, "entrypoint: [\"sample-bin\", \"--verbose\"]",
     "entrypoint: [\"sample-bin\", \"--verbose\"]]", 15, 0, "YAML syntax error"},
};

QByteArray readFixture(const char *kit)
{
    QFile file(QStringLiteral(PADDOCK_FIXTURES "/kits/published/%1/spec.yaml").arg(QLatin1String(kit)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

class TestKitInvalid : public QObject
{
    Q_OBJECT

private slots:
    void fixturesAreValidAsPublished();
    void variant_data();
    void variant();
};

void TestKitInvalid::fixturesAreValidAsPublished()
{
    // Each variant must be invalid because of its one change, not because of its base.
    for (const char *kit : {kSample, kGitea}) {
        const KitLoadResult result = KitLoader::loadText(readFixture(kit), QStringLiteral("spec.yaml"));
        QVERIFY2(result.ok(), kit);
    }
    QVERIFY(std::size(kVariants) >= 40);
}

void TestKitInvalid::variant_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kVariants)); ++i)
        QTest::newRow(kVariants[i].name) << i;
}

void TestKitInvalid::variant()
{
    QFETCH(int, index);
    const Variant &v = kVariants[index];
    const QByteArray original = readFixture(v.fixture);
    QVERIFY(!original.isEmpty());
    QCOMPARE(original.count(v.find), 1);
    QByteArray text = original;
    text.replace(v.find, v.replace);

    const KitLoadResult result = KitLoader::loadText(text, QStringLiteral("spec.yaml"));
    QVERIFY(!result.ok());
    QVERIFY(!result.kit.has_value());
    QStringList seen;
    for (const Diagnostic &d : result.diagnostics) {
        seen << d.toString();
        if (!d.isError() || d.line != v.line || !d.message.contains(QString::fromUtf8(v.gist)))
            continue;
        if (v.column != 0)
            QCOMPARE(d.column, v.column);
        QCOMPARE(d.file, QStringLiteral("spec.yaml"));
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no error at line %1 containing \"%2\"; got:\n%3")
                         .arg(v.line)
                         .arg(QString::fromUtf8(v.gist), seen.join(QLatin1Char('\n')))));
}

QTEST_GUILESS_MAIN(TestKitInvalid)
#include "tst_kitinvalid.moc"

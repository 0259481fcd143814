// SPDX-License-Identifier: GPL-3.0-or-later
// schemaVersion "3" kits: descriptors decoded strictly (positions on every error), capabilities
// applied, skipped or refused, and kits loaded from OCI archives made here by hand.
#include "OciKitArchive.h"

#include "image/ImageStore.h"
#include "kit/KitArchive.h"
#include "kit/KitJson.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock;
using namespace paddock::test;

namespace {

const QByteArray kWorkload = R"(# syntax=docker/sandbox-kit:3
schemaVersion: "3"
kind: workload
displayName: Shell
version: "1.0.0"
provides: ["shell@${{ kit.args.release }}"]
requires: ["node >= 20.0.0, < 21"]
args:
  release:
    default: "1.0.0"
    buildArg: RELEASE
  greeting:
    default: hello
    env: GREETING
capabilities:
  - type: com.docker.sandbox/network-policy@1
    config:
      runtime:
        allow: [api.github.com, "*.npmjs.org"]
        deny: [evil.example]
      install:
        allow: [deb.debian.org]
  - type: com.docker.sandbox/credential@1
    description: GitHub API
    config:
      service: github
      phase: runtime
      apiKey:
        name: GH_TOKEN
        proxyManaged: true
        inject:
          - {domain: api.github.com, scheme: bearer}
  - type: com.docker.sandbox/port@1
    config: {container: 3000, name: dev}
  - type: com.docker.sandbox/resources@1
    config: {cpu: 2, memory: 4g}
  - type: com.docker.sandbox/lifecycle@1
    config:
      install:
        - command: echo ${{ kit.args.greeting }} > /etc/motd
      startup:
        - command: [sh, -c, "true"]
          background: true
      files:
        - {path: /home/agent/.config/x.json, content: "{}", overwrite: false}
      interactive: [--tty]
  - type: com.docker.sandbox/long-running@1
  - type: com.docker.sandbox/agent-context@1
    optional: true
    config: {content: be terse}
)";

kit::KitLoadResult load(const QByteArray &text)
{
    return kit::KitLoader::loadText(text, QStringLiteral("shell.yaml"));
}

QString messages(const QList<kit::Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const kit::Diagnostic &d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

bool hasError(const QList<kit::Diagnostic> &diagnostics, int line, int column, const QString &part)
{
    return std::any_of(diagnostics.cbegin(), diagnostics.cend(), [&](const kit::Diagnostic &d) {
        return d.isError() && d.line == line && (column == 0 || d.column == column) && d.message.contains(part);
    });
}

QByteArray shellLayer()
{
    return tarOf({folder("bin"), file("bin/hello", "#!/bin/sh\necho hi\n", 0755)});
}

} // namespace

class TestKitV3 : public QObject
{
    Q_OBJECT

private slots:
    void workloadBecomesAKit();
    void unknownFieldsAreErrorsWhereTheyAre();
    void specificationRulesHold_data();
    void specificationRulesHold();
    void oversizedDescriptorIsRefused();
    void sshAgentGrantsMergePerPhase();
    void requiredUnknownCapabilityRefusesTheKit();
    void optionalUnknownGroupIsSkippedWhole();
    void archiveLoadsIntoTheLibraryAndStore();
    void indexAnnotationsFallBackToTheManifest();
    void archiveRefusalsStoreNothing_data();
    void archiveRefusalsStoreNothing();
    void mixinArchiveLoadsDeclarationsOnly();
};

void TestKitV3::workloadBecomesAKit()
{
    const kit::KitLoadResult result = load(kWorkload);
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    const kit::Kit &k = *result.kit;
    QCOMPARE(k.schemaVersion, QStringLiteral("3"));
    QCOMPARE(k.name, QStringLiteral("shell"));
    QVERIFY(k.isSandbox());
    QCOMPARE(k.provides, QStringList{QStringLiteral("shell@1.0.0")});
    // A bare host is any port in the specification; in Paddock's patterns that is HOST:*.
    QCOMPARE(k.networkAllow, (QStringList{QStringLiteral("api.github.com:*"), QStringLiteral("*.npmjs.org:*")}));
    QCOMPARE(k.networkDeny, QStringList{QStringLiteral("evil.example:*")});
    // The install lists are their own phase: not the agent's, and theirs alone while installing.
    QCOMPARE(k.networkInstallAllow, QStringList{QStringLiteral("deb.debian.org:*")});
    QVERIFY(k.networkInstallDeny.isEmpty());
    QVERIFY(k.phasedNetwork());
    QCOMPARE(k.credentials.size(), 1);
    QCOMPARE(k.credentials.at(0).service, QStringLiteral("github"));
    QVERIFY(k.credentials.at(0).required);
    QCOMPARE(k.credentials.at(0).apiKey->inject.at(0).format, QStringLiteral("Bearer %s"));
    QCOMPARE(k.credentials.at(0).apiKey->inject.at(0).header, QStringLiteral("Authorization"));
    QCOMPARE(k.ports.size(), 1);
    QCOMPARE(k.ports.at(0).container, 3000);
    QCOMPARE(k.ports.at(0).protocol, QStringLiteral("tcp"));
    QCOMPARE(k.sandbox->resources->cpu.value_or(0), 2.0);
    QCOMPARE(k.sandbox->resources->memoryBytes.value_or(0), qint64(4) << 30);
    QCOMPARE(k.setup.install.at(0).command, QStringLiteral("echo hello > /etc/motd"));
    QCOMPARE(k.setup.startup.at(0).command,
             (QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("true")}));
    QVERIFY(k.setup.startup.at(0).background);
    // A hook sees only what it declares (lifecycle@1): none declared is an empty list, not "all".
    QCOMPARE(k.setup.install.at(0).environment, std::optional<QStringList>(QStringList{}));
    QCOMPARE(k.setup.startup.at(0).environment, std::optional<QStringList>(QStringList{}));
    QVERIFY(k.setup.files.at(0).onlyIfMissing);
    QCOMPARE(k.sandbox->commandInteractive.value_or(QStringList()), QStringList{QStringLiteral("--tty")});
    QVERIFY(k.environment.contains({QStringLiteral("GREETING"), QStringLiteral("hello")}));
    // Every request is accounted for, the agent-context's body too (indexed in the profile).
    QCOMPARE(k.capabilities.size(), 7);
    const QJsonArray shown = kit::toJson(k).value(QLatin1String("capabilities")).toArray();
    QCOMPARE(shown.size(), 7);
    QCOMPARE(shown.last().toObject().value(QLatin1String("status")).toString(), QStringLiteral("applied"));
    QCOMPARE(k.agentContexts.size(), 1);
    QCOMPARE(k.agentContexts.at(0).content, QStringLiteral("be terse"));
    QVERIFY(k.capabilities.last().what.contains(QLatin1String("Kits section")));
    for (qsizetype i = 0; i < k.capabilities.size(); ++i)
        QCOMPARE(k.capabilities.at(i).status, kit::CapabilityOutcome::Status::Applied);

    // The compact JSON of the annotation decodes the same way.
    const QByteArray json =
        R"({"schemaVersion":"3","kind":"mixin","provides":["gh@2.0.0"],"capabilities":[{"type":"com.docker.sandbox/network-policy@1","config":{"runtime":{"allow":["github.com"]}}}]})";
    const kit::KitLoadResult mixin = load(json);
    QVERIFY2(mixin.ok(), qPrintable(messages(mixin.diagnostics)));
    QCOMPARE(mixin.kit->kind, kit::KitKind::Mixin);
    QCOMPARE(mixin.kit->networkAllow, QStringList{QStringLiteral("github.com:*")});

    // A mixin's limits and interactive tail are kept for the composition to give the workload.
    QByteArray asMixin = kWorkload;
    asMixin.replace("kind: workload", "kind: mixin");
    const kit::KitLoadResult tools = load(asMixin);
    QVERIFY2(tools.ok(), qPrintable(messages(tools.diagnostics)));
    QVERIFY(!tools.kit->sandbox);
    QCOMPARE(tools.kit->mixinResources->memoryBytes.value_or(0), qint64(4) << 30);
    QCOMPARE(tools.kit->mixinInteractive.value_or(QStringList()), QStringList{QStringLiteral("--tty")});
    for (const kit::CapabilityOutcome &outcome : tools.kit->capabilities)
        QCOMPARE(outcome.status, kit::CapabilityOutcome::Status::Applied);
    QVERIFY2(tools.kit->capabilities.at(4).what.endsWith(
                 QLatin1String("; on a terminal the agent starts with --tty after its launch")),
             qPrintable(tools.kit->capabilities.at(4).what));
}

void TestKitV3::unknownFieldsAreErrorsWhereTheyAre()
{
    const QByteArray text = "schemaVersion: \"3\"\n"
                            "kind: workload\n"
                            "nmae: shell\n"
                            "args:\n"
                            "  v: {default: \"1\", secret: true}\n"
                            "capabilities:\n"
                            "  - type: com.docker.sandbox/network-policy@1\n"
                            "    config:\n"
                            "      runtime: {allows: [a.example]}\n"
                            "  - type: com.docker.sandbox/port@1\n"
                            "    optinal: true\n"
                            "    config: {container: 80}\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    QVERIFY2(hasError(result.diagnostics, 3, 1, QStringLiteral("unknown field 'nmae'")),
             qPrintable(messages(result.diagnostics)));
    QVERIFY2(hasError(result.diagnostics, 5, 21, QStringLiteral("unknown field 'secret'")),
             qPrintable(messages(result.diagnostics)));
    QVERIFY2(hasError(result.diagnostics, 9, 17, QStringLiteral("unknown field 'allows'")),
             qPrintable(messages(result.diagnostics)));
    QVERIFY2(hasError(result.diagnostics, 11, 5, QStringLiteral("unknown field 'optinal'")),
             qPrintable(messages(result.diagnostics)));
}

void TestKitV3::specificationRulesHold_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray head = "schemaVersion: \"3\"\nkind: workload\n";
    QTest::newRow("no kind") << QByteArray("schemaVersion: \"3\"\n") << QStringLiteral("kind is required");
    QTest::newRow("old kind spelling") << QByteArray("schemaVersion: \"3\"\nkind: sandbox\n")
                                       << QStringLiteral("kind: workload");
    QTest::newRow("type grammar") << head + "capabilities:\n  - type: Docker/Port\n"
                                  << QStringLiteral("namespace/name@version");
    QTest::newRow("singleton twice") << head + "capabilities:\n  - type: com.docker.sandbox/long-running@1\n"
                                               "  - type: com.docker.sandbox/long-running@1\n"
                                     << QStringLiteral("may appear once");
    QTest::newRow("config on a config-less type")
        << head + "capabilities:\n  - type: com.docker.sandbox/privileged@1\n    config: {}\n"
        << QStringLiteral("takes no config");
    QTest::newRow("port out of range")
        << head + "capabilities:\n  - type: com.docker.sandbox/port@1\n    config: {container: 99999}\n"
        << QStringLiteral("1 to 65535");
    QTest::newRow("inject outside the allow list")
        << head + "capabilities:\n  - type: com.docker.sandbox/credential@1\n    config:\n      service: gh\n"
                  "      phase: runtime\n      apiKey: {name: T, inject: [{domain: api.github.com}]}\n"
        << QStringLiteral("does not name");
    QTest::newRow("derived namespace") << head + "provides: [deb/bash@5.2]\n" << QStringLiteral("derived");
    QTest::newRow("version with v") << head + "provides: [\"gh@v2\"]\n" << QStringLiteral("NAME@VERSION");
    QTest::newRow("undeclared argument") << head + "provides: [\"gh@${{ kit.args.nope }}\"]\n"
                                         << QStringLiteral("does not declare");
    QTest::newRow("argument in requires")
        << head + "args: {v: {default: \"1\"}}\nrequires: [\"gh >= ${{ kit.args.v }}\"]\n"
        << QStringLiteral("must stay literal");
    QTest::newRow("default and required") << head + "args: {v: {default: \"1\", required: true}}\n"
                                          << QStringLiteral("exclude each other");
    QTest::newRow("member optional")
        << head + "capabilities:\n  - group:\n      capabilities:\n"
                  "        - type: com.docker.sandbox/long-running@1\n          optional: true\n"
        << QStringLiteral("its group's optional");
    QTest::newRow("empty lifecycle") << head +
                                            "capabilities:\n  - type: com.docker.sandbox/lifecycle@1\n    config: {}\n"
                                     << QStringLiteral("drop the entry");
    QTest::newRow("hook env not a name") << head +
                                                "capabilities:\n  - type: com.docker.sandbox/lifecycle@1\n    config:\n"
                                                "      install: [{command: \"true\", env: [\"X; rm -rf /\"]}]\n"
                                         << QStringLiteral("install[0].env[0]` must be a variable's name");
    QTest::newRow("hook env with a final newline")
        << head + "capabilities:\n  - type: com.docker.sandbox/lifecycle@1\n    config:\n"
                  "      startup: [{command: [\"true\"], env: [\"HOME_DIR\\n\"]}]\n"
        << QStringLiteral("startup[0].env[0]` must be a variable's name");
    QTest::newRow("recipe twice") << head + "build: FROM scratch\ndockerfile: x.dockerfile\n"
                                  << QStringLiteral("exclude each other");
    const QByteArray agent = head + "capabilities:\n  - type: com.docker.sandbox/ssh-agent@1\n    config: ";
    QTest::newRow("ssh-agent unrestricted with lists") << agent + "{phase: runtime, sign: [git]}\n"
                                                       << QStringLiteral("set `unrestricted: false`");
    QTest::newRow("ssh-agent bounded naming nothing") << agent + "{phase: runtime, unrestricted: false}\n"
                                                      << QStringLiteral("neither sign nor authenticate");
    QTest::newRow("ssh-agent phase") << agent + "{phase: [runtime, later]}\n"
                                     << QStringLiteral("must be install or runtime, not later");
    QTest::newRow("ssh-agent phase twice") << agent + "{phase: [runtime, runtime]}\n"
                                           << QStringLiteral("names a phase twice");
    QTest::newRow("ssh-agent empty sign") << agent + "{phase: runtime, unrestricted: false, sign: []}\n"
                                          << QStringLiteral("is empty");
    QTest::newRow("ssh-agent namespace with a space")
        << agent + "{phase: runtime, unrestricted: false, sign: [\"my ns\"]}\n"
        << QStringLiteral("not a namespace");
    for (const char *server : {"github.com:22", "*.github.com", "10.0.0.1", "GitHub.com", "git@"})
        QTest::newRow(qPrintable(QStringLiteral("ssh-agent server %1").arg(QLatin1String(server))))
            << agent + "{phase: runtime, unrestricted: false, authenticate: [\"" + server + "\"]}\n"
            << QStringLiteral("is not a server");
    QTest::newRow("ssh-agent phases overlap")
        << head + "capabilities:\n  - type: com.docker.sandbox/ssh-agent@1\n    config: {phase: [install, runtime]}\n"
                  "  - type: com.docker.sandbox/ssh-agent@1\n    config: {phase: runtime}\n"
        << QStringLiteral("asks for the same thing twice");
    QTest::newRow("schema version") << QByteArray("schemaVersion: \"3\"\nkind: workload\nschemaVersion: \"4\"\n")
                                    << QStringLiteral("schemaVersion must be");
}

void TestKitV3::specificationRulesHold()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const kit::KitLoadResult result = load(text);
    QVERIFY2(!result.ok(), qPrintable(QString::fromUtf8(text)));
    const QString all = messages(result.diagnostics);
    QVERIFY2(all.contains(expected), qPrintable(all));
    // Every error says where it is.
    for (const kit::Diagnostic &d : result.diagnostics)
        QVERIFY2(d.line > 0 && d.column > 0, qPrintable(d.toString()));
}

// ssh-agent@1's composition: one grant per phase, unrestricted when any entry is, else the union.
void TestKitV3::sshAgentGrantsMergePerPhase()
{
    const QByteArray text =
        "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n"
        "  - type: com.docker.sandbox/ssh-agent@1\n    optional: true\n"
        "    config: {phase: runtime, unrestricted: false, sign: [git]}\n"
        "  - group:\n      capabilities:\n        - type: com.docker.sandbox/ssh-agent@1\n"
        "          config: {phase: [runtime, install], unrestricted: false, authenticate: [git@github.com]}\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    QCOMPARE(result.kit->sshAgents.size(), 2);
    const kit::SshAgentGrant &runtime = result.kit->sshAgents.at(0);
    QCOMPARE(runtime.phase, QStringLiteral("runtime"));
    QVERIFY(runtime.required);
    QVERIFY(!runtime.unrestricted);
    QCOMPARE(runtime.sign, QStringList{QStringLiteral("git")});
    QCOMPARE(runtime.authenticate, QStringList{QStringLiteral("git@github.com")});
    QCOMPARE(result.kit->sshAgents.at(1).phase, QStringLiteral("install"));
    QCOMPARE(result.kit->capabilities.at(0).status, kit::CapabilityOutcome::Status::Applied);
    QVERIFY2(result.kit->capabilities.at(0).what.contains(QLatin1String("signs git signatures")),
             qPrintable(result.kit->capabilities.at(0).what));
    const kit::KitLoadResult open = load("schemaVersion: \"3\"\nkind: workload\ncapabilities:\n"
                                         "  - type: com.docker.sandbox/ssh-agent@1\n    config: {phase: runtime}\n");
    QVERIFY2(open.ok(), qPrintable(messages(open.diagnostics)));
    QVERIFY(open.kit->sshAgents.at(0).unrestricted);
    QVERIFY(open.kit->capabilities.at(0).what.contains(QLatin1String("for anything")));
}

void TestKitV3::oversizedDescriptorIsRefused()
{
    const QByteArray big =
        "schemaVersion: \"3\"\nkind: workload\ndescription: \"" + QByteArray(600 * 1024, 'x') + "\"\n";
    const kit::KitLoadResult result = load(big);
    QVERIFY(!result.ok());
    QVERIFY2(messages(result.diagnostics).contains(QLatin1String("at most 524288 bytes")),
             qPrintable(messages(result.diagnostics).left(300)));
    const QByteArray large =
        "schemaVersion: \"3\"\nkind: workload\ndescription: \"" + QByteArray(100 * 1024, 'x') + "\"\n";
    const kit::KitLoadResult warned = load(large);
    QVERIFY(warned.ok());
    QVERIFY(messages(warned.diagnostics).contains(QLatin1String("warning: the descriptor is")));
}

void TestKitV3::requiredUnknownCapabilityRefusesTheKit()
{
    const QByteArray text =
        "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n"
        "  - type: com.docker.sandbox/network-policy@1\n    config: {runtime: {allow: [a.example]}}\n"
        "  - type: example.com/gpu-broker@1\n    config: {pool: a}\n"
        "  - type: com.docker.sandbox/usb-device@1\n    optional: true\n    config: {vendorId: \"1d6b\"}\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    QVERIFY2(hasError(result.diagnostics, 6, 5, QStringLiteral("requires example.com/gpu-broker@1")),
             qPrintable(messages(result.diagnostics)));
    // The optional one alone does not refuse the kit.
    QByteArray optional = text;
    optional.replace("  - type: example.com/gpu-broker@1\n    config: {pool: a}\n", "");
    const kit::KitLoadResult skipped = load(optional);
    QVERIFY2(skipped.ok(), qPrintable(messages(skipped.diagnostics)));
    QCOMPARE(skipped.kit->capabilities.at(1).status, kit::CapabilityOutcome::Status::Skipped);
    QCOMPARE(skipped.kit->capabilities.at(1).type, QStringLiteral("com.docker.sandbox/usb-device@1"));
    QCOMPARE(skipped.refusedCapabilities, QStringList());
    QCOMPARE(result.refusedCapabilities, QStringList{QStringLiteral("example.com/gpu-broker@1")});

    // Required, the two Paddock declines on purpose say why, not merely "not implemented".
    QByteArray required = optional;
    required.replace("    optional: true\n", "");
    required += "  - type: com.docker.sandbox/privileged@1\n";
    const kit::KitLoadResult refused = load(required);
    QVERIFY2(hasError(refused.diagnostics, 6, 5, QStringLiteral("Paddock passes no host device into a sandbox")),
             qPrintable(messages(refused.diagnostics)));
    QVERIFY2(hasError(refused.diagnostics, 8, 5, QStringLiteral("a privileged sandbox holds the host kernel's powers")),
             qPrintable(messages(refused.diagnostics)));
}

void TestKitV3::optionalUnknownGroupIsSkippedWhole()
{
    const QByteArray text =
        "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n"
        "  - group:\n      name: Shared skills\n      optional: true\n      capabilities:\n"
        "        - type: com.docker.sandbox/agent-skills@1\n          config: {path: /home/agent/.skills}\n"
        "        - type: com.docker.sandbox/port@1\n          config: {container: 8080}\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    // The port is one Paddock could publish, but its group goes whole or not at all.
    QVERIFY(result.kit->ports.isEmpty());
    QCOMPARE(result.kit->capabilities.size(), 2);
    for (const kit::CapabilityOutcome &c : result.kit->capabilities)
        QCOMPARE(c.status, kit::CapabilityOutcome::Status::Skipped);
}

void TestKitV3::archiveLoadsIntoTheLibraryAndStore()
{
    QTemporaryDir dir;
    OciKit oci;
    oci.layers = {shellLayer()};
    oci.config = QJsonObject{{QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/hello")}},
                             {QStringLiteral("Env"), QJsonArray{QStringLiteral("A=b")}}};
    oci.manifestAnnotations = kitAnnotations(kWorkload);
    QString digest;
    const QString archive = dir.filePath(QStringLiteral("kit.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(ociKitArchive(oci, &digest));
    out.close();

    kit::KitArchiveOptions options;
    options.kitsRoot = dir.filePath(QStringLiteral("kits"));
    options.imageRoot = dir.filePath(QStringLiteral("images"));
    const kit::KitArchiveResult loaded = kit::loadKitArchive(archive, options);
    QVERIFY2(loaded.ok(), qPrintable(messages(loaded.diagnostics)));
    QCOMPARE(loaded.kit->name, QStringLiteral("shell"));
    QCOMPARE(loaded.kit->reference, oci.refName);
    QCOMPARE(loaded.kit->digest, digest);

    // The library lists it with where it came from; loading its folder gives the image to run.
    const kit::KitLibrary library(dir.filePath(QStringLiteral("kits.yaml")), {}, options.kitsRoot);
    const QList<kit::KitEntry> entries = library.entries();
    QCOMPARE(entries.size(), 1);
    QVERIFY2(entries.at(0).valid(), qPrintable(messages(entries.at(0).diagnostics)));
    QCOMPARE(entries.at(0).name, QStringLiteral("shell"));
    QCOMPARE(entries.at(0).reference, oci.refName);
    QCOMPARE(entries.at(0).digest, digest);
    const kit::KitLoadResult folder = kit::KitLoader::loadDirectory(entries.at(0).directory);
    QVERIFY2(folder.ok(), qPrintable(messages(folder.diagnostics)));
    const image::ImageStore store(options.imageRoot);
    const std::optional<image::StoredImage> stored = store.find(folder.kit->sandbox->image);
    QVERIFY(stored);
    QCOMPARE(stored->config.entrypoint, QStringList{QStringLiteral("/bin/hello")});
    QVERIFY(
        QFileInfo(store.layersDir() + QLatin1Char('/') + stored->layers.at(0) + QStringLiteral("/bin/hello")).isFile());
}

void TestKitV3::indexAnnotationsFallBackToTheManifest()
{
    QTemporaryDir dir;
    const QString archive = dir.filePath(QStringLiteral("kit.tar"));
    for (const bool onIndex : {true, false}) {
        OciKit oci;
        oci.layers = {shellLayer()};
        oci.nestedIndex = true;
        const QByteArray onManifest = kWorkload;
        // The index's copy wins where it is; without one, the linux/amd64 manifest's is read.
        (onIndex ? oci.indexAnnotations : oci.manifestAnnotations) = kitAnnotations(onManifest);
        if (onIndex)
            oci.manifestAnnotations = kitAnnotations("schemaVersion: \"3\"\nkind: workload\nbogus: 1\n");
        QFile out(archive);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(ociKitArchive(oci));
        out.close();
        kit::KitArchiveOptions options;
        options.kitsRoot = dir.filePath(QStringLiteral("kits"));
        options.imageRoot = dir.filePath(QStringLiteral("images"));
        const kit::KitArchiveResult loaded = kit::loadKitArchive(archive, options);
        QVERIFY2(loaded.ok(), qPrintable(messages(loaded.diagnostics)));
        QCOMPARE(loaded.kit->ports.size(), 1);
    }
}

void TestKitV3::archiveRefusalsStoreNothing_data()
{
    QTest::addColumn<QList<QByteArray>>("layers");
    QTest::addColumn<QJsonObject>("annotations");
    QTest::addColumn<QString>("expected");
    const QList<QByteArray> fine{shellLayer()};
    QTest::newRow("layer climbing out") << QList<QByteArray>{tarOf({file("../../escaped", "x")})}
                                        << kitAnnotations(kWorkload) << QStringLiteral("leads outside the layer");
    QTest::newRow("write through a link") << QList<QByteArray>{tarOf({softLink("etc", "/etc"), file("etc/pwned", "x")})}
                                          << kitAnnotations(kWorkload) << QStringLiteral("which is a link");
    QTest::newRow("not a kit") << fine << QJsonObject{} << QStringLiteral("holds no kit");
    QTest::newRow("unknown field") << fine
                                   << kitAnnotations("{\"schemaVersion\":\"3\",\"kind\":\"workload\",\"name\":\"x\"}")
                                   << QStringLiteral("unknown field 'name'");
    QTest::newRow("required unknown capability")
        << fine
        << kitAnnotations(R"({"schemaVersion":"3","kind":"workload","capabilities":[{"type":"example.com/gpu@1"}]})")
        << QStringLiteral("requires example.com/gpu@1");
    QTest::newRow("oversized descriptor")
        << fine
        << kitAnnotations("{\"schemaVersion\":\"3\",\"kind\":\"workload\",\"description\":\"" +
                          QByteArray(530000, 'x') + "\"}")
        << QStringLiteral("at most 524288 bytes");
}

void TestKitV3::archiveRefusalsStoreNothing()
{
    QFETCH(QList<QByteArray>, layers);
    QFETCH(QJsonObject, annotations);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    OciKit oci;
    oci.layers = layers;
    oci.manifestAnnotations = annotations;
    const QString archive = dir.filePath(QStringLiteral("kit.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(ociKitArchive(oci));
    out.close();
    kit::KitArchiveOptions options;
    options.kitsRoot = dir.filePath(QStringLiteral("kits"));
    options.imageRoot = dir.filePath(QStringLiteral("images"));
    const kit::KitArchiveResult loaded = kit::loadKitArchive(archive, options);
    QVERIFY(!loaded.ok());
    QVERIFY2(messages(loaded.diagnostics).contains(expected), qPrintable(messages(loaded.diagnostics).left(400)));
    QVERIFY(QDir(options.kitsRoot).isEmpty());
    QVERIFY(QDir(options.imageRoot + QStringLiteral("/layers")).isEmpty());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("escaped"))));
}

void TestKitV3::mixinArchiveLoadsDeclarationsOnly()
{
    QTemporaryDir dir;
    OciKit oci;
    oci.layers = {tarOf({folder("usr"), file("usr/gh", "x")})};
    oci.refName = QStringLiteral("registry.example/kits/gh:2.0.0");
    oci.manifestAnnotations = kitAnnotations(
        R"({"schemaVersion":"3","kind":"mixin","provides":["gh@2.0.0"],"capabilities":[{"type":"com.docker.sandbox/network-policy@1","config":{"runtime":{"allow":["github.com"]}}}]})");
    const QString archive = dir.filePath(QStringLiteral("gh.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(ociKitArchive(oci));
    out.close();
    kit::KitArchiveOptions options;
    options.kitsRoot = dir.filePath(QStringLiteral("kits"));
    options.imageRoot = dir.filePath(QStringLiteral("images"));
    const kit::KitArchiveResult loaded = kit::loadKitArchive(archive, options);
    QVERIFY2(loaded.ok(), qPrintable(messages(loaded.diagnostics)));
    QCOMPARE(loaded.kit->name, QStringLiteral("gh"));
    QCOMPARE(loaded.kit->kind, kit::KitKind::Mixin);
    const kit::KitLoadResult folder = kit::KitLoader::loadDirectory(options.kitsRoot + QStringLiteral("/gh"));
    QVERIFY2(folder.ok(), qPrintable(messages(folder.diagnostics)));
    QCOMPARE(folder.kit->networkAllow, QStringList{QStringLiteral("github.com:*")});
}

QTEST_GUILESS_MAIN(TestKitV3)
#include "tst_kit_v3.moc"

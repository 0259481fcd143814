// SPDX-License-Identifier: GPL-3.0-or-later
// An authored schemaVersion "3" kit folder read for `paddock kit build`: the descriptor found,
// decoded strictly, its recipe found (companion, named, inline, none) and published with the
// build-phase arguments expanded and the author's `dockerfile:` path left out.
#include "kit/KitLoader.h"
#include "kit/KitV3Authored.h"
#include "kit/KitV3Descriptor.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock::kit;

namespace {

const QByteArray kGh = "# syntax=docker/sandbox-kit:3\n"
                       "schemaVersion: \"3\"\n"
                       "kind: mixin\n"
                       "displayName: GitHub CLI\n"
                       "version: \"1.10\"\n"
                       "args:\n"
                       "  version:\n"
                       "    default: \"2.98.0\"\n"
                       "    pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$'\n"
                       "    buildArg: GH_VERSION\n"
                       "  who:\n"
                       "    default: me\n"
                       "    env: WHO\n"
                       "provides: [\"gh@${{ kit.args.version }}\"]\n"
                       "capabilities:\n"
                       "  - type: com.docker.sandbox/network-policy@1\n"
                       "    config:\n"
                       "      runtime:\n"
                       "        allow: [github.com]\n"
                       "  - type: com.docker.sandbox/lifecycle@1\n"
                       "    config:\n"
                       "      startup:\n"
                       "        - command: [sh, -c, 'echo ${{ kit.args.who }}']\n";

QString write(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(data);
    return path;
}

QString errorsOf(const AuthoredKitResult &result)
{
    QStringList lines;
    for (const Diagnostic &d : result.diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

QJsonObject publishedOf(const AuthoredKit &kit)
{
    return QJsonDocument::fromJson(kit.published).object();
}

} // namespace

class TestKitAuthored : public QObject
{
    Q_OBJECT

private slots:
    void companionPairIsFoundByItsStem()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("gh"));
        write(folder + QStringLiteral("/gh.yaml"), kGh);
        write(folder + QStringLiteral("/gh.dockerfile"), "FROM scratch\n");
        const AuthoredKitResult read = readAuthoredKit(folder);
        QVERIFY2(read.kit, qPrintable(errorsOf(read)));
        QCOMPARE(read.kit->stem, QStringLiteral("gh"));
        QCOMPARE(read.kit->folder, QFileInfo(folder).absoluteFilePath());
        QCOMPARE(read.kit->dockerfile, QStringLiteral("gh.dockerfile"));
        QVERIFY(read.kit->recipe.isEmpty());
        QCOMPARE(read.kit->buildArgs,
                 (QMap<QString, QString>{{QStringLiteral("GH_VERSION"), QStringLiteral("2.98.0")}}));

        // Build-phase references expanded; a create-phase one stays for the sandbox to resolve.
        const QJsonObject published = publishedOf(*read.kit);
        QCOMPARE(published.value(QLatin1String("provides")).toArray(), QJsonArray{QStringLiteral("gh@2.98.0")});
        QCOMPARE(published.value(QLatin1String("version")).toString(), QStringLiteral("1.10"));
        QVERIFY(QString::fromUtf8(read.kit->published).contains(QLatin1String("echo ${{ kit.args.who }}")));
        QVERIFY(decodeV3Descriptor(read.kit->published, QStringLiteral("published")).descriptor.has_value());

        // The descriptor file named directly is the same kit; a value given at build wins.
        const AuthoredKitResult given = readAuthoredKit(folder + QStringLiteral("/gh.yaml"),
                                                        {{QStringLiteral("version"), QStringLiteral("2.1.0")}});
        QVERIFY2(given.kit, qPrintable(errorsOf(given)));
        QCOMPARE(publishedOf(*given.kit).value(QLatin1String("provides")).toArray(),
                 QJsonArray{QStringLiteral("gh@2.1.0")});
        QCOMPARE(given.kit->buildArgs.value(QStringLiteral("GH_VERSION")), QStringLiteral("2.1.0"));
    }

    void namedRecipeIsLeftOutOfThePublishedDescriptor()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("tool.yaml")),
              "schemaVersion: \"3\"\nkind: workload\ndockerfile: recipes/tool.df\n");
        write(dir.filePath(QStringLiteral("recipes/tool.df")), "FROM scratch\n");
        const AuthoredKitResult read = readAuthoredKit(dir.path());
        QVERIFY2(read.kit, qPrintable(errorsOf(read)));
        QCOMPARE(read.kit->dockerfile, QStringLiteral("recipes/tool.df"));
        QVERIFY(!publishedOf(*read.kit).contains(QLatin1String("dockerfile")));
        QCOMPARE(publishedOf(*read.kit).value(QLatin1String("kind")).toString(), QStringLiteral("workload"));
    }

    void namedRecipeMustBeAFileInsideTheFolder()
    {
        QTemporaryDir dir;
        const QString yaml = write(dir.filePath(QStringLiteral("kit/tool.yaml")),
                                   "schemaVersion: \"3\"\nkind: workload\ndockerfile: missing.df\n");
        AuthoredKitResult read = readAuthoredKit(yaml);
        QVERIFY(!read.kit);
        QVERIFY2(errorsOf(read).contains(QLatin1String("tool.yaml:3:13: error: `dockerfile` names missing.df")),
                 qPrintable(errorsOf(read)));

        // A path climbing out is the decoder's error, with its place.
        write(yaml, "schemaVersion: \"3\"\nkind: workload\ndockerfile: ../x\n");
        write(dir.filePath(QStringLiteral("x")), "FROM scratch\n");
        read = readAuthoredKit(yaml);
        QVERIFY(!read.kit);
        QVERIFY2(errorsOf(read).contains(QLatin1String("tool.yaml:3:13: error: `dockerfile` must be a relative path")),
                 qPrintable(errorsOf(read)));

        // So is a link inside that leads out.
        write(yaml, "schemaVersion: \"3\"\nkind: workload\ndockerfile: escape.df\n");
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("x")), dir.filePath(QStringLiteral("kit/escape.df"))));
        read = readAuthoredKit(yaml);
        QVERIFY(!read.kit);
        QVERIFY2(errorsOf(read).contains(QLatin1String("not a file inside")), qPrintable(errorsOf(read)));
    }

    void inlineRecipeIsKeptAsTheSpecificationPublishesIt()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("one.yaml")),
              "schemaVersion: \"3\"\nkind: workload\nbuild: |\n  FROM scratch\n  COPY a /a\n");
        const AuthoredKitResult read = readAuthoredKit(dir.filePath(QStringLiteral("one.yaml")));
        QVERIFY2(read.kit, qPrintable(errorsOf(read)));
        QVERIFY(read.kit->dockerfile.isEmpty());
        QCOMPARE(read.kit->recipe, QByteArray("FROM scratch\nCOPY a /a\n"));
        QCOMPARE(publishedOf(*read.kit).value(QLatin1String("build")).toString(),
                 QStringLiteral("FROM scratch\nCOPY a /a\n"));
    }

    void agentContextBodyIsStagedInTheImage()
    {
        QTemporaryDir dir;
        const QByteArray descriptor = "schemaVersion: \"3\"\nkind: mixin\ncapabilities:\n"
                                      "  - group:\n      name: docs\n      capabilities:\n"
                                      "        - type: com.docker.sandbox/agent-context@1\n"
                                      "          config:\n            contentFile: ./docs/../docs/gh.md\n";
        const QString yaml = write(dir.filePath(QStringLiteral("gh/gh.yaml")), descriptor);
        write(dir.filePath(QStringLiteral("gh/docs/gh.md")), "Use gh.\n");
        write(dir.filePath(QStringLiteral("gh/gh.dockerfile")), "FROM scratch\n");
        const AuthoredKitResult read = readAuthoredKit(yaml);
        QVERIFY2(read.kit, qPrintable(errorsOf(read)));
        const QString staged = QStringLiteral("/usr/share/sandbox/kit/gh/docs/gh.md");
        QCOMPARE(read.kit->staged, (QMap<QString, QString>{{QStringLiteral("docs/gh.md"), staged}}));
        QVERIFY2(QString::fromUtf8(read.kit->published).contains(QLatin1String("\"contentFile\":\"") + staged),
                 read.kit->published.constData());

        // Not a file of the folder: refused at its place.
        write(yaml, QByteArray(descriptor).replace("./docs/../docs/gh.md", "../outside.md"));
        write(dir.filePath(QStringLiteral("outside.md")), "x\n");
        AuthoredKitResult refused = readAuthoredKit(yaml);
        QVERIFY(!refused.kit);
        QVERIFY2(errorsOf(refused).contains(QLatin1String("gh.yaml:9:26: error: `contentFile` names ../outside.md")),
                 qPrintable(errorsOf(refused)));

        // A declaration-only mixin has no image to stage a body in.
        write(yaml, descriptor);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("gh/gh.dockerfile"))));
        refused = readAuthoredKit(yaml);
        QVERIFY(!refused.kit);
        QVERIFY2(errorsOf(refused).contains(QLatin1String("give the body inline in `content`")),
                 qPrintable(errorsOf(refused)));
    }

    void contentRulesByKind()
    {
        QTemporaryDir dir;
        const QString workload =
            write(dir.filePath(QStringLiteral("w/w.yaml")), "schemaVersion: \"3\"\nkind: workload\n");
        const AuthoredKitResult empty = readAuthoredKit(workload);
        QVERIFY(!empty.kit);
        QVERIFY2(errorsOf(empty).contains(QLatin1String("w.yaml:2:7: error: a workload kit needs content: write "
                                                        "w.dockerfile")),
                 qPrintable(errorsOf(empty)));

        const QString mixin =
            write(dir.filePath(QStringLiteral("m/m.yaml")), "schemaVersion: \"3\"\nkind: mixin\nprovides: [m@1.0]\n");
        const AuthoredKitResult declared = readAuthoredKit(mixin);
        QVERIFY2(declared.kit, qPrintable(errorsOf(declared)));
        QVERIFY(!declared.kit->hasRecipe());

        // Published, every provide has a version (SPEC-v3 §9.2).
        write(mixin, "schemaVersion: \"3\"\nkind: mixin\nprovides: [m]\n");
        const AuthoredKitResult unversioned = readAuthoredKit(mixin);
        QVERIFY(!unversioned.kit);
        QVERIFY2(
            errorsOf(unversioned).contains(QLatin1String("m.yaml:3:11: error: `provides` entry 'm' has no version")),
            qPrintable(errorsOf(unversioned)));
        write(mixin, "schemaVersion: \"3\"\nkind: mixin\nversion: \"2.0\"\nprovides: [m]\n");
        QVERIFY2(readAuthoredKit(mixin).kit, qPrintable(errorsOf(readAuthoredKit(mixin))));

        const QString set = write(dir.filePath(QStringLiteral("s/s.yaml")),
                                  "schemaVersion: \"3\"\nkind: set\nkits:\n  - ref: registry.example/a:1\n");
        const AuthoredKitResult merged = readAuthoredKit(set);
        QVERIFY(!merged.kit);
        QVERIFY2(errorsOf(merged).contains(QLatin1String("kind: set")), qPrintable(errorsOf(merged)));
    }

    void descriptorIsFoundInItsFolder()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("a.yaml")), "schemaVersion: \"3\"\nkind: mixin\n");
        write(dir.filePath(QStringLiteral("notes.yaml")), "title: not a kit\n");
        QVERIFY2(readAuthoredKit(dir.path()).kit, qPrintable(errorsOf(readAuthoredKit(dir.path()))));
        write(dir.filePath(QStringLiteral("b.yaml")), "schemaVersion: \"3\"\nkind: mixin\n");
        const AuthoredKitResult two = readAuthoredKit(dir.path());
        QVERIFY(!two.kit);
        QVERIFY2(errorsOf(two).contains(QLatin1String("several descriptors (a.yaml, b.yaml)")),
                 qPrintable(errorsOf(two)));
        QVERIFY(!readAuthoredKit(dir.filePath(QStringLiteral("none"))).kit);
    }

    void runningTheFolderSaysToBuildIt()
    {
        // A sandbox made from the folder itself: the loader says what to do instead.
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("devbox"));
        write(folder + QStringLiteral("/devbox.yaml"), "schemaVersion: \"3\"\nkind: workload\n");
        write(folder + QStringLiteral("/devbox.dockerfile"), "FROM scratch\n");
        const KitLoadResult loaded = KitLoader::loadDirectory(folder);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.diagnostics.size(), 1);
        const QString said = loaded.diagnostics.constFirst().toString();
        QVERIFY2(said.contains(QStringLiteral("devbox.yaml is an authored kit descriptor")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("`paddock kit build %1`").arg(folder)), qPrintable(said));
    }

    void buildArgumentsAreChecked()
    {
        QTemporaryDir dir;
        const QString yaml = write(dir.filePath(QStringLiteral("gh/gh.yaml")), kGh);
        write(dir.filePath(QStringLiteral("gh/gh.dockerfile")), "FROM scratch\n");
        const AuthoredKitResult bad = readAuthoredKit(yaml, {{QStringLiteral("version"), QStringLiteral("v2")}});
        QVERIFY(!bad.kit);
        QVERIFY2(errorsOf(bad).contains(QLatin1String("gh.yaml:8:5: error: the value 'v2' of argument `version` does "
                                                      "not match")),
                 qPrintable(errorsOf(bad)));
        const AuthoredKitResult unknown = readAuthoredKit(yaml, {{QStringLiteral("colour"), QStringLiteral("red")}});
        QVERIFY2(errorsOf(unknown).contains(QLatin1String("--arg colour names an argument the kit does not declare")),
                 qPrintable(errorsOf(unknown)));
        const AuthoredKitResult late = readAuthoredKit(yaml, {{QStringLiteral("who"), QStringLiteral("you")}});
        QVERIFY2(errorsOf(late).contains(QLatin1String("resolves when a sandbox is made")), qPrintable(errorsOf(late)));

        // A required build argument without a value.
        write(yaml, "schemaVersion: \"3\"\nkind: mixin\nargs:\n  v:\n    required: true\n    buildArg: V\n");
        const AuthoredKitResult missing = readAuthoredKit(yaml);
        QVERIFY2(errorsOf(missing).contains(QLatin1String("argument `v` is required at build and has no value")),
                 qPrintable(errorsOf(missing)));
        const AuthoredKitResult supplied = readAuthoredKit(yaml, {{QStringLiteral("v"), QStringLiteral("1")}});
        QVERIFY2(supplied.kit, qPrintable(errorsOf(supplied)));
        QCOMPARE(supplied.kit->buildArgs.value(QStringLiteral("V")), QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(TestKitAuthored)
#include "tst_kit_authored.moc"

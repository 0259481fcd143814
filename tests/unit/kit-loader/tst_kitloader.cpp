// SPDX-License-Identifier: GPL-3.0-or-later
// The strict loader against the real kits of tests/fixtures/kits, and the normalisation
// `kit show` prints.
#include "kit/KitJson.h"
#include "kit/KitLoader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::kit;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(PADDOCK_FIXTURES "/kits/") + relative;
}

QStringList kitDirs(const QString &set)
{
    QStringList dirs;
    const QDir root(fixture(set));
    for (const QString &name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        dirs << root.filePath(name);
    return dirs;
}

QList<Diagnostic> only(const QList<Diagnostic> &all, Diagnostic::Severity severity)
{
    QList<Diagnostic> out;
    for (const Diagnostic &d : all)
        if (d.severity == severity)
            out << d;
    return out;
}

QString dump(const QList<Diagnostic> &all)
{
    QStringList lines;
    for (const Diagnostic &d : all)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

KitLoadResult load(const QByteArray &text, const KitLoadOptions &options = {})
{
    return KitLoader::loadText(text, QStringLiteral("spec.yaml"), options);
}

const QByteArray kMinimalMixin = "schemaVersion: \"2\"\nkind: mixin\nname: demo\n";

} // namespace

class TestKitLoader : public QObject
{
    Q_OBJECT

private slots:
    void publishedKitsValidate_data();
    void publishedKitsValidate();
    void sampleAgentV2ReadsPublishedPortsAsPorts();
    void injectDomainOutsideAllowIsAWarning_data();
    void injectDomainOutsideAllowIsAWarning();
    void draftKeysAreRefusedWithTheirReplacement_data();
    void draftKeysAreRefusedWithTheirReplacement();
    void v1KitsAreRefusedWithMigrationAdvice_data();
    void v1KitsAreRefusedWithMigrationAdvice();
    void undeclaredArgumentIsRefusedWithItsLine();
    void requiredArgumentWithoutValue();
    void argumentValueOutsideEnumIsRefused();
    void argsBlockIsLeftUntouched();
    void argumentSubstitutesIntoRequiresAgent();
    void escapedOpenerStaysLiteral();
    void nameIsNeverATemplate_data();
    void nameIsNeverATemplate();
    void argumentReferenceInAKeyIsRefused();
    void undeclaredCommandLineArgumentIsRefused();
    void schemeSugarIsExpanded();
    void allErrorsAreReportedAtOnce();
    void yamlSyntaxErrorNamesItsLine();
    void filesTreeIsChecked();
    void filesTreeSymlinkLeavingTheKitIsRefused();
    void jsonHasTheNormalisedShape();
    void textFormIsReadable();
};

void TestKitLoader::publishedKitsValidate_data()
{
    QTest::addColumn<QString>("dir");
    for (const QString &dir : kitDirs(QStringLiteral("published")))
        QTest::newRow(qPrintable(QFileInfo(dir).fileName())) << dir;
    QCOMPARE(kitDirs(QStringLiteral("published")).size(), 58);
}

void TestKitLoader::publishedKitsValidate()
{
    QFETCH(QString, dir);
    const KitLoadResult result = KitLoader::loadDirectory(dir);
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(result.kit->name, QFileInfo(dir).fileName());
}

void TestKitLoader::sampleAgentV2ReadsPublishedPortsAsPorts()
{
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("published/sample-agent-v2")));
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    bool deprecation = false;
    for (const Diagnostic &d : only(result.diagnostics, Diagnostic::Severity::Warning)) {
        if (d.message.contains(QLatin1String("publishedPorts")) && d.message.contains(QLatin1String("ports"))) {
            deprecation = true;
            QCOMPARE(d.line, 79);
        }
    }
    QVERIFY2(deprecation, qPrintable(dump(result.diagnostics)));
    QCOMPARE(result.kit->ports.size(), 3);
    QCOMPARE(result.kit->ports.at(0).container, 9418);
    QCOMPARE(result.kit->ports.at(0).protocol, QStringLiteral("tcp")); // "" normalised
    QCOMPARE(result.kit->ports.at(2).protocol, QStringLiteral("udp"));
    QCOMPARE(result.kit->ports.at(1).name, QStringLiteral("web"));
}

void TestKitLoader::injectDomainOutsideAllowIsAWarning_data()
{
    QTest::addColumn<QString>("kit");
    QTest::addColumn<QString>("domain");
    QTest::newRow("aider") << "aider"
                           << "api.anthropic.com";
    QTest::newRow("open-interpreter") << "open-interpreter"
                                      << "api.openai.com";
    QTest::newRow("pi") << "pi"
                        << "console.anthropic.com";
}

void TestKitLoader::injectDomainOutsideAllowIsAWarning()
{
    QFETCH(QString, kit);
    QFETCH(QString, domain);
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("published/") + kit));
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    bool found = false;
    for (const Diagnostic &d : only(result.diagnostics, Diagnostic::Severity::Warning)) {
        if (d.message.contains(domain)) {
            found = true;
            QVERIFY(d.message.contains(QLatin1String("permissions.network.allow")));
            QVERIFY(d.message.contains(QLatin1String("global policy")));
            QVERIFY(d.line > 0);
        }
    }
    QVERIFY2(found, qPrintable(dump(result.diagnostics)));
}

void TestKitLoader::draftKeysAreRefusedWithTheirReplacement_data()
{
    QTest::addColumn<QString>("kit");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("replacement");
    QTest::newRow("aws caps") << "aws" << 13 << "`caps`"
                              << "caps.network → permissions.network";
    QTest::newRow("aws commands") << "aws" << 21 << "`commands`"
                                  << "`setup`";
    QTest::newRow("claude-acp agentContext") << "claude-acp" << 29 << "`agentContext`"
                                             << "`agentInstructions`";
    QTest::newRow("claude-acp commands") << "claude-acp" << 16 << "`commands`"
                                         << "`setup`";
    QTest::newRow("codex-app-server caps") << "codex-app-server" << 15 << "`caps`"
                                           << "permissions.network";
    QTest::newRow("kiro entrypoint.run") << "kiro" << 12 << "`sandbox.entrypoint.run`"
                                         << "`sandbox.entrypoint`";
    QTest::newRow("kiro aiFilename") << "kiro" << 10 << "`sandbox.aiFilename`"
                                     << "agentInstructions.filename";
    QTest::newRow("kitty-ssh agentContext") << "kitty-ssh" << 49 << "`agentContext`"
                                            << "agentInstructions";
}

void TestKitLoader::draftKeysAreRefusedWithTheirReplacement()
{
    QFETCH(QString, kit);
    QFETCH(int, line);
    QFETCH(QString, key);
    QFETCH(QString, replacement);
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("draft-keys/") + kit));
    QVERIFY(!result.ok());
    QVERIFY(!result.kit.has_value());
    bool found = false;
    for (const Diagnostic &d : only(result.diagnostics, Diagnostic::Severity::Error)) {
        if (d.line == line && d.message.contains(key) && d.message.contains(replacement))
            found = true;
    }
    QVERIFY2(found, qPrintable(dump(result.diagnostics)));
}

void TestKitLoader::v1KitsAreRefusedWithMigrationAdvice_data()
{
    QTest::addColumn<QString>("dir");
    for (const QString &dir : kitDirs(QStringLiteral("v1")))
        QTest::newRow(qPrintable(QFileInfo(dir).fileName())) << dir;
}

void TestKitLoader::v1KitsAreRefusedWithMigrationAdvice()
{
    QFETCH(QString, dir);
    const KitLoadResult result = KitLoader::loadDirectory(dir);
    QVERIFY(!result.ok());
    const QList<Diagnostic> errors = only(result.diagnostics, Diagnostic::Severity::Error);
    QVERIFY(errors.size() >= 2); // the refusal, then at least one legacy block
    QCOMPARE(errors.first().line, 1);
    QVERIFY(errors.first().message.contains(QLatin1String("schemaVersion \"1\" kits are not supported")));
    QVERIFY(errors.first().message.contains(QLatin1String("migrate"), Qt::CaseInsensitive));
    for (qsizetype i = 1; i < errors.size(); ++i)
        QVERIFY2(errors.at(i).message.contains(QLatin1String("schemaVersion \"2\"")),
                 qPrintable(errors.at(i).toString()));
}

void TestKitLoader::undeclaredArgumentIsRefusedWithItsLine()
{
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("args/args-undeclared")));
    QVERIFY(!result.ok());
    const QList<Diagnostic> errors = only(result.diagnostics, Diagnostic::Severity::Error);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().line, 8);
    QCOMPARE(errors.first().column, 26);
    QVERIFY(errors.first().message.contains(QLatin1String("`token`")));
    QVERIFY(errors.first().message.contains(QLatin1String("does not declare")));
}

void TestKitLoader::requiredArgumentWithoutValue()
{
    for (const QString &kit : {QStringLiteral("args-install"), QStringLiteral("args-required-missing")}) {
        const QString dir = fixture(QStringLiteral("args/") + kit);
        // Validation: a required argument needs no value.
        const KitLoadResult validated = KitLoader::loadDirectory(dir);
        QVERIFY2(validated.ok(), qPrintable(dump(validated.diagnostics)));
        QVERIFY(!validated.kit->argValues.contains(QStringLiteral("token")));

        // Showing: it does, and the error says how to give it.
        KitLoadOptions show;
        show.requireArgValues = true;
        const KitLoadResult refused = KitLoader::loadDirectory(dir, show);
        QVERIFY(!refused.ok());
        const QList<Diagnostic> errors = only(refused.diagnostics, Diagnostic::Severity::Error);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().message.contains(QLatin1String("--arg token=")), qPrintable(errors.first().toString()));

        show.args.insert(QStringLiteral("token"), QStringLiteral("s3cret"));
        const KitLoadResult shown = KitLoader::loadDirectory(dir, show);
        QVERIFY2(shown.ok(), qPrintable(dump(shown.diagnostics)));
        bool substituted = false;
        for (const auto &variable : shown.kit->environment)
            substituted |= variable == qMakePair(QStringLiteral("ARGS_FIXTURE_TOKEN"), QStringLiteral("s3cret"));
        QVERIFY(substituted);
    }
}

void TestKitLoader::argumentValueOutsideEnumIsRefused()
{
    const QString dir = fixture(QStringLiteral("args/args-bad-value"));
    KitLoadOptions options;
    options.requireArgValues = true;
    options.args.insert(QStringLiteral("channel"), QStringLiteral("beta"));
    const KitLoadResult refused = KitLoader::loadDirectory(dir, options);
    QVERIFY(!refused.ok());
    QCOMPARE(only(refused.diagnostics, Diagnostic::Severity::Error).size(), 1);
    const Diagnostic error = only(refused.diagnostics, Diagnostic::Severity::Error).first();
    QVERIFY(error.message.contains(QLatin1String("'beta'")));
    QVERIFY(error.message.contains(QLatin1String("`channel`")));
    QCOMPARE(error.line, 7);

    options.args.insert(QStringLiteral("channel"), QStringLiteral("nightly"));
    const KitLoadResult accepted = KitLoader::loadDirectory(dir, options);
    QVERIFY2(accepted.ok(), qPrintable(dump(accepted.diagnostics)));
    QCOMPARE(accepted.kit->environment.first().second, QStringLiteral("nightly"));

    // Without a value, the default is used.
    const KitLoadResult defaulted = KitLoader::loadDirectory(dir);
    QCOMPARE(defaulted.kit->environment.first().second, QStringLiteral("stable"));
}

void TestKitLoader::argsBlockIsLeftUntouched()
{
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("args/args-block-literal")));
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    const Kit &kit = *result.kit;
    QCOMPARE(kit.args.size(), 2);
    QCOMPARE(kit.args.at(1).name, QStringLiteral("literal"));
    QCOMPARE(*kit.args.at(1).defaultValue, QStringLiteral("${{ kit.args.other }}"));
    QVERIFY(kit.args.at(1).description.contains(QLatin1String("${{ kit.args.nosuch }}")));
    // The value is inserted as it is and never rescanned.
    QCOMPARE(kit.environment.first().second, QStringLiteral("${{ kit.args.other }}"));
}

void TestKitLoader::argumentSubstitutesIntoRequiresAgent()
{
    const QString dir = fixture(QStringLiteral("args/args-requires-agent"));
    QCOMPARE(KitLoader::loadDirectory(dir).kit->requiresAgent, QStringLiteral("codex"));
    KitLoadOptions options;
    options.args.insert(QStringLiteral("agent"), QStringLiteral("claude"));
    QCOMPARE(KitLoader::loadDirectory(dir, options).kit->requiresAgent, QStringLiteral("claude"));
}

void TestKitLoader::escapedOpenerStaysLiteral()
{
    const QByteArray text = kMinimalMixin + "args:\n  v:\n    default: \"1.2\"\n"
                                            "environment:\n  variables:\n"
                                            "    A: \"$${{ kit.args.v }}\"\n"
                                            "    B: \"x-${{ kit.args.v }}-y\"\n"
                                            "    C: \"${{ github.sha }}\"\n";
    const KitLoadResult result = load(text);
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(result.kit->environment.at(0).second, QStringLiteral("${{ kit.args.v }}"));
    QCOMPARE(result.kit->environment.at(1).second, QStringLiteral("x-1.2-y"));
    QCOMPARE(result.kit->environment.at(2).second, QStringLiteral("${{ github.sha }}"));
}

void TestKitLoader::nameIsNeverATemplate_data()
{
    QTest::addColumn<bool>("requireArgValues");
    QTest::addColumn<QString>("value");
    // Validation leaves a required argument unresolved; that must not skip the name's check.
    QTest::newRow("validate") << false << QString();
    QTest::newRow("load with a value") << true << QStringLiteral("x");
    QTest::newRow("load with a value that is a name") << true << QStringLiteral("autostart");
}

void TestKitLoader::nameIsNeverATemplate()
{
    QFETCH(bool, requireArgValues);
    QFETCH(QString, value);
    const QByteArray spec = "schemaVersion: \"2\"\n"
                            "kind: sandbox\n"
                            "name: \"${{ kit.args.a }}/../../../../.config/autostart\"\n"
                            "args:\n"
                            "  a:\n"
                            "    required: true\n"
                            "sandbox:\n"
                            "  image: tiny:1\n";
    KitLoadOptions options;
    options.requireArgValues = requireArgValues;
    if (!value.isEmpty())
        options.args.insert(QStringLiteral("a"), value);
    const KitLoadResult result = KitLoader::loadText(spec, QStringLiteral("spec.yaml"), options);
    QVERIFY(!result.ok());
    const QList<Diagnostic> errors = only(result.diagnostics, Diagnostic::Severity::Error);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().line, 3);
    QCOMPARE(errors.first().column, 8);
    QVERIFY2(errors.first().message.contains(QLatin1String("`name` is the kit's identity and cannot use a "
                                                           "placeholder")),
             qPrintable(errors.first().toString()));
    QVERIFY2(errors.first().message.contains(QLatin1String("'${{ kit.args.a }}/../../../../.config/autostart'")),
             qPrintable(errors.first().toString()));

    // An escaped opener is no placeholder, but still no kit name.
    const KitLoadResult escaped = KitLoader::loadText("schemaVersion: \"2\"\nkind: mixin\nname: \"$${{ x }}\"\n",
                                                      QStringLiteral("spec.yaml"), options);
    QVERIFY(!escaped.ok());
    QVERIFY2(dump(escaped.diagnostics).contains(QLatin1String("cannot use a placeholder")),
             qPrintable(dump(escaped.diagnostics)));
}

void TestKitLoader::argumentReferenceInAKeyIsRefused()
{
    const QByteArray text = kMinimalMixin + "args:\n  v:\n    default: X\n"
                                            "environment:\n  variables:\n    \"${{ kit.args.v }}\": \"1\"\n";
    const KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    QCOMPARE(only(result.diagnostics, Diagnostic::Severity::Error).first().line, 9);
}

void TestKitLoader::undeclaredCommandLineArgumentIsRefused()
{
    KitLoadOptions options;
    options.args.insert(QStringLiteral("nosuch"), QStringLiteral("1"));
    const KitLoadResult result = load(kMinimalMixin, options);
    QVERIFY(!result.ok());
    QVERIFY(only(result.diagnostics, Diagnostic::Severity::Error).first().message.contains(QLatin1String("nosuch")));
}

void TestKitLoader::schemeSugarIsExpanded()
{
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("published/sample-agent-v2")));
    QVERIFY(result.ok());
    const Credential &github = result.kit->credentials.at(1);
    QCOMPARE(github.service, QStringLiteral("github"));
    const Injection &bearer = github.apiKey->inject.at(0);
    QCOMPARE(bearer.header, QStringLiteral("Authorization"));
    QCOMPARE(bearer.format, QStringLiteral("Bearer %s"));
    QCOMPARE(bearer.encoding, Injection::Encoding::Plain);
    const Injection &basic = github.apiKey->inject.at(1);
    QCOMPARE(basic.header, QStringLiteral("Authorization"));
    QCOMPARE(basic.format, QStringLiteral("Basic %s"));
    QCOMPARE(basic.username, QStringLiteral("x-access-token"));
    QCOMPARE(basic.encoding, Injection::Encoding::BasicAuth);

    // Without an explicit header, bearer fills in Authorization.
    const QByteArray text = kMinimalMixin +
                            "permissions:\n  network:\n    allow: [api.example.com]\n"
                            "credentials:\n  - service: example\n    apiKey:\n      name: EXAMPLE_KEY\n"
                            "      inject:\n        - domain: api.example.com\n          scheme: bearer\n";
    const KitLoadResult sugar = load(text);
    QVERIFY2(sugar.ok(), qPrintable(dump(sugar.diagnostics)));
    QVERIFY(only(sugar.diagnostics, Diagnostic::Severity::Warning).isEmpty());
    QCOMPARE(sugar.kit->credentials.first().apiKey->inject.first().header, QStringLiteral("Authorization"));
    QCOMPARE(sugar.kit->credentials.first().apiKey->inject.first().format, QStringLiteral("Bearer %s"));
}

void TestKitLoader::allErrorsAreReportedAtOnce()
{
    const QByteArray text = "schemaVersion: \"2\"\n"
                            "kind: mixin\n"
                            "name: Bad_Name\n"
                            "permissions:\n  netwrok:\n    allow: [a.com]\n"
                            "volumes:\n  - path: relative/dir\n    size: lots\n";
    const KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    const QList<Diagnostic> errors = only(result.diagnostics, Diagnostic::Severity::Error);
    QCOMPARE(errors.size(), 4);
    QCOMPARE(errors.at(0).line, 3);
    QCOMPARE(errors.at(1).line, 5);
    QCOMPARE(errors.at(1).column, 3);
    QVERIFY(errors.at(1).message.contains(QLatin1String("netwrok")));
    QVERIFY(errors.at(1).message.contains(QLatin1String("expected one of: network")));
    QCOMPARE(errors.at(2).line, 8);
    QCOMPARE(errors.at(3).line, 9);
    QCOMPARE(errors.at(0).toString().left(16), QStringLiteral("spec.yaml:3:7: e"));
}

void TestKitLoader::yamlSyntaxErrorNamesItsLine()
{
    const KitLoadResult result = load("schemaVersion: \"2\"\nkind: mixin\nname: x\nenvironment:\n  variables: [a, b\n");
    QVERIFY(!result.ok());
    QCOMPARE(result.diagnostics.size(), 1);
    QVERIFY(result.diagnostics.first().line >= 5);
    QVERIFY(result.diagnostics.first().message.startsWith(QLatin1String("YAML syntax error")));

    const KitLoadResult tab = load("schemaVersion: \"2\"\nkind: mixin\n\tname: x\n");
    QVERIFY(!tab.ok());
    QCOMPARE(tab.diagnostics.first().line, 3);
}

void TestKitLoader::filesTreeIsChecked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile spec(dir.filePath(QStringLiteral("spec.yaml")));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(kMinimalMixin);
    spec.close();
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("files/home/.config/demo")));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("files/extra")));
    QFile settings(dir.filePath(QStringLiteral("files/home/.config/demo/settings.json")));
    QVERIFY(settings.open(QIODevice::WriteOnly));
    settings.write("{}");
    settings.close();
    // A link that stays inside the kit is fine.
    QVERIFY(QFile::link(QStringLiteral("../../spec.yaml"), dir.filePath(QStringLiteral("files/home/spec-link"))));

    const KitLoadResult result = KitLoader::loadDirectory(dir.path());
    QVERIFY2(result.ok(), qPrintable(dump(result.diagnostics)));
    const QList<Diagnostic> warnings = only(result.diagnostics, Diagnostic::Severity::Warning);
    QCOMPARE(warnings.size(), 1);
    QVERIFY(warnings.first().file.endsWith(QLatin1String("files/extra")));
    bool listed = false;
    for (const KitFile &f : result.kit->files)
        listed |= f.target == QLatin1String("home") && f.relativePath == QLatin1String(".config/demo/settings.json");
    QVERIFY(listed);
}

void TestKitLoader::filesTreeSymlinkLeavingTheKitIsRefused()
{
    QTemporaryDir dir;
    QTemporaryDir outside;
    QFile spec(dir.filePath(QStringLiteral("spec.yaml")));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(kMinimalMixin);
    spec.close();
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("files/workspace")));
    QVERIFY(QFile::link(outside.path(), dir.filePath(QStringLiteral("files/workspace/escape"))));
    const KitLoadResult result = KitLoader::loadDirectory(dir.path());
    QVERIFY(!result.ok());
    const Diagnostic error = only(result.diagnostics, Diagnostic::Severity::Error).first();
    QVERIFY(error.file.endsWith(QLatin1String("files/workspace/escape")));
    QVERIFY(error.message.contains(QLatin1String("outside the kit")));
}

void TestKitLoader::jsonHasTheNormalisedShape()
{
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("published/sample-agent-v2")));
    QVERIFY(result.ok());
    const QJsonObject json = toJson(*result.kit);
    QCOMPARE(json.value(QStringLiteral("name")).toString(), QStringLiteral("sample-agent-v2"));
    QCOMPARE(json.value(QStringLiteral("kind")).toString(), QStringLiteral("sandbox"));
    QVERIFY(!json.contains(QStringLiteral("publishedPorts")));
    QCOMPARE(json.value(QStringLiteral("ports")).toArray().size(), 3);
    const QJsonObject sandbox = json.value(QStringLiteral("sandbox")).toObject();
    QCOMPARE(sandbox.value(QStringLiteral("image")).toString(),
             QStringLiteral("docker/sandbox-templates:shell-docker"));
    QCOMPARE(sandbox.value(QStringLiteral("command"))
                 .toObject()
                 .value(QStringLiteral("interactive"))
                 .toArray()
                 .first()
                 .toString(),
             QStringLiteral("--interactive"));
    const QJsonObject basic = json.value(QStringLiteral("credentials"))
                                  .toArray()
                                  .at(1)
                                  .toObject()
                                  .value(QStringLiteral("apiKey"))
                                  .toObject()
                                  .value(QStringLiteral("inject"))
                                  .toArray()
                                  .at(1)
                                  .toObject();
    QCOMPARE(basic.value(QStringLiteral("header")).toString(), QStringLiteral("Authorization"));
    QCOMPARE(basic.value(QStringLiteral("username")).toString(), QStringLiteral("x-access-token"));
    QVERIFY(basic.value(QStringLiteral("value")).toString().contains(QLatin1String("base64(username:secret)")));
    QCOMPARE(json.value(QStringLiteral("permissions"))
                 .toObject()
                 .value(QStringLiteral("network"))
                 .toObject()
                 .value(QStringLiteral("deny"))
                 .toArray()
                 .first()
                 .toString(),
             QStringLiteral("telemetry.example.com"));
}

void TestKitLoader::textFormIsReadable()
{
    KitLoadOptions options;
    options.args.insert(QStringLiteral("token"), QStringLiteral("s3cret"));
    const KitLoadResult result = KitLoader::loadDirectory(fixture(QStringLiteral("args/args-install")), options);
    QVERIFY(result.ok());
    const QString text = toText(*result.kit);
    QVERIFY(text.startsWith(QLatin1String("name: args-install\nkind: mixin\n")));
    QVERIFY(text.contains(QLatin1String("  ARGS_FIXTURE_TOKEN: s3cret\n")));
    QVERIFY(text.contains(QLatin1String("grep -qx \"version=1.20\"")));
}

QTEST_GUILESS_MAIN(TestKitLoader)
#include "tst_kitloader.moc"

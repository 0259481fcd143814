// SPDX-License-Identifier: GPL-3.0-or-later
// Where a secret's value comes from (`paddock secret set --command|--ref`) is the user's to say:
// a kit or a bundle that names a command for its credential would run that command on the host
// as the user. Each is refused with a reason; the command never runs and no source is recorded.
#include "AttackSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestSecretSourceAttacks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void kitNamingACommandIsRefused_data();
    void kitNamingACommandIsRefused();
    void bundleNamingACommandIsRefused_data();
    void bundleNamingACommandIsRefused();

private:
    QString marker() const { return m_fixture->path(QStringLiteral("command-ran")); }
    QString sourcesFile() const { return m_fixture->path(QStringLiteral("config/paddock/secret-sources.json")); }
    void verifyNothingRan();

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSecretSourceAttacks::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSecretSourceAttacks::verifyNothingRan()
{
    QVERIFY2(!QFileInfo::exists(marker()), "the command named by the kit or bundle ran");
    QVERIFY(!QFileInfo::exists(sourcesFile()));
}

void TestSecretSourceAttacks::kitNamingACommandIsRefused_data()
{
    QTest::addColumn<QString>("credential"); // the YAML of one credential
    const QString touch = QStringLiteral("touch ") + QStringLiteral("@MARKER");
    QTest::newRow("command beside the service")
        << QStringLiteral("  - service: gh\n    command: \"%1\"\n    apiKey:\n      name: GH_TOKEN\n      inject:\n"
                          "        - domain: api.github.com\n          scheme: bearer\n")
               .arg(touch);
    QTest::newRow("command in apiKey")
        << QStringLiteral("  - service: gh\n    apiKey:\n      name: GH_TOKEN\n      command: \"%1\"\n      inject:\n"
                          "        - domain: api.github.com\n          scheme: bearer\n")
               .arg(touch);
    QTest::newRow("a 1Password reference") << QStringLiteral(
        "  - service: gh\n    apiKey:\n      name: GH_TOKEN\n      ref: op://vault/item/field\n      inject:\n"
        "        - domain: api.github.com\n          scheme: bearer\n");
    QTest::newRow("a source object")
        << QStringLiteral(
               "  - service: gh\n    source:\n      kind: command\n      command: \"%1\"\n      shell: true\n"
               "    apiKey:\n      name: GH_TOKEN\n      inject:\n        - domain: api.github.com\n"
               "          scheme: bearer\n")
               .arg(touch);
}

void TestSecretSourceAttacks::kitNamingACommandIsRefused()
{
    QFETCH(QString, credential);
    credential.replace(QStringLiteral("@MARKER"), marker());
    const QString kit = m_fixture->writeKit(
        QStringLiteral("kits/") +
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')),
        paddock::test::shellKitSpec(QStringLiteral("sourcing"), QStringLiteral("credentials:\n") + credential));
    QVERIFY(!kit.isEmpty());
    const Finished validated = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("validate"), kit});
    QCOMPARE(validated.exitCode, 1);
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"),
                            kit, QStringLiteral("--name"), QStringLiteral("sourcing"), m_fixture->workspace(),
                            QStringLiteral("--"), QStringLiteral("true")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("kit")), qPrintable(run.err));
    verifyNothingRan();
}

void TestSecretSourceAttacks::bundleNamingACommandIsRefused_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::newRow("command") << QStringLiteral("command") << QJsonValue(QStringLiteral("touch @MARKER"));
    QTest::newRow("ref") << QStringLiteral("ref") << QJsonValue(QStringLiteral("op://vault/item/field"));
    QTest::newRow("source") << QStringLiteral("source")
                            << QJsonValue(QJsonObject{{QStringLiteral("kind"), QStringLiteral("command")},
                                                      {QStringLiteral("command"), QStringLiteral("touch @MARKER")}});
}

void TestSecretSourceAttacks::bundleNamingACommandIsRefused()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    // The corpus's honest bundle, its manifest given a secret that names a command.
    QTemporaryDir work;
    QVERIFY(work.isValid());
    QVERIFY(m_fixture
                ->run(QStringLiteral("tar"), {QStringLiteral("-xf"), QStringLiteral(PADDOCK_BUNDLE_CORPUS "/valid"),
                                              QStringLiteral("-C"), work.path()})
                .exitCode == 0);
    // Its folders are stored without search permission: made searchable to be packed again.
    QVERIFY(m_fixture->run(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("u+rwX"), work.path()})
                .exitCode == 0);
    const QString manifestPath = work.filePath(QStringLiteral("manifest.json"));
    QJsonObject manifest = QJsonDocument::fromJson(paddock::test::readFile(manifestPath)).object();
    QJsonObject secret{{QStringLiteral("service"), QStringLiteral("gh")},
                       {QStringLiteral("description"), QStringLiteral("GitHub")},
                       {QStringLiteral("domains"), QJsonArray{QStringLiteral("api.github.com")}}};
    if (value.isString())
        value = value.toString().replace(QStringLiteral("@MARKER"), marker());
    else
        value = QJsonValue(QJsonObject{{QStringLiteral("kind"), QStringLiteral("command")},
                                       {QStringLiteral("command"), QStringLiteral("touch ") + marker()}});
    secret.insert(key, value);
    manifest.insert(QStringLiteral("secrets"), QJsonArray{secret});
    QVERIFY(paddock::test::writeFile(manifestPath, QJsonDocument(manifest).toJson()));
    const QString bundle = m_fixture->path(QStringLiteral("sourcing-%1.paddock").arg(key));
    QVERIFY(m_fixture
                ->run(QStringLiteral("tar"), {QStringLiteral("-cf"), bundle, QStringLiteral("-C"), work.path(),
                                              QStringLiteral("manifest.json"), QStringLiteral("kit")})
                .exitCode == 0);

    const Finished imported = m_fixture->paddock(
        {QStringLiteral("bundle"), QStringLiteral("import"), QStringLiteral("--apply-policy"), bundle});
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(key), qPrintable(imported.err));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/kits/tiny/spec.yaml"))));
    verifyNothingRan();
}

QTEST_GUILESS_MAIN(TestSecretSourceAttacks)

#include "tst_secret_source_attacks.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock kit ls|add|forget|new`, run as a user runs them: the real binary, a private
// configuration folder, real kit folders, exit codes and output. And every command that takes a
// kit, given a kit of the library by name, a folder, or neither.
#include "CliHome.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

using Run = paddock::test::Finished;

using paddock::test::readFile;

} // namespace

class TestKitLibraryCli : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void lsListsSamples();
    void addThenLsShowsKitAsAdded();
    void addRefusesFolderWithoutSpec();
    void forgetByNameRemovesIt();
    void forgetByRelativeFolderIsOutOfTheDaemonsList();
    void forgetUnknownFails();
    void forgetSampleFails();
    void newWritesValidKitAndAddsIt();
    void newMixinWithName();
    void newNeedsKnownTemplate();
    void newRefusesExistingKit();
    void lsWithBrokenKitsYamlNamesLine();
    void lsJsonReportsErrors();
    void importedKitIsListedAndNamedByEveryCommand();
    void unknownKitSaysWhereItLooked_data();
    void unknownKitSaysWhereItLooked();
    void slashMakesAPath();

private:
    Run paddock(const QStringList &arguments);
    QString kitsYaml() const { return m_home->filePath(QStringLiteral("XDG_CONFIG_HOME/paddock/kits.yaml")); }
    QJsonArray lsJson();
    QString copyFixture(const QString &fixture, const QString &folder);

    std::unique_ptr<paddock::test::CliHome> m_home;
};

void TestKitLibraryCli::init()
{
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
    m_home = std::make_unique<paddock::test::CliHome>();
    QVERIFY(m_home->isValid());
    m_home->environment().insert(QStringLiteral("PADDOCK_SAMPLE_KITS"), m_home->filePath(QStringLiteral("samples")));
    m_home->setWorkingDirectory(m_home->root());
    // The samples this test sees: two real kits in a folder of its own.
    copyFixture(QStringLiteral("published/pi"), QStringLiteral("samples/pi"));
    copyFixture(QStringLiteral("published/aider"), QStringLiteral("samples/aider"));
}

QString TestKitLibraryCli::copyFixture(const QString &fixture, const QString &folder)
{
    const QString dir = m_home->filePath(folder);
    QDir().mkpath(dir);
    QFile::copy(QStringLiteral(PADDOCK_FIXTURES "/kits/") + fixture + QStringLiteral("/spec.yaml"),
                dir + QStringLiteral("/spec.yaml"));
    return QFileInfo(dir).canonicalFilePath();
}

Run TestKitLibraryCli::paddock(const QStringList &arguments)
{
    return m_home->paddock(arguments);
}

QJsonArray TestKitLibraryCli::lsJson()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("ls"), QStringLiteral("--json")});
    [&] { QCOMPARE(run.exitCode, 0); }();
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    [&] { QCOMPARE(error.error, QJsonParseError::NoError); }();
    return document.array();
}

void TestKitLibraryCli::lsListsSamples()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines.at(0).startsWith(QStringLiteral("NAME")));
    QVERIFY2(lines.at(1).startsWith(QStringLiteral("aider ")) && lines.at(1).contains(QStringLiteral(" sample ")),
             qPrintable(lines.at(1)));
    // aider relies on a global policy for one inject domain: valid, with a warning.
    QVERIFY2(lines.at(1).contains(QStringLiteral("ok, ")), qPrintable(lines.at(1)));
    QVERIFY2(lines.at(2).startsWith(QStringLiteral("pi ")), qPrintable(lines.at(2)));
    QVERIFY(lines.at(2).endsWith(m_home->filePath(QStringLiteral("samples/pi"))));
    QVERIFY(!QFileInfo::exists(kitsYaml()));
}

void TestKitLibraryCli::addThenLsShowsKitAsAdded()
{
    const QString kit = copyFixture(QStringLiteral("published/claude"), QStringLiteral("work/claude"));
    // A relative folder, as typed in a terminal.
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("add"), QStringLiteral("work/claude")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QStringLiteral("added claude (%1)\n").arg(kit));
    QVERIFY(readFile(kitsYaml()).contains(kit.toUtf8()));

    const Run again = paddock({QStringLiteral("kit"), QStringLiteral("add"), kit});
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(again.out.contains(QStringLiteral("already in the library")), qPrintable(again.out));

    const QJsonArray kits = lsJson();
    QCOMPARE(kits.size(), 3);
    const QJsonObject first = kits.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("claude"));
    QCOMPARE(first.value(QStringLiteral("source")).toString(), QStringLiteral("added"));
    QCOMPARE(first.value(QStringLiteral("directory")).toString(), kit);
    QCOMPARE(first.value(QStringLiteral("valid")).toBool(), true);
    QCOMPARE(kits.at(2).toObject().value(QStringLiteral("source")).toString(), QStringLiteral("sample"));
}

void TestKitLibraryCli::addRefusesFolderWithoutSpec()
{
    QDir().mkpath(m_home->filePath(QStringLiteral("work/empty")));
    const Run run =
        paddock({QStringLiteral("kit"), QStringLiteral("add"), m_home->filePath(QStringLiteral("work/empty"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.startsWith(QStringLiteral("paddock: ")) && run.err.contains(QStringLiteral("no spec.yaml")),
             qPrintable(run.err));
    QCOMPARE(paddock({QStringLiteral("kit"), QStringLiteral("add")}).exitCode, 2);
}

void TestKitLibraryCli::forgetByNameRemovesIt()
{
    const QString kit = copyFixture(QStringLiteral("published/claude"), QStringLiteral("work/claude"));
    QCOMPARE(paddock({QStringLiteral("kit"), QStringLiteral("add"), kit}).exitCode, 0);
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("forget"), QStringLiteral("claude")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QStringLiteral("forgot %1 (its files are untouched)\n").arg(kit));
    QCOMPARE(lsJson().size(), 2);
    QVERIFY(QFileInfo::exists(kit + QStringLiteral("/spec.yaml")));
}

void TestKitLibraryCli::forgetByRelativeFolderIsOutOfTheDaemonsList()
{
    // paddockd keeps the library, and reads it from its own folder: a folder typed relative to
    // the terminal's must still name the kit when the command returns.
    QCOMPARE(paddock({QStringLiteral("daemon"), QStringLiteral("start")}).exitCode, 0);
    const QString kit = copyFixture(QStringLiteral("published/claude"), QStringLiteral("work/claude"));
    QCOMPARE(paddock({QStringLiteral("kit"), QStringLiteral("add"), QStringLiteral("work/claude")}).exitCode, 0);
    QCOMPARE(lsJson().at(0).toObject().value(QStringLiteral("directory")).toString(), kit);
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("forget"), QStringLiteral("work/claude")});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QStringLiteral("forgot %1 (its files are untouched)\n").arg(kit));
    const QJsonArray kits = lsJson();
    QCOMPARE(kits.size(), 2);
    for (const QJsonValue &value : kits)
        QVERIFY(value.toObject().value(QStringLiteral("directory")).toString() != kit);
    QVERIFY(!readFile(kitsYaml()).contains(kit.toUtf8()));
}

void TestKitLibraryCli::forgetUnknownFails()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("forget"), QStringLiteral("nothing-here")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("paddock kit ls")), qPrintable(run.err));
}

void TestKitLibraryCli::forgetSampleFails()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("forget"), QStringLiteral("pi")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("sample kit")), qPrintable(run.err));
    QCOMPARE(lsJson().size(), 2);
}

void TestKitLibraryCli::newWritesValidKitAndAddsIt()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("new"), QStringLiteral("--template"),
                             QStringLiteral("sandbox"), QStringLiteral("work/my-agent")});
    QCOMPARE(run.exitCode, 0);
    const QString dir = m_home->filePath(QStringLiteral("work/my-agent"));
    QVERIFY2(run.out.contains(QStringLiteral("added it to the library")), qPrintable(run.out));
    const Run validate = paddock({QStringLiteral("kit"), QStringLiteral("validate"), dir});
    QCOMPARE(validate.exitCode, 0);
    QCOMPARE(validate.out, dir + QStringLiteral(": ok\n"));
    const QJsonObject first = lsJson().at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("my-agent"));
    QCOMPARE(first.value(QStringLiteral("kind")).toString(), QStringLiteral("sandbox"));
    QCOMPARE(first.value(QStringLiteral("source")).toString(), QStringLiteral("added"));
    // The template's comments come with it.
    QVERIFY(readFile(dir + QStringLiteral("/spec.yaml")).startsWith("# A sandbox kit"));
}

void TestKitLibraryCli::newMixinWithName()
{
    const QString dir = m_home->filePath(QStringLiteral("work/tools"));
    const Run run =
        paddock({QStringLiteral("kit"), QStringLiteral("new"), QStringLiteral("--template"), QStringLiteral("mixin"),
                 QStringLiteral("--name"), QStringLiteral("py-tools"), QStringLiteral("--no-add"), dir});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QStringLiteral("wrote %1/spec.yaml\n").arg(dir));
    QCOMPARE(lsJson().size(), 2);
    const Run show = paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("--json"), dir});
    QCOMPARE(show.exitCode, 0);
    const QJsonObject kit = QJsonDocument::fromJson(show.out.toUtf8()).object();
    QCOMPARE(kit.value(QStringLiteral("name")).toString(), QStringLiteral("py-tools"));
    QCOMPARE(kit.value(QStringLiteral("kind")).toString(), QStringLiteral("mixin"));
}

void TestKitLibraryCli::newNeedsKnownTemplate()
{
    Run run = paddock({QStringLiteral("kit"), QStringLiteral("new"), QStringLiteral("work/x")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("--template")), qPrintable(run.err));
    run = paddock({QStringLiteral("kit"), QStringLiteral("new"), QStringLiteral("--template"), QStringLiteral("robot"),
                   QStringLiteral("work/x")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("sandbox, mixin")), qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(m_home->filePath(QStringLiteral("work/x"))));
}

void TestKitLibraryCli::newRefusesExistingKit()
{
    const QString kit = copyFixture(QStringLiteral("published/claude"), QStringLiteral("work/claude"));
    const QByteArray before = readFile(kit + QStringLiteral("/spec.yaml"));
    const Run run = paddock(
        {QStringLiteral("kit"), QStringLiteral("new"), QStringLiteral("--template"), QStringLiteral("sandbox"), kit});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("already holds a spec.yaml")), qPrintable(run.err));
    QCOMPARE(readFile(kit + QStringLiteral("/spec.yaml")), before);
}

void TestKitLibraryCli::lsWithBrokenKitsYamlNamesLine()
{
    QDir().mkpath(QFileInfo(kitsYaml()).absolutePath());
    const QByteArray broken = "kits:\n  - /somewhere/kit\n  - {oops\n";
    {
        QFile file(kitsYaml());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(broken);
    }
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QCOMPARE(run.exitCode, 1);
    // The samples are still listed; the error names the file and its line.
    QVERIFY(run.out.contains(QStringLiteral("pi ")));
    QVERIFY2(run.err.contains(kitsYaml() + QStringLiteral(":4:")) ||
                 run.err.contains(kitsYaml() + QStringLiteral(":3:")),
             qPrintable(run.err));
    const QString kit = copyFixture(QStringLiteral("published/claude"), QStringLiteral("work/claude"));
    const Run add = paddock({QStringLiteral("kit"), QStringLiteral("add"), kit});
    QCOMPARE(add.exitCode, 1);
    QCOMPARE(readFile(kitsYaml()), broken);
}

void TestKitLibraryCli::lsJsonReportsErrors()
{
    const QString kit = copyFixture(QStringLiteral("draft-keys/kiro"), QStringLiteral("work/kiro"));
    QCOMPARE(paddock({QStringLiteral("kit"), QStringLiteral("add"), kit}).exitCode, 0);
    const QJsonObject first = lsJson().at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("valid")).toBool(), false);
    QCOMPARE(first.value(QStringLiteral("errors")).toInt(), 3);
    // `sandbox.entrypoint.run` (an earlier draft's key) at the line `kit validate` names.
    bool found = false;
    for (const QJsonValue &value : first.value(QStringLiteral("diagnostics")).toArray()) {
        const QJsonObject diagnostic = value.toObject();
        found |= diagnostic.value(QStringLiteral("line")).toInt() == 12 &&
                 diagnostic.value(QStringLiteral("column")).toInt() == 5 &&
                 diagnostic.value(QStringLiteral("severity")).toString() == QLatin1String("error") &&
                 diagnostic.value(QStringLiteral("message")).toString().contains(QStringLiteral("entrypoint.run"));
    }
    QVERIFY(found);
    const Run table = paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(table.out.contains(QStringLiteral("3 errors")), qPrintable(table.out));
}

void TestKitLibraryCli::importedKitIsListedAndNamedByEveryCommand()
{
    // Where `paddock bundle import` writes a kit.
    const QString imported =
        copyFixture(QStringLiteral("published/codex"), QStringLiteral("XDG_DATA_HOME/paddock/kits/codex"));
    const QJsonArray kits = lsJson();
    QCOMPARE(kits.size(), 3);
    const QJsonObject codex = kits.at(0).toObject();
    QCOMPARE(codex.value(QLatin1String("name")).toString(), QStringLiteral("codex"));
    QCOMPARE(codex.value(QLatin1String("source")).toString(), QStringLiteral("imported"));
    QCOMPARE(codex.value(QLatin1String("directory")).toString(), imported);
    const Run table = paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(table.out.contains(QRegularExpression(QStringLiteral("codex +\\S+ +imported +ok"))),
             qPrintable(table.out));

    const Run validated = paddock({QStringLiteral("kit"), QStringLiteral("validate"), QStringLiteral("codex")});
    QCOMPARE(validated.exitCode, 0);
    QVERIFY2(validated.out.startsWith(QLatin1String("codex: ok\n")), qPrintable(validated.out));
    const Run shown =
        paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("codex"), QStringLiteral("--json")});
    QCOMPARE(shown.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(shown.out.toUtf8()).object().value(QLatin1String("name")).toString(),
             QStringLiteral("codex"));
    // Imported kits are the user's: edited in place by name.
    const Run allowed = paddock(
        {QStringLiteral("kit"), QStringLiteral("allow"), QStringLiteral("codex"), QStringLiteral("docs.example.org")});
    QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
    QVERIFY(readFile(imported + QStringLiteral("/spec.yaml")).contains("docs.example.org"));
    // A sample is not edited by its name.
    const Run sample = paddock(
        {QStringLiteral("kit"), QStringLiteral("allow"), QStringLiteral("pi"), QStringLiteral("docs.example.org")});
    QCOMPARE(sample.exitCode, 1);
    QVERIFY2(sample.err.contains(QLatin1String("is a sample kit")), qPrintable(sample.err));
    // A file operation by name: the bundle carries the imported kit.
    const Run exported =
        paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"), QStringLiteral("codex"),
                 QStringLiteral("-o"), m_home->filePath(QStringLiteral("c.paddock"))});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY2(exported.out.contains(QLatin1String("kit codex")), qPrintable(exported.out));
    // The imported kit cannot be forgotten: it is in the library because it is in the kits folder.
    const Run forget = paddock({QStringLiteral("kit"), QStringLiteral("forget"), QStringLiteral("codex")});
    QCOMPARE(forget.exitCode, 1);
    QVERIFY2(forget.err.contains(QLatin1String("imported from a bundle")), qPrintable(forget.err));
}

void TestKitLibraryCli::unknownKitSaysWhereItLooked_data()
{
    QTest::addColumn<QStringList>("arguments");
    const QString nope = QStringLiteral("nope");
    QTest::newRow("kit validate") << QStringList{QStringLiteral("kit"), QStringLiteral("validate"), nope};
    QTest::newRow("kit show") << QStringList{QStringLiteral("kit"), QStringLiteral("show"), nope};
    QTest::newRow("kit allow") << QStringList{QStringLiteral("kit"), QStringLiteral("allow"), nope,
                                              QStringLiteral("example.org")};
    QTest::newRow("run") << QStringList{QStringLiteral("run"), QStringLiteral("--kit"), nope};
    QTest::newRow("create") << QStringList{QStringLiteral("create"), QStringLiteral("--kit"), nope};
    QTest::newRow("shim install") << QStringList{QStringLiteral("shim"), QStringLiteral("install"),
                                                 QStringLiteral("tool"), QStringLiteral("--kit"), nope};
    QTest::newRow("template build") << QStringList{QStringLiteral("template"), QStringLiteral("build"),
                                                   QStringLiteral("--kit"), nope};
    QTest::newRow("bundle export") << QStringList{QStringLiteral("bundle"), QStringLiteral("export"),
                                                  QStringLiteral("--kit"), nope};
    QTest::newRow("secret test") << QStringList{QStringLiteral("secret"), QStringLiteral("test"), QStringLiteral("svc"),
                                                QStringLiteral("--kit"), nope};
    QTest::newRow("binding check") << QStringList{QStringLiteral("binding"), QStringLiteral("check"),
                                                  QStringLiteral("--kit"), nope};
    QTest::newRow("binding approve") << QStringList{QStringLiteral("binding"), QStringLiteral("approve"),
                                                    QStringLiteral("--kit"), nope, QStringLiteral("--all")};
    QTest::newRow("policy check") << QStringList{QStringLiteral("policy"),  QStringLiteral("check"),
                                                 QStringLiteral("network"), QStringLiteral("example.org"),
                                                 QStringLiteral("--kit"),   nope};
}

void TestKitLibraryCli::unknownKitSaysWhereItLooked()
{
    QFETCH(QStringList, arguments);
    const Run run = paddock(arguments);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(
                 QLatin1String("no kit named nope in the library (paddock kit ls lists them) and no folder nope")) ||
                 run.out.contains(
                     QLatin1String("no kit named nope in the library (paddock kit ls lists them) and no folder nope")),
             qPrintable(run.out + run.err));
}

void TestKitLibraryCli::slashMakesAPath()
{
    // A folder named like a sample: the name is the sample, ./NAME the folder.
    copyFixture(QStringLiteral("published/codex"), QStringLiteral("pi"));
    const Run byName =
        paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("pi"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(byName.out.toUtf8()).object().value(QLatin1String("name")).toString(),
             QStringLiteral("pi"));
    const Run byPath =
        paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("./pi"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(byPath.out.toUtf8()).object().value(QLatin1String("name")).toString(),
             QStringLiteral("codex"));
    const Run missing = paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("./gone")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(QLatin1String("./gone does not exist")), qPrintable(missing.err));
}

QTEST_GUILESS_MAIN(TestKitLibraryCli)
#include "tst_kitlibrarycli.moc"

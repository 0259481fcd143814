// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock kit validate` and `paddock kit show`, run as a user runs them: the real
// binary, real kit directories, exit codes and output.
#include "CliHome.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = paddock::test::Finished;

QString fixture(const QString &relative)
{
    return QStringLiteral(PADDOCK_FIXTURES "/kits/") + relative;
}

} // namespace

class TestKitCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void validateAllPublishedKits();
    void validatePrintsWarningsUnderOk();
    void validateReportsErrorsAndFails();
    void validateMixedListFails();
    void validateWithoutDirectoryIsUsage();
    void validateRefusesV1();
    void showPrintsNormalisedText();
    void showJsonParses();
    void showRequiredArgument();
    void showRefusesValueOutsideEnum();
    void showRejectsMalformedArg();
    void showInvalidKitFails();
    void helpDescribesEachCommand_data();
    void helpDescribesEachCommand();

private:
    Run paddock(const QStringList &arguments);
    paddock::test::CliHome m_home;
};

void TestKitCli::initTestCase()
{
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
    QVERIFY(m_home.isValid());
}

Run TestKitCli::paddock(const QStringList &arguments)
{
    return m_home.paddock(arguments);
}

void TestKitCli::validateAllPublishedKits()
{
    QStringList dirs;
    const QDir published(fixture(QStringLiteral("published")));
    for (const QString &name : published.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        dirs << published.filePath(name);
    QCOMPARE(dirs.size(), 58);
    const Run run = paddock(QStringList{QStringLiteral("kit"), QStringLiteral("validate")} + dirs);
    QCOMPARE(run.exitCode, 0);
    // One "DIR: ok" line per kit, in the order given; warnings are indented below.
    QStringList okLines;
    for (const QString &line : run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (!line.startsWith(QLatin1Char(' ')))
            okLines << line;
    }
    QCOMPARE(okLines.size(), 58);
    for (qsizetype i = 0; i < dirs.size(); ++i)
        QCOMPARE(okLines.at(i), dirs.at(i) + QStringLiteral(": ok"));
}

void TestKitCli::validatePrintsWarningsUnderOk()
{
    const QString dir = fixture(QStringLiteral("published/sample-agent-v2"));
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("validate"), dir});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), dir + QStringLiteral(": ok"));
    bool deprecation = false;
    for (const QString &line : lines.mid(1)) {
        QVERIFY2(line.startsWith(QLatin1String("  ")), qPrintable(line));
        deprecation |= line.contains(QLatin1String("spec.yaml:79:1: warning: `publishedPorts`"));
    }
    QVERIFY2(deprecation, qPrintable(run.out));
}

void TestKitCli::validateReportsErrorsAndFails()
{
    const QString dir = fixture(QStringLiteral("draft-keys/kiro"));
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("validate"), dir});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(dir + QStringLiteral("/spec.yaml:12:5: error: `sandbox.entrypoint.run`")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(dir + QStringLiteral("/spec.yaml:18:1: error: `commands`")));
    QVERIFY(run.out.startsWith(dir + QStringLiteral(": invalid (3 errors)\n")));
}

void TestKitCli::validateMixedListFails()
{
    const QString good = fixture(QStringLiteral("published/claude"));
    const QString bad = fixture(QStringLiteral("args/args-undeclared"));
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("validate"), good, bad});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.contains(good + QStringLiteral(": ok\n")));
    QVERIFY(run.out.contains(bad + QStringLiteral("/spec.yaml:8:26: error:")));

    // A directory that is not a kit is a failed kit, not a crash.
    QTemporaryDir empty;
    const Run missing = paddock({QStringLiteral("kit"), QStringLiteral("validate"), empty.path()});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.out.contains(QLatin1String("spec.yaml")));
}

void TestKitCli::validateWithoutDirectoryIsUsage()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("validate")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QLatin1String("KIT")));
}

void TestKitCli::validateRefusesV1()
{
    const QString dir = fixture(QStringLiteral("v1/sample-agent"));
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("validate"), dir});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.contains(QLatin1String("schemaVersion \"1\" kits are not supported")));
    QVERIFY(run.out.contains(QLatin1String("v1 block `memory`")));
}

void TestKitCli::showPrintsNormalisedText()
{
    const Run run =
        paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(QStringLiteral("published/sample-agent-v2"))});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QLatin1String("name: sample-agent-v2\nkind: sandbox\n")));
    QVERIFY2(run.out.contains(QLatin1String("inject api.github.com: Authorization: Bearer %s")), qPrintable(run.out));
    QVERIFY(run.out.contains(QLatin1String("base64(x-access-token:secret)")));
    // Warnings go to stderr, the kit to stdout.
    QVERIFY(run.err.contains(QLatin1String("publishedPorts")));
    QVERIFY(!run.out.contains(QLatin1String("warning:")));
}

void TestKitCli::showJsonParses()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("--json"),
                             fixture(QStringLiteral("args/args-requires-agent")), QStringLiteral("--arg"),
                             QStringLiteral("agent=claude")});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(doc.object().value(QStringLiteral("name")).toString(), QStringLiteral("args-requires-agent"));
    QCOMPARE(doc.object().value(QStringLiteral("requires")).toObject().value(QStringLiteral("agent")).toString(),
             QStringLiteral("claude"));
}

void TestKitCli::showRequiredArgument()
{
    for (const QString &kit : {QStringLiteral("args/args-install"), QStringLiteral("args/args-required-missing")}) {
        const Run refused = paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(kit)});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QLatin1String("--arg token=")), qPrintable(refused.err));
        QVERIFY(refused.out.isEmpty());

        const Run shown = paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(kit), QStringLiteral("--arg"),
                                   QStringLiteral("token=abc=def")});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains(QLatin1String("ARGS_FIXTURE_TOKEN: abc=def")), qPrintable(shown.out));
    }
}

void TestKitCli::showRefusesValueOutsideEnum()
{
    const QString dir = fixture(QStringLiteral("args/args-bad-value"));
    const Run refused = paddock(
        {QStringLiteral("kit"), QStringLiteral("show"), dir, QStringLiteral("--arg"), QStringLiteral("channel=beta")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY(refused.err.contains(QStringLiteral("spec.yaml:7:3: error: the value 'beta'")));
    const Run accepted = paddock({QStringLiteral("kit"), QStringLiteral("show"), dir, QStringLiteral("--arg"),
                                  QStringLiteral("channel=nightly")});
    QCOMPARE(accepted.exitCode, 0);
    QVERIFY(accepted.out.contains(QLatin1String("ARGS_FIXTURE_CHANNEL: nightly")));
}

void TestKitCli::showRejectsMalformedArg()
{
    const Run run =
        paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(QStringLiteral("args/args-install")),
                 QStringLiteral("--arg"), QStringLiteral("token")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(QLatin1String("NAME=VALUE")));
    const Run two = paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(QStringLiteral("published/pi")),
                             fixture(QStringLiteral("published/aider"))});
    QCOMPARE(two.exitCode, 2);
}

void TestKitCli::showInvalidKitFails()
{
    const Run run = paddock({QStringLiteral("kit"), QStringLiteral("show"), fixture(QStringLiteral("draft-keys/aws"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.err.contains(QLatin1String("spec.yaml:13:1: error: `caps`")));
    QVERIFY(run.out.isEmpty());
}

void TestKitCli::helpDescribesEachCommand_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("expected");
    QTest::newRow("kit") << QStringList{QStringLiteral("kit")} << QStringLiteral("validate");
    QTest::newRow("validate") << QStringList{QStringLiteral("kit"), QStringLiteral("validate")}
                              << QStringLiteral("KIT...");
    QTest::newRow("show") << QStringList{QStringLiteral("kit"), QStringLiteral("show")}
                          << QStringLiteral("--arg NAME=VALUE");
}

void TestKitCli::helpDescribesEachCommand()
{
    QFETCH(QStringList, command);
    QFETCH(QString, expected);
    const Run run = paddock(command + QStringList{QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QLatin1String("Usage: paddock ")));
    QVERIFY2(run.out.contains(expected), qPrintable(run.out));
    // A description, not only the usage line.
    QVERIFY(run.out.split(QLatin1Char('\n')).size() > 6);
}

QTEST_GUILESS_MAIN(TestKitCli)
#include "tst_kitcli.moc"

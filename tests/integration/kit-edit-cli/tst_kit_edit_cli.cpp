// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock kit allow|deny` run as a user would: the real binary on a copy of a real kit.
#include "CliHome.h"
#include "TestFiles.h"

#include "kit/KitLoader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = paddock::test::Finished;

using paddock::test::readFile;

QString fixture(const QString &relative)
{
    return QStringLiteral(PADDOCK_FIXTURES "/kits/") + relative + QStringLiteral("/spec.yaml");
}

using paddock::test::addedLines;

} // namespace

class TestKitEditCli : public QObject
{
    Q_OBJECT

    paddock::test::CliHome m_home;
    QString m_kit;
    QByteArray m_original;

    Run paddock(const QStringList &arguments) { return m_home.paddock(arguments); }

    QString spec() const { return m_kit + QStringLiteral("/spec.yaml"); }

private slots:
    void init()
    {
        QVERIFY(m_home.isValid());
        m_kit = m_home.filePath(QStringLiteral("kits/pi"));
        QDir(m_kit).removeRecursively();
        QVERIFY(QDir().mkpath(m_kit));
        QVERIFY(QFile::copy(fixture(QStringLiteral("published/pi")), spec()));
        QFile::setPermissions(spec(), QFile::ReadOwner | QFile::WriteOwner);
        m_original = readFile(spec());
    }

    void allowAddsOneLine()
    {
        const Run run = paddock({QStringLiteral("kit"), QStringLiteral("allow"), m_kit, QStringLiteral("github.com")});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("added github.com to permissions.network.allow in %1\n").arg(spec()));
        QCOMPARE(*addedLines(m_original, readFile(spec())), QList<QByteArray>{"      - github.com"});
    }

    void denyAddsTheMissingListAndRemoveRestoresTheFile()
    {
        Run run = paddock({QStringLiteral("kit"), QStringLiteral("deny"), m_kit, QStringLiteral("*.ads.example.com"),
                           QStringLiteral("tracker.example.com:443")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("added *.ads.example.com to permissions.network.deny in %1\n"
                                         "added tracker.example.com:443 to permissions.network.deny in %1\n")
                              .arg(spec()));
        QCOMPARE(*addedLines(m_original, readFile(spec())),
                 (QList<QByteArray>{"    deny:", "      - \"*.ads.example.com\"", "      - tracker.example.com:443"}));

        run = paddock({QStringLiteral("kit"), QStringLiteral("deny"), QStringLiteral("--remove"), m_kit,
                       QStringLiteral("*.ads.example.com"), QStringLiteral("tracker.example.com:443")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("removed *.ads.example.com from permissions.network.deny in %1\n"
                                         "removed tracker.example.com:443 from permissions.network.deny in %1\n")
                              .arg(spec()));
        QCOMPARE(readFile(spec()), m_original);
    }

    void authoredDescriptorGetsItsNetworkPolicy()
    {
        // An authored v3 kit: the request is added to its capabilities, then its list grows.
        const QString folder = m_home.filePath(QStringLiteral("kits/tool"));
        QDir(folder).removeRecursively();
        QVERIFY(QDir().mkpath(folder));
        const QByteArray descriptor = "schemaVersion: \"3\"\n"
                                      "kind: workload\n"
                                      "displayName: Tool   # the CLI's\n"
                                      "capabilities:\n"
                                      "  - type: com.docker.sandbox/long-running@1\n";
        const QString file = folder + QStringLiteral("/tool.yaml");
        {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(descriptor);
        }
        Run run = paddock({QStringLiteral("kit"), QStringLiteral("allow"), folder, QStringLiteral("github.com")});
        QCOMPARE(run.err, QString());
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out,
                 QStringLiteral("added github.com to network-policy@1's runtime allow list in %1\n").arg(file));
        run = paddock({QStringLiteral("kit"), QStringLiteral("allow"), file, QStringLiteral("api.github.com:443")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readFile(file), descriptor + "  - type: com.docker.sandbox/network-policy@1\n"
                                              "    config:\n"
                                              "      runtime:\n"
                                              "        allow:\n"
                                              "          - github.com\n"
                                              "          - api.github.com:443\n");
        // What the decoder refuses is refused before the file is touched.
        const QByteArray before = readFile(file);
        run =
            paddock({QStringLiteral("kit"), QStringLiteral("deny"), folder, QStringLiteral("bedrock.*.amazonaws.com")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("is not a host pattern")), qPrintable(run.err));
        QCOMPARE(readFile(file), before);
    }

    void alreadyPresentIsReportedAndChangesNothing()
    {
        const Run run =
            paddock({QStringLiteral("kit"), QStringLiteral("allow"), m_kit, QStringLiteral("Registry.NPMjs.org")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out,
                 QStringLiteral("Registry.NPMjs.org is already in permissions.network.allow in %1\n").arg(spec()));
        QCOMPARE(readFile(spec()), m_original);
    }

    void missingKitFails()
    {
        const QString nowhere = m_home.filePath(QStringLiteral("no-such-kit"));
        const Run run =
            paddock({QStringLiteral("kit"), QStringLiteral("allow"), nowhere, QStringLiteral("github.com")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out, QString());
        QCOMPARE(run.err, QStringLiteral("paddock: %1 does not exist\n").arg(nowhere));
    }

    void kitThatWouldBeInvalidIsLeftAlone()
    {
        QFile::remove(spec());
        QVERIFY(QFile::copy(fixture(QStringLiteral("draft-keys/aws")), spec()));
        const QByteArray before = readFile(spec());
        const Run run = paddock({QStringLiteral("kit"), QStringLiteral("allow"), m_kit, QStringLiteral("github.com")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out, QString());
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(run.err.startsWith(QLatin1String("paddock: ")) && run.err.contains(QLatin1String("not a valid kit")),
                 qPrintable(run.err));
        QCOMPARE(readFile(spec()), before);
        QCOMPARE(QDir(m_kit).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("spec.yaml")});
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no arguments") << QStringList{} << QStringLiteral("missing arguments");
        QTest::newRow("no pattern") << QStringList{QStringLiteral("@KIT")} << QStringLiteral("missing arguments");
        QTest::newRow("url") << QStringList{QStringLiteral("@KIT"), QStringLiteral("https://github.com/org/repo")}
                             << QStringLiteral("give the host alone, e.g. github.com");
        QTest::newRow("path") << QStringList{QStringLiteral("@KIT"), QStringLiteral("github.com/org")}
                              << QStringLiteral("has a path");
        QTest::newRow("space") << QStringList{QStringLiteral("@KIT"), QStringLiteral("a.com b.com")}
                               << QStringLiteral("one pattern per argument");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--delete"), QStringLiteral("@KIT"),
                                                       QStringLiteral("a.com")}
                                        << QStringLiteral("delete");
    }

    void badUsage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        arguments.replaceInStrings(QStringLiteral("@KIT"), m_kit);
        const Run run = paddock(QStringList{QStringLiteral("kit"), QStringLiteral("allow")} + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(mentions), qPrintable(run.err));
        QCOMPARE(readFile(spec()), m_original);
    }

    void cidrRangesPassTheUsageCheck()
    {
        const Run run = paddock({QStringLiteral("kit"), QStringLiteral("deny"), m_kit, QStringLiteral("10.0.0.0/8")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(*addedLines(m_original, readFile(spec())), (QList<QByteArray>{"    deny:", "      - 10.0.0.0/8"}));
    }

    void allowingADeniedPatternSaysDenyWins()
    {
        QFile::remove(spec());
        QVERIFY(QFile::copy(fixture(QStringLiteral("published/sample-agent-v2")), spec()));
        const Run run =
            paddock({QStringLiteral("kit"), QStringLiteral("allow"), m_kit, QStringLiteral("telemetry.example.com")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.err, QStringLiteral("paddock: note: telemetry.example.com is also in permissions.network.deny, "
                                         "which wins over allow\n"));
    }

    void helpDocumentsRemove()
    {
        const Run run = paddock({QStringLiteral("kit"), QStringLiteral("allow"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QLatin1String("--remove")));
        QVERIFY(run.out.contains(QLatin1String("KIT PATTERN...")));
        const Run group = paddock({QStringLiteral("kit"), QStringLiteral("--help")});
        QVERIFY(group.out.contains(QLatin1String("allow")) && group.out.contains(QLatin1String("deny")));
    }
};

QTEST_GUILESS_MAIN(TestKitEditCli)
#include "tst_kit_edit_cli.moc"

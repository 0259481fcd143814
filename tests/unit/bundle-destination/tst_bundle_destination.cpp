// SPDX-License-Identifier: GPL-3.0-or-later
// Where an import may write: only a folder directly inside the resolved kits folder, named as
// a kit is. These checks stand on their own, behind the kit loader's: the bundles here are
// built in memory so that a name the loader refuses still reaches planImport and applyImport.
#include "bundle/Bundle.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::bundle;

namespace {

const QByteArray kSpec = "schemaVersion: \"2\"\nkind: sandbox\nname: tiny\nsandbox:\n  image: tiny:1\n";

OpenedBundle bundleNamed(const QString &name)
{
    OpenedBundle bundle;
    bundle.manifest.kitName = name;
    bundle.kit.name = name;
    TarEntry spec;
    spec.path = QStringLiteral("spec.yaml");
    spec.data = kSpec;
    bundle.kitEntries.append(spec);
    TarEntry desktop;
    desktop.path = QStringLiteral("evil.desktop");
    desktop.data = "[Desktop Entry]\nExec=sh -c 'echo owned'\n";
    bundle.kitEntries.append(desktop);
    return bundle;
}

/** Every file and folder under @p dir, relative to it. */
QStringList everythingUnder(const QString &dir)
{
    QStringList found;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        found << QDir(dir).relativeFilePath(it.next());
    found.sort();
    return found;
}

} // namespace

class TestBundleDestination : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void hostileNameIsRefused_data();
    void hostileNameIsRefused();
    void intoMustNameAKitFolder_data();
    void intoMustNameAKitFolder();
    void symlinkedKitsFolderIsResolved();
    void kitsFolderSwappedForALinkBeforeApplyIsRefused();
    void handMadePlanOutsideIsRefused();
    void linkAtTheDestinationIsNotReplaced();

private:
    std::optional<QTemporaryDir> m_home;
    QString kitsFolder() const { return m_home->path() + QStringLiteral("/data/paddock/kits"); }
    QString policyPath() const { return m_home->path() + QStringLiteral("/config/paddock/policy.yaml"); }
    /** What `paddock bundle import` passes by default, with this test's policy. */
    ImportOptions importOptions() const
    {
        ImportOptions options;
        options.policyPath = policyPath();
        return options;
    }
};

void TestBundleDestination::init()
{
    m_home.emplace();
    QVERIFY(m_home->isValid());
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_home->path() + QStringLiteral("/data")));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home->path() + QStringLiteral("/config")));
}

void TestBundleDestination::hostileNameIsRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("template leading to autostart") << QStringLiteral("${{ kit.args.a }}/../../../../.config/autostart");
    QTest::newRow("parent") << QStringLiteral("..");
    QTest::newRow("parents") << QStringLiteral("../../../.config/autostart");
    QTest::newRow("slash") << QStringLiteral("a/b");
    QTest::newRow("absolute") << QStringLiteral("/tmp/paddock-owned/.config/autostart");
    QTest::newRow("dot") << QStringLiteral(".");
    QTest::newRow("empty") << QString();
    QTest::newRow("upper case") << QStringLiteral("Kit");
}

void TestBundleDestination::hostileNameIsRefused()
{
    QFETCH(QString, name);
    const OpenedBundle bundle = bundleNamed(name);
    ImportOptions options = importOptions();
    QString error;
    const std::optional<ImportPlan> plan = planImport(bundle, options, &error);
    QVERIFY2(!plan, qPrintable(plan ? plan->destination : QString()));
    QVERIFY2(error.contains(QStringLiteral("'%1'").arg(name)), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("not a kit name")), qPrintable(error));

    // A plan built by hand the same way is refused when it is carried out, too.
    ImportPlan handMade;
    handMade.destination = QDir::cleanPath(kitsFolder() + QLatin1Char('/') + name);
    error.clear();
    QVERIFY(!applyImport(bundle, handMade, options, &error));
    QVERIFY2(!error.isEmpty(), qPrintable(error));
    QCOMPARE(everythingUnder(m_home->path()), QStringList());
}

void TestBundleDestination::intoMustNameAKitFolder_data()
{
    QTest::addColumn<QString>("into");
    QTest::addColumn<QString>("named"); // empty: the home folder's own name
    QTest::newRow("parent") << QStringLiteral("course/..") << QString();
    QTest::newRow("upper case") << QStringLiteral("course/My Kit") << QStringLiteral("'My Kit'");
    QTest::newRow("dot folder") << QStringLiteral("course/.config") << QStringLiteral("'.config'");
}

void TestBundleDestination::intoMustNameAKitFolder()
{
    QFETCH(QString, into);
    QFETCH(QString, named);
    ImportOptions options = importOptions();
    options.destination = m_home->path() + QLatin1Char('/') + into;
    QString error;
    const std::optional<ImportPlan> plan = planImport(bundleNamed(QStringLiteral("tiny")), options, &error);
    QVERIFY2(!plan, qPrintable(plan ? plan->destination : QString()));
    if (named.isEmpty())
        named = QStringLiteral("'%1'").arg(QFileInfo(m_home->path()).fileName());
    QVERIFY2(error.contains(named), qPrintable(error));
    QCOMPARE(everythingUnder(m_home->path()), QStringList());
}

void TestBundleDestination::symlinkedKitsFolderIsResolved()
{
    const QString real = m_home->path() + QStringLiteral("/disk/kits");
    QVERIFY(QDir().mkpath(real));
    QVERIFY(QDir().mkpath(m_home->path() + QStringLiteral("/data/paddock")));
    QVERIFY(QFile::link(real, kitsFolder()));

    ImportOptions options = importOptions();
    QString error;
    const OpenedBundle bundle = bundleNamed(QStringLiteral("tiny"));
    const std::optional<ImportPlan> plan = planImport(bundle, options, &error);
    QVERIFY2(plan, qPrintable(error));
    // The plan names the folder that is written, not the link to it.
    QCOMPARE(plan->destination, QFileInfo(real).canonicalFilePath() + QStringLiteral("/tiny"));
    QVERIFY2(applyImport(bundle, *plan, options, &error), qPrintable(error));
    QCOMPARE(everythingUnder(real), (QStringList{QStringLiteral("tiny"), QStringLiteral("tiny/evil.desktop"),
                                                 QStringLiteral("tiny/spec.yaml")}));
}

void TestBundleDestination::kitsFolderSwappedForALinkBeforeApplyIsRefused()
{
    QVERIFY(QDir().mkpath(kitsFolder()));
    ImportOptions options = importOptions();
    QString error;
    const OpenedBundle bundle = bundleNamed(QStringLiteral("tiny"));
    const std::optional<ImportPlan> plan = planImport(bundle, options, &error);
    QVERIFY2(plan, qPrintable(error));

    // Between the preview and the import the kits folder becomes a link to somewhere else.
    const QString elsewhere = m_home->path() + QStringLiteral("/.config/autostart");
    QVERIFY(QDir().mkpath(elsewhere));
    QVERIFY(QDir(kitsFolder()).removeRecursively());
    QVERIFY(QFile::link(elsewhere, kitsFolder()));

    QVERIFY(!applyImport(bundle, *plan, options, &error));
    QVERIFY2(error.contains(kitsFolder()), qPrintable(error));
    QCOMPARE(everythingUnder(elsewhere), QStringList());
}

void TestBundleDestination::handMadePlanOutsideIsRefused()
{
    // A valid last component is not enough: the parent must be the folder the plan resolved.
    const QString elsewhere = m_home->path() + QStringLiteral("/elsewhere");
    QVERIFY(QDir().mkpath(elsewhere));
    QVERIFY(QFile::link(elsewhere, m_home->path() + QStringLiteral("/link")));
    ImportPlan plan;
    plan.destination = m_home->path() + QStringLiteral("/link/tiny");
    ImportOptions options = importOptions();
    QString error;
    QVERIFY(!applyImport(bundleNamed(QStringLiteral("tiny")), plan, options, &error));
    QVERIFY2(error.contains(plan.destination), qPrintable(error));
    QCOMPARE(everythingUnder(elsewhere), QStringList());
}

void TestBundleDestination::linkAtTheDestinationIsNotReplaced()
{
    const QString elsewhere = m_home->path() + QStringLiteral("/.config/autostart");
    QVERIFY(QDir().mkpath(elsewhere));
    QVERIFY(QDir().mkpath(kitsFolder()));
    QVERIFY(QFile::link(elsewhere, kitsFolder() + QStringLiteral("/tiny")));
    ImportOptions options = importOptions();
    options.replace = true;
    QString error;
    QVERIFY(!planImport(bundleNamed(QStringLiteral("tiny")), options, &error));
    QVERIFY2(error.contains(QLatin1String("is not a folder")), qPrintable(error));
    QVERIFY(QFileInfo(kitsFolder() + QStringLiteral("/tiny")).isSymLink());
    QCOMPARE(everythingUnder(elsewhere), QStringList());
}

QTEST_GUILESS_MAIN(TestBundleDestination)
#include "tst_bundle_destination.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The Debian package on a fresh Debian 12 system: apt installs it with every dependency it
// declares, the installed programs run and find each other, and removing it leaves none of
// its files behind. The system is a tree made from the Debian mirror this machine's apt
// uses; without that mirror the test says so and skips.
#include "DebianTree.h"
#include "PackageTestSupport.h"

#include "Needs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibraryInfo>
#include <QStandardPaths>
#include <QTest>

#include <unistd.h>

using paddock::testing::BuiltPackage;
using paddock::testing::DebianSources;
using paddock::testing::DebianTree;
using paddock::testing::PackageEntry;
using paddock::testing::runTool;
using paddock::testing::ToolRun;

namespace {

// A user's session inside the tree: XDG directories of its own, as a login would give it.
const QStringList kSession{
    QStringLiteral("XDG_CONFIG_HOME=/root/.config"), QStringLiteral("XDG_STATE_HOME=/root/.local/state"),
    QStringLiteral("XDG_DATA_HOME=/root/.local/share"), QStringLiteral("XDG_RUNTIME_DIR=/run/user/0")};
const QString kMakeSession =
    QStringLiteral("mkdir -p -m 700 /run/user/0 /root/.config /root/.local/state /root/.local/share\n");

} // namespace

class TestPackageInstall : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aptInstallsItWithItsDependencies();
    void paddockPrintsItsVersion();
    void sampleKitValidates();
    void cliStartsTheInstalledDaemon();
    void sandboxRunsUnderTheInstalledInit();
    void everyQmlModuleTheWindowImportsIsInstalled();
    void removingLeavesNoFileBehind();

private:
    /** apt-get install of the package from its folder, as a user installs a downloaded package. */
    ToolRun installPackage();
    void requireInstalled();
    QString packageStatus(const QString &name) const;

    BuiltPackage m_package;
    std::unique_ptr<DebianTree> m_tree;
    bool m_installed = false;
};

void TestPackageInstall::initTestCase()
{
    PADDOCK_NEED(::geteuid() == 0, "root: installing a package into a Debian tree needs chroot and mounts");
    for (const auto &[tool, package] : {std::pair{"mmdebstrap", "mmdebstrap"}, std::pair{"unshare", "util-linux"},
                                        std::pair{"curl", "curl"}, std::pair{"dpkg-shlibdeps", "dpkg-dev"}}) {
        QVERIFY2(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty() ||
                     QFileInfo::exists(QStringLiteral("/usr/sbin/") + QLatin1String(tool)),
                 qPrintable(QStringLiteral("%1 is missing: install %2 (installer/setup-debian.sh does)")
                                .arg(QLatin1String(tool), QLatin1String(package))));
    }

    // The mirror must answer before anything is built; when it does not, that is said plainly.
    const DebianSources sources = paddock::testing::debianSourcesOfThisMachine();
    const QString release = sources.mirror + QStringLiteral("/dists/bookworm/InRelease");
    const ToolRun probe = runTool(QStringLiteral("curl"),
                                  {QStringLiteral("--fail"), QStringLiteral("--silent"), QStringLiteral("--show-error"),
                                   QStringLiteral("--max-time"), QStringLiteral("60"), QStringLiteral("--output"),
                                   QStringLiteral("/dev/null"), release});
    PADDOCK_NEED(
        probe.ok(),
        QStringLiteral("the Debian mirror %1 (apt's here, or $PADDOCK_DEBIAN_MIRROR) is unreachable (%2): no clean "
                       "Debian 12 tree can be made to install the package into")
            .arg(sources.mirror, probe.err.trimmed()));

    QString error;
    QVERIFY2(m_package.build(&error), qPrintable(error));
    m_tree = std::make_unique<DebianTree>(sources);
    QVERIFY2(m_tree->prepare(m_package.directory(), &error), qPrintable(error));
    const ToolRun update = m_tree->run({QStringLiteral("apt-get"), QStringLiteral("update"), QStringLiteral("-q")});
    QVERIFY2(update.ok(), update.describe(QStringLiteral("apt-get update")));
    QCOMPARE(packageStatus(QStringLiteral("paddock")), QString());
}

QString TestPackageInstall::packageStatus(const QString &name) const
{
    return m_tree
        ->run({QStringLiteral("dpkg-query"), QStringLiteral("--show"), QStringLiteral("--showformat=${Status}"), name})
        .out.trimmed();
}

ToolRun TestPackageInstall::installPackage()
{
    return m_tree->shell(QStringLiteral("cd /mnt/package && apt-get install --yes -q --no-install-recommends ./%1")
                             .arg(m_package.fileName()));
}

// Each test that needs the package installs it when no earlier one did, so each runs alone.
void TestPackageInstall::requireInstalled()
{
    if (m_installed)
        return;
    const ToolRun install = installPackage();
    if (!install.ok() || packageStatus(QStringLiteral("paddock")) != QLatin1String("install ok installed"))
        QFAIL(install.describe(QStringLiteral("apt-get install ./") + m_package.fileName()).constData());
    m_installed = true;
}

void TestPackageInstall::aptInstallsItWithItsDependencies()
{
    // As a user installs a downloaded package: apt resolves Depends from the mirror. Recommends
    // (a keyring, Docker) are left out to prove the package works without them.
    const ToolRun install = installPackage();
    QVERIFY2(install.ok(), install.describe(QStringLiteral("apt-get install ./") + m_package.fileName()));
    QCOMPARE(packageStatus(QStringLiteral("paddock")), QStringLiteral("install ok installed"));
    m_installed = true;
    // Brought in by Depends, not present in a fresh system.
    for (const QString &dependency :
         {QStringLiteral("bubblewrap"), QStringLiteral("libqt6core6"), QStringLiteral("qml6-module-qtquick-controls"),
          QStringLiteral("libqt6keychain1")})
        QCOMPARE(packageStatus(dependency), QStringLiteral("install ok installed"));
}

void TestPackageInstall::paddockPrintsItsVersion()
{
    requireInstalled();
    const ToolRun version = m_tree->run({QStringLiteral("paddock"), QStringLiteral("--version")}, kSession);
    QVERIFY2(version.ok(), version.describe(QStringLiteral("paddock --version")));
    QVERIFY2(version.out.contains(QStringLiteral(PADDOCK_VERSION)), qPrintable(version.out));
}

void TestPackageInstall::sampleKitValidates()
{
    requireInstalled();
    const ToolRun validate = m_tree->run({QStringLiteral("paddock"), QStringLiteral("kit"), QStringLiteral("validate"),
                                          QStringLiteral("/usr/share/paddock/kits/shell")},
                                         kSession);
    QVERIFY2(validate.ok(), validate.describe(QStringLiteral("paddock kit validate /usr/share/paddock/kits/shell")));
    QVERIFY2(validate.out.contains(QStringLiteral("ok")), qPrintable(validate.out));
}

void TestPackageInstall::cliStartsTheInstalledDaemon()
{
    requireInstalled();
    // paddock finds paddockd beside itself in /usr/bin; the listing of running executables
    // shows which binary answered.
    const ToolRun session = m_tree->shell(kMakeSession + QStringLiteral(R"sh(
paddock daemon start
paddock daemon status --json > /tmp/status.json
for process in /proc/[0-9]*; do readlink "$process/exe" || true; done > /tmp/running
paddock daemon stop
echo "STATUS $(tr -d '\n' < /tmp/status.json)"
sed 's/^/RUNNING /' /tmp/running
)sh"),
                                          kSession);
    QVERIFY2(session.ok(), session.describe(QStringLiteral("paddock daemon start/status/stop")));
    const QStringList lines = session.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.contains(QStringLiteral("RUNNING /usr/bin/paddockd")), qPrintable(session.out));
    QString statusLine;
    for (const QString &line : lines) {
        if (line.startsWith(QStringLiteral("STATUS ")))
            statusLine = line.mid(7);
    }
    const QJsonObject status = QJsonDocument::fromJson(statusLine.toUtf8()).object();
    QVERIFY2(status.value(QStringLiteral("running")).toBool(), qPrintable(session.out));
    QCOMPARE(status.value(QStringLiteral("version")).toString(), QStringLiteral(PADDOCK_VERSION));
}

void TestPackageInstall::sandboxRunsUnderTheInstalledInit()
{
    requireInstalled();
    // Sandboxes trust a local CA whose key lives in the keyring: install the recommended one
    // and run in a D-Bus session with it unlocked, as a desktop login provides.
    const ToolRun keyring = m_tree->run({QStringLiteral("apt-get"), QStringLiteral("install"), QStringLiteral("--yes"),
                                         QStringLiteral("-q"), QStringLiteral("--no-install-recommends"),
                                         QStringLiteral("gnome-keyring"), QStringLiteral("dbus-daemon")});
    QVERIFY2(keyring.ok(), keyring.describe(QStringLiteral("apt-get install gnome-keyring dbus-daemon")));

    // The daemon looks for paddock-init beside itself, then in ../libexec/paddock (it is not
    // on PATH). Inside the sandbox it is PID 1, bind-mounted as /run/paddock/init. Without
    // the installed file, the same run must fail: that is where it came from.
    const ToolRun run =
        m_tree->run({QStringLiteral("dbus-run-session"), QStringLiteral("--"), QStringLiteral("/bin/sh"),
                     QStringLiteral("-ec"), kMakeSession + QStringLiteral(R"sh(
printf paddock | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
mkdir -p /root/project
cd /root/project
# Made ahead, so the check does not depend on when `run` first creates the CA.
paddock ca show >/dev/null
paddock run --kit /usr/share/paddock/kits/shell -- cat /proc/1/cmdline > /tmp/cmdline
echo "PID1 $(tr '\0' ' ' < /tmp/cmdline)"
mv /usr/libexec/paddock/paddock-init /tmp/paddock-init
if paddock run --kit /usr/share/paddock/kits/shell --name without-init -- true 2>/tmp/error; then
    echo "WITHOUT-INIT ran"
else
    echo "WITHOUT-INIT refused: $(head -n 1 /tmp/error)"
fi
mv /tmp/paddock-init /usr/libexec/paddock/paddock-init
paddock daemon stop >/dev/null
)sh")},
                    kSession);
    QVERIFY2(run.ok(), run.describe(QStringLiteral("paddock run --kit /usr/share/paddock/kits/shell")));
    QVERIFY2(run.out.contains(QStringLiteral("PID1 /run/paddock/init ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("WITHOUT-INIT refused: ")), qPrintable(run.out));
}

void TestPackageInstall::everyQmlModuleTheWindowImportsIsInstalled()
{
    requireInstalled();
    // The window's QML imports, followed through Qt's own modules (the folder dialog imports
    // Qt.labs.folderlistmodel), as qmlimportscanner finds them here.
    const QString scanner =
        QLibraryInfo::path(QLibraryInfo::LibraryExecutablesPath) + QStringLiteral("/qmlimportscanner");
    const QString qmlDir = QLibraryInfo::path(QLibraryInfo::QmlImportsPath);
    QMap<QString, QString> modules; // name -> directory on this machine, empty when absent here
    QStringList toScan{QStringLiteral(PADDOCK_SOURCE_DIR "/qml")};
    QSet<QString> scanned;
    while (!toScan.isEmpty()) {
        const QString root = toScan.takeFirst();
        if (scanned.contains(root))
            continue;
        scanned.insert(root);
        const ToolRun scan =
            runTool(scanner, {QStringLiteral("-rootPath"), root, QStringLiteral("-importPath"), qmlDir});
        QVERIFY2(scan.ok(), scan.describe(scanner));
        for (const QJsonValue &import : QJsonDocument::fromJson(scan.out.toUtf8()).array()) {
            const QJsonObject object = import.toObject();
            if (object.value(QStringLiteral("type")).toString() != QLatin1String("module"))
                continue;
            const QString name = object.value(QStringLiteral("name")).toString();
            const QString path = object.value(QStringLiteral("path")).toString();
            if (!modules.contains(name))
                modules.insert(name, path);
            if (!path.isEmpty())
                toScan << path;
        }
    }
    QVERIFY2(modules.contains(QStringLiteral("QtQuick.Controls")), qPrintable(modules.keys().join(QLatin1Char(' '))));

    // Not needed: Paddock's own module is compiled in; QtQml's types are built into
    // libQt6Qml; the Windows, macOS and iOS styles do not exist on Linux; QtQuick.Shapes is
    // only used by the Basic style's SelectionRectangle, which Paddock does not use.
    const QSet<QString> notNeeded{QStringLiteral("Paddock"),
                                  QStringLiteral("QtQml"),
                                  QStringLiteral("QtQuick.Controls.Windows"),
                                  QStringLiteral("QtQuick.Controls.macOS"),
                                  QStringLiteral("QtQuick.Controls.iOS"),
                                  QStringLiteral("QtQuick.Shapes")};
    QStringList missing;
    for (auto it = modules.cbegin(); it != modules.cend(); ++it) {
        if (notNeeded.contains(it.key()))
            continue;
        const QString qmldir = qmlDir + QLatin1Char('/') +
                               QString(it.key()).replace(QLatin1Char('.'), QLatin1Char('/')) +
                               QStringLiteral("/qmldir");
        if (!QFileInfo::exists(m_tree->hostPath(qmldir)))
            missing << it.key();
    }
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("QML modules not installed by the package's Depends: ") +
                                           missing.join(QStringLiteral(", "))));
}

void TestPackageInstall::removingLeavesNoFileBehind()
{
    requireInstalled();
    const ToolRun purge = m_tree->run({QStringLiteral("apt-get"), QStringLiteral("purge"), QStringLiteral("--yes"),
                                       QStringLiteral("-q"), QStringLiteral("paddock")});
    QVERIFY2(purge.ok(), purge.describe(QStringLiteral("apt-get purge paddock")));
    m_installed = false;
    QCOMPARE(packageStatus(QStringLiteral("paddock")), QString());

    // No file of the package, and none of the directories that only it owns.
    const QList<PackageEntry> entries = m_package.entries();
    QVERIFY(!entries.isEmpty());
    QStringList left;
    for (const PackageEntry &entry : entries) {
        if (entry.isDirectory())
            continue;
        if (QFileInfo::exists(m_tree->hostPath(QLatin1Char('/') + entry.path)))
            left << entry.path;
    }
    for (const QString &directory : {QStringLiteral("/usr/share/paddock"), QStringLiteral("/usr/libexec/paddock")}) {
        if (QFileInfo::exists(m_tree->hostPath(directory)))
            left << directory;
    }
    QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left after purge: ") + left.join(QStringLiteral(", "))));
}

QTEST_GUILESS_MAIN(TestPackageInstall)
#include "tst_packageinstall.moc"

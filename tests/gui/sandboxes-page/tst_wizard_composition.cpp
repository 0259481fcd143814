// SPDX-License-Identifier: GPL-3.0-or-later
// The creation wizard composing a schemaVersion "3" workload with mixins, with the real paddockd
// and bubblewrap on the offscreen platform: kits loaded from OCI archives, the mixins offered
// for the workload only, the review showing the merged kit, the backend left to choose, a set that does
// not resolve named before anything is made, a mixin's key asked for, and the sandbox made of
// the composition running the mixin's program.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "KeyringSession.h"
#include "PageDriving.h"

#include "Needs.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

QByteArray script(const QByteArray &line)
{
    return "#!/bin/sh\n" + line + "\n";
}

/** The OCI archive of a kit named @p name with @p descriptor and @p layer. */
QByteArray kitArchive(const QString &name, const QByteArray &descriptor, const QList<test::RawMember> &layer,
                      const QJsonObject &config = {})
{
    test::OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/%1:1").arg(name);
    kit.layers = {test::tarOf(layer)};
    kit.config = config;
    kit.manifestAnnotations = test::kitAnnotations(descriptor);
    return test::ociKitArchive(kit);
}

} // namespace

class TestWizardComposition : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void wizardComposesAWorkloadWithAMixin();
    void wizardNamesAConstraintThatFails();
    void wizardAsksForAMixinsKey();

private:
    /** The wizard opened, its folder chosen and the kit step shown; nullptr when that failed. */
    QObject *openAtKitStep()
    {
        if (!press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))))
            return nullptr;
        QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
        if (!wizard || !type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace))
            return nullptr;
        QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
        if (!QTest::qWaitFor([&] { return next->isEnabled(); }, 5000) || !press(m_window, next))
            return nullptr;
        return wizard;
    }
    void closeWizard(QObject *wizard)
    {
        press(m_window, findInPopup(wizard, QStringLiteral("wizardCancelButton")));
        QTRY_VERIFY(!wizard->property("visible").toBool());
    }
    bool load(const QString &name, const QByteArray &archive)
    {
        const QString file = m_home + QLatin1Char('/') + name + QStringLiteral(".tar");
        if (!writeFile(file, archive))
            return false;
        QProcess cli;
        cli.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("kit"), QStringLiteral("load"), file});
        const bool loaded = cli.waitForFinished(60000) && cli.exitCode() == 0;
        if (!loaded)
            qWarning("kit load %s: %s", qPrintable(name), cli.readAllStandardError().constData());
        return loaded;
    }

    QString m_home;
    QString m_workspace;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestWizardComposition::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(secrets::test::kUnavailableVariable));
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile program(busybox);
    QVERIFY(program.open(QIODevice::ReadOnly));
    const QByteArray binary = program.readAll();

    m_home = isolateEnvironment();
    qputenv("PADDOCKD", PADDOCKD_BIN);
    m_workspace = m_home + QStringLiteral("/project");
    QVERIFY(writeFile(m_workspace + QStringLiteral("/README.md"), "a project\n"));
    // One v2 kit stands in for the samples: it is offered no mixin.
    QVERIFY(writeFile(m_home + QStringLiteral("/kits/plain/spec.yaml"),
                      "schemaVersion: \"2\"\nkind: sandbox\nname: plain\nsandbox:\n  image: debian:12\n  entrypoint: "
                      "[sleep, \"600\"]\n"));
    qputenv("PADDOCK_SAMPLE_KITS", QFile::encodeName(m_home + QStringLiteral("/kits")));
    QVERIFY(useRecordingTerminal(m_home + QStringLiteral("/fake-terminal"), m_home + QStringLiteral("/terminal-args")));

    // One network-policy@1 entry allowing @p domain at runtime.
    const auto policy = [](const char *domain) {
        return QByteArray(R"({"type":"com.docker.sandbox/network-policy@1","config":{"runtime":{"allow":[")") + domain +
               R"("]}}})";
    };
    QVERIFY(load(QStringLiteral("base"),
                 kitArchive(QStringLiteral("base"),
                            R"({"schemaVersion":"3","kind":"workload","provides":["tiny@1.0"],"capabilities":[)" +
                                policy("allowed.test") + "]}",
                            {test::folder("bin"), test::file("bin/busybox", binary, 0755),
                             test::softLink("bin/sh", "busybox"), test::softLink("bin/sleep", "busybox")},
                            QJsonObject{{QStringLiteral("Entrypoint"),
                                         QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
                                        {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sleep 600")}},
                                        {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/opt/tool:/bin")}}})));
    QVERIFY(load(QStringLiteral("tool"),
                 kitArchive(QStringLiteral("tool"),
                            R"({"schemaVersion":"3","kind":"mixin","provides":["tool@1.2"],)"
                            R"("requires":["tiny >= 1.0"],"capabilities":[)" +
                                policy("other.test") + "]}",
                            {test::folder("opt"), test::folder("opt/tool"),
                             test::file("opt/tool/hello-tool", script("echo hello from the tool mixin"), 0755)})));
    QVERIFY(
        load(QStringLiteral("extra"),
             kitArchive(QStringLiteral("extra"), R"({"schemaVersion":"3","kind":"mixin","requires":["tool >= 1.0"]})",
                        {test::folder("opt")})));
    QVERIFY(load(QStringLiteral("keyed"),
                 kitArchive(QStringLiteral("keyed"),
                            R"({"schemaVersion":"3","kind":"mixin","capabilities":[)" + policy("other.test") +
                                R"(,{"type":)"
                                R"("com.docker.sandbox/credential@1","config":{"service":"toolsvc","phase":"runtime",)"
                                R"("apiKey":{"name":"TOOL_TOKEN","proxyManaged":true,)"
                                R"("inject":[{"domain":"other.test","scheme":"bearer"}]}}}]})",
                            {test::folder("opt")})));

    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QVERIFY(readyTerminalLauncher(m_window));
}

void TestWizardComposition::cleanupTestCase()
{
    stopEverything();
}

void TestWizardComposition::wizardComposesAWorkloadWithAMixin()
{
    QObject *wizard = openAtKitStep();
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));

    // A schemaVersion "2" kit is offered no mixin; the v3 workload is offered the library's mixins.
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_plain"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(!isShown(findInPopup(wizard, QStringLiteral("wizardMixin_tool"))));
    QVERIFY(!findInPopup(wizard, QStringLiteral("wizardKit_tool"))); // a mixin is not a kit to start from
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_base"))));
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardMixin_tool"))));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardMixin_tool"))));
    QTRY_VERIFY(findInPopup(wizard, QStringLiteral("wizardMixin_tool"))->property("checked").toBool());
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    // A composition runs on either backend: Docker is not set aside for it, and its note on the
    // image the engine builds shows with Docker chosen only. The sandbox is then made under bubblewrap.
    QQuickItem *bwrap = findInPopup(wizard, QStringLiteral("wizardBackendBwrap"));
    QQuickItem *docker = findInPopup(wizard, QStringLiteral("wizardBackendDocker"));
    QQuickItem *note = findInPopup(wizard, QStringLiteral("wizardComposedNote"));
    QVERIFY(bwrap->property("checked").toBool());
    QVERIFY(!isShown(note));
    if (docker->isEnabled()) { // an engine answers here
        QVERIFY(press(m_window, docker));
        QTRY_VERIFY(isShown(note));
        QVERIFY(press(m_window, bwrap));
        QTRY_VERIFY(!isShown(note));
    }
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardNameField")), QStringLiteral("composed")));
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, next)); // no shared folders

    // The review is the merged kit: both kits' domains, and what it is made of.
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardReviewComposition"))->property("text").toString(),
             QStringLiteral("Composed of: base + tool"));
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardReviewDomains"))->property("text").toString(),
             QStringLiteral("Allowed domains: allowed.test:*, other.test:*"));
    // The workload's image by the reference it was loaded from; any port of a named host is no wildcard.
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardReviewImage"))->property("text").toString(),
             QStringLiteral("Image: registry.example/kits/base:1"));
    QTRY_COMPARE(
        findInPopup(wizard, QStringLiteral("wizardReviewRoot"))->property("text").toString(),
        QStringLiteral("The sandbox's root is the image registry.example/kits/base:1, under a layer of its own."));
    QStringList warnings;
    for (QQuickItem *item : findItems(findInPopup(wizard, QStringLiteral("wizardReviewTitle"))->parentItem(),
                                      QStringLiteral("wizardWarning")))
        warnings << item->property("text").toString();
    QVERIFY2(!warnings.join(QLatin1Char('\n')).contains(QStringLiteral("every host matching")),
             qPrintable(warnings.join(QLatin1Char('\n'))));
    if (const QString shots = qEnvironmentVariable("PADDOCK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(m_window->grabWindow().save(shots + QStringLiteral("/wizard-composition.png")));
    QVERIFY(press(m_window, next));
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->property("visible").toBool(), 60000);

    // The sandbox is the composition: recorded so, and the mixin's program is on its root.
    const QJsonObject sandbox =
        daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), QStringLiteral("composed")}})
            .result()
            .value(QLatin1String("sandbox"))
            .toObject();
    QStringList parts;
    for (const QJsonValue &part : sandbox.value(QLatin1String("composition")).toArray())
        parts << part[QLatin1String("name")].toString();
    QCOMPARE(parts, (QStringList{QStringLiteral("base"), QStringLiteral("tool")}));
    // Its root is the workload's image, named by the reference it was loaded from, as `paddock ls` says.
    QCOMPARE(sandbox.value(QLatin1String("root")).toObject().value(QLatin1String("reference")).toString(),
             QStringLiteral("registry.example/kits/base:1"));
    QProcess cli;
    cli.start(QStringLiteral(PADDOCK_BIN),
              {QStringLiteral("exec"), QStringLiteral("composed"), QStringLiteral("--"), QStringLiteral("hello-tool")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.readAllStandardOutput().trimmed(), QByteArray("hello from the tool mixin"));
    cli.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("ls")});
    QVERIFY(cli.waitForFinished(60000));
    const QByteArray listed = cli.readAllStandardOutput();
    QVERIFY2(listed.contains("(image registry.example/kits/base:1)"), listed.constData());
    daemonCall(QStringLiteral("sandbox.remove"),
               {{QStringLiteral("name"), QStringLiteral("composed")}, {QStringLiteral("force"), true}});
}

void TestWizardComposition::wizardNamesAConstraintThatFails()
{
    QObject *wizard = openAtKitStep();
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_base"))));
    // The wizard starts each kit without mixins.
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardMixin_extra"))));
    QVERIFY(!findInPopup(wizard, QStringLiteral("wizardMixin_tool"))->property("checked").toBool());

    // extra needs tool: alone, the set does not resolve, and the error names what is missing.
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardMixin_extra"))));
    QQuickItem *error = findInPopup(wizard, QStringLiteral("wizardKitError"));
    QTRY_VERIFY(isShown(error));
    const QString text = error->property("text").toString();
    QVERIFY2(text.contains(QStringLiteral("extra")) && text.contains(QStringLiteral("tool")), qPrintable(text));
    QVERIFY(!next->isEnabled());
    // With tool as well, it does.
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardMixin_tool"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(!isShown(error));
    closeWizard(wizard);
}

void TestWizardComposition::wizardAsksForAMixinsKey()
{
    QObject *wizard = openAtKitStep();
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_base"))));
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardMixin_keyed"))));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardMixin_keyed"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, next));
    // The mixin's credential is the composition's: in the review, then its key asked for.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardReviewCredentials"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("toolsvc")));
    QVERIFY(press(m_window, next));
    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("6. Keys and approvals"), 15000);
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardKeyField_toolsvc"))));
    QVERIFY(!next->isEnabled());
    closeWizard(wizard);
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestWizardComposition, QGuiApplication)

#include "tst_wizard_composition.moc"

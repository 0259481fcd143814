// SPDX-License-Identifier: GPL-3.0-or-later
// Container engines in the window, with the real paddockd the window starts, the machine's Docker
// engine and a second one on 127.0.0.1 with TLS that shares nothing with this computer
// (LabEngine.h, which needs root): the Sandboxes page's "Add engine…" dialog adds it with its TLS
// files (an address the daemon refuses says why and keeps what was typed), it is listed, used and
// removed after a confirmation; the New sandbox wizard offers the engines with the one in use
// chosen, says what an engine of another computer gets, and creates the sandbox on the engine
// chosen, which the daemon, `paddock ls` and the sandbox's row then name.
#include "DockerTestSupport.h"
#include "KeyringSession.h"
#include "LabEngine.h"
#include "PageDriving.h"

#include "Needs.h"

#include <QJsonArray>
#include <QProcess>
#include <QtTest>

#include <unistd.h>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestEnginesWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void anEngineIsAddedUsedAndRemoved();
    void theWizardCreatesOnTheChosenEngine();

private:
    QString engineText(const QString &name)
    {
        QQuickItem *engineRow = findItem(m_window, QStringLiteral("engineRow_") + name);
        QQuickItem *label = engineRow ? engineRow->childItems().value(0) : nullptr;
        return label ? label->property("text").toString() : QString();
    }
    static QJsonObject listedEngine(const QString &name)
    {
        const api::Reply listed = daemonCall(QStringLiteral("engine.list"));
        for (const QJsonValue &engine : listed.result().value(QLatin1String("engines")).toArray()) {
            if (engine[QLatin1String("name")].toString() == name)
                return engine.toObject();
        }
        return {};
    }
    QString labAddress() const { return QStringLiteral("tcp://127.0.0.1:%1").arg(m_lab.port()); }
    void saveScreenshot(const QString &file)
    {
        const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR);
        QDir().mkpath(dir);
        QVERIFY(m_window->grabWindow().save(dir + QLatin1Char('/') + file));
    }

    test::LabEngine m_lab;
    QString m_home;
    QString m_workspace;
    QString m_kits;
    QString m_image;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestEnginesWindow::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(secrets::test::kUnavailableVariable));
    PADDOCK_NEED(::getuid() == 0, "root, to start a second Docker engine");
    PADDOCK_NEED(tests::docker::engineUnavailableReason().isEmpty(), tests::docker::engineUnavailableReason());
    const QString started = m_lab.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));

    m_home = isolateEnvironment();
    qputenv("PADDOCKD", PADDOCKD_BIN);
    qputenv("PADDOCK_INIT", PADDOCK_INIT_BIN);
    // No docker context of the machine's: the engines listed are the test's.
    qputenv("DOCKER_CONFIG", QFile::encodeName(m_home + QStringLiteral("/docker-config")));
    m_workspace = m_home + QStringLiteral("/project");
    m_kits = m_home + QStringLiteral("/kits");
    qputenv("PADDOCK_SAMPLE_KITS", QFile::encodeName(m_kits));
    QVERIFY(writeFile(m_workspace + QStringLiteral("/README.md"), "a project\n"));

    // A busybox image of the test's own on the machine's engine, and a kit that runs it.
    m_image = tests::docker::uniqueName(QStringLiteral("paddock-test/engines-window")) + QStringLiteral(":1");
    QTemporaryDir context;
    QVERIFY(tests::docker::writeBusyboxContext(context.path()));
    const runtime::docker::DockerClient client(tests::docker::testEndpoint());
    const runtime::docker::Result<QString> built = client.buildImage(tests::docker::ownImage(context.path(), m_image));
    QVERIFY2(built, qPrintable(built.errorMessage()));
    QVERIFY(writeFile(m_kits + QStringLiteral("/boxed/spec.yaml"),
                      QStringLiteral("schemaVersion: \"2\"\nkind: sandbox\nname: boxed\ndescription: Busybox.\n"
                                     "sandbox:\n  image: %1\n  entrypoint: [sh, -c]\n  command:\n"
                                     "    default: [\"sleep 600\"]\n")
                          .arg(m_image)
                          .toUtf8()));

    QVERIFY(useRecordingTerminal(m_home + QStringLiteral("/fake-terminal"), m_home + QStringLiteral("/terminal-args")));
    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QVERIFY(readyTerminalLauncher(m_window));
}

void TestEnginesWindow::cleanupTestCase()
{
    stopEverything();
    if (!m_image.isEmpty())
        (void)runtime::docker::DockerClient(tests::docker::testEndpoint()).removeImage(m_image, true);
}

void TestEnginesWindow::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestEnginesWindow::anEngineIsAddedUsedAndRemoved()
{
    QTRY_VERIFY_WITH_TIMEOUT(engineText(QStringLiteral("local")).contains(QStringLiteral("(in use)")), 15000);
    // this computer's engine is not Paddock's to remove.
    QVERIFY(!isShown(findItem(m_window, QStringLiteral("engineRemoveButton_local"))));

    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("engineAddButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("engineAddDialog"));
    QVERIFY(dialog);
    QQuickItem *name = findInPopup(dialog, QStringLiteral("engineNameField"));
    QQuickItem *address = findInPopup(dialog, QStringLiteral("engineAddressField"));
    QQuickItem *add = findInPopup(dialog, QStringLiteral("engineAddConfirmButton"));
    QQuickItem *error = findInPopup(dialog, QStringLiteral("engineAddError"));
    QVERIFY(name && address && add && error);
    QVERIFY(!add->isEnabled());
    QVERIFY(!isShown(findInPopup(dialog, QStringLiteral("engineCaField"))));

    // An address the daemon refuses: its words, the dialog still open with what was typed.
    const QString badAddress = QStringLiteral("ftp://127.0.0.1:%1").arg(m_lab.port());
    QVERIFY(type(m_window, name, QStringLiteral("lab")));
    QVERIFY(type(m_window, address, badAddress));
    QVERIFY(press(m_window, add));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(error), 15000);
    const api::Reply refused =
        daemonCall(QStringLiteral("engine.add"),
                   {{QStringLiteral("name"), QStringLiteral("lab")}, {QStringLiteral("host"), badAddress}});
    QVERIFY(refused.isError());
    QCOMPARE(error->property("text").toString(), refused.errorMessage());
    QVERIFY2(refused.errorMessage().contains(QStringLiteral("is not an engine address: use tcp://HOST:PORT")),
             qPrintable(refused.errorMessage()));
    QVERIFY(dialog->property("opened").toBool());
    QCOMPARE(name->property("text").toString(), QStringLiteral("lab"));
    QCOMPARE(address->property("text").toString(), badAddress);
    QVERIFY(listedEngine(QStringLiteral("lab")).isEmpty());
    saveScreenshot(QStringLiteral("engine-add-refused.png"));

    // A tcp:// address asks for the TLS files; the CA is picked in a file dialog. The refusal
    // was of the address typed before, and goes once it is edited.
    QVERIFY(type(m_window, address, labAddress()));
    QTRY_VERIFY(!isShown(error));
    QQuickItem *ca = findInPopup(dialog, QStringLiteral("engineCaField"));
    QTRY_VERIFY(isShown(ca));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("engineCaChoose"))));
    QObject *picker = nullptr;
    QTRY_VERIFY((picker = findObject(m_window, QStringLiteral("engineFilePicker"))) &&
                picker->property("visible").toBool());
    // What the dialog answers once a file is chosen in it.
    QVERIFY(picker->setProperty("selectedFile", QUrl::fromLocalFile(m_lab.file(QStringLiteral("ca.pem")))));
    QCOMPARE(picker->property("selectedFile").toUrl(), QUrl::fromLocalFile(m_lab.file(QStringLiteral("ca.pem"))));
    QVERIFY(QMetaObject::invokeMethod(picker, "accepted"));
    QTRY_COMPARE(ca->property("text").toString(), m_lab.file(QStringLiteral("ca.pem")));
    QVERIFY(QMetaObject::invokeMethod(picker, "close"));
    QTRY_VERIFY(!picker->property("visible").toBool());
    QVERIFY(
        type(m_window, findInPopup(dialog, QStringLiteral("engineCertField")), m_lab.file(QStringLiteral("cert.pem"))));
    QVERIFY(
        type(m_window, findInPopup(dialog, QStringLiteral("engineKeyField")), m_lab.file(QStringLiteral("key.pem"))));
    // It shares no folder with this computer although it is on 127.0.0.1.
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("engineRemoteCheck"))));
    QVERIFY(press(m_window, add));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("visible").toBool(), 60000);

    QTRY_VERIFY(!engineText(QStringLiteral("lab")).isEmpty());
    QVERIFY2(engineText(QStringLiteral("lab")).contains(labAddress() + QStringLiteral(", added in Paddock")),
             qPrintable(engineText(QStringLiteral("lab"))));
    QVERIFY(engineText(QStringLiteral("lab")).contains(QStringLiteral("on another computer")));
    const QJsonObject lab = listedEngine(QStringLiteral("lab"));
    QCOMPARE(lab[QLatin1String("source")].toString(), QStringLiteral("paddock"));
    QVERIFY(lab[QLatin1String("tls")].toBool());
    QVERIFY(!lab[QLatin1String("onThisComputer")].toBool());
    saveScreenshot(QStringLiteral("engines-added.png"));

    // Used from now on, then removed after a confirmation: this computer's again.
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("engineUseButton_lab"))));
    QTRY_VERIFY(engineText(QStringLiteral("lab")).contains(QStringLiteral("(in use)")));
    QCOMPARE(daemonCall(QStringLiteral("engine.list")).result().value(QLatin1String("use")).toString(),
             QStringLiteral("lab"));
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("engineRemoveButton_lab"))));
    QObject *confirm = openedDialog(m_window, QStringLiteral("engineRemoveDialog"));
    QVERIFY(confirm);
    QVERIFY(
        findInPopup(confirm, QStringLiteral("engineRemoveText"))->property("text").toString().contains(labAddress()));
    QVERIFY(press(m_window, findInPopup(confirm, QStringLiteral("engineRemoveCancelButton"))));
    QTRY_VERIFY(!confirm->property("visible").toBool());
    QVERIFY(!listedEngine(QStringLiteral("lab")).isEmpty());
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("engineRemoveButton_lab"))));
    QTRY_VERIFY(confirm->property("opened").toBool());
    QVERIFY(press(m_window, findInPopup(confirm, QStringLiteral("engineRemoveConfirmButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!findItem(m_window, QStringLiteral("engineRow_lab")), 15000);
    QVERIFY(listedEngine(QStringLiteral("lab")).isEmpty());
    QTRY_VERIFY(engineText(QStringLiteral("local")).contains(QStringLiteral("(in use)")));
}

void TestEnginesWindow::theWizardCreatesOnTheChosenEngine()
{
    // The machine's engine under a name of its own, and the lab as another computer's.
    const api::Reply here =
        daemonCall(QStringLiteral("engine.add"), {{QStringLiteral("name"), QStringLiteral("here")},
                                                  {QStringLiteral("host"), tests::docker::testEndpoint().display()}});
    QVERIFY2(!here.isError(), qPrintable(here.errorMessage()));
    const api::Reply lab =
        daemonCall(QStringLiteral("engine.add"), {{QStringLiteral("name"), QStringLiteral("lab")},
                                                  {QStringLiteral("host"), labAddress()},
                                                  {QStringLiteral("tlsCa"), m_lab.file(QStringLiteral("ca.pem"))},
                                                  {QStringLiteral("tlsCert"), m_lab.file(QStringLiteral("cert.pem"))},
                                                  {QStringLiteral("tlsKey"), m_lab.file(QStringLiteral("key.pem"))},
                                                  {QStringLiteral("remote"), true}});
    QVERIFY2(!lab.isError(), qPrintable(lab.errorMessage()));

    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QObject *model = findObject(m_window, QStringLiteral("sandboxWizard"));
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QVERIFY(model && next);
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_boxed"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    // Docker: the engines offered, the one in use chosen.
    QQuickItem *engines = findInPopup(wizard, QStringLiteral("wizardEngineChoice"));
    QVERIFY(engines && !isShown(engines));
    QQuickItem *docker = findInPopup(wizard, QStringLiteral("wizardBackendDocker"));
    QTRY_VERIFY(docker->isEnabled());
    QVERIFY(press(m_window, docker));
    QTRY_VERIFY(isShown(engines));
    QTRY_COMPARE(model->property("engine").toString(), QStringLiteral("local"));
    QVERIFY2(engines->property("displayText").toString().startsWith(QStringLiteral("local (in use)")),
             qPrintable(engines->property("displayText").toString()));
    QQuickItem *note = findInPopup(wizard, QStringLiteral("wizardEngineRemoteNote"));
    QVERIFY(note && !isShown(note));
    // Another computer's: the step says it gets a clone of the workspace.
    const auto choose = [&](const QString &engine) {
        engines->forceActiveFocus(Qt::TabFocusReason);
        for (int i = 0; i < 6 && model->property("engine").toString() != engine; ++i)
            QTest::keyClick(m_window, Qt::Key_Down);
        return model->property("engine").toString() == engine;
    };
    QVERIFY(choose(QStringLiteral("lab")));
    QTRY_VERIFY(isShown(note));
    QVERIFY2(note->property("text").toString().contains(QStringLiteral("a clone of the workspace")),
             qPrintable(note->property("text").toString()));
    QVERIFY(engines->property("displayText").toString().contains(QStringLiteral("another computer")));
    // Direct or clone is no choice there: the workspace's choice is not offered.
    QQuickItem *direct = findInPopup(wizard, QStringLiteral("wizardModeDirect"));
    QVERIFY(direct && !isShown(direct));
    QVERIFY(!isShown(findInPopup(wizard, QStringLiteral("wizardModeClone"))));
    saveScreenshot(QStringLiteral("wizard-engine.png"));
    engines->forceActiveFocus(Qt::TabFocusReason);
    QTest::keyClick(m_window, Qt::Key_Up);
    QTRY_COMPARE(model->property("engine").toString(), QStringLiteral("here"));
    QVERIFY(!isShown(note));
    QVERIFY(isShown(direct));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardNameField")), QStringLiteral("on-here")));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("4. Shared folders and variables"));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("6. Create and start"), 15000);
    QVERIFY2(findInPopup(wizard, QStringLiteral("wizardSummary"))
                 ->property("text")
                 .toString()
                 .startsWith(QStringLiteral("Create a Docker (engine here) sandbox")),
             qPrintable(findInPopup(wizard, QStringLiteral("wizardSummary"))->property("text").toString()));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->property("visible").toBool(), 120000);

    // The daemon made it on that engine, as `paddock ls --json` and `paddock ls` say.
    QProcess ls;
    ls.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("ls"), QStringLiteral("--json")});
    QVERIFY(ls.waitForFinished(30000) && ls.exitCode() == 0);
    QJsonObject created;
    for (const QJsonValue &sandbox : QJsonDocument::fromJson(ls.readAllStandardOutput()).array()) {
        if (sandbox[QLatin1String("name")].toString() == QLatin1String("on-here"))
            created = sandbox.toObject();
    }
    QCOMPARE(created[QLatin1String("engine")].toString(), QStringLiteral("here"));
    QCOMPARE(created[QLatin1String("backend")].toString(), QStringLiteral("docker"));
    QCOMPARE(created[QLatin1String("status")].toString(), QStringLiteral("running"));
    ls.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("ls")});
    QVERIFY(ls.waitForFinished(30000) && ls.exitCode() == 0);
    QVERIFY(QString::fromUtf8(ls.readAllStandardOutput()).contains(QStringLiteral("docker@here")));
    // Its row names the engine; a bubblewrap sandbox's names none.
    QTRY_VERIFY_WITH_TIMEOUT(findItem(m_window, QStringLiteral("sandboxRow_on-here")), 15000);
    QQuickItem *details =
        findItem(findItem(m_window, QStringLiteral("sandboxRow_on-here")), QStringLiteral("sandboxDetails"));
    QVERIFY2(details->property("text").toString().startsWith(QStringLiteral("Kit boxed · docker on engine here")),
             qPrintable(details->property("text").toString()));

    QVERIFY(!daemonCall(QStringLiteral("sandbox.remove"),
                        {{QStringLiteral("name"), QStringLiteral("on-here")}, {QStringLiteral("force"), true}})
                 .isError());
    for (const QString &engine : {QStringLiteral("here"), QStringLiteral("lab")})
        QVERIFY(!daemonCall(QStringLiteral("engine.remove"), {{QStringLiteral("name"), engine}}).isError());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestEnginesWindow, QGuiApplication)
#include "tst_engines_window.moc"

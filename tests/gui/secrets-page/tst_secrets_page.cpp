// SPDX-License-Identifier: GPL-3.0-or-later
// The Secrets page with the real paddockd and a private GNOME Keyring: a key typed in the
// password field is stored (secret.list then shows it masked, and no file of the test's XDG
// directories holds it), replaced and removed; a custom secret set on the command line is listed
// and removed from the page; with no keychain reachable, a banner says what to install.
#include "KeyringSession.h"
#include "PageDriving.h"

#include "Needs.h"

#include "secrets/SecretStore.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QString kKey = QStringLiteral("sk-page-Rb3Nq8Wd5Yk2Pf7Jx4Mv9");
const QString kReplacement = QStringLiteral("sk-newer-Gt6Hs1Lc8Zu3Ae5Oi2Wq7");

QString masked(const QString &key)
{
    return key.left(4) + QStringLiteral("…") + key.right(4);
}

/** The masked value secret.list reports for @p service, empty when it is not listed. */
QString listedMask(const QString &service)
{
    for (const QJsonValue &value :
         daemonCall(QStringLiteral("secret.list")).result().value(QLatin1String("secrets")).toArray()) {
        if (value.toObject().value(QLatin1String("service")).toString() == service)
            return value.toObject().value(QLatin1String("masked")).toString();
    }
    return QString();
}

} // namespace

class TestSecretsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void setShowsTheKeyMasked();
    void replaceChangesTheKey();
    void removeAsksThenRemoves();
    void saysWhichKeysTheKitsNeed();
    void commandSourceIsShownWithATestButton();
    void customSecretIsListedWithRemoveOnly();
    void customSecretIsRemovedFromThePage();
    void noKeychainShowsWhatToInstall();

private:
    QQuickItem *item(const QString &name) { return findItem(findItem(m_window, QStringLiteral("page_secrets")), name); }
    QQuickItem *row(const QString &name) { return item(QStringLiteral("secretRow_") + name); }
    /** `paddock secret set-custom NAME --host HOST --env VARIABLE`, the value on stdin. */
    static bool setCustom(const QString &name, const QString &host, const QString &variable, const QByteArray &value)
    {
        QProcess cli;
        cli.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("secret"), QStringLiteral("set-custom"), name,
                                                QStringLiteral("--host"), host, QStringLiteral("--env"), variable});
        cli.write(value);
        cli.closeWriteChannel();
        return cli.waitForFinished(60000) && cli.exitCode() == 0;
    }
    /**
     * The anthropic key listed on the page: saved from the page unless an earlier test
     * (setShowsTheKeyMasked) did, so the tests that change or remove it each run alone.
     */
    bool ensureKeyListed()
    {
        if (row(QStringLiteral("anthropic")))
            return true;
        if (!type(m_window, item(QStringLiteral("secretServiceField")), QStringLiteral("anthropic")) ||
            !type(m_window, item(QStringLiteral("secretValueField")), kKey) ||
            !press(m_window, item(QStringLiteral("secretSaveButton"))))
            return false;
        return QTest::qWaitFor([this] { return row(QStringLiteral("anthropic")) != nullptr; }, 20000);
    }

    QString m_home;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestSecretsPage::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(secrets::test::kUnavailableVariable));
    m_home = isolateEnvironment();
    qputenv("PADDOCKD", PADDOCKD_BIN);
    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QTest::keyClick(m_window, Qt::Key_4, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(item(QStringLiteral("secretServiceField")), 20000);
    QTRY_VERIFY(isShown(item(QStringLiteral("secretsEmpty"))));
    QVERIFY(!isShown(item(QStringLiteral("keychainBanner"))));
}

void TestSecretsPage::cleanupTestCase()
{
    stopEverything();
}

void TestSecretsPage::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestSecretsPage::setShowsTheKeyMasked()
{
    QQuickItem *value = item(QStringLiteral("secretValueField"));
    QQuickItem *save = item(QStringLiteral("secretSaveButton"));
    QCOMPARE(value->property("echoMode").toInt(), 2); // TextInput.Password: never shown
    QVERIFY(!save->isEnabled());
    QVERIFY(type(m_window, item(QStringLiteral("secretServiceField")), QStringLiteral("anthropic")));
    QVERIFY(!save->isEnabled()); // no value yet
    QVERIFY(type(m_window, value, kKey));
    QCOMPARE(value->property("displayText").toString().contains(kKey.mid(3, 6)), false);
    QVERIFY(save->isEnabled());
    QVERIFY(press(m_window, save));

    // Cleared once handed on, then listed masked, by the page and by the daemon.
    QCOMPARE(value->property("text").toString(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("anthropic")), 20000);
    QCOMPARE(findItem(row(QStringLiteral("anthropic")), QStringLiteral("secretMasked"))->property("text").toString(),
             masked(kKey));
    QCOMPARE(listedMask(QStringLiteral("anthropic")), masked(kKey));
    QTRY_VERIFY(item(QStringLiteral("secretsMessage"))->property("text").toString().contains(QStringLiteral("stored")));
    QVERIFY(!isShown(item(QStringLiteral("secretsEmpty"))));

    // In the keychain only.
    const QStringList files = filesContaining(m_home, kKey.toUtf8());
    QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char('\n'))));

    // A picture of the page with a key, next to the shell test's screenshots.
    QDir().mkpath(QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en"));
    m_window->grabWindow().save(QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en/secrets-populated.png"));
}

void TestSecretsPage::replaceChangesTheKey()
{
    QVERIFY(ensureKeyListed());
    QQuickItem *anthropic = row(QStringLiteral("anthropic"));
    QVERIFY(anthropic);
    QQuickItem *field = findItem(anthropic, QStringLiteral("secretReplaceField"));
    QVERIFY(!isShown(field));
    QVERIFY(press(m_window, findItem(anthropic, QStringLiteral("secretReplaceButton"))));
    QTRY_VERIFY(isShown(field));
    QCOMPARE(field->property("echoMode").toInt(), 2);
    QVERIFY(type(m_window, field, kReplacement));
    QVERIFY(press(m_window, findItem(anthropic, QStringLiteral("secretReplaceSaveButton"))));
    QTRY_COMPARE_WITH_TIMEOUT(listedMask(QStringLiteral("anthropic")), masked(kReplacement), 20000);
    QTRY_COMPARE(
        findItem(row(QStringLiteral("anthropic")), QStringLiteral("secretMasked"))->property("text").toString(),
        masked(kReplacement));
    QVERIFY(filesContaining(m_home, kReplacement.toUtf8()).isEmpty());
}

void TestSecretsPage::removeAsksThenRemoves()
{
    QVERIFY(ensureKeyListed());
    QObject *dialog = findObject(m_window, QStringLiteral("secretRemoveDialog"));
    QVERIFY(dialog);
    QVERIFY(press(m_window, findItem(row(QStringLiteral("anthropic")), QStringLiteral("secretRemoveButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("secretRemoveConfirmButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("anthropic")), 20000);
    QCOMPARE(listedMask(QStringLiteral("anthropic")), QString());
    QTRY_VERIFY(isShown(item(QStringLiteral("secretsEmpty"))));
}

void TestSecretsPage::saysWhichKeysTheKitsNeed()
{
    // The Pi sample kit sends the key of the service ilaas: the page says so, and suggests it.
    const QString neededName = QStringLiteral("secretNeeded_pi_ilaas");
    QTRY_VERIFY(item(neededName));
    QCOMPARE(item(neededName)->property("text").toString(), QStringLiteral("Needed by pi: ilaas — not stored"));
    QCOMPARE(item(QStringLiteral("secretServiceField"))->property("placeholderText").toString(),
             QStringLiteral("as the kit names it, e.g. ilaas"));
    // Stored, it says so.
    QVERIFY(type(m_window, item(QStringLiteral("secretServiceField")), QStringLiteral("ilaas")));
    QVERIFY(type(m_window, item(QStringLiteral("secretValueField")), kKey));
    QVERIFY(press(m_window, item(QStringLiteral("secretSaveButton"))));
    QTRY_COMPARE_WITH_TIMEOUT(item(neededName)->property("text").toString(),
                              QStringLiteral("Needed by pi: ilaas — stored"), 20000);
    QVERIFY(
        !daemonCall(QStringLiteral("secret.remove"), {{QStringLiteral("service"), QStringLiteral("ilaas")}}).isError());
}

void TestSecretsPage::commandSourceIsShownWithATestButton()
{
    // Given on the command line: the page lists the command instead of a masked value.
    QProcess cli;
    cli.start(QStringLiteral(PADDOCK_BIN),
              {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("gh"), QStringLiteral("--command"),
               QStringLiteral("gh auth token"), QStringLiteral("--refresh"), QStringLiteral("on-demand")});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QVERIFY(QMetaObject::invokeMethod(findObject(m_window, QStringLiteral("secretListModel")), "refresh"));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("gh")), 20000);
    QQuickItem *gh = row(QStringLiteral("gh"));
    QVERIFY(!isShown(findItem(gh, QStringLiteral("secretMasked"))));
    QCOMPARE(findItem(gh, QStringLiteral("secretSource"))->property("text").toString(),
             QStringLiteral("Command: gh auth token (run for every request)"));
    QCOMPARE(findItem(gh, QStringLiteral("secretResolved"))->property("text").toString(),
             QStringLiteral("Not resolved yet"));
    // Test asks the daemon's secret.test, which says why it cannot try the key: no kit uses it.
    QVERIFY(press(m_window, findItem(gh, QStringLiteral("secretTestButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(
        item(QStringLiteral("secretsMessage"))->property("text").toString().contains(QStringLiteral("gh")), 20000);
    QVERIFY(
        !daemonCall(QStringLiteral("secret.remove"), {{QStringLiteral("service"), QStringLiteral("gh")}}).isError());
    QVERIFY(QMetaObject::invokeMethod(findObject(m_window, QStringLiteral("secretListModel")), "refresh"));
    QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("gh")), 20000);
}

void TestSecretsPage::customSecretIsListedWithRemoveOnly()
{
    // Set on the command line: the page lists it with its variable and hosts; it can be removed.
    QVERIFY(setCustom(QStringLiteral("jira"), QStringLiteral("jira.example.com"), QStringLiteral("JIRA_TOKEN"),
                      "jira-value-Kd8Wq2Ls5Np3"));
    QVERIFY(QMetaObject::invokeMethod(findObject(m_window, QStringLiteral("secretListModel")), "refresh"));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("jira")), 20000);
    QQuickItem *jira = row(QStringLiteral("jira"));
    QCOMPARE(findItem(jira, QStringLiteral("secretSource"))->property("text").toString(),
             QStringLiteral("Placeholder in JIRA_TOKEN, replaced for jira.example.com"));
    QVERIFY(!isShown(findItem(jira, QStringLiteral("secretMasked"))));
    QVERIFY(!isShown(findItem(jira, QStringLiteral("secretResolved")))); // nothing runs for it
    for (const char *button : {"secretTestButton", "secretReplaceButton"})
        QVERIFY2(!isShown(findItem(jira, QLatin1String(button))), button);
    QVERIFY(isShown(findItem(jira, QStringLiteral("secretRemoveButton"))));
    QProcess remove;
    remove.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("jira")});
    QVERIFY(remove.waitForFinished(60000) && remove.exitCode() == 0);
    QVERIFY(QMetaObject::invokeMethod(findObject(m_window, QStringLiteral("secretListModel")), "refresh"));
    QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("jira")), 20000);
}

void TestSecretsPage::customSecretIsRemovedFromThePage()
{
    const QByteArray value = "hook-value-Tq4Vb7Nc2Xr9";
    QVERIFY(setCustom(QStringLiteral("hook"), QStringLiteral("hooks.example.com,*.hooks.test"),
                      QStringLiteral("HOOK_TOKEN"), value));
    secrets::SecretStore store;
    const auto keychainValue = [&store] {
        secrets::SecretResult read = secrets::SecretStore::wait([&store](secrets::SecretStore::Callback done) {
            store.getKeyMaterial(QStringLiteral("custom-hook"), done);
        });
        return read;
    };
    QCOMPARE(keychainValue().value, value);
    QVERIFY(QMetaObject::invokeMethod(findObject(m_window, QStringLiteral("secretListModel")), "refresh"));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("hook")), 20000);

    // Remove… asks first, naming what sandboxes hold and where it was replaced.
    QObject *dialog = findObject(m_window, QStringLiteral("customSecretRemoveDialog"));
    QVERIFY(dialog);
    QVERIFY(press(m_window, findItem(row(QStringLiteral("hook")), QStringLiteral("secretRemoveButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QCOMPARE(dialog->property("title").toString(), QStringLiteral("Remove the custom secret hook?"));
    const QString text = findInPopup(dialog, QStringLiteral("customSecretRemoveText"))->property("text").toString();
    QVERIFY2(text.contains(QStringLiteral("HOOK_TOKEN")) &&
                 text.contains(QStringLiteral("hooks.example.com, *.hooks.test")),
             qPrintable(text));
    // Cancel keeps it.
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("customSecretRemoveCancelButton"))));
    QTRY_VERIFY(!dialog->property("opened").toBool());
    QVERIFY(row(QStringLiteral("hook")));
    QVERIFY(press(m_window, findItem(row(QStringLiteral("hook")), QStringLiteral("secretRemoveButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("customSecretRemoveConfirmButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("hook")), 20000);

    // Gone for the command line and from the keychain.
    QProcess list;
    list.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY(list.waitForFinished(60000) && list.exitCode() == 0);
    const QByteArray listed = list.readAllStandardOutput();
    QVERIFY2(!listed.contains("hook") && !listed.contains("HOOK_TOKEN"), listed.constData());
    QCOMPARE(keychainValue().error, secrets::SecretError::NotFound);
}

void TestSecretsPage::noKeychainShowsWhatToInstall()
{
    // The daemon started again without a session bus: nothing answers for the keychain.
    stopEverything();
    QTRY_VERIFY_WITH_TIMEOUT(!item(QStringLiteral("secretServiceField")), 15000);
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("daemonRetryButton"))));
    // QtKeychain gives up on the Secret Service only after D-Bus's own 25 s timeout.
    QTRY_VERIFY_WITH_TIMEOUT(isShown(item(QStringLiteral("keychainBanner"))), 60000);
    QVERIFY(item(QStringLiteral("keychainBannerInstall"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("gnome-keyring")));
    QVERIFY(item(QStringLiteral("keychainBannerTitle"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("No keychain")));
    // Nothing can be typed into a keychain that is not there.
    QVERIFY(!item(QStringLiteral("secretSaveButton"))->isEnabled());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSecretsPage, QGuiApplication)

#include "tst_secrets_page.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page in the window, on the offscreen platform, with the real daemon and a real
// sandbox: the preset and rules it shows, a rule added, filtered and removed through the
// dialog, a refused host allowed with the keyboard (A) and another dismissed (D), the Allow
// dialog's choices and the command it shares with the refusal, a secret-guard refusal's value
// allowed for its sandbox.
#include "NetworkTestSupport.h"
#include "PageDriver.h"
#include "TestFiles.h"

#include "NetworkPolicy.h"
#include "events/NetworkEvent.h"

#include <QUuid>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestNetworkPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void showsThePresetAndTheKitsRules();
    void addFilterAndRemoveARule();
    void refusedHostAllowedWithTheKeyboard();
    void refusedHostDismissedWithTheKeyboard();
    void allowDialogOffersDistinctRulesAndTheRefusalsCommand();
    void secretGuardRefusalAllowsTheValue();
    void capturedConnectionAllowedForItsPort();
    void aCopiedProgramIsMarkedWrittenInside();
    void presetChangedFromThePage();
    void learningSwitchedFromThePage();
    void requestsShownLiveAndFiltered();
    void upstreamProxySetFromThePage();

private:
    QQuickItem *item(const QString &name) { return findItem(m_window, name); }
    int listCount(const QString &name) { return item(name) ? item(name)->property("count").toInt() : -1; }
    QQuickItem *denialRow(const QString &host)
    {
        return findItemWith(m_window, QStringLiteral("denialRow"), "host", host);
    }

    NetworkFixture m_network;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestNetworkPage::initTestCase()
{
    QVERIFY2(m_network.setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(m_network.startSandbox());
    WarningRecorder::install();
    m_window = openMainWindow(this, &m_engine);
    QVERIFY(m_window);
    m_window->resize(1100, 900);
    QTest::keyClick(m_window, Qt::Key_3, Qt::ControlModifier);
    QQuickItem *page = item(QStringLiteral("page_network"));
    QVERIFY(page);
    QTRY_VERIFY(isShown(page));
    QTRY_VERIFY_WITH_TIMEOUT(!isShown(item(QStringLiteral("networkNotConnected"))), 15000);
}

void TestNetworkPage::cleanup()
{
    const QStringList warnings = WarningRecorder::messages();
    WarningRecorder::clear();
    if (!warnings.isEmpty())
        QFAIL(qPrintable(QStringLiteral("warnings:\n") + warnings.join(QLatin1Char('\n'))));
}

void TestNetworkPage::showsThePresetAndTheKitsRules()
{
    QTRY_COMPARE(item(QStringLiteral("presetBox"))->property("currentText").toString(), QStringLiteral("deny-all"));
    QTRY_VERIFY(!item(QStringLiteral("presetDescription"))->property("text").toString().isEmpty());
    // The running kit's allow rule, read-only: its Edit and Remove are off.
    QTRY_VERIFY(listCount(QStringLiteral("ruleList")) >= 1);
    QQuickItem *kitRule = findItemWith(m_window, QStringLiteral("ruleRow"), "origin", QStringLiteral("kit"));
    QVERIFY(kitRule);
    QVERIFY(kitRule->property("pattern").toString().startsWith(QLatin1String("allowed.test")));
    QVERIFY(!childOf(kitRule, QStringLiteral("ruleRemoveButton"))->isEnabled());
    QVERIFY(isShown(item(QStringLiteral("denialsEmpty"))));
    QCOMPARE(accessibleName(item(QStringLiteral("ruleFilterField"))), QStringLiteral("Filter rules"));
}

void TestNetworkPage::addFilterAndRemoveARule()
{
    QTRY_VERIFY(listCount(QStringLiteral("ruleList")) >= 1);
    const int before = listCount(QStringLiteral("ruleList"));
    QVERIFY(clickItem(m_window, item(QStringLiteral("ruleAddButton"))));
    QObject *dialog = findObject(m_window, QStringLiteral("ruleDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->property("opened").toBool());
    typeInto(m_window, item(QStringLiteral("rulePatternField")), QStringLiteral("pypi.org"));
    QVERIFY(clickItem(m_window, item(QStringLiteral("ruleSaveButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_COMPARE(listCount(QStringLiteral("ruleList")), before + 1);
    QVERIFY(m_network.userRules().contains(QStringLiteral("global pypi.org")));

    // A refused pattern keeps the dialog open and says why.
    QVERIFY(clickItem(m_window, item(QStringLiteral("ruleAddButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    typeInto(m_window, item(QStringLiteral("rulePatternField")), QStringLiteral("**"));
    QVERIFY(clickItem(m_window, item(QStringLiteral("ruleSaveButton"))));
    QTRY_VERIFY(isShown(item(QStringLiteral("ruleError"))));
    QVERIFY(dialog->property("visible").toBool());
    QTest::keyClick(m_window, Qt::Key_Escape);
    QTRY_VERIFY(!dialog->property("visible").toBool());

    typeInto(m_window, item(QStringLiteral("ruleFilterField")), QStringLiteral("pypi"));
    QTRY_COMPARE(listCount(QStringLiteral("ruleList")), 1);
    QQuickItem *row = findItemWith(m_window, QStringLiteral("ruleRow"), "pattern", QStringLiteral("pypi.org"));
    QVERIFY(row);
    QVERIFY(clickItem(m_window, childOf(row, QStringLiteral("ruleRemoveButton"))));
    QTRY_COMPARE(listCount(QStringLiteral("ruleList")), 0);
    QVERIFY(isShown(item(QStringLiteral("rulesEmpty"))));
    QVERIFY(!m_network.userRules().contains(QStringLiteral("global pypi.org")));
    item(QStringLiteral("ruleFilterField"))->setProperty("text", QString());
    QTRY_COMPARE(listCount(QStringLiteral("ruleList")), before);
}

void TestNetworkPage::refusedHostAllowedWithTheKeyboard()
{
    QCOMPARE(m_network.fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    QTRY_VERIFY(denialRow(QStringLiteral("other.test")));
    QQuickItem *row = denialRow(QStringLiteral("other.test"));
    QCOMPARE(row->property("sandbox").toString(), QStringLiteral("net"));
    // A refused domain offers the domain's actions, not a value's.
    QVERIFY(isShown(childOf(row, QStringLiteral("denialAllowButton"))));
    QVERIFY(!isShown(childOf(row, QStringLiteral("denialAllowValueButton"))));
    QCOMPARE(childOf(row, QStringLiteral("denialCount"))->property("text").toString(), QStringLiteral("× 1"));
    QVERIFY(!isShown(item(QStringLiteral("denialsEmpty"))));
    // Counted again in the same row.
    QCOMPARE(m_network.fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    QTRY_COMPARE(
        childOf(denialRow(QStringLiteral("other.test")), QStringLiteral("denialCount"))->property("text").toString(),
        QStringLiteral("× 2"));
    QCOMPARE(listCount(QStringLiteral("denialList")), 1);

    QQuickItem *list = item(QStringLiteral("denialList"));
    scrollIntoView(list);
    list->forceActiveFocus();
    QTest::keyClick(m_window, Qt::Key_A);
    QObject *dialog = findObject(m_window, QStringLiteral("denialAllowDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->property("opened").toBool());
    // The narrowest choice first: this sandbox, this exact host.
    QVERIFY(item(QStringLiteral("allowWhereSandbox"))->property("checked").toBool());
    QVERIFY(item(QStringLiteral("allowWhatExact"))->property("checked").toBool());
    QCOMPARE(item(QStringLiteral("allowWhatWildcard"))->isEnabled(), false); // other.test: under a top-level domain
    QVERIFY(clickItem(m_window, item(QStringLiteral("allowConfirmButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_VERIFY(!denialRow(QStringLiteral("other.test")));
    QCOMPARE(m_network.fetch(QStringLiteral("other.test")), QStringLiteral("200"));
    QVERIFY(m_network.userRules().contains(
        QStringLiteral("sandbox:net other.test:%1").arg(m_network.fixture().upstreamPort())));
    QVERIFY(item(QStringLiteral("networkMessage"))->property("text").toString().contains(QLatin1String("other.test")));
}

void TestNetworkPage::refusedHostDismissedWithTheKeyboard()
{
    QCOMPARE(m_network.fetch(QStringLiteral("third.test")), QStringLiteral("403"));
    QTRY_VERIFY(denialRow(QStringLiteral("third.test")));
    const QStringList rulesBefore = m_network.userRules();
    QQuickItem *list = item(QStringLiteral("denialList"));
    scrollIntoView(list);
    list->forceActiveFocus();
    QTest::keyClick(m_window, Qt::Key_D);
    QTRY_VERIFY(!denialRow(QStringLiteral("third.test")));
    QCOMPARE(m_network.userRules(), rulesBefore);
    QCOMPARE(m_network.fetch(QStringLiteral("third.test")), QStringLiteral("403"));
    // Refused again: back, and Delete dismisses too.
    QTRY_VERIFY(denialRow(QStringLiteral("third.test")));
    list->forceActiveFocus();
    QTest::keyClick(m_window, Qt::Key_Delete);
    QTRY_VERIFY(!denialRow(QStringLiteral("third.test")));
}

/** True when every line of the TextEdit @p edit starts right after a space: no word is cut. */
static bool wrapsOnlyAtSpaces(QQuickItem *edit, QString *where)
{
    const QString text = edit->property("text").toString();
    qreal lineTop = -1;
    for (int i = 0; i < text.size(); ++i) {
        QRectF rect;
        QMetaObject::invokeMethod(edit, "positionToRectangle", Q_RETURN_ARG(QRectF, rect), Q_ARG(int, i));
        if (i > 0 && rect.y() > lineTop + 1 && text.at(i - 1) != QLatin1Char(' ')) {
            *where = text.left(i) + QStringLiteral(" | ") + text.mid(i);
            return false;
        }
        lineTop = rect.y();
    }
    return true;
}

void TestNetworkPage::allowDialogOffersDistinctRulesAndTheRefusalsCommand()
{
    // What a client inside reads on its refusal, on a port other than 443.
    const QString body = m_network.fixture()
                             .paddock({QStringLiteral("exec"), QStringLiteral("net"), QStringLiteral("curl"),
                                       QStringLiteral("-s"), m_network.url(QStringLiteral("fourth.test"))})
                             .out;
    QVERIFY2(body.contains(QLatin1String("To allow it: ")), qPrintable(body));
    QTRY_VERIFY(denialRow(QStringLiteral("fourth.test")));
    QVERIFY(
        clickItem(m_window, childOf(denialRow(QStringLiteral("fourth.test")), QStringLiteral("denialAllowButton"))));
    QObject *dialog = findObject(m_window, QStringLiteral("denialAllowDialog"));
    QTRY_VERIFY(dialog && dialog->property("opened").toBool());

    // Every choice offered reads differently and makes a different rule.
    QStringList labels;
    QStringList patterns;
    const QVariantMap choices = dialog->property("choices").toMap();
    for (const char *what : {"Exact", "AnyPort", "Wildcard", "Deep", "HostPort"}) {
        QQuickItem *choice = item(QStringLiteral("allowWhat") + QLatin1String(what));
        if (!choice || !isShown(choice) || !choice->isEnabled())
            continue;
        labels << choice->property("text").toString();
        patterns << choices.value(QString::fromLatin1(what).toLower()).toString();
    }
    QVERIFY2(labels.size() >= 2, qPrintable(labels.join(QLatin1Char('\n'))));
    QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
    QCOMPARE(QSet<QString>(patterns.cbegin(), patterns.cend()).size(), patterns.size());

    // The command to copy is the one the refusal printed, and no word of it is cut.
    QQuickItem *commandText = nullptr;
    for (QQuickItem *text : findItems(m_window, QStringLiteral("commandText"))) {
        if (isShown(text))
            commandText = text;
    }
    QVERIFY(commandText);
    const QString suggested = commandText->property("text").toString();
    QVERIFY2(body.contains(QStringLiteral("To allow it: ") + suggested + QLatin1Char('\n')),
             qPrintable(suggested + QStringLiteral(" / ") + body));
    QString cut;
    QVERIFY2(wrapsOnlyAtSpaces(commandText, &cut), qPrintable(cut));
    QVERIFY(clickItem(m_window, item(QStringLiteral("allowCancelButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
}

void TestNetworkPage::secretGuardRefusalAllowsTheValue()
{
    // A value of the sandbox's .env, refused on its way to a domain its key goes to: the refusal
    // as the daemon's `network` topic carries it (the whole flow through a provider is
    // tst_sandbox_secret_guard's), then allowed through the window and the real daemon.
    const QByteArray value = "sk-window-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    QVERIFY(test::writeFile(m_network.fixture().workspace() + QStringLiteral("/.env"), "OPENAI_KEY=" + value + '\n'));
    auto *policy =
        qobject_cast<gui::NetworkPolicy *>(item(QStringLiteral("page_network"))->property("policy").value<QObject *>());
    QVERIFY(policy);
    events::NetworkEvent refusal;
    refusal.time = events::currentEventTime();
    refusal.sandbox = QLatin1String(NetworkFixture::kSandbox);
    refusal.host = QStringLiteral("api.provider.test");
    refusal.port = 443;
    refusal.rule = events::secretGuardRule({QStringLiteral(".env"), QStringLiteral("OPENAI_KEY")});
    refusal.reason = QStringLiteral("POST request refused: it contains the value of OPENAI_KEY from .env");
    policy->denials()->addEvent(refusal.toJson());

    QTRY_VERIFY(denialRow(QStringLiteral("api.provider.test")));
    QQuickItem *row = denialRow(QStringLiteral("api.provider.test"));
    QVERIFY(!isShown(childOf(row, QStringLiteral("denialAllowButton")))); // the domain is allowed already
    QQuickItem *allowValue = childOf(row, QStringLiteral("denialAllowValueButton"));
    QVERIFY(isShown(allowValue));
    QCOMPARE(allowValue->property("text").toString(), QStringLiteral("Allow this value for net…"));
    scrollIntoView(allowValue);
    QVERIFY(clickItem(m_window, allowValue));
    QObject *dialog = findObject(m_window, QStringLiteral("guardValueAllowDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->property("opened").toBool());
    const QString warning = item(QStringLiteral("guardValueAllowText"))->property("text").toString();
    QVERIFY2(warning.contains(QLatin1String("OPENAI_KEY from .env")) &&
                 warning.contains(QLatin1String("model provider")),
             qPrintable(warning));
    QVERIFY(clickItem(m_window, item(QStringLiteral("guardValueAllowConfirmButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_VERIFY(!denialRow(QStringLiteral("api.provider.test")));

    const test::Finished shown = m_network.fixture().paddock(
        {QStringLiteral("guard"), QStringLiteral("show"), QLatin1String(NetworkFixture::kSandbox)});
    QCOMPARE(shown.exitCode, 0);
    const QStringList line = shown.out.split(QLatin1Char('\n')).filter(QStringLiteral("OPENAI_KEY"));
    QCOMPARE(line.size(), 1);
    QVERIFY2(line.first().contains(QLatin1String(".env")) && line.first().contains(QLatin1String("allowed")),
             qPrintable(shown.out));
    QVERIFY(!shown.out.contains(QString::fromUtf8(value)));
}

void TestNetworkPage::capturedConnectionAllowedForItsPort()
{
    // A client that ignores the proxy: its connection is captured inside the sandbox and refused.
    QVERIFY(m_network.fixture().mapToUpstream({QStringLiteral("raw.test")}).exitCode == 0);
    const QString port = QString::number(m_network.fixture().upstreamPort());
    const auto statusLine = [&] {
        const QString script =
            QStringLiteral("import socket\ns = socket.create_connection(('raw.test', %1), timeout=20)\n"
                           "s.sendall(b'GET /hello.txt HTTP/1.0\\r\\n\\r\\n')\n"
                           "print(s.makefile('rb').readline().decode().strip())")
                .arg(port);
        return m_network.fixture()
            .paddock({QStringLiteral("exec"), QStringLiteral("net"), QStringLiteral("python3"), QStringLiteral("-c"),
                      script})
            .out.trimmed();
    };
    QCOMPARE(statusLine(), QStringLiteral("HTTP/1.1 403 Forbidden"));
    QTRY_VERIFY(denialRow(QStringLiteral("raw.test")));
    QQuickItem *row = denialRow(QStringLiteral("raw.test"));
    // The row names the port, and how the connection was made.
    QCOMPARE(childOf(row, QStringLiteral("denialHost"))->property("text").toString(),
             QStringLiteral("raw.test:") + port);
    QVERIFY2(childOf(row, QStringLiteral("denialDetail"))->property("text").toString().contains(QLatin1String("tcp")),
             qPrintable(childOf(row, QStringLiteral("denialDetail"))->property("text").toString()));
    QVERIFY(clickItem(m_window, childOf(row, QStringLiteral("denialAllowButton"))));
    QObject *dialog = findObject(m_window, QStringLiteral("denialAllowDialog"));
    QTRY_VERIFY(dialog && dialog->property("opened").toBool());
    QVERIFY(item(QStringLiteral("allowWhatExact"))->property("checked").toBool());
    QVERIFY(clickItem(m_window, item(QStringLiteral("allowConfirmButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_VERIFY(!denialRow(QStringLiteral("raw.test")));
    QVERIFY(m_network.userRules().contains(QStringLiteral("sandbox:net raw.test:") + port));
    QCOMPARE(statusLine(), QStringLiteral("HTTP/1.0 200 OK"));
}

void TestNetworkPage::aCopiedProgramIsMarkedWrittenInside()
{
    QVERIFY(m_network.fixture().mapToUpstream({QStringLiteral("copied.test")}).exitCode == 0);
    const test::Finished ran = m_network.fixture().paddock(
        {QStringLiteral("exec"), QStringLiteral("net"), QStringLiteral("sh"), QStringLiteral("-c"),
         QStringLiteral("cp /usr/bin/curl /tmp/curl && /tmp/curl -s -o /dev/null -w '%{http_code}' ") +
             m_network.url(QStringLiteral("copied.test"))});
    QCOMPARE(ran.out.trimmed(), QStringLiteral("403"));
    QTRY_VERIFY(denialRow(QStringLiteral("copied.test")));
    const QString detail =
        childOf(denialRow(QStringLiteral("copied.test")), QStringLiteral("denialDetail"))->property("text").toString();
    QVERIFY2(detail.contains(QLatin1String("curl (written inside the sandbox: /tmp)")), qPrintable(detail));
}

void TestNetworkPage::presetChangedFromThePage()
{
    QQuickItem *box = item(QStringLiteral("presetBox"));
    scrollIntoView(box);
    box->forceActiveFocus();
    // Down on a closed combo box picks the next entry, as a keyboard user would.
    QTest::keyClick(m_window, Qt::Key_Down);
    QTRY_COMPARE(m_network.call(QStringLiteral("policy.get")).result().value(QLatin1String("preset")).toString(),
                 QStringLiteral("balanced"));
    QTRY_COMPARE(box->property("currentText").toString(), QStringLiteral("balanced"));
}

void TestNetworkPage::learningSwitchedFromThePage()
{
    auto learningOf = [this](const QString &name) {
        for (const QJsonValue &value :
             m_network.call(QStringLiteral("sandbox.list")).result().value(QLatin1String("sandboxes")).toArray()) {
            if (value.toObject().value(QLatin1String("name")).toString() == name)
                return value.toObject().value(QLatin1String("learning")).toBool();
        }
        return false;
    };
    QQuickItem *box = item(QStringLiteral("learningSandboxBox"));
    QTRY_COMPARE(box->property("currentText").toString(), QStringLiteral("net"));
    // The daemon has learning mode: a switch that cannot be used is the regression to catch.
    QVERIFY(item(QStringLiteral("learningSwitch"))->isEnabled());
    QVERIFY(!isShown(item(QStringLiteral("learningUnavailable"))));
    QVERIFY(clickItem(m_window, item(QStringLiteral("learningSwitch"))));
    QTRY_VERIFY(learningOf(QStringLiteral("net")));
    QTRY_VERIFY(item(QStringLiteral("learningSwitch"))->property("checked").toBool());
    QVERIFY(clickItem(m_window, item(QStringLiteral("learningSwitch"))));
    QTRY_VERIFY(!learningOf(QStringLiteral("net")));
    QTRY_VERIFY(!item(QStringLiteral("learningSwitch"))->property("checked").toBool());
}

void TestNetworkPage::requestsShownLiveAndFiltered()
{
    const QString port = QString::number(m_network.fixture().upstreamPort());
    QVERIFY(
        !m_network
             .call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("fifth.test:") + port}})
             .isError());
    QCOMPARE(m_network.fetch(QStringLiteral("fifth.test")), QStringLiteral("200"));
    const test::Finished post = m_network.fixture().paddock(
        {QStringLiteral("exec"), QStringLiteral("net"), QStringLiteral("curl"), QStringLiteral("-s"),
         QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-X"), QStringLiteral("POST"),
         QStringLiteral("-d"), QStringLiteral("x"), m_network.url(QStringLiteral("fifth.test"))});
    QCOMPARE(post.exitCode, 0);

    // Both arrive live: the method, the URL, which program, and what the upstream answered.
    const QString url = QStringLiteral("http://fifth.test:%1/hello.txt").arg(port);
    QTRY_VERIFY(findItemWith(m_window, QStringLiteral("requestRow"), "method", QStringLiteral("POST")));
    QQuickItem *postRow = findItemWith(m_window, QStringLiteral("requestRow"), "method", QStringLiteral("POST"));
    QCOMPARE(childOf(postRow, QStringLiteral("requestUrl"))->property("text").toString(), url);
    QVERIFY2(
        childOf(postRow, QStringLiteral("requestDetail"))->property("text").toString().contains(QLatin1String("curl")),
        qPrintable(childOf(postRow, QStringLiteral("requestDetail"))->property("text").toString()));
    // Python's test server has no POST: its 501 is shown as the upstream's answer.
    QCOMPARE(childOf(postRow, QStringLiteral("requestStatus"))->property("text").toString(), QStringLiteral("501"));
    QVERIFY(!isShown(item(QStringLiteral("requestsEmpty"))));
    const int all = listCount(QStringLiteral("requestList"));
    QVERIFY(all >= 2);

    // Typing in the filter narrows the list to the POST; emptying it shows them all again.
    QQuickItem *filter = item(QStringLiteral("requestFilterField"));
    typeInto(m_window, filter, QStringLiteral("post"));
    QTRY_COMPARE(listCount(QStringLiteral("requestList")), 1);
    QCOMPARE(item(QStringLiteral("requestCount"))->property("text").toString(), QStringLiteral("1 of %1").arg(all));
    filter->setProperty("text", QString());
    QTRY_COMPARE(listCount(QStringLiteral("requestList")), all);
    // The sandboxes to choose from: all, or one by name.
    QString second;
    QVERIFY(QMetaObject::invokeMethod(item(QStringLiteral("requestSandboxBox")), "textAt",
                                      Q_RETURN_ARG(QString, second), Q_ARG(int, 1)));
    QCOMPARE(second, QStringLiteral("net"));
}

void TestNetworkPage::upstreamProxySetFromThePage()
{
    const QString password = QStringLiteral("gui-corp-pw-4410");
    const QString summary = QStringLiteral("upstreamProxySummary");
    QTRY_VERIFY(item(summary)->property("text").toString().startsWith(QLatin1String("None")));
    const auto typeFresh = [this](const QString &field, const QString &text) {
        item(field)->setProperty("text", QString());
        typeInto(m_window, item(field), text);
    };
    typeFresh(QStringLiteral("upstreamProxyUrlField"), QStringLiteral("http://carol@127.0.0.1:3128"));
    typeFresh(QStringLiteral("upstreamNoProxyField"), QStringLiteral("intranet.test"));
    typeFresh(QStringLiteral("upstreamPasswordField"), password);
    QVERIFY(clickItem(m_window, item(QStringLiteral("upstreamSaveButton"))));
    QTRY_COMPARE_WITH_TIMEOUT(item(summary)->property("text").toString(),
                              QStringLiteral("Allowed connections go out through http://carol@127.0.0.1:3128 (from the "
                                             "settings, with a password from the keychain)."),
                              15000);
    QTRY_VERIFY(item(QStringLiteral("upstreamPasswordField"))->property("text").toString().isEmpty());
    QVERIFY(isShown(item(QStringLiteral("upstreamForgetPasswordButton"))));
    // What the CLI reads is what the window set; the password is in no file.
    const test::Finished listed = m_network.fixture().paddock({QStringLiteral("settings"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(QStringLiteral("not for:       intranet.test")), qPrintable(listed.out));
    QVERIFY(test::filesContaining(m_network.fixture().path(QStringLiteral("config")), password.toUtf8()).isEmpty());

    // A URL Paddock cannot use is refused with the reason, and what is in force stays.
    typeFresh(QStringLiteral("upstreamProxyUrlField"), QStringLiteral("https://tls-proxy:443"));
    QVERIFY(clickItem(m_window, item(QStringLiteral("upstreamSaveButton"))));
    QTRY_VERIFY(item(QStringLiteral("upstreamMessage"))->property("text").toString().contains(QLatin1String("https")));
    QVERIFY(item(summary)->property("text").toString().contains(QLatin1String("carol@127.0.0.1:3128")));

    // Emptied, the setting is gone: straight out again.
    item(QStringLiteral("upstreamProxyUrlField"))->setProperty("text", QString());
    item(QStringLiteral("upstreamNoProxyField"))->setProperty("text", QString());
    QVERIFY(clickItem(m_window, item(QStringLiteral("upstreamForgetPasswordButton"))));
    QTRY_VERIFY(!isShown(item(QStringLiteral("upstreamForgetPasswordButton"))));
    QVERIFY(clickItem(m_window, item(QStringLiteral("upstreamSaveButton"))));
    QTRY_VERIFY(item(summary)->property("text").toString().startsWith(QLatin1String("None")));
}

QTEST_MAIN(TestNetworkPage)
#include "tst_network_page.moc"

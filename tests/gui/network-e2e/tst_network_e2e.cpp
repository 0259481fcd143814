// SPDX-License-Identifier: GPL-3.0-or-later
// End to end, on a real display: a sandbox started through the daemon asks for a name its
// kit does not allow, over and over; the refusal shows on the Network page once the daemon
// reports it (how soon is measured by tests/bench/refusal-readable, not here); the page's Allow button, set to the kit, adds one line to the
// kit's spec.yaml, and the sandbox's next request gets through.
#include "../network-page/NetworkTestSupport.h"
#include "../network-page/PageDriver.h"

#include "DenialsModel.h"
#include "NetworkPolicy.h"

#include "Needs.h"

#include <QDir>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestNetworkEndToEnd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusalShowsWithinASecond();
    void allowInTheKitFromThePage();

private:
    QString statusLog() const { return m_network.fixture().workspace() + QStringLiteral("/status.log"); }
    QString lastStatus() const
    {
        QFile file(statusLog());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        return QString::fromUtf8(lines.constLast());
    }
    gui::DenialsModel *denials()
    {
        auto *policy =
            findItem(m_window, QStringLiteral("page_network"))->property("policy").value<gui::NetworkPolicy *>();
        return policy ? policy->denials() : nullptr;
    }

    NetworkFixture m_network;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
    QByteArray m_specBefore;
};

void TestNetworkEndToEnd::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsEmpty("DISPLAY"),
                 "an X display: run it under tests/with-services.sh, which starts Xvfb");
    // The agent stand-in: asks for other.test, which its kit does not allow, three times a second.
    QVERIFY2(m_network.setUp(QStringLiteral("while :; do curl -s -o /dev/null -w '%{http_code}\\n' "
                                            "http://other.test:{PORT}/hello.txt >> {WORKSPACE}/status.log; "
                                            "sleep 0.3; done")),
             "the fixture did not start (python3, paddockd)");
    QFile spec(m_network.fixture().kitDir() + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::ReadOnly));
    m_specBefore = spec.readAll();

    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QVERIFY(openNetworkPage(m_window));
    QVERIFY(denials());
    QTRY_VERIFY(!denials()->loading());
    QCOMPARE(denials()->rowCount(), 0);
}

void TestNetworkEndToEnd::refusalShowsWithinASecond()
{
    // A client of its own sees the moment the daemon reports the refusal.
    api::DaemonConnection watcher;
    QString error;
    QVERIFY2(watcher.open(m_network.socketPath(), 5000, &error), qPrintable(error));
    QVERIFY(
        !watcher.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("network")}}})
             .isError());
    QVERIFY(m_network.startSandbox());
    std::optional<api::Event> event;
    for (int i = 0; i < 50 && !event; ++i) {
        event = watcher.waitForEvent(1000);
        if (event && event->data.value(QLatin1String("outcome")).toString() != QLatin1String("denied"))
            event.reset();
    }
    QVERIFY2(event, "the sandbox was never refused");
    QCOMPARE(event->data.value(QLatin1String("host")).toString(), QStringLiteral("other.test"));
    // On the page, without a reload. How soon is a figure of the benchmarks, not a pass or fail here.
    QTRY_VERIFY_WITH_TIMEOUT(denials()->rowOf(QStringLiteral("other.test"), QStringLiteral("net")) >= 0, 10000);
    QTRY_VERIFY(findItemWith(m_window, QStringLiteral("denialRow"), "host", QStringLiteral("other.test")));
    // The client writes the status it got after the proxy has refused it: it may come a moment later.
    QTRY_COMPARE(lastStatus(), QStringLiteral("403"));
    // The sandbox runs: its kit's rules are listed with the others, read-only.
    QTRY_VERIFY(findItemWith(m_window, QStringLiteral("ruleRow"), "origin", QStringLiteral("kit")));
}

void TestNetworkEndToEnd::allowInTheKitFromThePage()
{
    QQuickItem *row = findItemWith(m_window, QStringLiteral("denialRow"), "host", QStringLiteral("other.test"));
    QVERIFY(row);
    QVERIFY(clickItem(m_window, childOf(row, QStringLiteral("denialAllowButton"))));
    QObject *dialog = findObject(m_window, QStringLiteral("denialAllowDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->property("opened").toBool());
    QVERIFY(clickItem(m_window, findItem(m_window, QStringLiteral("allowWhereKit"))));
    QTRY_VERIFY(findItem(m_window, QStringLiteral("allowWhereKit"))->property("checked").toBool());
    QDir().mkpath(QStringLiteral(PADDOCK_SCREENSHOT_DIR));
    m_window->grabWindow().save(QStringLiteral(PADDOCK_SCREENSHOT_DIR "/network-allow-dialog.png"));
    QVERIFY(clickItem(m_window, findItem(m_window, QStringLiteral("allowConfirmButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("visible").toBool(), 10000);

    // Exactly one line more in spec.yaml, naming the host and its port.
    QFile spec(m_network.fixture().kitDir() + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::ReadOnly));
    const QByteArray after = spec.readAll();
    QList<QByteArray> added = after.split('\n');
    const QList<QByteArray> before = m_specBefore.split('\n');
    QCOMPARE(added.size(), before.size() + 1);
    for (const QByteArray &line : before)
        QVERIFY(added.removeOne(line));
    QCOMPARE(added.size(), 1);
    const QByteArray pattern = QStringLiteral("other.test:%1").arg(m_network.fixture().upstreamPort()).toUtf8();
    QVERIFY2(added.constFirst().contains(pattern), added.constFirst().constData());

    // The sandbox's next request passes, with nothing restarted.
    QTRY_COMPARE_WITH_TIMEOUT(lastStatus(), QStringLiteral("200"), 20000);
    QTRY_VERIFY(findItemWith(m_window, QStringLiteral("ruleRow"), "pattern", QString::fromUtf8(pattern)));
    QVERIFY(!findItemWith(m_window, QStringLiteral("denialRow"), "host", QStringLiteral("other.test")));
    m_window->grabWindow().save(QStringLiteral(PADDOCK_SCREENSHOT_DIR "/network-e2e.png"));
    QVERIFY2(WarningRecorder::messages().isEmpty(), qPrintable(WarningRecorder::messages().join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestNetworkEndToEnd)
#include "tst_network_e2e.moc"

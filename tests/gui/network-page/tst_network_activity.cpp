// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page's activity at a glance, in the window with the real daemon and a real
// sandbox: a refused host shows in the chart and the top destinations; clicking it narrows the
// requests to it, Allow there promotes it through the usual dialog, and the next request goes
// through. A bar narrows the requests to its time, and the sandbox's row has its sparkline.
#include "NetworkTestSupport.h"
#include "PageDriver.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestNetworkActivity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void refusedHostFilteredAndAllowedFromTheChart();
    void aBarNarrowsTheRequestsToItsTime();
    void theSandboxRowHasItsSparkline();

private:
    QQuickItem *item(const QString &name) { return findItem(m_window, name); }
    QQuickItem *hostRow(const QString &host)
    {
        return findItemWith(m_window, QStringLiteral("activityHost"), "host", host);
    }
    QObject *requests() { return item(QStringLiteral("requestsSection"))->property("requests").value<QObject *>(); }
    /** The shown request rows' URLs. */
    QStringList requestUrls()
    {
        QStringList urls;
        for (QQuickItem *row : findItems(m_window, QStringLiteral("requestRow"))) {
            if (isShown(row))
                urls << row->property("url").toString();
        }
        return urls;
    }

    NetworkFixture m_network;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestNetworkActivity::initTestCase()
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

void TestNetworkActivity::cleanup()
{
    const QStringList warnings = WarningRecorder::messages();
    WarningRecorder::clear();
    if (!warnings.isEmpty())
        QFAIL(qPrintable(QStringLiteral("warnings:\n") + warnings.join(QLatin1Char('\n'))));
}

void TestNetworkActivity::refusedHostFilteredAndAllowedFromTheChart()
{
    const QString port = QString::number(m_network.fixture().upstreamPort());
    // One host let through (its request is recorded), one refused.
    QVERIFY(
        !m_network
             .call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("fifth.test:") + port}})
             .isError());
    QCOMPARE(m_network.fetch(QStringLiteral("fifth.test")), QStringLiteral("200"));
    QCOMPARE(m_network.fetch(QStringLiteral("other.test")), QStringLiteral("403"));

    // Both in the top destinations within the page's refresh; the refused one with Allow.
    QTRY_VERIFY_WITH_TIMEOUT(hostRow(QStringLiteral("other.test")), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(hostRow(QStringLiteral("fifth.test")), 20000);
    QQuickItem *refused = hostRow(QStringLiteral("other.test"));
    QCOMPARE(refused->property("refused").toDouble(), 1.0);
    QCOMPARE(refused->property("allowed").toDouble(), 0.0);
    QVERIFY(isShown(childOf(refused, QStringLiteral("activityHostAllow"))));
    QVERIFY(hostRow(QStringLiteral("fifth.test"))->property("allowed").toDouble() >= 1.0);
    QVERIFY(!isShown(childOf(hostRow(QStringLiteral("fifth.test")), QStringLiteral("activityHostAllow"))));
    QVERIFY(item(QStringLiteral("activityTotals"))->property("text").toString().contains(QLatin1String("1 refused")));
    // The chart has a bar with the refusal.
    QQuickItem *bar = nullptr;
    for (QQuickItem *each : findItems(m_window, QStringLiteral("activityBar"))) {
        if (each->property("refused").toDouble() > 0)
            bar = each;
    }
    QVERIFY(bar);

    // The requests list shows fifth.test's request until the refused host is clicked.
    QTRY_VERIFY(requestUrls().join(QLatin1Char(' ')).contains(QLatin1String("fifth.test")));
    QVERIFY(clickItem(m_window, hostRow(QStringLiteral("other.test"))));
    QTRY_COMPARE(requests()->property("host").toString(), QStringLiteral("other.test"));
    QTRY_VERIFY(isShown(item(QStringLiteral("requestNarrowing"))));
    QCOMPARE(item(QStringLiteral("requestNarrowing"))->property("text").toString(), QStringLiteral("Only other.test"));
    QTRY_VERIFY(!requestUrls().join(QLatin1Char(' ')).contains(QLatin1String("fifth.test")));
    QVERIFY(hostRow(QStringLiteral("other.test"))->property("highlighted").toBool());

    // Allow, through the same dialog as a refused row's.
    QVERIFY(clickItem(m_window, childOf(hostRow(QStringLiteral("other.test")), QStringLiteral("activityHostAllow"))));
    QObject *dialog = findObject(m_window, QStringLiteral("denialAllowDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->property("opened").toBool());
    QCOMPARE(dialog->property("host").toString(), QStringLiteral("other.test"));
    QCOMPARE(dialog->property("sandbox").toString(), QStringLiteral("net"));
    QVERIFY(clickItem(m_window, item(QStringLiteral("allowConfirmButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QVERIFY(m_network.userRules().contains(QStringLiteral("sandbox:net other.test:") + port));

    // The next request goes through, and shows in the narrowed list.
    QCOMPARE(m_network.fetch(QStringLiteral("other.test")), QStringLiteral("200"));
    QTRY_VERIFY(requestUrls().join(QLatin1Char(' ')).contains(QLatin1String("other.test")));
    QVERIFY(!requestUrls().join(QLatin1Char(' ')).contains(QLatin1String("fifth.test")));
    QTRY_VERIFY_WITH_TIMEOUT(hostRow(QStringLiteral("other.test"))->property("allowed").toDouble() >= 1.0, 20000);

    // Show all: every host again.
    QVERIFY(clickItem(m_window, item(QStringLiteral("requestNarrowClear"))));
    QTRY_VERIFY(requestUrls().join(QLatin1Char(' ')).contains(QLatin1String("fifth.test")));
    QVERIFY(!isShown(item(QStringLiteral("requestNarrowing"))));
}

void TestNetworkActivity::aBarNarrowsTheRequestsToItsTime()
{
    QCOMPARE(m_network.fetch(QStringLiteral("fifth.test")), QStringLiteral("200"));
    QQuickItem *busy = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (QQuickItem *each : findItems(m_window, QStringLiteral("activityBar"))) {
                if (each->property("allowed").toDouble() > 0)
                    busy = each;
            }
            return busy != nullptr;
        }(),
        20000);
    const double start = busy->property("start").toDouble();
    QVERIFY(clickItem(m_window, busy));
    QTRY_COMPARE(requests()->property("fromTime").toDouble(), start);
    QCOMPARE(requests()->property("untilTime").toDouble(), start + 60000);
    QCOMPARE(requests()->property("host").toString(), QString());
    QTRY_VERIFY(isShown(item(QStringLiteral("requestNarrowing"))));
    QVERIFY(item(QStringLiteral("requestNarrowing"))
                ->property("text")
                .toString()
                .startsWith(QLatin1String("Only requests from")));
    QTRY_VERIFY(!requestUrls().isEmpty());
    QVERIFY(busy->property("selected").toBool());

    // The last day, in quarter hours.
    QVERIFY(clickItem(m_window, item(QStringLiteral("activityHours_24"))));
    QTRY_COMPARE(findItems(m_window, QStringLiteral("activityBar")).size(), 96);
    QVERIFY(clickItem(m_window, item(QStringLiteral("requestNarrowClear"))));
    QTRY_COMPARE(requests()->property("fromTime").toDouble(), 0.0);
}

void TestNetworkActivity::theSandboxRowHasItsSparkline()
{
    QTest::keyClick(m_window, Qt::Key_1, Qt::ControlModifier);
    QTRY_VERIFY(isShown(item(QStringLiteral("page_sandboxes"))));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(item(QStringLiteral("sandboxSparkline"))), 30000);
    QQuickItem *spark = item(QStringLiteral("sandboxSparkline"));
    // Everything net did here: fifth.test twice, other.test refused once and then allowed.
    QTRY_VERIFY2_WITH_TIMEOUT(spark->property("total").toDouble() >= 4.0,
                              qPrintable(spark->property("total").toString()), 30000);
    QCOMPARE(spark->property("buckets").toList().size(), 30);
}

QTEST_MAIN(TestNetworkActivity)
#include "tst_network_activity.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The event model and its JSON form: the field names scripts rely on, and the strictness of
// reading an export back.
#include "EventLines.h"
#include "events/Jsonl.h"
#include "events/NetworkEvent.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace paddock::events;

class NetworkEventTest : public QObject
{
    Q_OBJECT

private:
    static NetworkEvent sample()
    {
        NetworkEvent event;
        event.time = QDateTime(QDate(2026, 3, 4), QTime(5, 6, 7, 890), QTimeZone::utc());
        event.sandbox = QStringLiteral("web");
        event.kit = QStringLiteral("claude-code");
        event.host = QStringLiteral("tracker.example.com");
        event.port = 8443;
        event.protocol = QStringLiteral("http");
        event.outcome = NetworkEvent::Outcome::Denied;
        event.rule = QStringLiteral("deny **.example.com");
        event.reason = QStringLiteral("tracker.example.com is denied by the rule **.example.com.");
        event.bytesUp = 12;
        event.bytesDown = 3456789012345;
        return event;
    }

private Q_SLOTS:
    void jsonHasTheDocumentedFields()
    {
        const QJsonObject json = sample().toJson();
        QStringList keys = json.keys();
        keys.sort();
        QCOMPARE(keys, QStringList({"bytesDown", "bytesUp", "host", "kit", "outcome", "port", "protocol", "reason",
                                    "rule", "sandbox", "time"}));
        QCOMPARE(json.value("time").toString(), QStringLiteral("2026-03-04T05:06:07.890Z"));
        QCOMPARE(json.value("outcome").toString(), QStringLiteral("denied"));
        QCOMPARE(json.value("port").toInt(), 8443);
        QCOMPARE(json.value("bytesDown").toInteger(), 3456789012345);
        QCOMPARE(json.value("protocol").toString(), QStringLiteral("http"));
    }

    void aProgramWrittenInsideSaysWhere()
    {
        NetworkEvent event = sample();
        event.pid = 12;
        event.program = QStringLiteral("curl");
        event.exe = QStringLiteral("/tmp/curl");
        event.command = QStringLiteral("curl https://tracker.example.com");
        event.written = QStringLiteral("/tmp");
        const QJsonObject json = event.toJson();
        QCOMPARE(json.value("written").toString(), QStringLiteral("/tmp"));
        QString error;
        const auto back = NetworkEvent::fromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, event);
        event.written.clear(); // from the sandbox's base: no field
        QVERIFY(!event.toJson().contains(QLatin1String("written")));
    }

    void roundTripsEveryOutcome_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("token");
        QTest::newRow("allowed") << int(NetworkEvent::Outcome::Allowed) << "allowed";
        QTest::newRow("denied") << int(NetworkEvent::Outcome::Denied) << "denied";
        QTest::newRow("upstream-failed") << int(NetworkEvent::Outcome::UpstreamFailed) << "upstream-failed";
    }

    void roundTripsEveryOutcome()
    {
        QFETCH(int, outcome);
        QFETCH(QString, token);
        NetworkEvent event = sample();
        event.outcome = NetworkEvent::Outcome(outcome);
        QCOMPARE(event.toJson().value("outcome").toString(), token);
        QString error;
        const auto back = NetworkEvent::fromJson(event.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, event);
        QCOMPARE(back->time.timeSpec(), Qt::UTC);
    }

    void timeWithAnOffsetIsReadAsUtc()
    {
        QJsonObject json = sample().toJson();
        json["time"] = QStringLiteral("2026-03-04T07:06:07.890+02:00");
        const auto event = NetworkEvent::fromJson(json);
        QVERIFY(event);
        QCOMPARE(event->time, sample().time);
        QCOMPARE(formatEventTime(event->time), QStringLiteral("2026-03-04T05:06:07.890Z"));
    }

    void rejectsMalformedObjects_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("time not a date") << "time" << QJsonValue("yesterday") << "time";
        QTest::newRow("time missing") << "time" << QJsonValue(QJsonValue::Undefined) << "time";
        QTest::newRow("unknown outcome") << "outcome" << QJsonValue("maybe") << "outcome";
        QTest::newRow("unknown protocol") << "protocol" << QJsonValue("ftp") << "protocol";
        QTest::newRow("port too large") << "port" << QJsonValue(70000) << "port";
        QTest::newRow("port fractional") << "port" << QJsonValue(80.5) << "port";
        QTest::newRow("port as text") << "port" << QJsonValue("443") << "port";
        QTest::newRow("negative bytes") << "bytesUp" << QJsonValue(-1) << "bytesUp";
        QTest::newRow("host missing") << "host" << QJsonValue(QJsonValue::Undefined) << "host";
        QTest::newRow("host not text") << "host" << QJsonValue(QJsonArray{1}) << "host";
    }

    void rejectsMalformedObjects()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QJsonObject json = sample().toJson();
        if (value.isUndefined())
            json.remove(field);
        else
            json[field] = value;
        QString error;
        QVERIFY(!NetworkEvent::fromJson(json, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void jsonLinesRoundTrip()
    {
        QList<NetworkEvent> events;
        for (int i = 0; i < 3; ++i) {
            NetworkEvent event = sample();
            event.host = QStringLiteral("host%1.example.com\nwith a newline").arg(i);
            event.time = event.time.addMSecs(i);
            events << event;
        }
        QByteArray text;
        for (const NetworkEvent &event : std::as_const(events)) {
            const QByteArray line = toJsonLine(event);
            QVERIFY(line.endsWith('\n'));
            QCOMPARE(line.count('\n'), 1); // a newline in a field is escaped, never splits a line
            text += line;
        }
        text += "\n"; // blank lines are skipped

        QString error;
        const std::optional<QList<NetworkEvent>> back = paddock::test::readEventLines(text, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, events);
    }

    void readingJsonLinesNamesTheBadLine()
    {
        QByteArray text = toJsonLine(sample()) + toJsonLine(sample()) + "{\"time\": 3}\n";
        QBuffer buffer(&text);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        int seen = 0;
        QString error;
        QVERIFY(!readJsonl(
            buffer,
            [&](const NetworkEvent &) {
                ++seen;
                return true;
            },
            &error));
        QCOMPARE(seen, 2);
        QVERIFY2(error.startsWith(QStringLiteral("Line 3 ")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(NetworkEventTest)
#include "tst_networkevent.moc"

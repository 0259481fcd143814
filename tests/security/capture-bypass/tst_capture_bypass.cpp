// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on the capture of every connection (app/init/Capture.h), from inside a real bubblewrap
// sandbox as an ordinary user: getting a network namespace of its own, raw and packet sockets,
// deleting the default route or capture's nftables table, adding a route; and flooding the
// event log with a loop of refused connections, which costs a few rows and loses no count.
#include "AttackSupport.h"

#include <QDateTime>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestCaptureBypass : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "bypass";
    std::unique_ptr<SandboxFixture> m_fixture;
    QHash<QString, QString> m_results;

    Finished inSandbox(const QStringList &command, const QStringList &options = {})
    {
        return m_fixture->paddock(QStringList{QStringLiteral("exec")} + options + QStringList{QLatin1String(kName)} +
                                  command);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished started = m_fixture->paddock(
            {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), m_fixture->kitDir(),
             QStringLiteral("--name"), QLatin1String(kName), m_fixture->workspace(), paddock::test::securityScripts(),
             QStringLiteral("--"), QStringLiteral("sleep 600")});
        QVERIFY2(started.exitCode == 0, qPrintable(started.err));
        for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
            const Finished probed = inSandbox(
                {QStringLiteral("python3"), paddock::test::securityScript(QStringLiteral("capture_probe.py"))},
                {QStringLiteral("-u"), user});
            QVERIFY2(probed.exitCode == 0, qPrintable(probed.err));
            const QHash<QString, QString> results = paddock::test::probeResults(probed.out);
            for (auto it = results.cbegin(); it != results.cend(); ++it)
                m_results.insert(user + QLatin1Char('/') + it.key(), it.value());
        }
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void captureCannotBeUndone_data()
    {
        QTest::addColumn<QString>("attempt");
        for (const char *user : {"agent", "root"}) {
            for (const char *attempt :
                 {"own-namespace", "packet-socket", "raw-socket", "route-delete", "route-add", "nftables-delete"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(user), QLatin1String(attempt))))
                    << QStringLiteral("%1/%2").arg(QLatin1String(user), QLatin1String(attempt));
        }
    }

    void captureCannotBeUndone()
    {
        QFETCH(QString, attempt);
        QVERIFY2(m_results.contains(attempt), qPrintable(QStringLiteral("the probe said nothing of ") + attempt));
        QCOMPARE(m_results.value(attempt), QStringLiteral("EPERM"));
    }

    void captureStillWorksAfterTheAttempts()
    {
        // The table and the routes are as paddock-init left them: a connection is still captured.
        const Finished tried = inSandbox(
            {QStringLiteral("python3"), QStringLiteral("-c"),
             QStringLiteral(
                 "import socket\ns = socket.create_connection(('after.example', 9), timeout=20)\n"
                 "try:\n    s.recv(1)\n    print('read')\nexcept ConnectionResetError:\n    print('reset')")});
        QCOMPARE(tried.out.trimmed(), QStringLiteral("reset"));
    }

    void aLoopOfRefusalsCannotFloodTheLog()
    {
        constexpr int kAttempts = 2000;
        const Finished looped =
            inSandbox({QStringLiteral("python3"), QStringLiteral("-c"),
                       QStringLiteral("import socket, time\nstart = time.time()\n"
                                      "for i in range(%1):\n"
                                      "    s = socket.create_connection(('flood.example', 9), timeout=20)\n"
                                      "    try:\n        s.sendall(b'x')\n        s.recv(1)\n"
                                      "    except (ConnectionResetError, BrokenPipeError):\n        pass\n"
                                      "    s.close()\n"
                                      "print(int(time.time() - start) + 1)")
                           .arg(kAttempts)});
        QVERIFY2(looped.exitCode == 0, qPrintable(looped.err));
        const int seconds = looped.out.trimmed().toInt();
        QVERIFY(seconds > 0);
        // Every refusal is counted in the log...
        QJsonObject entry;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                for (const QJsonValue &value :
                     QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray()) {
                    if (value.toObject().value(QLatin1String("host")).toString() == QLatin1String("flood.example"))
                        entry = value.toObject();
                }
                return entry.value(QLatin1String("count")).toInt() >= kAttempts;
            },
            30000));
        QCOMPARE(entry.value(QLatin1String("count")).toInt(), kAttempts);
        // ...while the stored rows stay within the rate per destination, each saying how many it stands for.
        const Finished exported =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("export"), QStringLiteral("--jsonl")});
        int rows = 0;
        qint64 counted = 0;
        for (const QString &line : exported.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
            if (event.value(QLatin1String("host")).toString() != QLatin1String("flood.example"))
                continue;
            ++rows;
            counted += qMax<qint64>(1, event.value(QLatin1String("repeats")).toInteger());
        }
        QVERIFY2(rows <= 10 * (seconds + 1), qPrintable(QStringLiteral("%1 rows in %2 s").arg(rows).arg(seconds)));
        QCOMPARE(counted, qint64(kAttempts));
    }
};

QTEST_GUILESS_MAIN(TestCaptureBypass)
#include "tst_capture_bypass.moc"

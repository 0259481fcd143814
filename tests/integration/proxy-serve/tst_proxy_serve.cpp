// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock proxy serve` as a user runs it: the real binary in front of a real upstream,
// reached with real curl.
#include "CliHome.h"
#include "LocalUpstream.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using paddock::test::CliHome;
using paddock::test::Finished;
using paddock::test::LocalUpstream;

class TestProxyServe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void allowedNamePassesPlainHttp();
    void allowedNamePassesThroughConnect();
    void deniedNameGets403WithReasonAndFix();
    void denialIsPrintedAndWrittenAsJsonl();
    void policyAllowAppliesWithoutRestart();
    void invalidPatternIsUsageError();
    void servedByTheProxyProgram();
    void unixSocketListener();
    void sigtermExitsZero();
    void cleanupTestCase();

private:
    QString upstreamUrl(const QString &host, const QString &path = QStringLiteral("/hello.txt")) const
    {
        return QStringLiteral("http://%1:%2%3").arg(host).arg(m_upstream.port()).arg(path);
    }
    QString jsonlPath() const { return m_home.filePath(QStringLiteral("events.jsonl")); }

    CliHome m_home;
    LocalUpstream m_upstream;
    QProcess m_serve;
    QString m_proxy;
};

void TestProxyServe::initTestCase()
{
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
    QVERIFY(m_home.isValid());
    QVERIFY2(m_upstream.start(), "python3 -m http.server did not start");
    const QString port = QString::number(m_upstream.port());
    m_proxy = m_home.startServe(
        m_serve, {QStringLiteral("--sandbox"), QStringLiteral("web"), QStringLiteral("--allow"),
                  QStringLiteral("upstream.test:") + port, QStringLiteral("--resolve"),
                  QStringLiteral("upstream.test:%1:127.0.0.1").arg(port), QStringLiteral("--resolve"),
                  QStringLiteral("later.test:%1:127.0.0.1").arg(port), QStringLiteral("--events-jsonl"), jsonlPath()});
    QVERIFY2(!m_proxy.isEmpty(), qPrintable(QString::fromUtf8(m_serve.readAllStandardError())));
    QVERIFY(m_proxy.startsWith(QLatin1String("127.0.0.1:")));
}

void TestProxyServe::allowedNamePassesPlainHttp()
{
    const Finished curl = m_home.curlVia(m_proxy, upstreamUrl(QStringLiteral("upstream.test")));
    QCOMPARE(curl.exitCode, 0);
    QVERIFY2(curl.out.startsWith(QLatin1String("HTTP/1.0 200")) || curl.out.startsWith(QLatin1String("HTTP/1.1 200")),
             qPrintable(curl.out));
    QVERIFY(curl.out.endsWith(QLatin1String(LocalUpstream::kBody)));
}

void TestProxyServe::allowedNamePassesThroughConnect()
{
    const Finished curl = m_home.curlVia(m_proxy, upstreamUrl(QStringLiteral("upstream.test")), {QStringLiteral("-p")});
    QCOMPARE(curl.exitCode, 0);
    QVERIFY2(curl.out.contains(QLatin1String("200 Connection established")), qPrintable(curl.out));
    QVERIFY(curl.out.endsWith(QLatin1String(LocalUpstream::kBody)));
}

void TestProxyServe::deniedNameGets403WithReasonAndFix()
{
    const Finished curl = m_home.curlVia(m_proxy, QStringLiteral("http://denied.test/secret"));
    QCOMPARE(curl.exitCode, 0);
    QVERIFY2(curl.out.startsWith(QLatin1String("HTTP/1.1 403")), qPrintable(curl.out));
    static const QRegularExpression reasonHeader(QStringLiteral("(?im)^X-Paddock-Reason: .*denied\\.test.*$"));
    QVERIFY2(reasonHeader.match(curl.out).hasMatch(), qPrintable(curl.out));
    QVERIFY2(curl.out.contains(QLatin1String("paddock policy allow network denied.test:80 --sandbox web")),
             qPrintable(curl.out));

    // Through CONNECT the refusal is the proxy's answer to the tunnel request.
    const Finished tunnel = m_home.curlVia(m_proxy, QStringLiteral("http://denied.test/"), {QStringLiteral("-p")});
    QVERIFY2(tunnel.out.contains(QLatin1String(" 403")), qPrintable(tunnel.out));
}

void TestProxyServe::denialIsPrintedAndWrittenAsJsonl()
{
    m_home.curlVia(m_proxy, QStringLiteral("http://jsonl.test/"));
    QJsonObject denial;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QFile file(jsonlPath());
            if (!file.open(QIODevice::ReadOnly))
                return false;
            for (const QByteArray &line : file.readAll().split('\n')) {
                const QJsonObject object = QJsonDocument::fromJson(line).object();
                if (object.value(QStringLiteral("host")).toString() == QLatin1String("jsonl.test"))
                    denial = object;
            }
            return !denial.isEmpty();
        }(),
        20000);
    QCOMPARE(denial.value(QStringLiteral("sandbox")).toString(), QStringLiteral("web"));
    QCOMPARE(denial.value(QStringLiteral("outcome")).toString(), QStringLiteral("denied"));
    QCOMPARE(denial.value(QStringLiteral("port")).toInt(), 80);
    QCOMPARE(denial.value(QStringLiteral("rule")).toString(), QStringLiteral("default deny"));
    QVERIFY(!denial.value(QStringLiteral("reason")).toString().isEmpty());

    // The same refusal, one line on stderr.
    QByteArray stderrText;
    QTRY_VERIFY_WITH_TIMEOUT((stderrText += m_serve.readAllStandardError()).contains("jsonl.test:80"), 20000);
    QVERIFY2(stderrText.contains("denied  jsonl.test:80  default deny"), stderrText.constData());
}

void TestProxyServe::policyAllowAppliesWithoutRestart()
{
    const QString url = upstreamUrl(QStringLiteral("later.test"));
    QVERIFY(m_home.curlVia(m_proxy, url).out.startsWith(QLatin1String("HTTP/1.1 403")));

    const Finished allow = m_home.paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                                           QStringLiteral("later.test:%1").arg(m_upstream.port()),
                                           QStringLiteral("--sandbox"), QStringLiteral("web")});
    QVERIFY2(allow.exitCode == 0, qPrintable(allow.err));
    // The proxy is still the same process; it picks the change up from the watched file.
    QTRY_VERIFY_WITH_TIMEOUT(m_home.curlVia(m_proxy, url).out.endsWith(QLatin1String(LocalUpstream::kBody)), 20000);
    QCOMPARE(m_serve.state(), QProcess::Running);
}

void TestProxyServe::invalidPatternIsUsageError()
{
    const Finished run =
        m_home.paddock({QStringLiteral("proxy"), QStringLiteral("serve"), QStringLiteral("--listen"),
                        QStringLiteral("127.0.0.1:0"), QStringLiteral("--allow"), QStringLiteral("*.com")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QLatin1String("'*.com'")), qPrintable(run.err));
    QVERIFY(!run.out.contains(QLatin1String("listening")));
    // The reason follows the pattern, after a colon.
    QVERIFY2(run.err.section(QLatin1String("'*.com':"), 1).trimmed().size() > 5, qPrintable(run.err));

    const Finished badListen = m_home.paddock(
        {QStringLiteral("proxy"), QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("nowhere")});
    QCOMPARE(badListen.exitCode, 2);
}

void TestProxyServe::servedByTheProxyProgram()
{
    // `paddock proxy serve` becomes paddock-proxy, beside paddock: the same process, so a
    // signal sent to what was started reaches the proxy.
    const QString running = QFileInfo(QStringLiteral("/proc/%1/exe").arg(m_serve.processId())).symLinkTarget();
    QCOMPARE(QFileInfo(running).fileName(), QStringLiteral("paddock-proxy"));
    QCOMPARE(QFileInfo(running).absolutePath(), QFileInfo(QStringLiteral(PADDOCK_BIN)).canonicalPath());

    const Finished help = m_home.paddock({QStringLiteral("proxy"), QStringLiteral("serve"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains(QLatin1String("Usage: paddock proxy serve")), qPrintable(help.out));
    QVERIFY2(help.out.contains(QLatin1String("--listen ADDRESS")), qPrintable(help.out));
    const Finished group = m_home.paddock({QStringLiteral("proxy"), QStringLiteral("--help")});
    QVERIFY2(group.out.contains(QLatin1String("serve")), qPrintable(group.out));
}

void TestProxyServe::unixSocketListener()
{
    const QString socket = m_home.filePath(QStringLiteral("proxy.sock"));
    QProcess serve;
    serve.setProcessEnvironment(m_home.environment());
    serve.start(QStringLiteral(PADDOCK_BIN),
                {QStringLiteral("proxy"), QStringLiteral("serve"), QStringLiteral("--listen"), socket,
                 QStringLiteral("--no-policy-file"), QStringLiteral("--allow"),
                 QStringLiteral("upstream.test:%1").arg(m_upstream.port()), QStringLiteral("--resolve"),
                 QStringLiteral("upstream.test:%1:127.0.0.1").arg(m_upstream.port())});
    QByteArray printed;
    QTRY_VERIFY_WITH_TIMEOUT((printed += serve.readAllStandardOutput()).contains("listening on " + socket.toUtf8()),
                             20000);
    // curl cannot speak to a proxy over a unix socket; the request is the one curl -x sends.
    QLocalSocket client;
    client.connectToServer(socket);
    QVERIFY(client.waitForConnected(10000));
    const QString url = upstreamUrl(QStringLiteral("upstream.test"));
    client.write(QStringLiteral("GET %1 HTTP/1.1\r\nHost: upstream.test:%2\r\nConnection: close\r\n\r\n")
                     .arg(url)
                     .arg(m_upstream.port())
                     .toLatin1());
    QByteArray response;
    while (client.state() == QLocalSocket::ConnectedState && client.waitForReadyRead(10000))
        response += client.readAll();
    response += client.readAll();
    QVERIFY2(response.startsWith("HTTP/1.0 200") || response.startsWith("HTTP/1.1 200"), response.constData());
    QVERIFY(response.endsWith(LocalUpstream::kBody));
    QVERIFY(paddock::test::terminateCleanly(serve));
}

void TestProxyServe::sigtermExitsZero()
{
    QVERIFY(paddock::test::terminateCleanly(m_serve));
}

void TestProxyServe::cleanupTestCase()
{
    if (m_serve.state() != QProcess::NotRunning) {
        m_serve.kill();
        m_serve.waitForFinished();
    }
}

QTEST_GUILESS_MAIN(TestProxyServe)
#include "tst_proxy_serve.moc"

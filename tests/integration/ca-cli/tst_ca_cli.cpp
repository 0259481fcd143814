// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock ca show|rotate|trust|trusted|untrust` as a user runs them: the real binary, the
// local authority's key in a real GNOME Keyring, and certificates checked with openssl.
#include "CliHome.h"
#include "KeyringSession.h"
#include "TestFiles.h"

#include "secrets/SecretStore.h"
#include "secrets/ca/LocalAuthority.h"

#include "Needs.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <optional>

using paddock::test::CliHome;
using paddock::test::CliRun;

namespace {

const QByteArray kOpenSslConfig = "[req]\n"
                                  "distinguished_name = dn\n"
                                  "prompt = no\n"
                                  "[dn]\n"
                                  "CN = Paddock Test Upstream CA\n"
                                  "[authority]\n"
                                  "basicConstraints = critical,CA:TRUE\n"
                                  "keyUsage = critical,keyCertSign,cRLSign\n"
                                  "[server]\n"
                                  "basicConstraints = critical,CA:FALSE\n"
                                  "subjectAltName = DNS:models.example\n";

/** Runs openssl with @p arguments; its stdout, or nullopt when it failed. */
std::optional<QByteArray> openssl(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral("openssl"), arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return std::nullopt;
    return process.readAllStandardOutput();
}

/** "AB:CD:..." as openssl prints the SHA-256 fingerprint of the certificate in @p file. */
QString opensslFingerprint(const QString &file)
{
    const QString line =
        QString::fromUtf8(openssl({QStringLiteral("x509"), QStringLiteral("-in"), file, QStringLiteral("-noout"),
                                   QStringLiteral("-fingerprint"), QStringLiteral("-sha256")})
                              .value_or(QByteArray()));
    return line.section(QLatin1Char('='), 1).trimmed();
}

/** The value after "SHA-256:" in `ca show`'s output. */
QString shownFingerprint(const CliRun &run)
{
    static const QRegularExpression pattern(QStringLiteral("SHA-256:\\s+([0-9A-F:]+)"));
    return pattern.match(run.outText()).captured(1);
}

} // namespace

class TestCaCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void showCreatesTheAuthority();
    void showJsonAndPem();
    void rotateChangesTheFingerprint();
    void privateKeyIsInNoFile();
    void trustListUntrustAnAuthority();
    void trustRefusesAServerCertificate();
    void trustAndUntrustAreInForceWhenTheyReturn();
    void rotateIsInForceWhenItReturns();
    void untrustUnknownFails();
    void noKeychainSaysWhatToInstall();
    void helpDescribesEachCommand_data();
    void helpDescribesEachCommand();

private:
    CliRun ca(const QStringList &arguments) { return m_home->run(QStringList{QStringLiteral("ca")} + arguments); }
    QString caPem() const { return m_home->configDir() + QStringLiteral("/ca.pem"); }
    /** A file the daemon writes for the proxy and sandboxes: upstream-ca-bundle.pem, ca-bundle.pem. */
    QByteArray runtimeFile(const QString &name)
    {
        QFile file(m_home->environment().value(QStringLiteral("XDG_RUNTIME_DIR")) + QStringLiteral("/paddock/") + name);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    bool makeCertificates();

    std::unique_ptr<CliHome> m_home;
    QString m_upstreamCa;
    QString m_serverCertificate;
};

void TestCaCli::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty(),
                 "the openssl command (package openssl)");
}

void TestCaCli::init()
{
    m_home = std::make_unique<CliHome>();
    QVERIFY(m_home->isValid());
}

void TestCaCli::cleanup()
{
    // The authority's key stays in the keyring otherwise, and the next test would reuse it.
    paddock::secrets::SecretStore store(m_home->configDir() + QStringLiteral("/secrets.yaml"), nullptr);
    QEventLoop loop;
    store.removeKeyMaterial(paddock::secrets::ca::LocalAuthority::kKeyName,
                            [&loop](paddock::secrets::SecretResult) { loop.quit(); });
    loop.exec();
    m_home.reset();
}

bool TestCaCli::makeCertificates()
{
    const QString dir = m_home->root() + QStringLiteral("/certs/");
    QDir().mkpath(dir);
    QFile config(dir + QStringLiteral("openssl.cnf"));
    if (!config.open(QIODevice::WriteOnly) || config.write(kOpenSslConfig) != kOpenSslConfig.size())
        return false;
    config.close();
    m_upstreamCa = dir + QStringLiteral("upstream-ca.pem");
    m_serverCertificate = dir + QStringLiteral("server.pem");
    const QStringList key = {QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                             QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    if (!openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-config"),
                             config.fileName(), QStringLiteral("-extensions"), QStringLiteral("authority"),
                             QStringLiteral("-days"), QStringLiteral("30"), QStringLiteral("-keyout"),
                             dir + QStringLiteral("upstream-ca.key"), QStringLiteral("-out"), m_upstreamCa} +
                 key))
        return false;
    if (!openssl(QStringList{QStringLiteral("req"), QStringLiteral("-new"), QStringLiteral("-config"),
                             config.fileName(), QStringLiteral("-subj"), QStringLiteral("/CN=models.example"),
                             QStringLiteral("-keyout"), dir + QStringLiteral("server.key"), QStringLiteral("-out"),
                             dir + QStringLiteral("server.csr")} +
                 key))
        return false;
    return openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                    dir + QStringLiteral("server.csr"), QStringLiteral("-CA"), m_upstreamCa, QStringLiteral("-CAkey"),
                    dir + QStringLiteral("upstream-ca.key"), QStringLiteral("-CAcreateserial"),
                    QStringLiteral("-extfile"), config.fileName(), QStringLiteral("-extensions"),
                    QStringLiteral("server"), QStringLiteral("-days"), QStringLiteral("30"), QStringLiteral("-out"),
                    m_serverCertificate})
        .has_value();
}

void TestCaCli::showCreatesTheAuthority()
{
    QVERIFY(!QFile::exists(caPem()));
    const CliRun show = ca({QStringLiteral("show")});
    QVERIFY2(show.exitCode == 0, show.err.constData());
    QVERIFY(QFile::exists(caPem()));
    const QString fingerprint = shownFingerprint(show);
    QVERIFY2(!fingerprint.isEmpty(), show.out.constData());
    QCOMPARE(fingerprint, opensslFingerprint(caPem()));
    QVERIFY2(show.outText().contains(caPem()), show.out.constData());
    QVERIFY2(show.outText().contains(QStringLiteral("Subject:")), show.out.constData());
    QVERIFY2(show.outText().contains(QStringLiteral("Valid until:")), show.out.constData());

    // The second time the same authority is shown, not a new one.
    const CliRun again = ca({QStringLiteral("show")});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(shownFingerprint(again), fingerprint);
}

void TestCaCli::showJsonAndPem()
{
    const CliRun json = ca({QStringLiteral("show"), QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 0);
    const QJsonDocument document = QJsonDocument::fromJson(json.out);
    QVERIFY2(document.isObject(), json.out.constData());
    QCOMPARE(document[QStringLiteral("path")].toString(), caPem());
    QCOMPARE(document[QStringLiteral("fingerprintSha256")].toString(),
             opensslFingerprint(caPem()).remove(QLatin1Char(':')).toLower());
    QVERIFY(QDateTime::fromString(document[QStringLiteral("notAfter")].toString(), Qt::ISODate) >
            QDateTime::currentDateTimeUtc());

    const CliRun pem = ca({QStringLiteral("show"), QStringLiteral("--pem")});
    QCOMPARE(pem.exitCode, 0);
    QFile file(caPem());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(pem.out, file.readAll());
}

void TestCaCli::rotateChangesTheFingerprint()
{
    const QString before = shownFingerprint(ca({QStringLiteral("show")}));
    QVERIFY(!before.isEmpty());
    const CliRun rotate = ca({QStringLiteral("rotate")});
    QVERIFY2(rotate.exitCode == 0, rotate.err.constData());
    const QString after = opensslFingerprint(caPem());
    QVERIFY(!after.isEmpty());
    QVERIFY(after != before);
    QVERIFY2(rotate.outText().contains(after), rotate.out.constData());
    QCOMPARE(shownFingerprint(ca({QStringLiteral("show")})), after);
}

void TestCaCli::privateKeyIsInNoFile()
{
    QCOMPARE(ca({QStringLiteral("show")}).exitCode, 0);
    QCOMPARE(ca({QStringLiteral("rotate")}).exitCode, 0);
    const QStringList files = paddock::test::filesContaining(m_home->root(), "PRIVATE KEY");
    QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char(' '))));
    QVERIFY(!m_home->transcript().contains("PRIVATE KEY"));
}

void TestCaCli::trustListUntrustAnAuthority()
{
    QVERIFY(makeCertificates());
    const QString fingerprint = opensslFingerprint(m_upstreamCa);
    QVERIFY(!fingerprint.isEmpty());

    QCOMPARE(QJsonDocument::fromJson(ca({QStringLiteral("trusted"), QStringLiteral("--json")}).out).array().size(), 0);
    const CliRun trust = ca({QStringLiteral("trust"), m_upstreamCa});
    QVERIFY2(trust.exitCode == 0, trust.err.constData());
    QVERIFY2(trust.outText().contains(QStringLiteral("Paddock Test Upstream CA")), trust.out.constData());
    QVERIFY2(trust.err.isEmpty(), trust.err.constData());

    const CliRun trusted = ca({QStringLiteral("trusted")});
    QCOMPARE(trusted.exitCode, 0);
    QVERIFY2(trusted.outText().contains(fingerprint), trusted.out.constData());
    QVERIFY2(trusted.outText().contains(QStringLiteral("Paddock Test Upstream CA")), trusted.out.constData());
    const QJsonDocument json = QJsonDocument::fromJson(ca({QStringLiteral("trusted"), QStringLiteral("--json")}).out);
    QCOMPARE(json.array().size(), 1);
    QCOMPARE(json.array().first()[QStringLiteral("fingerprintSha256")].toString(),
             QString(fingerprint).remove(QLatin1Char(':')).toLower());

    // Named by the file that was trusted.
    const CliRun byFile = ca({QStringLiteral("untrust"), m_upstreamCa});
    QVERIFY2(byFile.exitCode == 0, byFile.err.constData());
    QVERIFY2(!ca({QStringLiteral("trusted")}).outText().contains(fingerprint), "still listed");

    // Named by the fingerprint `trusted` shows.
    QCOMPARE(ca({QStringLiteral("trust"), m_upstreamCa}).exitCode, 0);
    const CliRun byFingerprint = ca({QStringLiteral("untrust"), fingerprint});
    QVERIFY2(byFingerprint.exitCode == 0, byFingerprint.err.constData());
    QCOMPARE(QJsonDocument::fromJson(ca({QStringLiteral("trusted"), QStringLiteral("--json")}).out).array().size(), 0);
}

void TestCaCli::trustRefusesAServerCertificate()
{
    QVERIFY(makeCertificates());
    const CliRun trust = ca({QStringLiteral("trust"), m_serverCertificate});
    QCOMPARE(trust.exitCode, 1);
    QVERIFY2(trust.errText().contains(QStringLiteral("is not a certificate authority")), trust.err.constData());
    QCOMPARE(trust.errText().count(QLatin1Char('\n')), 1);
    QCOMPARE(QJsonDocument::fromJson(ca({QStringLiteral("trusted"), QStringLiteral("--json")}).out).array().size(), 0);

    const CliRun missing = ca({QStringLiteral("trust"), m_home->root() + QStringLiteral("/nothing.pem")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(ca({QStringLiteral("trust")}).exitCode, 2);
}

static QByteArray pemBody(const QString &file)
{
    QFile read(file);
    if (!read.open(QIODevice::ReadOnly))
        return {};
    // The base64 lines only: a bundle may write the header and line ends its own way.
    QByteArray body;
    for (const QByteArray &line : read.readAll().split('\n')) {
        if (!line.startsWith("-----"))
            body += line.trimmed();
    }
    return body;
}

static QByteArray withoutLineEnds(QByteArray text)
{
    return text.replace('\n', QByteArray()).replace('\r', QByteArray());
}

void TestCaCli::trustAndUntrustAreInForceWhenTheyReturn()
{
    // The daemon verifies upstream servers with upstream-ca-bundle.pem: an authority trusted is in
    // it as soon as `ca trust` returns, and out of it as soon as `ca untrust` does.
    QVERIFY(makeCertificates());
    const QByteArray body = pemBody(m_upstreamCa);
    QVERIFY(!body.isEmpty());
    QCOMPARE(ca({QStringLiteral("trusted")}).exitCode, 0); // the daemon runs, and wrote its bundles
    QVERIFY(!withoutLineEnds(runtimeFile(QStringLiteral("upstream-ca-bundle.pem"))).contains(body));
    const CliRun trust = ca({QStringLiteral("trust"), m_upstreamCa});
    QVERIFY2(trust.exitCode == 0, trust.err.constData());
    QVERIFY2(withoutLineEnds(runtimeFile(QStringLiteral("upstream-ca-bundle.pem"))).contains(body),
             "the upstream bundle lacks the authority just trusted");
    QVERIFY2(withoutLineEnds(runtimeFile(QStringLiteral("ca-bundle.pem"))).contains(body),
             "the sandboxes' bundle lacks the authority just trusted");
    const CliRun untrust = ca({QStringLiteral("untrust"), m_upstreamCa});
    QVERIFY2(untrust.exitCode == 0, untrust.err.constData());
    QVERIFY2(!withoutLineEnds(runtimeFile(QStringLiteral("upstream-ca-bundle.pem"))).contains(body),
             "the upstream bundle still holds the authority no longer trusted");
}

void TestCaCli::rotateIsInForceWhenItReturns()
{
    // Sandboxes trust ca-bundle.pem: the new authority is in it when `ca rotate` returns, the
    // old one no longer.
    QCOMPARE(ca({QStringLiteral("show")}).exitCode, 0);
    const QByteArray before = pemBody(caPem());
    QVERIFY(!before.isEmpty());
    const CliRun rotate = ca({QStringLiteral("rotate")});
    QVERIFY2(rotate.exitCode == 0, rotate.err.constData());
    const QByteArray after = pemBody(caPem());
    QVERIFY(!after.isEmpty() && after != before);
    const QByteArray bundle = withoutLineEnds(runtimeFile(QStringLiteral("ca-bundle.pem")));
    QVERIFY2(bundle.contains(after), "the sandboxes' bundle lacks the new authority");
    QVERIFY2(!bundle.contains(before), "the sandboxes' bundle still holds the old authority");
}

void TestCaCli::untrustUnknownFails()
{
    const CliRun run = ca({QStringLiteral("untrust"), QStringLiteral("deadbeefdeadbeef")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.errText().contains(QStringLiteral("deadbeefdeadbeef")), run.err.constData());
}

void TestCaCli::noKeychainSaysWhatToInstall()
{
    QTemporaryDir nowhere;
    m_home->environment().insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                                 QStringLiteral("unix:path=") + nowhere.filePath(QStringLiteral("no-bus")));
    for (const QString &command : {QStringLiteral("show"), QStringLiteral("rotate")}) {
        const CliRun run = ca({command});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.errText().contains(QStringLiteral("no keychain service")), run.err.constData());
    }
    QVERIFY(!QFile::exists(caPem()));
}

void TestCaCli::helpDescribesEachCommand_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("ca") << QStringList{QStringLiteral("ca")} << QStringLiteral("ca.pem");
    QTest::newRow("show") << QStringList{QStringLiteral("ca"), QStringLiteral("show")} << QStringLiteral("--pem");
    QTest::newRow("rotate") << QStringList{QStringLiteral("ca"), QStringLiteral("rotate")}
                            << QStringLiteral("restarted");
    QTest::newRow("trust") << QStringList{QStringLiteral("ca"), QStringLiteral("trust")} << QStringLiteral("CA:TRUE");
    QTest::newRow("trusted") << QStringList{QStringLiteral("ca"), QStringLiteral("trusted")}
                             << QStringLiteral("--json");
    QTest::newRow("untrust") << QStringList{QStringLiteral("ca"), QStringLiteral("untrust")}
                             << QStringLiteral("FINGERPRINT");
}

void TestCaCli::helpDescribesEachCommand()
{
    QFETCH(QStringList, command);
    QFETCH(QString, mentions);
    const CliRun help = m_home->run(command + QStringList{QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.outText().contains(mentions), help.out.constData());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestCaCli, QCoreApplication)

#include "tst_ca_cli.moc"

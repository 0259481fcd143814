// SPDX-License-Identifier: GPL-3.0-or-later
// The local certificate authority with its key in a real GNOME Keyring: made once and
// reused, never on disk, rotated on request; leaf certificates checked with the openssl
// command-line tool the way a TLS client would; trust bundles for sandboxes and the
// upstream authorities a user adds.
#include "IsolatedHome.h"
#include "KeyringSession.h"

#include "secrets/SecretStore.h"
#include "secrets/ca/LocalAuthority.h"
#include "secrets/ca/TrustStore.h"

#include "Needs.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::secrets;
using namespace paddock::secrets::ca;

namespace {

const QString kSystemRoots = QStringLiteral("/etc/ssl/certs/ca-certificates.crt");

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(contents);
}

struct Run
{
    int exitCode = -1;
    QString output;
};

Run openssl(const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("openssl"), arguments);
    Run run;
    if (!process.waitForFinished(30000))
        return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.output = QString::fromUtf8(process.readAll());
    return run;
}

/** A CA certificate made with the openssl tool in @p dir (its key beside it); its PEM file's path. */
QString madeAuthority(const QTemporaryDir &dir, const QString &name)
{
    const QString pem = dir.filePath(name + QStringLiteral(".pem"));
    const Run made =
        openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                 QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                 QStringLiteral("-keyout"), dir.filePath(name + QStringLiteral(".key")), QStringLiteral("-out"), pem,
                 QStringLiteral("-subj"), QStringLiteral("/O=Example/CN=%1").arg(name), QStringLiteral("-days"),
                 QStringLiteral("30")});
    return made.exitCode == 0 ? pem : QString();
}

QDateTime opensslDate(const QString &text)
{
    // "Nov 29 23:01:02 2026 GMT", with a space-padded day.
    return QDateTime::fromString(text.simplified(), QStringLiteral("MMM d HH:mm:ss yyyy 'GMT'")).toUTC();
}

} // namespace

class TestSecretsCa : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void madeOnceAndReusedAtTheNextStart();
    void privateKeyIsNeverOnDisk();
    void rotateMakesANewAuthority();
    void missingCertificateMeansANewAuthority();
    void leafForAHostVerifiesWithOpenssl();
    void leafForAnIpAddressCarriesAnIpSan();
    void leavesAreCachedPerHostUntilRotation();
    void hostsThatCannotBeNamedAreRefused();
    void sandboxBundleHoldsSystemRootsAndTheAuthority();
    void trustedAuthoritiesMustBeAuthorities();
    void bundlesFollowWhatTheyAreMadeFrom();

private:
    std::optional<LeafCertificate> leaf(const QString &host);
    QString writeLeaf(const LeafCertificate &leaf, const QString &name);

    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SecretStore> m_store;
    std::unique_ptr<LocalAuthority> m_authority;
};

void TestSecretsCa::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(test::kUnavailableVariable),
                 qEnvironmentVariable(test::kUnavailableVariable));
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty(),
                 "the openssl command (package openssl), which checks the certificates");
}

void TestSecretsCa::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid());
    paddock::test::useXdgOf(paddock::test::isolatedEnvironment(m_home->path()));
    m_store = std::make_unique<SecretStore>();
    m_authority = std::make_unique<LocalAuthority>(m_store.get());
    QString error;
    QVERIFY2(m_authority->loadAndWait(&error), qPrintable(error));
}

void TestSecretsCa::cleanup()
{
    // The keyring outlives a test function: each one starts with no authority.
    bool removed = false;
    m_store->removeKeyMaterial(LocalAuthority::kKeyName, [&](SecretResult) { removed = true; });
    QTRY_VERIFY(removed);
    m_authority.reset();
    m_store.reset();
    m_home.reset();
}

std::optional<LeafCertificate> TestSecretsCa::leaf(const QString &host)
{
    QString error;
    std::optional<LeafCertificate> result = m_authority->leafFor(host, &error);
    if (!result)
        qWarning() << error;
    return result;
}

QString TestSecretsCa::writeLeaf(const LeafCertificate &issued, const QString &name)
{
    const QString path = m_home->filePath(name);
    writeFile(path, issued.certificatePem());
    return path;
}

void TestSecretsCa::madeOnceAndReusedAtTheNextStart()
{
    const QString path = LocalAuthority::defaultCertificatePath();
    QCOMPARE(m_authority->certificatePath(), path);
    const QByteArray first = readFile(path);
    QVERIFY(first.startsWith("-----BEGIN CERTIFICATE-----"));
    QCOMPARE(first, m_authority->certificatePem());
    QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::WriteGroup),
             QFileDevice::ReadOther);
    const Run text = openssl(
        {QStringLiteral("x509"), QStringLiteral("-in"), path, QStringLiteral("-noout"), QStringLiteral("-text")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.output.contains(QLatin1String("CA:TRUE")), qPrintable(text.output));
    QVERIFY(text.output.contains(QLatin1String("Certificate Sign")));
    QVERIFY(text.output.contains(QLatin1String("prime256v1")));

    // The key is in the keychain, under Paddock's own entries.
    SecretResult key = SecretStore::wait(
        [this](SecretStore::Callback done) { m_store->getKeyMaterial(LocalAuthority::kKeyName, done); });
    QVERIFY2(key.ok(), qPrintable(key.message));
    QVERIFY(key.value.startsWith("-----BEGIN PRIVATE KEY-----"));
    key.value.fill('\0');

    // The next start: a new store and authority over the same keychain and files.
    SecretStore store;
    LocalAuthority again(&store);
    QSignalSpy changed(&again, &LocalAuthority::authorityChanged);
    QString error;
    QVERIFY2(again.loadAndWait(&error), qPrintable(error));
    QCOMPARE(again.fingerprint(), m_authority->fingerprint());
    QCOMPARE(readFile(path), first);
    QCOMPARE(changed.count(), 0);
}

void TestSecretsCa::privateKeyIsNeverOnDisk()
{
    QVERIFY(leaf(QStringLiteral("llm.example.test")));
    QString error;
    QVERIFY(TrustStore(TrustStore::defaultTrustedDirectory(), kSystemRoots)
                .writeSandboxBundle(m_authority->certificatePem(), &error));
    QVERIFY(m_authority->rotateAndWait(&error));
    QDirIterator it(m_home->path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        ++files;
        QVERIFY2(!readFile(path).contains("PRIVATE KEY"), qPrintable(path));
    }
    QVERIFY(files >= 2); // ca.pem and the bundle were looked at
}

void TestSecretsCa::rotateMakesANewAuthority()
{
    const QString before = m_authority->fingerprint();
    const QByteArray beforePem = readFile(m_authority->certificatePath());
    const std::optional<LeafCertificate> old = leaf(QStringLiteral("llm.example.test"));
    QVERIFY(old);
    const QString oldLeaf = writeLeaf(*old, QStringLiteral("old-leaf.pem"));

    QSignalSpy changed(m_authority.get(), &LocalAuthority::authorityChanged);
    QString error;
    QVERIFY2(m_authority->rotateAndWait(&error), qPrintable(error));
    QCOMPARE(changed.count(), 1);
    QVERIFY(m_authority->fingerprint() != before);
    QVERIFY(readFile(m_authority->certificatePath()) != beforePem);
    QCOMPARE(readFile(m_authority->certificatePath()), m_authority->certificatePem());

    // Certificates of the old authority no longer verify against ca.pem.
    const Run verify =
        openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), m_authority->certificatePath(), oldLeaf});
    QVERIFY(verify.exitCode != 0);

    // The next start uses the rotated one.
    SecretStore store;
    LocalAuthority again(&store);
    QVERIFY(again.loadAndWait(&error));
    QCOMPARE(again.fingerprint(), m_authority->fingerprint());
}

void TestSecretsCa::missingCertificateMeansANewAuthority()
{
    const QString before = m_authority->fingerprint();
    QVERIFY(QFile::remove(m_authority->certificatePath()));
    SecretStore store;
    LocalAuthority again(&store);
    QString error;
    QVERIFY(again.loadAndWait(&error));
    QVERIFY(again.fingerprint() != before);
    QCOMPARE(readFile(again.certificatePath()), again.certificatePem());
}

void TestSecretsCa::leafForAHostVerifiesWithOpenssl()
{
    const std::optional<LeafCertificate> issued = leaf(QStringLiteral("llm.example.test"));
    QVERIFY(issued);
    QVERIFY(issued->key);
    const QString path = writeLeaf(*issued, QStringLiteral("leaf.pem"));

    const Run verify = openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), m_authority->certificatePath(),
                                QStringLiteral("-purpose"), QStringLiteral("sslserver"),
                                QStringLiteral("-verify_hostname"), QStringLiteral("llm.example.test"), path});
    QVERIFY2(verify.exitCode == 0, qPrintable(verify.output));
    QVERIFY2(verify.output.contains(QStringLiteral("%1: OK").arg(path)), qPrintable(verify.output));

    const Run wrongHost = openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), m_authority->certificatePath(),
                                   QStringLiteral("-verify_hostname"), QStringLiteral("other.example.test"), path});
    QVERIFY(wrongHost.exitCode != 0);

    const Run text = openssl(
        {QStringLiteral("x509"), QStringLiteral("-in"), path, QStringLiteral("-noout"), QStringLiteral("-text")});
    QCOMPARE(text.exitCode, 0);
    const QString &out = text.output;
    QVERIFY2(out.contains(QLatin1String("DNS:llm.example.test")), qPrintable(out));
    QVERIFY(out.contains(QLatin1String("X509v3 Authority Key Identifier")));
    QVERIFY(out.contains(QLatin1String("X509v3 Subject Key Identifier")));
    QVERIFY(out.contains(QLatin1String("CA:FALSE")));
    QVERIFY(out.contains(QLatin1String("TLS Web Server Authentication")));
    QVERIFY(out.contains(QLatin1String("Digital Signature")));
    QVERIFY(!out.contains(QLatin1String("Certificate Sign")));

    const Run dates = openssl({QStringLiteral("x509"), QStringLiteral("-in"), path, QStringLiteral("-noout"),
                               QStringLiteral("-startdate"), QStringLiteral("-enddate"), QStringLiteral("-serial")});
    QCOMPARE(dates.exitCode, 0);
    const QRegularExpressionMatch start = QRegularExpression(QStringLiteral("notBefore=(.*)")).match(dates.output);
    const QRegularExpressionMatch end = QRegularExpression(QStringLiteral("notAfter=(.*)")).match(dates.output);
    QVERIFY(start.hasMatch() && end.hasMatch());
    const QDateTime notBefore = opensslDate(start.captured(1));
    const QDateTime notAfter = opensslDate(end.captured(1));
    QVERIFY2(notBefore.isValid() && notAfter.isValid(), qPrintable(dates.output));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(notBefore < now);                            // starts in the past, for clock skew
    QVERIFY(notBefore.secsTo(notAfter) <= 99LL * 86400); // at most 99 days
    QVERIFY(now.secsTo(notAfter) > 80LL * 86400);        // and not uselessly short
    QCOMPARE(issued->notAfter, notAfter);

    // Serials are random: two hosts, two different serials of 16 bytes.
    const Run other =
        openssl({QStringLiteral("x509"), QStringLiteral("-noout"), QStringLiteral("-serial"), QStringLiteral("-in"),
                 writeLeaf(*leaf(QStringLiteral("b.example.test")), QStringLiteral("b.pem"))});
    const QString serialA = QRegularExpression(QStringLiteral("serial=(\\w+)")).match(dates.output).captured(1);
    const QString serialB = QRegularExpression(QStringLiteral("serial=(\\w+)")).match(other.output).captured(1);
    QCOMPARE(serialA.size(), 32);
    QVERIFY(serialA != serialB);
}

void TestSecretsCa::leafForAnIpAddressCarriesAnIpSan()
{
    const std::optional<LeafCertificate> issued = leaf(QStringLiteral("127.0.0.1"));
    QVERIFY(issued);
    const QString path = writeLeaf(*issued, QStringLiteral("ip.pem"));
    const Run text = openssl({QStringLiteral("x509"), QStringLiteral("-in"), path, QStringLiteral("-noout"),
                              QStringLiteral("-ext"), QStringLiteral("subjectAltName")});
    QVERIFY2(text.output.contains(QLatin1String("IP Address:127.0.0.1")), qPrintable(text.output));
    QVERIFY(!text.output.contains(QLatin1String("DNS:")));
    const Run verify = openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), m_authority->certificatePath(),
                                QStringLiteral("-purpose"), QStringLiteral("sslserver"), QStringLiteral("-verify_ip"),
                                QStringLiteral("127.0.0.1"), path});
    QVERIFY2(verify.exitCode == 0, qPrintable(verify.output));

    const std::optional<LeafCertificate> v6 = leaf(QStringLiteral("[::1]"));
    QVERIFY(v6);
    const Run text6 = openssl({QStringLiteral("x509"), QStringLiteral("-in"), writeLeaf(*v6, QStringLiteral("ip6.pem")),
                               QStringLiteral("-noout"), QStringLiteral("-ext"), QStringLiteral("subjectAltName")});
    QVERIFY2(text6.output.contains(QLatin1String("IP Address:0:0:0:0:0:0:0:1")), qPrintable(text6.output));
}

void TestSecretsCa::leavesAreCachedPerHostUntilRotation()
{
    const std::optional<LeafCertificate> a = leaf(QStringLiteral("llm.example.test"));
    const std::optional<LeafCertificate> again = leaf(QStringLiteral("LLM.example.test."));
    const std::optional<LeafCertificate> b = leaf(QStringLiteral("api.example.test"));
    QVERIFY(a && again && b);
    QCOMPARE(again->certificate.get(), a->certificate.get());
    QVERIFY(b->certificate.get() != a->certificate.get());
    QCOMPARE(b->key.get(), a->key.get()); // one key pair for all leaves

    QString error;
    QVERIFY(m_authority->rotateAndWait(&error));
    const std::optional<LeafCertificate> fresh = leaf(QStringLiteral("llm.example.test"));
    QVERIFY(fresh);
    QVERIFY(fresh->certificate.get() != a->certificate.get());
    const Run verify = openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), m_authority->certificatePath(),
                                writeLeaf(*fresh, QStringLiteral("fresh.pem"))});
    QVERIFY2(verify.exitCode == 0, qPrintable(verify.output));
}

void TestSecretsCa::hostsThatCannotBeNamedAreRefused()
{
    for (const QString &host :
         {QString(), QStringLiteral("a..b"), QStringLiteral("has space.test"), QStringLiteral("-leading.test"),
          QStringLiteral("x.test,DNS:evil.test"), QString(64, QLatin1Char('a')) + QStringLiteral(".test")}) {
        QString error;
        QVERIFY2(!m_authority->leafFor(host, &error), qPrintable(host));
        QVERIFY(error.contains(QLatin1String("is not a host name or an IP address")));
    }
}

void TestSecretsCa::sandboxBundleHoldsSystemRootsAndTheAuthority()
{
    const QByteArray roots = readFile(kSystemRoots);
    PADDOCK_NEED(!roots.isEmpty(), "the system's roots (package ca-certificates)");
    TrustStore trust;
    QString error;
    QVERIFY2(trust.writeSandboxBundle(m_authority->certificatePem(), &error), qPrintable(error));
    const QString path = TrustStore::defaultSandboxBundlePath();
    QVERIFY(path.startsWith(m_home->filePath(QStringLiteral("XDG_RUNTIME_DIR"))));
    const QByteArray bundle = readFile(path);
    QVERIFY(bundle.startsWith(roots));
    QVERIFY(bundle.contains(m_authority->certificatePem()));
    QCOMPARE(bundle.count("-----BEGIN CERTIFICATE-----"), roots.count("-----BEGIN CERTIFICATE-----") + 1);
    QVERIFY(QFile::permissions(path) & QFileDevice::ReadOther);

    // A client given only the bundle accepts Paddock's certificates.
    const Run verify = openssl({QStringLiteral("verify"), QStringLiteral("-CAfile"), path, QStringLiteral("-purpose"),
                                QStringLiteral("sslserver"),
                                writeLeaf(*leaf(QStringLiteral("llm.example.test")), QStringLiteral("leaf.pem"))});
    QVERIFY2(verify.exitCode == 0, qPrintable(verify.output));
}

void TestSecretsCa::trustedAuthoritiesMustBeAuthorities()
{
    // Made with the openssl tool outside the XDG directories (its key is on disk).
    QTemporaryDir outside;
    const QString corp = outside.filePath(QStringLiteral("corp.pem"));
    const Run made =
        openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                 QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                 QStringLiteral("-keyout"), outside.filePath(QStringLiteral("corp.key")), QStringLiteral("-out"), corp,
                 QStringLiteral("-subj"), QStringLiteral("/O=Example Corp/CN=Example Corp Inspection CA"),
                 QStringLiteral("-days"), QStringLiteral("30")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.output));

    TrustStore trust;
    QString error;
    const std::optional<TrustedAuthority> added = trust.addTrustedAuthority(corp, &error);
    QVERIFY2(added, qPrintable(error));
    QVERIFY(added->subject.contains(QLatin1String("Example Corp Inspection CA")));
    QVERIFY(added->path.startsWith(TrustStore::defaultTrustedDirectory()));
    QCOMPARE(trust.trustedAuthorities().size(), 1);
    QCOMPARE(trust.trustedAuthorities().first().fingerprint, added->fingerprint);
    const QByteArray corpPem = readFile(corp);
    QVERIFY(trust.upstreamBundle(&error).contains(corpPem));
    QVERIFY(trust.sandboxBundle(m_authority->certificatePem(), &error).contains(corpPem));

    // A server certificate, a file that is no certificate, a missing file: refused.
    const QString leafPath = writeLeaf(*leaf(QStringLiteral("llm.example.test")), QStringLiteral("leaf.pem"));
    QVERIFY(!trust.addTrustedAuthority(leafPath, &error));
    QVERIFY2(error.contains(QLatin1String("is not a certificate authority")), qPrintable(error));
    writeFile(outside.filePath(QStringLiteral("junk.pem")), "not a certificate\n");
    QVERIFY(!trust.addTrustedAuthority(outside.filePath(QStringLiteral("junk.pem")), &error));
    QVERIFY(error.contains(QLatin1String("does not hold a certificate")));
    QVERIFY(!trust.addTrustedAuthority(outside.filePath(QStringLiteral("missing.pem")), &error));
    QCOMPARE(trust.trustedAuthorities().size(), 1);

    QVERIFY2(trust.removeTrustedAuthority(added->fingerprint.left(12), &error), qPrintable(error));
    QVERIFY(trust.trustedAuthorities().isEmpty());
    QVERIFY(!trust.upstreamBundle(&error).contains(corpPem));
}

void TestSecretsCa::bundlesFollowWhatTheyAreMadeFrom()
{
    const QByteArray roots = readFile(kSystemRoots);
    PADDOCK_NEED(!roots.isEmpty(), "the system's roots (package ca-certificates)");
    QTemporaryDir outside;
    const QString systemRoots = outside.filePath(QStringLiteral("ca-certificates.crt"));
    writeFile(systemRoots, roots);
    TrustStore trust(outside.filePath(QStringLiteral("trusted-cas")), systemRoots);
    const QString upstream = outside.filePath(QStringLiteral("upstream.pem"));
    const QString sandbox = outside.filePath(QStringLiteral("sandbox.pem"));
    const QByteArray authority = m_authority->certificatePem();
    QByteArray stamp;
    QString error;
    QVERIFY2(trust.writeBundles(authority, upstream, sandbox, &stamp, &error), qPrintable(error));
    QVERIFY(readFile(upstream).startsWith(roots));
    QVERIFY(readFile(sandbox).startsWith(roots) && readFile(sandbox).contains(authority));
    const QByteArray unchanged = stamp;
    QVERIFY2(trust.writeBundles(authority, upstream, sandbox, &stamp, &error), qPrintable(error));
    QCOMPARE(stamp, unchanged);

    // The system's roots rewritten in place (an update of ca-certificates): both bundles follow.
    const QString added = madeAuthority(outside, QStringLiteral("Added Root"));
    QVERIFY(!added.isEmpty());
    const QByteArray addedPem = readFile(added);
    writeFile(systemRoots, roots + addedPem);
    QVERIFY2(trust.writeBundles(authority, upstream, sandbox, &stamp, &error), qPrintable(error));
    QVERIFY(readFile(upstream).contains(addedPem));
    QVERIFY(readFile(sandbox).contains(addedPem));

    // An authority the user trusts from now on: both bundles too.
    const QString corp = madeAuthority(outside, QStringLiteral("Corp Inspection"));
    QVERIFY(!corp.isEmpty());
    QVERIFY2(trust.addTrustedAuthority(corp, &error), qPrintable(error));
    QVERIFY2(trust.writeBundles(authority, upstream, sandbox, &stamp, &error), qPrintable(error));
    QVERIFY(readFile(upstream).contains(readFile(corp)));
    QVERIFY(readFile(sandbox).contains(readFile(corp)));

    // A bundle removed or changed behind the writer's back is written again.
    QVERIFY(QFile::remove(sandbox));
    writeFile(upstream, "tampered\n");
    QVERIFY2(trust.writeBundles(authority, upstream, sandbox, &stamp, &error), qPrintable(error));
    QVERIFY(readFile(upstream).contains(readFile(corp)));
    QVERIFY(readFile(sandbox).contains(authority));
}

int main(int argc, char **argv)
{
    test::enterPrivateKeyring(argc, argv);
    QCoreApplication app(argc, argv);
    TestSecretsCa test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secrets_ca.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock secret set NAME --command ... | --ref ...`: the real daemon runs the user's command
// (or the 1Password CLI) on the host when a request from a real bubblewrap sandbox needs the key,
// and the proxy puts what it printed into the request to a local HTTPS upstream. The commands are
// test scripts written here: one that prints a new token each time it runs (a stand-in for
// `gh auth token`), one that fails, and a fake `op`.
#include "../proxy-inject/InjectTestSupport.h"
#include "AttackSupport.h"
#include "KeyringSession.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "DenialsModel.h"
#include "NetworkNotifier.h"
#include "NetworkPolicy.h"
#include "api/DaemonClient.h"

#include "Needs.h"

#include <QDBusConnection>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QString kHost = QStringLiteral("api.sources.test");
const QString kSandbox = QStringLiteral("sourced");
const QString kReference = QStringLiteral("op://vault/item/field");

/** @brief Stands in for the desktop's notification server: records what Paddock shows. */
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QStringList summaries;

public Q_SLOTS:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &, const QStringList &,
                const QVariantMap &, int)
    {
        summaries.append(summary);
        return uint(summaries.size());
    }
    QStringList GetCapabilities() { return {QStringLiteral("actions")}; }
};

} // namespace

class TestSecretSources : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void commandValueIsUsedUntilItsRefresh();
    void requestAfterTheRefreshCarriesTheNewValue();
    void onDemandRunsTheCommandForEachRequest();
    void failingCommandRefusesTheRequestAndIsLogged();
    void referenceIsReadWithOp();
    void listShowsTheSourceAndWhenItWasResolved();
    void valuesAreInNoFile();

private:
    bool writeScripts();
    bool makeUpstreamCertificate();
    Finished paddock(const QStringList &arguments, const QByteArray &input = {});
    /** curl in the sandbox for each of @p paths, with @p between run between two requests. */
    Finished requests(const QStringList &paths, const QString &between = QStringLiteral("true"));
    /** The token each request for @p paths carried, in order ("" for a request that never came). */
    QList<QByteArray> tokensOf(const QStringList &paths) const;
    int counter() const { return paddock::test::readFile(m_bin.filePath(QStringLiteral("counter"))).trimmed().toInt(); }
    QString counting() const { return m_bin.filePath(QStringLiteral("counting-token-for-tests")); }

    QTemporaryDir m_bin;
    std::unique_ptr<SandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QString m_kit;
    /** Every value the scripts print starts with it: no file may hold it. */
    QByteArray m_prefix = "src-" + QUuid::createUuid().toByteArray(QUuid::Id128);
};

void TestSecretSources::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty() &&
                     !QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty(),
                 "bubblewrap and curl");
    QVERIFY(m_bin.isValid());
    QVERIFY(writeScripts());
    m_fixture = std::make_unique<SandboxFixture>();
    // The daemon finds `op` where the user's shell would: on its PATH.
    m_fixture->addEnvironment(QStringLiteral("PATH"), m_bin.path() + QLatin1Char(':') + qEnvironmentVariable("PATH"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    QDir().mkpath(m_fixture->path(QStringLiteral("certs")));
    m_certificates = std::make_unique<CertificateFactory>(m_fixture->path(QStringLiteral("certs")));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Sources Test Upstream CA")));
    QVERIFY(makeUpstreamCertificate());
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("upstream.pem")),
                             m_certificates->path(QStringLiteral("upstream.key"))));
    const Finished trusted = paddock(
        {QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("upstream-ca.pem"))});
    QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err));
    const Finished mapped = m_fixture->mapToUpstream({kHost});
    QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));

    m_kit = m_fixture->path(QStringLiteral("kits/sourced"));
    QVERIFY(paddock::test::writeFile(
        m_kit + QStringLiteral("/spec.yaml"),
        paddock::test::shellKitSpec(QStringLiteral("sourced"), QStringLiteral(R"(environment:
  variables:
    SSL_CERT_FILE: /nowhere.pem
credentials:
  - service: tok
    required: true
    apiKey:
      name: TOK_API_KEY
      proxyManaged: true
      inject:
        - domain: %1
          scheme: bearer
permissions:
  network:
    allow:
      - %1:%2
)")
                                                                   .arg(kHost)
                                                                   .arg(m_upstream.serverPort()))));
}

bool TestSecretSources::writeScripts()
{
    const auto script = [this](const QString &name, const QByteArray &text) {
        const QString path = m_bin.filePath(name);
        return paddock::test::writeFile(path, text) &&
               QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                               QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    };
    // A stand-in for `gh auth token` whose token changes each time it runs, with spaces and a
    // newline around it, as a command's output has.
    return script(QStringLiteral("counting-token-for-tests"), "#!/bin/sh\n"
                                                              "n=$(( $(cat \"$1\" 2>/dev/null || echo 0) + 1 ))\n"
                                                              "echo \"$n\" > \"$1\"\n"
                                                              "printf '  %s-%s  \\n' '" +
                                                                  m_prefix + "' \"$n\"\n") &&
           script(QStringLiteral("failing-token-for-tests"), "#!/bin/sh\n"
                                                             "echo 'token expired; run gh auth login' >&2\n"
                                                             "echo 'second line' >&2\n"
                                                             "exit 3\n") &&
           script(QStringLiteral("fake-op-for-tests"), "#!/bin/sh\n"
                                                       "[ \"$1\" = read ] && [ \"$2\" = '" +
                                                           kReference.toUtf8() +
                                                           "' ] || { echo \"[ERROR] no item $2\" >&2; exit 1; }\n"
                                                           "echo '" +
                                                           m_prefix + "-from-op'\n") &&
           QFile::copy(m_bin.filePath(QStringLiteral("fake-op-for-tests")), m_bin.filePath(QStringLiteral("op")));
}

bool TestSecretSources::makeUpstreamCertificate()
{
    const QString dir = m_fixture->path(QStringLiteral("certs"));
    if (!paddock::test::writeFile(dir + QStringLiteral("/upstream.ext"),
                                  QStringLiteral("subjectAltName=DNS:%1\nbasicConstraints=CA:FALSE\n"
                                                 "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
                                      .arg(kHost)
                                      .toUtf8()))
        return false;
    const auto openssl = [&dir](const QStringList &arguments) {
        QProcess process;
        process.setWorkingDirectory(dir);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("openssl"), arguments);
        return process.waitForFinished(30000) && process.exitCode() == 0;
    };
    return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                    QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                    QStringLiteral("upstream.key"), QStringLiteral("-out"), QStringLiteral("upstream.csr"),
                    QStringLiteral("-subj"), QStringLiteral("/CN=") + kHost}) &&
           openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                    QStringLiteral("upstream.csr"), QStringLiteral("-CA"), QStringLiteral("upstream-ca.pem"),
                    QStringLiteral("-CAkey"), QStringLiteral("upstream-ca.key"), QStringLiteral("-CAcreateserial"),
                    QStringLiteral("-out"), QStringLiteral("upstream.pem"), QStringLiteral("-days"),
                    QStringLiteral("30"), QStringLiteral("-extfile"), QStringLiteral("upstream.ext")});
}

Finished TestSecretSources::paddock(const QStringList &arguments, const QByteArray &input)
{
    return paddock::test::runServing(m_fixture->environment(), m_fixture->workspace(), QStringLiteral(PADDOCK_BIN),
                                     arguments, input);
}

Finished TestSecretSources::requests(const QStringList &paths, const QString &between)
{
    QStringList commands;
    for (const QString &path : paths)
        commands << QStringLiteral("curl -sS -o /dev/null -w '%1=%{http_code}\\n' https://%2:%3/%1")
                        .arg(path, kHost)
                        .arg(m_upstream.serverPort());
    return paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"), m_kit,
                    QStringLiteral("--name"), kSandbox, m_fixture->workspace(), QStringLiteral("--"),
                    commands.join(QStringLiteral("; %1; ").arg(between))});
}

QList<QByteArray> TestSecretSources::tokensOf(const QStringList &paths) const
{
    QList<QByteArray> tokens;
    for (const QString &path : paths) {
        QByteArray token;
        for (const EchoServer::Request &request : m_upstream.requests) {
            if (request.head.split(' ').value(1) != QByteArray("/") + path.toUtf8())
                continue;
            const qsizetype at = request.head.indexOf("\r\nAuthorization: Bearer ");
            if (at >= 0)
                token = request.head.mid(at + 24, request.head.indexOf("\r\n", at + 2) - at - 24);
        }
        tokens << token;
    }
    return tokens;
}

void TestSecretSources::commandValueIsUsedUntilItsRefresh()
{
    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("tok"), QStringLiteral("--command"),
                 counting() + QStringLiteral(" ") + m_bin.filePath(QStringLiteral("counter"))});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    QVERIFY2(set.out.contains(QStringLiteral("every 55m")), qPrintable(set.out));
    // The daemon wrote the source (one writer), naming the program, not its output.
    const QString log = m_fixture->daemonLog();
    QVERIFY2(log.contains(QLatin1String("the key of tok now comes from command")), qPrintable(log));

    const Finished run = requests({QStringLiteral("a1"), QStringLiteral("a2")});
    QVERIFY2(run.out.contains(QStringLiteral("a1=200")) && run.out.contains(QStringLiteral("a2=200")),
             qPrintable(run.out + run.err));
    // Trimmed, run once, the same value for both requests.
    QCOMPARE(tokensOf({QStringLiteral("a1"), QStringLiteral("a2")}),
             (QList<QByteArray>{m_prefix + "-1", m_prefix + "-1"}));
    QCOMPARE(counter(), 1);
}

void TestSecretSources::requestAfterTheRefreshCarriesTheNewValue()
{
    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("tok"), QStringLiteral("--command"),
                 counting() + QStringLiteral(" ") + m_bin.filePath(QStringLiteral("counter")),
                 QStringLiteral("--refresh"), QStringLiteral("1s")});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    const Finished run = requests({QStringLiteral("b1"), QStringLiteral("b2")}, QStringLiteral("sleep 2"));
    QVERIFY2(run.out.contains(QStringLiteral("b2=200")), qPrintable(run.out + run.err));
    const QList<QByteArray> tokens = tokensOf({QStringLiteral("b1"), QStringLiteral("b2")});
    QVERIFY2(tokens[0].startsWith(m_prefix) && tokens[1].startsWith(m_prefix), tokens.join(' ').constData());
    // The value held from before the change of source is not used, and the one from the first
    // request is not used after its second.
    QVERIFY2(tokens[0] != m_prefix + "-1", tokens[0].constData());
    QVERIFY2(tokens[1].mid(m_prefix.size() + 1).toInt() > tokens[0].mid(m_prefix.size() + 1).toInt(),
             tokens.join(' ').constData());
}

void TestSecretSources::onDemandRunsTheCommandForEachRequest()
{
    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("tok"), QStringLiteral("--command"),
                 counting() + QStringLiteral(" ") + m_bin.filePath(QStringLiteral("counter")),
                 QStringLiteral("--refresh"), QStringLiteral("on-demand")});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    const int before = counter();
    const QStringList paths{QStringLiteral("c1"), QStringLiteral("c2"), QStringLiteral("c3")};
    const Finished run = requests(paths);
    QVERIFY2(run.out.contains(QStringLiteral("c3=200")), qPrintable(run.out + run.err));
    QCOMPARE(tokensOf(paths), (QList<QByteArray>{m_prefix + '-' + QByteArray::number(before + 1),
                                                 m_prefix + '-' + QByteArray::number(before + 2),
                                                 m_prefix + '-' + QByteArray::number(before + 3)}));
    QCOMPARE(counter(), before + 3);
}

void TestSecretSources::failingCommandRefusesTheRequestAndIsLogged()
{
    // The window, in the background, tells of it on the desktop.
    QDBusConnection bus = QDBusConnection::sessionBus();
    FakeNotifications desktop;
    QVERIFY(bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &desktop,
                               QDBusConnection::ExportAllSlots));
    QVERIFY(bus.registerService(QStringLiteral("org.freedesktop.Notifications")));
    paddock::api::DaemonClient client;
    client.setSocketPath(m_fixture->socketPath());
    client.connectToDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(client.isConnected(), 10000);
    paddock::gui::NetworkPolicy policy;
    policy.setClient(&client);
    QTRY_VERIFY(policy.loaded() && !policy.denials()->loading());
    paddock::gui::NetworkNotifier notifier;
    notifier.setEnabled(true);
    notifier.setPolicy(&policy);

    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("tok"), QStringLiteral("--command"),
                 m_bin.filePath(QStringLiteral("failing-token-for-tests"))});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    const Finished run = requests({QStringLiteral("d1")});
    QVERIFY2(run.out.contains(QStringLiteral("d1=503")), qPrintable(run.out + run.err));
    // Never sent with an empty key: the upstream saw no request at all.
    QCOMPARE(tokensOf({QStringLiteral("d1")}), QList<QByteArray>{QByteArray()});
    for (const EchoServer::Request &request : std::as_const(m_upstream.requests))
        QVERIFY(request.head.split(' ').value(1) != "/d1");

    // The event log says which command failed and its first line on stderr.
    const QString expected =
        QStringLiteral("failing-token-for-tests failed: exit status 3: token expired; run gh auth login");
    QString reasons;
    const bool logged = QTest::qWaitFor(
        [&] {
            const Finished log =
                paddock({QStringLiteral("policy"), QStringLiteral("log"), kSandbox, QStringLiteral("--json")});
            reasons.clear();
            for (const QJsonValue &entry :
                 QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("failed")).toArray())
                reasons += entry.toObject().value(QLatin1String("reason")).toString() + QLatin1Char('\n');
            return reasons.contains(expected);
        },
        20000);
    QVERIFY2(logged, qPrintable(reasons));
    QVERIFY(!reasons.contains(QStringLiteral("second line")));
    QTRY_COMPARE(desktop.summaries, QStringList{expected});
    bus.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
    bus.unregisterObject(QStringLiteral("/org/freedesktop/Notifications"));
}

void TestSecretSources::referenceIsReadWithOp()
{
    const Finished set = paddock(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("tok"), QStringLiteral("--ref"), kReference});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    QVERIFY2(!set.err.contains(QStringLiteral("not on PATH")), qPrintable(set.err));
    const Finished run = requests({QStringLiteral("e1")});
    QVERIFY2(run.out.contains(QStringLiteral("e1=200")), qPrintable(run.out + run.err));
    QCOMPARE(tokensOf({QStringLiteral("e1")}), QList<QByteArray>{m_prefix + "-from-op"});
}

void TestSecretSources::listShowsTheSourceAndWhenItWasResolved()
{
    const Finished table = paddock({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY2(table.out.contains(QStringLiteral("reference: %1 (55m)").arg(kReference)), qPrintable(table.out));
    QVERIFY2(QRegularExpression(QStringLiteral("resolved 20\\d\\d-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC"))
                 .match(table.out)
                 .hasMatch(),
             qPrintable(table.out));
    const Finished json = paddock({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")});
    const QJsonObject entry = QJsonDocument::fromJson(json.out.toUtf8()).array().first().toObject();
    QCOMPARE(entry.value(QLatin1String("source")).toString(), QStringLiteral("reference"));
    QCOMPARE(entry.value(QLatin1String("reference")).toString(), kReference);
    QVERIFY(entry.value(QLatin1String("present")).toBool());
    const QDateTime resolved =
        QDateTime::fromString(entry.value(QLatin1String("lastResolved")).toString(), Qt::ISODate);
    QVERIFY2(resolved.isValid(), qPrintable(json.out));
    // The failure before it stays visible, with its sentence.
    QVERIFY2(entry.value(QLatin1String("lastError")).toString().contains(QStringLiteral("token expired")),
             qPrintable(json.out));
    QVERIFY(!json.out.contains(QString::fromLatin1(m_prefix)));
}

void TestSecretSources::valuesAreInNoFile()
{
    QStringList leaks;
    QStringList searched;
    for (const char *dir : {"config", "state", "data", "run", "workspace"}) {
        QDirIterator it(m_fixture->path(QLatin1String(dir)), QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!it.fileInfo().isFile() || !file.open(QIODevice::ReadOnly))
                continue;
            searched << path;
            if (file.readAll().contains(m_prefix))
                leaks << path;
        }
    }
    QFile output(m_fixture->path(QStringLiteral("paddockd.out")));
    if (output.open(QIODevice::ReadOnly) && output.readAll().contains(m_prefix))
        leaks << output.fileName();
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(QLatin1Char('\n'))));
    // The search covered the sources file, their state, the event log and the daemon's log.
    for (const QString &name : {QStringLiteral("secret-sources.json"), QStringLiteral("secret-sources-state.json"),
                                QStringLiteral("events.sqlite"), QStringLiteral("paddockd.log")})
        QVERIFY2(std::any_of(searched.begin(), searched.end(), [&](const QString &p) { return p.endsWith(name); }),
                 qPrintable(name + QLatin1Char('\n') + searched.join(QLatin1Char('\n'))));
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSecretSources, QCoreApplication)

#include "tst_secret_sources.moc"

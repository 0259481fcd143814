// SPDX-License-Identifier: GPL-3.0-or-later
// Custom secrets: `paddock secret set-custom` gives sandboxes a placeholder, and the real daemon's
// proxy replaces it with the value in the named header (or any header) and in text bodies of
// requests to the secret's hosts only. curl runs inside a real bubblewrap sandbox against an
// HTTPS upstream on loopback that echoes what it received. A value may come from a command or a
// 1Password reference instead of the keychain: test scripts stand in for `gh auth token` (a new
// token each run), for one that fails, and for `op`.
#include "../proxy-inject/InjectTestSupport.h"
#include "AttackSupport.h"
#include "KeyringSession.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "Needs.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QString kHost = QStringLiteral("api.custom.test");
const QString kOther = QStringLiteral("other.custom.test");
const QString kSourced = QStringLiteral("sourced.custom.test");
const QString kReference = QStringLiteral("op://vault/item/field");

} // namespace

class TestCustomSecrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void invalidOptionsAreRefused();
    void listShowsHostsWhereAndVariable();
    void placeholderIsReplacedInTheHeaderAndBody();
    void chunkedBodyIsReplaced();
    void otherHostGetsThePlaceholderAndIsLogged();
    void responsesAreMasked();
    void sandboxHoldsThePlaceholderOnly();
    void kitCannotReachTheValueByItsName();
    void valueIsInNoFileLogOrEvent();
    void removedSecretIsNoLongerReplaced();
    void guardRefusesTheValueItself();
    void valueFromACommandIsRunForTheRequest();
    void failingCommandRefusesTheRequestAndSaysWhy();

private:
    bool writeScripts();
    /** The values of header @p header the upstream received for @p paths, in order. */
    QList<QByteArray> headerValues(const QStringList &paths, const QByteArray &header) const;
    bool makeUpstreamCertificate();
    Finished paddock(const QStringList &arguments, const QByteArray &input = {});
    /** `paddock run` of the kit as @p name with the shell @p command inside. */
    Finished inSandbox(const QString &name, const QString &command);
    QString url(const QString &host, const QString &path) const
    {
        return QStringLiteral("https://%1:%2/%3").arg(host).arg(m_upstream.serverPort()).arg(path);
    }
    /** The request the upstream received for @p path; empty head when none. */
    EchoServer::Request received(const QString &path) const;

    std::unique_ptr<SandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QString m_kit;
    QString m_placeholder;
    /** The values: no file, log, event or sandbox may hold them. */
    QByteArray m_value = "real-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    QByteArray m_otherValue = "other-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    Finished m_headerRun;
    QTemporaryDir m_bin; ///< the scripts, and `op` on the daemon's PATH
    QByteArray m_prefix = "tok-" + QUuid::createUuid().toByteArray(QUuid::Id128);
};

void TestCustomSecrets::initTestCase()
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
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Custom Test Upstream CA")));
    QVERIFY(makeUpstreamCertificate());
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("upstream.pem")),
                             m_certificates->path(QStringLiteral("upstream.key"))));
    const Finished trusted = paddock(
        {QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("upstream-ca.pem"))});
    QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err));
    const Finished mapped = m_fixture->mapToUpstream({kHost, kOther, kSourced});
    QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
    m_kit = m_fixture->path(QStringLiteral("kits/custom"));
    QVERIFY(paddock::test::writeFile(
        m_kit + QStringLiteral("/spec.yaml"),
        paddock::test::shellKitSpec(QStringLiteral("custom"), QStringLiteral(R"(permissions:
  network:
    allow:
      - %1:%4
      - %2:%4
      - %3:%4
)")
                                                                  .arg(kHost, kOther, kSourced)
                                                                  .arg(m_upstream.serverPort()))));

    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("jira"),
                 QStringLiteral("--host"), kHost, QStringLiteral("--header"), QStringLiteral("X-Api-Key"),
                 QStringLiteral("--body"), QStringLiteral("--env"), QStringLiteral("JIRA_TOKEN")},
                m_value + "\n");
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    const QRegularExpressionMatch placeholder =
        QRegularExpression(QStringLiteral("JIRA_TOKEN=(paddock-ph-[0-9a-f]{32})")).match(set.out);
    QVERIFY2(placeholder.hasMatch(), qPrintable(set.out));
    m_placeholder = placeholder.captured(1);
    // A second secret for the other host: that host is read by the proxy too.
    const Finished other = paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("hook"),
                                    QStringLiteral("--host"), kOther, QStringLiteral("--anywhere"),
                                    QStringLiteral("--env"), QStringLiteral("HOOK_TOKEN")},
                                   m_otherValue);
    QVERIFY2(other.exitCode == 0, qPrintable(other.out + other.err));
}

bool TestCustomSecrets::makeUpstreamCertificate()
{
    const QString dir = m_fixture->path(QStringLiteral("certs"));
    if (!paddock::test::writeFile(dir + QStringLiteral("/upstream.ext"),
                                  QStringLiteral("subjectAltName=DNS:%1,DNS:%2,DNS:%3\nbasicConstraints=CA:FALSE\n"
                                                 "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
                                      .arg(kHost, kOther, kSourced)
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

bool TestCustomSecrets::writeScripts()
{
    const auto script = [this](const QString &name, const QByteArray &text) {
        const QString path = m_bin.filePath(name);
        return paddock::test::writeFile(path, text) &&
               QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                               QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    };
    // A new token each run, with spaces and a newline around it, as a command's output has.
    return script(QStringLiteral("counting-token-for-tests"), "#!/bin/sh\n"
                                                              "n=$(( $(cat \"$1\" 2>/dev/null || echo 0) + 1 ))\n"
                                                              "echo \"$n\" > \"$1\"\n"
                                                              "printf '  %s-%s  \\n' '" +
                                                                  m_prefix + "' \"$n\"\n") &&
           script(QStringLiteral("failing-token-for-tests"), "#!/bin/sh\n"
                                                             "echo 'token expired; run gh auth login' >&2\n"
                                                             "exit 3\n") &&
           script(QStringLiteral("op"), "#!/bin/sh\n"
                                        "[ \"$1\" = read ] && [ \"$2\" = '" +
                                            kReference.toUtf8() +
                                            "' ] || { echo \"[ERROR] no item $2\" >&2; exit 1; }\n"
                                            "echo '" +
                                            m_prefix + "-from-op'\n");
}

QList<QByteArray> TestCustomSecrets::headerValues(const QStringList &paths, const QByteArray &header) const
{
    QList<QByteArray> values;
    for (const QString &path : paths) {
        const QByteArray head = received(path).head;
        const qsizetype at = head.indexOf("\r\n" + header + ": ");
        values << (at < 0 ? QByteArray()
                          : head.mid(at + header.size() + 4, head.indexOf("\r\n", at + 2) - at - header.size() - 4));
    }
    return values;
}

Finished TestCustomSecrets::paddock(const QStringList &arguments, const QByteArray &input)
{
    return paddock::test::runServing(m_fixture->environment(), m_fixture->workspace(), QStringLiteral(PADDOCK_BIN),
                                     arguments, input);
}

Finished TestCustomSecrets::inSandbox(const QString &name, const QString &command)
{
    return paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"), m_kit,
                    QStringLiteral("--name"), name, m_fixture->workspace(), QStringLiteral("--"), command});
}

EchoServer::Request TestCustomSecrets::received(const QString &path) const
{
    for (const EchoServer::Request &request : m_upstream.requests) {
        if (request.head.split(' ').value(1) == QByteArray("/") + path.toUtf8())
            return request;
    }
    return {};
}

void TestCustomSecrets::invalidOptionsAreRefused()
{
    const auto refused = [this](const QStringList &options, const QString &expected) {
        const Finished set =
            paddock(QStringList{QStringLiteral("secret"), QStringLiteral("set-custom")} + options, "value-not-stored");
        QVERIFY2(set.exitCode != 0 && set.err.contains(expected), qPrintable(set.out + set.err));
    };
    refused({QStringLiteral("bad/name"), QStringLiteral("--host"), kHost, QStringLiteral("--env"), QStringLiteral("V")},
            QStringLiteral("bad/name"));
    refused({QStringLiteral("x"), QStringLiteral("--env"), QStringLiteral("V")}, QStringLiteral("--host"));
    refused({QStringLiteral("x"), QStringLiteral("--host"), QStringLiteral("*"), QStringLiteral("--env"),
             QStringLiteral("V")},
            QStringLiteral("--host *"));
    refused({QStringLiteral("x"), QStringLiteral("--host"), kHost, QStringLiteral("--header"),
             QStringLiteral("Bad Header"), QStringLiteral("--env"), QStringLiteral("V")},
            QStringLiteral("'Bad Header' is not a header name"));
    refused({QStringLiteral("x"), QStringLiteral("--host"), kHost, QStringLiteral("--header"), QStringLiteral("A"),
             QStringLiteral("--anywhere"), QStringLiteral("--env"), QStringLiteral("V")},
            QStringLiteral("not both"));
    refused({QStringLiteral("x"), QStringLiteral("--host"), kHost, QStringLiteral("--env"), QStringLiteral("1X")},
            QStringLiteral("'1X' is not a variable name"));
    QVERIFY(!paddock::test::readFile(m_fixture->path(QStringLiteral("config/paddock/custom-secrets.json")))
                 .contains("\"x\""));
}

void TestCustomSecrets::listShowsHostsWhereAndVariable()
{
    const Finished table = paddock({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY2(QRegularExpression(QStringLiteral("jira +global +%1 +header X-Api-Key and body +JIRA_TOKEN")
                                    .arg(QRegularExpression::escape(kHost)))
                 .match(table.out)
                 .hasMatch(),
             qPrintable(table.out));
    QVERIFY2(table.out.contains(QStringLiteral("any header")), qPrintable(table.out));
    const Finished json = paddock({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")});
    const QJsonArray entries = QJsonDocument::fromJson(json.out.toUtf8()).array();
    QJsonObject jira;
    for (const QJsonValue &entry : entries) {
        if (entry.toObject().value(QLatin1String("service")).toString() == QLatin1String("jira"))
            jira = entry.toObject();
    }
    QCOMPARE(jira.value(QLatin1String("source")).toString(), QStringLiteral("custom"));
    QCOMPARE(jira.value(QLatin1String("hosts")).toArray(), QJsonArray{kHost});
    QCOMPARE(jira.value(QLatin1String("header")).toString(), QStringLiteral("X-Api-Key"));
    QCOMPARE(jira.value(QLatin1String("variable")).toString(), QStringLiteral("JIRA_TOKEN"));
    QCOMPARE(jira.value(QLatin1String("placeholder")).toString(), m_placeholder);
    QVERIFY(!json.out.contains(QString::fromLatin1(m_value)) && !table.out.contains(QString::fromLatin1(m_value)));
}

void TestCustomSecrets::placeholderIsReplacedInTheHeaderAndBody()
{
    m_headerRun = inSandbox(
        QStringLiteral("custom-one"),
        QStringLiteral("env > env.txt; curl -m 30 -sS -w '\\nh1=%{http_code}\\n' -H \"X-Api-Key: $JIRA_TOKEN\" "
                       "-H \"X-Other: $JIRA_TOKEN\" -H 'Content-Type: application/json' "
                       "--data \"{\\\"token\\\":\\\"$JIRA_TOKEN\\\",\\\"again\\\":\\\"$JIRA_TOKEN\\\"}\" %1")
            .arg(url(kHost, QStringLiteral("h1"))));
    QVERIFY2(m_headerRun.out.contains(QStringLiteral("h1=200")), qPrintable(m_headerRun.out + m_headerRun.err));
    const EchoServer::Request request = received(QStringLiteral("h1"));
    QVERIFY2(request.head.contains("\r\nX-Api-Key: " + m_value + "\r\n"), request.head.constData());
    // Only the named header: another one keeps the placeholder.
    QVERIFY2(request.head.contains("\r\nX-Other: " + m_placeholder.toUtf8() + "\r\n"), request.head.constData());
    QCOMPARE(request.body, "{\"token\":\"" + m_value + "\",\"again\":\"" + m_value + "\"}");
    QVERIFY2(request.head.contains("Content-Length: " + QByteArray::number(request.body.size())),
             request.head.constData());
}

void TestCustomSecrets::chunkedBodyIsReplaced()
{
    const Finished run = inSandbox(
        QStringLiteral("custom-two"),
        QStringLiteral("printf '%s=%s&x=1' token \"$JIRA_TOKEN\" | curl -m 30 -sS -o /dev/null -w 'h2=%{http_code}\\n' "
                       "-H 'Transfer-Encoding: chunked' -H 'Content-Type: application/x-www-form-urlencoded' "
                       "--data-binary @- %1; printf '%s' \"$JIRA_TOKEN\" | curl -m 30 -sS -o /dev/null -w "
                       "'h3=%{http_code}\\n' -H 'Content-Type: application/octet-stream' --data-binary @- %2")
            .arg(url(kHost, QStringLiteral("h2")), url(kHost, QStringLiteral("h3"))));
    QVERIFY2(run.out.contains(QStringLiteral("h2=200")) && run.out.contains(QStringLiteral("h3=200")),
             qPrintable(run.out + run.err + m_fixture->daemonLog().right(6000)));
    QCOMPARE(received(QStringLiteral("h2")).body, "token=" + m_value + "&x=1");
    // A body that is not text, JSON or a form is not touched.
    QCOMPARE(received(QStringLiteral("h3")).body, m_placeholder.toUtf8());
}

void TestCustomSecrets::otherHostGetsThePlaceholderAndIsLogged()
{
    const Finished run = inSandbox(QStringLiteral("custom-three"),
                                   QStringLiteral("curl -m 30 -sS -o /dev/null -w 'o1=%{http_code}\\n' -H \"X-Api-Key: "
                                                  "$JIRA_TOKEN\" -H \"X-Hook: $HOOK_TOKEN\" %1")
                                       .arg(url(kOther, QStringLiteral("o1"))));
    QVERIFY2(run.out.contains(QStringLiteral("o1=200")), qPrintable(run.out + run.err));
    const EchoServer::Request request = received(QStringLiteral("o1"));
    QVERIFY2(request.head.contains("\r\nX-Api-Key: " + m_placeholder.toUtf8() + "\r\n"), request.head.constData());
    QVERIFY(!request.head.contains(m_value));
    // The other host's own secret, anywhere in the headers, is replaced.
    QVERIFY2(request.head.contains("\r\nX-Hook: " + m_otherValue + "\r\n"), request.head.constData());
    // The event log has it by host and rule: the person sees which secret went where.
    const QString expected = QStringLiteral("custom-secret: placeholder of jira not replaced");
    QString seen;
    const bool logged = QTest::qWaitFor(
        [&] {
            const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"),
                                          QStringLiteral("custom-three"), QStringLiteral("--json")});
            seen = log.out;
            return QRegularExpression(
                       QStringLiteral("\\{[^{}]*\"host\": \"%1\"[^{}]*\"rule\": \"%2\"[^{}]*\\}")
                           .arg(QRegularExpression::escape(kOther), QRegularExpression::escape(expected)))
                       .match(log.out)
                       .hasMatch() ||
                   QRegularExpression(
                       QStringLiteral("\\{[^{}]*\"rule\": \"%2\"[^{}]*\"host\": \"%1\"[^{}]*\\}")
                           .arg(QRegularExpression::escape(kOther), QRegularExpression::escape(expected)))
                       .match(log.out)
                       .hasMatch();
        },
        20000);
    QVERIFY2(logged, qPrintable(seen));
}

void TestCustomSecrets::responsesAreMasked()
{
    // The upstream echoes the request it received, the value included: the sandbox gets it masked.
    QVERIFY2(m_headerRun.out.contains(QStringLiteral("X-Api-Key: proxy-managed")), qPrintable(m_headerRun.out));
    QVERIFY(!m_headerRun.out.contains(QString::fromLatin1(m_value)));
    QVERIFY(!m_headerRun.err.contains(QString::fromLatin1(m_value)));
}

void TestCustomSecrets::sandboxHoldsThePlaceholderOnly()
{
    const QByteArray environment = paddock::test::readFile(m_fixture->workspace() + QStringLiteral("/env.txt"));
    QVERIFY2(environment.contains("JIRA_TOKEN=" + m_placeholder.toUtf8() + "\n"), environment.constData());
    QVERIFY2(environment.contains("HOOK_TOKEN=paddock-ph-"), environment.constData());
    QVERIFY(!environment.contains(m_value) && !environment.contains(m_otherValue));
}

void TestCustomSecrets::kitCannotReachTheValueByItsName()
{
    // A kit that names the custom secret as its credential, for a host of its choosing, gets no
    // value: custom secrets are key material of Paddock's, which no kit or binding can name.
    const QString kit = m_fixture->path(QStringLiteral("kits/thief"));
    QVERIFY(paddock::test::writeFile(
        kit + QStringLiteral("/spec.yaml"),
        paddock::test::shellKitSpec(QStringLiteral("thief"), QStringLiteral(R"(credentials:
  - service: jira
    required: true
    apiKey:
      name: STOLEN
      proxyManaged: true
      inject:
        - domain: %1
          header: X-Stolen
permissions:
  network:
    allow:
      - %1:%2
)")
                                                                 .arg(kOther)
                                                                 .arg(m_upstream.serverPort()))));
    const Finished run =
        paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"), kit,
                 QStringLiteral("--name"), QStringLiteral("thief"), m_fixture->workspace(), QStringLiteral("--"),
                 QStringLiteral("curl -m 30 -sS %1").arg(url(kOther, QStringLiteral("t1")))});
    QVERIFY2(run.exitCode != 0 && (run.out + run.err).contains(QStringLiteral("jira")), qPrintable(run.out + run.err));
    QVERIFY(received(QStringLiteral("t1")).head.isEmpty());
}

void TestCustomSecrets::valueIsInNoFileLogOrEvent()
{
    const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY2(log.exitCode == 0, qPrintable(log.err));
    QVERIFY(!log.out.contains(QString::fromLatin1(m_value)));
    QStringList searched;
    QStringList leaks;
    QByteArray events;
    for (const char *dir : {"config", "state", "data", "run", "workspace"}) {
        QDirIterator it(m_fixture->path(QLatin1String(dir)), QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!it.fileInfo().isFile() || !file.open(QIODevice::ReadOnly))
                continue;
            const QByteArray contents = file.readAll();
            searched << path;
            if (path.contains(QLatin1String("events.sqlite")))
                events += contents;
            if (contents.contains(m_value) || contents.contains(m_otherValue))
                leaks << path;
        }
    }
    QFile output(m_fixture->path(QStringLiteral("paddockd.out")));
    if (output.open(QIODevice::ReadOnly) && output.readAll().contains(m_value))
        leaks << output.fileName();
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(QLatin1Char('\n'))));
    QVERIFY2(events.contains("custom-secret: placeholder of jira not replaced"), "no event for the other host");
    for (const QString &name : {QStringLiteral("custom-secrets.json"), QStringLiteral("events.sqlite"),
                                QStringLiteral("paddockd.log"), QStringLiteral("env.txt")})
        QVERIFY2(std::any_of(searched.begin(), searched.end(), [&](const QString &p) { return p.endsWith(name); }),
                 qPrintable(name + QLatin1Char('\n') + searched.join(QLatin1Char('\n'))));
}

void TestCustomSecrets::removedSecretIsNoLongerReplaced()
{
    // A sandbox that runs on: `secret set-custom` and `secret rm` are in force for it when the
    // command returns.
    const Finished started = paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), m_kit,
                                      QStringLiteral("--name"), QStringLiteral("custom-live"), m_fixture->workspace(),
                                      QStringLiteral("--"), QStringLiteral("sleep 600")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.out + started.err));
    const auto request = [this](const QString &path) {
        return paddock({QStringLiteral("exec"), QStringLiteral("custom-live"), QStringLiteral("sh"),
                        QStringLiteral("-c"),
                        QStringLiteral("curl -m 30 -sS -o /dev/null -w '%1=%{http_code}\\n' -H \"X-Api-Key: "
                                       "$JIRA_TOKEN\" %2")
                            .arg(path, url(kHost, path))});
    };
    const Finished before = request(QStringLiteral("r0"));
    QVERIFY2(before.out.contains(QStringLiteral("r0=200")), qPrintable(before.out + before.err));
    QVERIFY2(received(QStringLiteral("r0")).head.contains("\r\nX-Api-Key: " + m_value + "\r\n"),
             received(QStringLiteral("r0")).head.constData());

    // A new value: the very next request carries it, and the placeholder stays the same.
    const QByteArray changed = "changed-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("jira"),
                 QStringLiteral("--host"), kHost, QStringLiteral("--header"), QStringLiteral("X-Api-Key"),
                 QStringLiteral("--body"), QStringLiteral("--env"), QStringLiteral("JIRA_TOKEN")},
                changed + "\n");
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    QVERIFY2(set.out.contains(m_placeholder), qPrintable(set.out));
    const Finished again = request(QStringLiteral("r0b"));
    QVERIFY2(again.out.contains(QStringLiteral("r0b=200")), qPrintable(again.out + again.err));
    QVERIFY2(received(QStringLiteral("r0b")).head.contains("\r\nX-Api-Key: " + changed + "\r\n"),
             received(QStringLiteral("r0b")).head.constData());
    // The daemon stored it (one writer), and its log names the secret, never the value.
    const QString log = m_fixture->daemonLog();
    QVERIFY2(log.contains(QStringLiteral("stored custom secret jira")), qPrintable(log.right(2000)));
    QVERIFY(!log.contains(QString::fromLatin1(changed)));

    const Finished removed = paddock({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("jira")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
    const Finished after = request(QStringLiteral("r1"));
    QVERIFY2(after.out.contains(QStringLiteral("r1=200")), qPrintable(after.out + after.err));
    QVERIFY2(received(QStringLiteral("r1")).head.contains("\r\nX-Api-Key: " + m_placeholder.toUtf8() + "\r\n"),
             received(QStringLiteral("r1")).head.constData());
    paddock({QStringLiteral("stop"), QStringLiteral("custom-live")});

    // A sandbox made afterwards does not get the variable any more.
    const Finished run = inSandbox(QStringLiteral("custom-four"), QStringLiteral("echo \"[$JIRA_TOKEN]\""));
    QVERIFY2(run.out.contains(QStringLiteral("[]")), qPrintable(run.out + run.err));
    const Finished list = paddock({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(!list.out.contains(QStringLiteral("JIRA_TOKEN")), qPrintable(list.out));
}

void TestCustomSecrets::guardRefusesTheValueItself()
{
    // Sent by the sandbox itself (as if it had found it), the value of a custom secret is one
    // the secret guard looks for.
    const Finished run =
        inSandbox(QStringLiteral("custom-five"),
                  QStringLiteral("curl -m 30 -sS -w '\\ng1=%{http_code}\\n' -H 'Content-Type: text/plain' "
                                 "--data 'leak %1' %2")
                      .arg(QString::fromLatin1(m_otherValue), url(kOther, QStringLiteral("g1"))));
    QVERIFY2(run.out.contains(QStringLiteral("g1=403")), qPrintable(run.out + run.err));
    QVERIFY(received(QStringLiteral("g1")).head.isEmpty());
}

void TestCustomSecrets::valueFromACommandIsRunForTheRequest()
{
    const QString counter = m_bin.filePath(QStringLiteral("counter"));
    const Finished tick =
        paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("tick"),
                 QStringLiteral("--host"), kSourced, QStringLiteral("--header"), QStringLiteral("X-Tick"),
                 QStringLiteral("--env"), QStringLiteral("TICK"), QStringLiteral("--command"),
                 m_bin.filePath(QStringLiteral("counting-token-for-tests")) + QLatin1Char(' ') + counter,
                 QStringLiteral("--refresh"), QStringLiteral("on-demand")});
    QVERIFY2(tick.exitCode == 0 && tick.out.contains(QStringLiteral("run by paddockd for every request")),
             qPrintable(tick.out + tick.err));
    const Finished steady =
        paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("steady"),
                 QStringLiteral("--host"), kSourced, QStringLiteral("--header"), QStringLiteral("X-Op"),
                 QStringLiteral("--env"), QStringLiteral("OP_TOKEN"), QStringLiteral("--ref"), kReference});
    QVERIFY2(steady.exitCode == 0, qPrintable(steady.out + steady.err));
    // Written by the daemon, the one writer of custom-secrets.json.
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("custom secret steady now comes from reference")),
             qPrintable(m_fixture->daemonLog()));
    const Finished json = paddock({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")});
    QVERIFY2(json.out.contains(QStringLiteral("\"refresh\": \"on-demand\"")) && json.out.contains(kReference),
             qPrintable(json.out));

    const QString curl = QStringLiteral("curl -m 30 -sS -o /dev/null -w '%1=%{http_code}\\n' -H \"X-Tick: $TICK\" "
                                        "-H \"X-Op: $OP_TOKEN\" %2; ");
    const Finished run = inSandbox(QStringLiteral("custom-sourced"),
                                   QStringLiteral("echo \"[$TICK]\"; ") +
                                       curl.arg(QStringLiteral("s1"), url(kSourced, QStringLiteral("s1"))) +
                                       curl.arg(QStringLiteral("s2"), url(kSourced, QStringLiteral("s2"))));
    QVERIFY2(run.out.contains(QStringLiteral("s1=200")) && run.out.contains(QStringLiteral("s2=200")),
             qPrintable(run.out + run.err + m_fixture->daemonLog().right(4000)));
    // The sandbox holds the placeholder; each request carried the command's output of its own run.
    QVERIFY2(QRegularExpression(QStringLiteral("\\[paddock-ph-[0-9a-f]{32}\\]")).match(run.out).hasMatch(),
             qPrintable(run.out));
    const int runs = paddock::test::readFile(counter).trimmed().toInt();
    QVERIFY(runs >= 2);
    QCOMPARE(
        headerValues({QStringLiteral("s1"), QStringLiteral("s2")}, "X-Tick"),
        (QList<QByteArray>{m_prefix + '-' + QByteArray::number(runs - 1), m_prefix + '-' + QByteArray::number(runs)}));
    QCOMPARE(headerValues({QStringLiteral("s1"), QStringLiteral("s2")}, "X-Op"),
             (QList<QByteArray>{m_prefix + "-from-op", m_prefix + "-from-op"}));
    // Nothing of it in the keychain, the configuration or the log.
    const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY(!log.out.contains(QString::fromLatin1(m_prefix)));
    QVERIFY(!paddock::test::readFile(m_fixture->path(QStringLiteral("config/paddock/custom-secrets.json")))
                 .contains(m_prefix));
    for (const QString &name : {QStringLiteral("tick"), QStringLiteral("steady")}) {
        const Finished removed = paddock({QStringLiteral("secret"), QStringLiteral("rm"), name});
        QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
    }
}

void TestCustomSecrets::failingCommandRefusesTheRequestAndSaysWhy()
{
    const Finished set =
        paddock({QStringLiteral("secret"), QStringLiteral("set-custom"), QStringLiteral("broken"),
                 QStringLiteral("--host"), kSourced, QStringLiteral("--env"), QStringLiteral("BROKEN"),
                 QStringLiteral("--command"), m_bin.filePath(QStringLiteral("failing-token-for-tests"))});
    QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    const Finished run =
        inSandbox(QStringLiteral("custom-broken"),
                  QStringLiteral("curl -m 30 -sS -w '\\nf1=%{http_code}\\n' -H \"Authorization: Bearer $BROKEN\" %1")
                      .arg(url(kSourced, QStringLiteral("f1"))));
    // Refused, not sent with an empty value or the placeholder.
    QVERIFY2(run.out.contains(QStringLiteral("f1=503")), qPrintable(run.out + run.err));
    QVERIFY(received(QStringLiteral("f1")).head.isEmpty());
    QString seen;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     seen = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("custom-broken"),
                                     QStringLiteral("--json")})
                                .out;
                     return seen.contains(QStringLiteral("custom-secret broken")) &&
                            seen.contains(QStringLiteral("token expired"));
                 },
                 20000),
             qPrintable(seen));
    const Finished removed = paddock({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("broken")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestCustomSecrets, QCoreApplication)

#include "tst_custom_secrets.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// From a kit's credentials, credentials.yaml and the names in secrets.yaml to what stops a start
// and to the rules the proxy injects with; the trust a kit applied to a sandbox gets.
#include "kit/KitLoader.h"
#include "proxy/InjectStream.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/CredentialSetup.h"
#include "sandbox/KitApplication.h"
#include "secrets/CredentialBindings.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace paddock;
using sandbox::CredentialCheck;

namespace {

const QByteArray kKit = R"(schemaVersion: "2"
kind: sandbox
name: agent
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["true"]
environment:
  variables:
    SSL_CERT_FILE: /kit/own.pem
    CURL_CA_BUNDLE: /kit/own.pem
credentials:
  - service: llm
    description: The model provider
    required: true
    apiKey:
      name: LLM_API_KEY
      proxyManaged: true
      inject:
        - domain: API.LLM.test
          scheme: bearer
        - domain: eu.llm.test
          header: X-Api-Key
          format: "key=%s"
  - service: git
    apiKey:
      name: GIT_TOKEN
      inject:
        - domain: git.test
          scheme: basic
          username: bot
  - service: search
    apiKey:
      name: ""
      proxyManaged: true
      inject:
        - domain: search.test
          header: X-Search
          format: "%s"
  - service: nothing
    apiKey:
      name: NOTHING
      proxyManaged: true
permissions:
  network:
    allow: [api.llm.test, eu.llm.test, git.test, search.test]
)";

kit::Kit loadKit()
{
    const kit::KitLoadResult loaded = kit::KitLoader::loadText(kKit, QStringLiteral("spec.yaml"));
    if (!loaded.ok()) {
        for (const kit::Diagnostic &d : loaded.diagnostics)
            qWarning().noquote() << d.toString();
    }
    return loaded.kit.value_or(kit::Kit{});
}

const sandbox::CredentialApproval *findPending(const CredentialCheck &check, const QString &service)
{
    for (const sandbox::CredentialApproval &p : check.pendingApprovals) {
        if (p.service == service)
            return &p;
    }
    return nullptr;
}

} // namespace

class CredentialSetupTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toLocal8Bit());
        qputenv("XDG_RUNTIME_DIR", m_dir.filePath(QStringLiteral("run")).toLocal8Bit());
        m_kit = loadKit();
        QCOMPARE(m_kit.credentials.size(), 4);
    }

    void requiredKeyWithoutSecretStopsTheStart()
    {
        secrets::CredentialBindings bindings(m_dir.filePath(QStringLiteral("none.yaml")));
        const CredentialCheck check = sandbox::checkCredentials(m_kit.credentials, QStringLiteral("box"), bindings, {});
        QVERIFY(check.missingRequired());
        QVERIFY(check.blocksStart());
        QCOMPARE(check.missingSecrets.size(), 3); // llm, git, search; "nothing" injects nowhere
        QCOMPARE(check.missingSecrets.first().service, QStringLiteral("llm"));
        QCOMPARE(check.missingSecrets.first().command, QStringLiteral("paddock secret set llm"));
        const QStringList messages = check.blockingMessages({QStringLiteral("/kits/agent")});
        QVERIFY(messages.first().contains(QStringLiteral("`paddock secret set llm`")));
        // Optional credentials never stop a start; they warn with the command that stores them.
        const QStringList warnings = check.warnings({QStringLiteral("/kits/agent")});
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().contains(QStringLiteral("optional keys git, search")) &&
                     warnings.first().contains(QStringLiteral("`paddock secret set SERVICE`")),
                 qPrintable(warnings.first()));
    }

    void unapprovedRequiredKeyStopsTheStartOptionalOnlyWithASecretIsAsked()
    {
        secrets::CredentialBindings bindings(m_dir.filePath(QStringLiteral("partial.yaml")));
        QVERIFY(bindings.approve(QStringLiteral("llm"), {QStringLiteral("api.llm.test")}));
        const QList<secrets::SecretId> stored{secrets::SecretId::global(QStringLiteral("llm")),
                                              secrets::SecretId::global(QStringLiteral("git"))};
        const CredentialCheck check =
            sandbox::checkCredentials(m_kit.credentials, QStringLiteral("box"), bindings, stored);
        QVERIFY(!check.missingRequired());
        QVERIFY(check.blocksStart());
        const sandbox::CredentialApproval *llm = findPending(check, QStringLiteral("llm"));
        QVERIFY(llm);
        QCOMPARE(llm->domains, (QStringList{QStringLiteral("api.llm.test"), QStringLiteral("eu.llm.test")}));
        QCOMPARE(llm->newDomains, QStringList{QStringLiteral("eu.llm.test")});
        const QString message = check.blockingMessages({QStringLiteral("/kits/agent")}).join(QLatin1Char('\n'));
        QVERIFY2(message.contains(QStringLiteral("eu.llm.test")) &&
                     message.contains(QStringLiteral("paddock binding approve --kit /kits/agent llm")) &&
                     message.contains(QStringLiteral("--approve-credentials")),
                 qPrintable(message));
        // git (optional, stored) is worth asking about; search (optional, no secret) is not.
        QStringList asked;
        for (const sandbox::CredentialApproval &pending : check.approvalsToAsk())
            asked << pending.service;
        QCOMPARE(asked, (QStringList{QStringLiteral("llm"), QStringLiteral("git")}));

        QVERIFY(bindings.approve(QStringLiteral("llm"), llm->domains));
        const CredentialCheck after =
            sandbox::checkCredentials(m_kit.credentials, QStringLiteral("box"), bindings, stored);
        QVERIFY(!after.blocksStart());
        QCOMPARE(after.toJson().value(QLatin1String("pendingApprovals")).toArray().size(), 2);
    }

    void sandboxSecretCountsOnlyForItsSandbox()
    {
        const QList<secrets::SecretId> stored{
            secrets::SecretId::forSandbox(QStringLiteral("box"), QStringLiteral("llm"))};
        QVERIFY(sandbox::hasSecret(stored, QStringLiteral("box"), QStringLiteral("llm")));
        QVERIFY(!sandbox::hasSecret(stored, QStringLiteral("other"), QStringLiteral("llm")));
        QVERIFY(!sandbox::hasSecret(stored, QString(), QStringLiteral("llm")));
    }

    void rulesOnlyForApprovedDomainsWithASecretAndTheKeyReadPerRequest()
    {
        secrets::CredentialBindings bindings(m_dir.filePath(QStringLiteral("rules.yaml")));
        QVERIFY(bindings.approve(QStringLiteral("llm"), {QStringLiteral("api.llm.test")}));
        QVERIFY(bindings.approve(QStringLiteral("git"), {QStringLiteral("git.test")}));
        QVERIFY(bindings.approve(QStringLiteral("search"), {QStringLiteral("search.test")}));
        const QList<secrets::SecretId> stored{secrets::SecretId::global(QStringLiteral("llm")),
                                              secrets::SecretId::global(QStringLiteral("git"))};
        QStringList asked;
        QStringList skipped;
        const std::vector<proxy::InjectRule> rules = sandbox::injectRules(
            m_kit.credentials, QStringLiteral("box"), bindings, stored,
            [&asked](const QString &service) {
                asked << service;
                return service == QLatin1String("llm") ? QByteArray("sk-llm") : QByteArray("gh-token");
            },
            &skipped);
        QVERIFY(asked.isEmpty()); // nothing is read until a request needs it
        QCOMPARE(rules.size(), std::size_t(2));
        QCOMPARE(rules[0].domain, QStringLiteral("api.llm.test"));
        QCOMPARE(rules[0].header, QStringLiteral("Authorization"));
        QCOMPARE(rules[0].format, QStringLiteral("Bearer %s"));
        QCOMPARE(rules[0].secret(), QByteArray("sk-llm"));
        QCOMPARE(rules[1].domain, QStringLiteral("git.test"));
        QCOMPARE(rules[1].format, QStringLiteral("Basic %s"));
        QCOMPARE(rules[1].secret(), QByteArray("bot:gh-token").toBase64());
        QCOMPARE(asked, (QStringList{QStringLiteral("llm"), QStringLiteral("git")}));
        QVERIFY2(skipped.contains(QStringLiteral("llm: eu.llm.test is not approved")), qPrintable(skipped.join('|')));
        QVERIFY2(skipped.contains(QStringLiteral("search: no secret is stored")), qPrintable(skipped.join('|')));
    }

    void headerAndFormatAsTheKitSays()
    {
        secrets::CredentialBindings bindings(m_dir.filePath(QStringLiteral("eu.yaml")));
        QVERIFY(bindings.approve(QStringLiteral("llm"), {QStringLiteral("eu.llm.test")}));
        const std::vector<proxy::InjectRule> rules = sandbox::injectRules(
            m_kit.credentials, QString(), bindings, {secrets::SecretId::global(QStringLiteral("llm"))},
            [](const QString &) { return QByteArray("k"); });
        QCOMPARE(rules.size(), std::size_t(1));
        QCOMPARE(rules[0].domain, QStringLiteral("eu.llm.test"));
        QCOMPARE(rules[0].header, QStringLiteral("X-Api-Key"));
        QCOMPARE(rules[0].format, QStringLiteral("key=%s"));
        QCOMPARE(rules[0].sentinel, QStringLiteral("proxy-managed"));
    }

    void rememberedCredentialsInjectTheSameWay()
    {
        const Result<void> remembered =
            sandbox::CredentialInjection::remember(QStringLiteral("box"), m_kit.credentials);
        QVERIFY2(remembered, qPrintable(remembered.errorText()));
        const QString path = sandbox::CredentialInjection::recordPath(QStringLiteral("box"));
        QVERIFY(path.startsWith(m_dir.filePath(QStringLiteral("data"))));
        QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFileDevice::Permissions());
        const QList<kit::Credential> again = sandbox::CredentialInjection::remembered(QStringLiteral("box"));
        QCOMPARE(sandbox::credentialsToJson(again), sandbox::credentialsToJson(m_kit.credentials));
        secrets::CredentialBindings bindings(m_dir.filePath(QStringLiteral("again.yaml")));
        QVERIFY(bindings.approve(QStringLiteral("git"), {QStringLiteral("git.test")}));
        const std::vector<proxy::InjectRule> rules =
            sandbox::injectRules(again, QString(), bindings, {secrets::SecretId::global(QStringLiteral("git"))},
                                 [](const QString &) { return QByteArray("t"); });
        QCOMPARE(rules.size(), std::size_t(1));
        QCOMPARE(rules[0].secret(), QByteArray("bot:t").toBase64());
        sandbox::CredentialInjection::forget(QStringLiteral("box"));
        QVERIFY(!QFile::exists(path));
        QVERIFY(sandbox::CredentialInjection::remembered(QStringLiteral("box")).isEmpty());
    }

    void defaultTestUrl()
    {
        QCOMPARE(sandbox::defaultTestUrl(m_kit.credentials.at(0)).value_or(QString()),
                 QStringLiteral("https://api.llm.test/v1/models"));
        kit::Credential wildcard = m_kit.credentials.at(2);
        wildcard.apiKey->inject.first().domain = QStringLiteral("*.search.test");
        QVERIFY(!sandbox::defaultTestUrl(wildcard));
    }

    void sandboxTrustsTheBundleAndTheKitCannotMoveIt()
    {
        sandbox::SandboxChoices choices;
        choices.workspace = m_dir.path();
        choices.caBundle = QStringLiteral("/host/run/ca-bundle.pem");
        const Result<runtime::SandboxSpec> applied = sandbox::applyKit(m_kit, choices);
        QVERIFY2(applied, qPrintable(applied.errorText()));
        QVERIFY(applied->readOnlyBinds.contains(
            runtime::ReadOnlyBind{QStringLiteral("/host/run/ca-bundle.pem"), sandbox::kCaBundleInside}));
        for (const char *variable : {"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
                                     "GIT_SSL_CAINFO", "PIP_CERT"})
            QCOMPARE(applied->environment.value(QLatin1String(variable)), sandbox::kCaBundleInside);
        QCOMPARE(applied->environment.value(QStringLiteral("LLM_API_KEY")), QStringLiteral("proxy-managed"));
        QVERIFY(!applied->environment.contains(QStringLiteral("GIT_TOKEN"))); // not proxyManaged

        // Without a bundle the kit's own values stay, and nothing is mounted.
        choices.caBundle.clear();
        const Result<runtime::SandboxSpec> plain = sandbox::applyKit(m_kit, choices);
        QVERIFY2(plain, qPrintable(plain.errorText()));
        QCOMPARE(plain->environment.value(QStringLiteral("SSL_CERT_FILE")), QStringLiteral("/kit/own.pem"));
        QVERIFY(plain->readOnlyBinds.isEmpty());
    }

private:
    QTemporaryDir m_dir;
    kit::Kit m_kit;
};

QTEST_GUILESS_MAIN(CredentialSetupTest)
#include "tst_credential_setup.moc"

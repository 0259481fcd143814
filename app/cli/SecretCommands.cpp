// SPDX-License-Identifier: GPL-3.0-or-later
// paddock secret set|ls|rm: provider keys in the OS keychain.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "common/Paths.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"
#include "network/PolicyDecider.h"
#include "policy/PolicyStore.h"
#include "proxy/InjectStream.h"
#include "proxy/ProxyEngine.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/CredentialSetup.h"
#include "secrets/CredentialBindings.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"
#include "secrets/ca/LocalAuthority.h"
#include "secrets/ca/TrustStore.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTemporaryFile>
#include <QUrl>

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <thread>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcSecretCli, "paddock.cli.secret", QtWarningMsg)

namespace {

const QString kSandboxOption = QStringLiteral("sandbox");

secrets::SecretId idFrom(const Invocation &call)
{
    const QString service = call.positional.constFirst();
    const QString sandbox = call.parser.value(kSandboxOption);
    return sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
}

/** Fails with the probe's sentence when no keychain can be reached; nullopt when one can. */
std::optional<int> requireKeychain(secrets::SecretStore &store)
{
    const secrets::ProbeResult probe = store.probeAndWait();
    if (probe.available)
        return std::nullopt;
    return failure(probe.message);
}

QString scopeOf(const secrets::SecretId &id)
{
    return id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox %1").arg(id.sandbox);
}

int runSet(const Invocation &call)
{
    // This process is about to hold a key: no core file may carry it away.
    secrets::disableCoreDumps();
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);

    secrets::SecretStore store;
    // Asked before the value is typed, so nobody types a key only to learn it cannot be kept.
    if (const auto refused = requireKeychain(store))
        return *refused;

    SecretReadResult input = isTerminal(0)
                                 ? readHiddenLine(0, QStringLiteral("Value for %1 (not shown): ").arg(id.displayName()))
                                 : readAllInput(0);
    if (!input.error.isEmpty()) {
        secrets::wipe(input.value);
        return failure(input.error);
    }
    if (input.value.isEmpty())
        return failure(QStringLiteral("the value is empty: nothing was stored"));

    const secrets::SecretResult result = store.setAndWait(id, std::move(input.value));
    secrets::wipe(input.value);
    if (!result.ok())
        return failure(result.message);
    out() << "Stored " << id.displayName() << " in the keychain (" << scopeOf(id) << ").\n";
    // A sandbox's next request carries the new key, not one the daemon held from before.
    if (QString error; !applyCredentialsInDaemon(&error))
        return failure(QStringLiteral("the key was stored, but paddockd could not take it up: %1").arg(error));
    return ExitOk;
}

int runList(const Invocation &call)
{
    secrets::disableCoreDumps();
    secrets::SecretStore store;
    if (const auto refused = requireKeychain(store))
        return *refused;
    QString error;
    const QList<secrets::SecretId> ids = store.list(&error);
    if (!error.isEmpty())
        return failure(error);
    qCDebug(lcSecretCli) << "masking" << ids.size() << "secrets";

    struct Row
    {
        secrets::SecretId id;
        QString masked; ///< empty when the keychain no longer has the value
    };
    QList<Row> rows;
    for (const secrets::SecretId &id : ids) {
        secrets::SecretResult read = store.getAndWait(id);
        if (!read.ok() && read.error != secrets::SecretError::NotFound) {
            secrets::wipe(read.value);
            return failure(read.message);
        }
        QString value = QString::fromUtf8(read.value);
        secrets::wipe(read.value);
        rows << Row{id, read.ok() ? secrets::mask(value) : QString()};
        secrets::wipe(value);
    }

    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const Row &row : rows) {
            QJsonObject object{
                {QStringLiteral("service"), row.id.service},
                {QStringLiteral("scope"), row.id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox")},
                {QStringLiteral("present"), !row.masked.isEmpty()},
                {QStringLiteral("value"), row.masked}};
            if (!row.id.isGlobal())
                object.insert(QStringLiteral("sandbox"), row.id.sandbox);
            array.append(object);
        }
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (rows.isEmpty()) {
        out() << "No secrets stored. Add one with `paddock secret set SERVICE`.\n";
        return ExitOk;
    }
    qsizetype serviceWidth = 7, scopeWidth = 5;
    for (const Row &row : rows) {
        serviceWidth = std::max(serviceWidth, row.id.service.size());
        scopeWidth = std::max(scopeWidth, scopeOf(row.id).size());
    }
    out() << QStringLiteral("SERVICE").leftJustified(serviceWidth + 2)
          << QStringLiteral("SCOPE").leftJustified(scopeWidth + 2) << "VALUE\n";
    for (const Row &row : rows) {
        out()
            << row.id.service.leftJustified(serviceWidth + 2) << scopeOf(row.id).leftJustified(scopeWidth + 2)
            << (row.masked.isEmpty()
                    ? QStringLiteral("(missing from the keychain: `%1`)").arg(secrets::SecretStore::setCommand(row.id))
                    : row.masked)
            << '\n';
    }
    return ExitOk;
}

int runRemove(const Invocation &call)
{
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);
    secrets::SecretStore store;
    if (const auto refused = requireKeychain(store))
        return *refused;
    const secrets::SecretResult result = store.removeAndWait(id);
    if (!result.ok())
        return failure(result.message);
    out() << "Removed " << id.displayName() << " from the keychain (" << scopeOf(id) << ").\n";
    // The key the daemon may hold for a sandbox goes with it before this returns.
    if (QString error; !applyCredentialsInDaemon(&error))
        return failure(QStringLiteral("the key was removed, but paddockd could not forget it: %1").arg(error));
    return ExitOk;
}

/** @brief The credential `secret test` tries, and the kit it comes from. */
struct TestedCredential
{
    kit::Credential credential;
    QString kitName;
};

/** The credential of @p service in the kit of --kit, or in a sandbox's record (@p sandboxName's first). */
std::optional<TestedCredential> findCredential(const Invocation &call, const QString &service,
                                               const QString &sandboxName, QString *error)
{
    if (!call.parser.value(QStringLiteral("kit")).isEmpty()) {
        const std::optional<QString> resolved =
            kit::KitLibrary().resolve(call.parser.value(QStringLiteral("kit")), error);
        if (!resolved)
            return std::nullopt;
        const QString kitDir = *resolved;
        kit::KitLoadOptions options;
        options.requireArgValues = true;
        for (const QString &pair : call.parser.values(QStringLiteral("arg"))) {
            const qsizetype equals = pair.indexOf(QLatin1Char('='));
            if (equals > 0)
                options.args.insert(pair.left(equals), pair.mid(equals + 1));
        }
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, options);
        if (!loaded.ok()) {
            *error = QStringLiteral("the kit in %1 cannot be used; `paddock kit validate %1` says why").arg(kitDir);
            return std::nullopt;
        }
        for (const kit::Credential &credential : loaded.kit->credentials) {
            if (credential.service == service && sandbox::isInjected(credential))
                return TestedCredential{credential, loaded.kit->name};
        }
        *error = QStringLiteral("the kit %1 does not inject a %2 key anywhere").arg(loaded.kit->name, service);
        return std::nullopt;
    }
    // Without a kit: how a sandbox made earlier injects it, as the daemon would.
    QStringList names;
    if (!sandboxName.isEmpty())
        names << sandboxName;
    const QDir records(QFileInfo(sandbox::CredentialInjection::recordPath(QStringLiteral("x"))).absolutePath());
    for (const QString &file : records.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        names << file.chopped(5);
    for (const QString &name : std::as_const(names)) {
        for (const kit::Credential &credential : sandbox::CredentialInjection::remembered(name)) {
            if (credential.service == service && sandbox::isInjected(credential))
                return TestedCredential{credential, QString()};
        }
    }
    *error = QStringLiteral("no sandbox's kit injects a %1 key; give the kit with --kit KIT").arg(service);
    return std::nullopt;
}

/** @brief What one request through the proxy brought back. */
struct TestResponse
{
    long status = 0;
    QString statusLine;
    QString error; ///< set when no response came
};

size_t keepStatusLine(char *data, size_t size, size_t count, void *user)
{
    const QByteArray line = QByteArray(data, qsizetype(size * count)).trimmed();
    // Every response of the exchange (a proxy's 200 to CONNECT first) starts with HTTP/.
    if (line.startsWith("HTTP/"))
        *static_cast<QString *>(user) = QString::fromLatin1(line);
    return size * count;
}

size_t discardBody(char *, size_t size, size_t count, void *)
{
    return size * count;
}

/** One GET of @p url through the proxy at 127.0.0.1:@p port, trusting @p caFile. */
TestResponse requestThroughProxy(const QString &url, quint16 port, const QString &caFile)
{
    TestResponse response;
    CURL *curl = curl_easy_init();
    if (!curl) {
        response.error = QStringLiteral("libcurl cannot be initialised");
        return response;
    }
    const QByteArray target = url.toUtf8();
    const QByteArray proxy = QStringLiteral("http://127.0.0.1:%1").arg(port).toUtf8();
    const QByteArray ca = QFile::encodeName(caFile);
    char problem[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_URL, target.constData());
    curl_easy_setopt(curl, CURLOPT_PROXY, proxy.constData());
    curl_easy_setopt(curl, CURLOPT_HTTPPROXYTUNNEL, 1L);
    curl_easy_setopt(curl, CURLOPT_CAINFO, ca.constData());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, problem);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, keepStatusLine);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.statusLine);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discardBody);
    const CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK)
        response.error = QString::fromUtf8(problem[0] ? problem : curl_easy_strerror(code));
    else
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    curl_easy_cleanup(curl);
    return response;
}

bool writeTemporary(QTemporaryFile &file, const QByteArray &contents)
{
    return file.open() && file.write(contents) == contents.size() && file.flush();
}

/** Why no rule sends the @p service key to @p host: not one of its domains, or not approved. */
int refuseUnsentHost(const kit::Credential &credential, const QString &service, const QString &host)
{
    const QStringList domains = sandbox::injectionDomains(credential);
    bool named = false;
    for (const QString &domain : domains)
        named = named || proxy::inject::domainMatches(domain, host.toStdString());
    if (!named)
        return failure(QStringLiteral("%1 is not a domain the %2 key is sent to (%3)")
                           .arg(host, service, domains.join(QStringLiteral(", "))));
    return failure(QStringLiteral("sending the %1 key to %2 is not approved; approve it with `paddock binding approve "
                                  "--kit KIT %1`")
                       .arg(service, host));
}

/**
 * Asks @p url through the proxy a sandbox's requests go through, with one endpoint that may
 * reach this URL only and the interception @p config. Nullopt with @p error when the proxy
 * does not start.
 */
std::optional<TestResponse> requestThroughTestProxy(const QString &url, proxy::InterceptionConfig config,
                                                    const proxy::EndpointIdentity &owner, const QString &caFile,
                                                    secrets::SecretStore &store, QString *error)
{
    const QUrl parsed(url);
    const QString host = parsed.host().toLower();
    const quint16 port = quint16(parsed.port(443));
    policy::PolicyStore policy;
    policy.load();
    proxy::ProxyEngine engine;
    engine.setDecider([host, port](const proxy::ConnectionQuery &query) {
        proxy::Verdict verdict;
        verdict.allowed = query.host == host && query.port == port;
        verdict.rule = QStringLiteral("secret test");
        verdict.reason = verdict.allowed ? QString() : QStringLiteral("only the tested URL is reachable");
        return verdict;
    });
    network::syncResolveOverrides(engine.resolveOverrides(), {}, policy.resolveOverrides());
    // Through the upstream proxy a sandbox's request would take.
    QString upstreamProblem;
    if (std::optional<proxy::UpstreamProxy> upstream = upstreamProxyForCli(store, &upstreamProblem))
        engine.setUpstreamProxy(std::make_shared<const proxy::UpstreamProxy>(std::move(*upstream)));
    if (!upstreamProblem.isEmpty())
        err() << "note: " << upstreamProblem << "\n";
    if (!engine.start(error))
        return std::nullopt;
    quint16 proxyPort = 0;
    const proxy::ProxyEngine::EndpointId endpoint =
        engine.addTcpEndpoint(QHostAddress::LocalHost, 0, owner, &proxyPort, error);
    if (endpoint == 0 || !engine.setInterception(endpoint, std::move(config), error))
        return std::nullopt;

    // The request runs on a thread of its own: the key is read from the keychain on this
    // thread's event loop when the proxy asks for it.
    TestResponse response;
    QEventLoop loop;
    std::thread worker([&] {
        response = requestThroughProxy(url, proxyPort, caFile);
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    loop.exec();
    worker.join();
    engine.stop();
    return response;
}

/** What the provider's answer says about the key. */
int reportTestResponse(const TestResponse &response, const QString &service, const QString &url, const QString &host)
{
    if (!response.error.isEmpty())
        return failure(QStringLiteral("no answer from %1: %2").arg(host, response.error));
    if (response.status >= 200 && response.status < 300) {
        out() << "The provider accepted the " << service << " key: " << url << " answered " << response.statusLine
              << "\n";
        return ExitOk;
    }
    if (response.status == 401 || response.status == 403)
        return failure(
            QStringLiteral("the provider refused the %1 key: %2 answered %3").arg(service, url, response.statusLine));
    return failure(QStringLiteral("cannot tell whether the %1 key works: %2 answered %3; give a URL that needs the key "
                                  "with --url")
                       .arg(service, url, response.statusLine));
}

int runTest(const Invocation &call)
{
    secrets::disableCoreDumps();
    const QString service = call.positional.constFirst();
    const QString sandboxName = call.parser.value(kSandboxOption);
    QString error;
    const std::optional<TestedCredential> tested = findCredential(call, service, sandboxName, &error);
    if (!tested)
        return failure(error);
    const QString url = call.parser.isSet(QStringLiteral("url"))
                            ? call.parser.value(QStringLiteral("url"))
                            : sandbox::defaultTestUrl(tested->credential).value_or(QString());
    if (url.isEmpty())
        return failure(QStringLiteral("every domain of %1 is a wildcard; give the URL to ask with --url").arg(service));
    const QUrl parsed(url);
    if (!parsed.isValid() || parsed.scheme() != QLatin1String("https") || parsed.host().isEmpty())
        return usageError(call.commandPath, QStringLiteral("--url takes an https:// URL, got '%1'").arg(url));
    const QString host = parsed.host().toLower();

    secrets::CredentialBindings bindings;
    if (const auto problem = bindings.load())
        return failure(problem->toString());
    secrets::SecretStore store;
    if (const auto refused = requireKeychain(store))
        return *refused;
    QList<secrets::SecretId> stored = store.list(&error);
    if (!error.isEmpty())
        return failure(error);
    if (!sandbox::hasSecret(stored, sandboxName, service))
        return failure(QStringLiteral("no %1 key is stored; store it with `%2`")
                           .arg(service, secrets::SecretStore::setCommand(secrets::SecretId::global(service))));

    // The rules a sandbox's endpoint would get, with the key read the way the daemon reads it.
    proxy::InterceptionConfig config;
    config.rules = sandbox::injectRules(
        {tested->credential}, sandboxName, bindings, stored, [&store, sandboxName](const QString &name) {
            return sandbox::CredentialInjection::readSecretFrom(&store, sandboxName, name);
        });
    const auto matching =
        std::find_if(config.rules.begin(), config.rules.end(), [&host](const proxy::InjectRule &rule) {
            return proxy::inject::domainMatches(rule.domain, host.toStdString());
        });
    if (matching == config.rules.end())
        return refuseUnsentHost(tested->credential, service, host);

    secrets::ca::LocalAuthority authority(&store);
    if (!authority.loadAndWait(&error))
        return failure(QStringLiteral("Paddock's certificate authority cannot be loaded: %1").arg(error));
    const secrets::ca::TrustStore trust;
    const QByteArray upstream = trust.upstreamBundle(&error);
    QTemporaryFile upstreamFile, authorityFile;
    if (upstream.isEmpty() || !writeTemporary(upstreamFile, upstream) ||
        !writeTemporary(authorityFile, authority.certificatePem()))
        return failure(error.isEmpty() ? QStringLiteral("cannot write the certificate bundles") : error);
    config.upstreamCaBundlePath = upstreamFile.fileName();
    config.leafFor = [&authority](const QString &leafHost, QString *problem) -> std::optional<proxy::TlsLeaf> {
        const std::optional<secrets::ca::LeafCertificate> leaf = authority.leafFor(leafHost, problem);
        if (!leaf)
            return std::nullopt;
        return proxy::TlsLeaf{leaf->certificate, leaf->key};
    };

    const std::optional<TestResponse> response = requestThroughTestProxy(
        url, std::move(config), {sandboxName, tested->kitName}, authorityFile.fileName(), store, &error);
    if (!response)
        return failure(error);
    return reportTestResponse(*response, service, url, host);
}

QCommandLineOption sandboxOption()
{
    return QCommandLineOption(kSandboxOption,
                              QStringLiteral("The secret belongs to sandbox NAME only, instead of every sandbox."),
                              QStringLiteral("NAME"));
}

Command setCommand()
{
    Command set;
    set.name = QStringLiteral("set");
    set.summary = QStringLiteral("Store the key of SERVICE, read from stdin or typed without echo.");
    set.description =
        QStringLiteral("Stores the key of SERVICE in the OS keychain, replacing any earlier value.\n\n"
                       "The value is never taken as an argument, where other users and the shell history could\n"
                       "see it. When stdin is a terminal, it is typed at a prompt that does not echo; otherwise it\n"
                       "is read from stdin, one trailing newline removed:\n\n"
                       "  paddock secret set anthropic\n"
                       "  pass show anthropic | paddock secret set anthropic\n\n"
                       "An empty value is refused. Exits 1 when the keychain cannot be reached.");
    set.positionalSyntax = QStringLiteral("SERVICE");
    set.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service as kits name it, e.g. anthropic.")}};
    set.minPositional = 1;
    set.maxPositional = 1;
    set.options = {sandboxOption()};
    set.run = runSet;
    return set;
}

Command listCommand()
{
    Command list;
    list.name = QStringLiteral("ls");
    list.summary = QStringLiteral("List stored secrets with their scope and a masked value.");
    list.description =
        QStringLiteral("Lists every stored secret: its service, its scope (global or the sandbox it belongs to)\n"
                       "and its value masked to the first and last four characters (values shorter than 16\n"
                       "characters are hidden entirely). Reading the values to mask them needs the keychain.");
    list.options = {jsonOption(QStringLiteral("the list"))};
    list.maxPositional = 0;
    list.run = runList;
    return list;
}

Command removeCommand()
{
    Command remove;
    remove.name = QStringLiteral("rm");
    remove.summary = QStringLiteral("Remove the key of SERVICE from the keychain.");
    remove.description =
        QStringLiteral("Removes the key of SERVICE (global, or the one of sandbox NAME with --sandbox) from the\n"
                       "keychain. Bindings are kept: `paddock binding revoke SERVICE` removes those.\n"
                       "Exits 1 when there is no such secret.");
    remove.positionalSyntax = QStringLiteral("SERVICE");
    remove.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service whose key is removed.")}};
    remove.minPositional = 1;
    remove.maxPositional = 1;
    remove.options = {sandboxOption()};
    remove.run = runRemove;
    return remove;
}

Command testCommand()
{
    Command test;
    test.name = QStringLiteral("test");
    test.summary =
        QStringLiteral("Send one request with the key of SERVICE and report whether the provider accepts it.");
    test.description =
        QStringLiteral("Sends one GET request through Paddock's proxy exactly as a sandbox's would go: the proxy\n"
                       "adds the key from the keychain with the header and format the kit names, for a domain the\n"
                       "binding approves. Prints the status line; exits 0 when the provider answers 2xx, 1 when it\n"
                       "answers 401 or 403, or anything else that does not prove the key.\n\n"
                       "The kit is --kit KIT, or else the kit of a sandbox that uses SERVICE. The URL is --url, or\n"
                       "https://DOMAIN/v1/models for the first inject domain of SERVICE: the model list of OpenAI\n"
                       "and the providers compatible with it, which needs the key. Name mappings of\n"
                       "`paddock policy resolve` apply.");
    test.positionalSyntax = QStringLiteral("SERVICE");
    test.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service whose key is tried.")}};
    test.minPositional = 1;
    test.maxPositional = 1;
    test.options = {
        sandboxOption(), kitOption(QStringLiteral("The kit that injects the key.")),
        QCommandLineOption(QStringLiteral("arg"), QStringLiteral("A value for the kit's argument NAME."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("url"), QStringLiteral("The https:// URL to ask."), QStringLiteral("URL"))};
    test.run = runTest;
    return test;
}

} // namespace

Command secretCommand()
{
    Command secret;
    secret.name = QStringLiteral("secret");
    secret.summary = QStringLiteral("Store, list and remove provider keys in the OS keychain.");
    secret.description =
        QStringLiteral("Provider keys (an Anthropic or OpenAI API key, a GitHub token) live only in the OS keychain\n"
                       "(GNOME Keyring or KWallet through the Secret Service). Sandboxes never see them: the proxy\n"
                       "adds them to requests for the domains a binding approves (see `paddock binding`).\n"
                       "A secret is global, or belongs to one sandbox with --sandbox; a sandbox's own secret takes\n"
                       "precedence over the global one of the same service.\n"
                       "Without a reachable keychain every secret command fails and says what to install.");
    secret.subcommands << setCommand() << listCommand() << removeCommand() << testCommand();
    runQuietly(secret);
    return secret;
}

} // namespace paddock::cli

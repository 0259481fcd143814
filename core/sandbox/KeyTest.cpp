// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KeyTest.h"

#include "api/Server.h"
#include "network/PolicyDecider.h"
#include "proxy/InjectStream.h"
#include "proxy/ProxyEngine.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/SandboxService.h"
#include "secrets/CredentialBindings.h"
#include "secrets/SecretStore.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QPointer>
#include <QUrl>

#include <curl/curl.h>

#include <memory>
#include <thread>
#include <variant>

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply failed(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kBindingsError), message);
}

/** @brief The credential tested, and the kit it comes from. */
struct TestedCredential
{
    kit::Credential credential;
    QString kitName;
};

std::variant<TestedCredential, api::Reply> credentialOfKit(const QString &kitDir, const QJsonObject &params,
                                                           const QString &service)
{
    if (!QDir::isAbsolutePath(kitDir))
        return invalid(QStringLiteral("the kit must be an absolute directory path"));
    QString unusedName;
    const std::optional<kit::Kit> loaded = CredentialInjection::kitOf(params, &unusedName);
    if (!loaded)
        return api::Reply::failure(
            QLatin1String(api::errors::kInvalidKit),
            QStringLiteral("the kit in %1 cannot be used; `paddock kit validate %1` says why").arg(kitDir));
    for (const kit::Credential &credential : loaded->credentials) {
        if (credential.service == service && isInjected(credential))
            return TestedCredential{credential, loaded->name};
    }
    return failed(QStringLiteral("the kit %1 does not inject a %2 key anywhere").arg(loaded->name, service));
}

/** The credential of `service`: in the kit named, else as a sandbox made earlier injects it. */
std::variant<TestedCredential, api::Reply> credentialOf(const QJsonObject &params, const QString &service,
                                                        const QString &sandbox)
{
    const QString kitDir = params.value(QLatin1String("kit")).toString();
    if (!kitDir.isEmpty())
        return credentialOfKit(kitDir, params, service);
    QStringList names;
    if (!sandbox.isEmpty())
        names << sandbox;
    const QDir records(QFileInfo(CredentialInjection::recordPath(QStringLiteral("x"))).absolutePath());
    for (const QString &file : records.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        names << file.chopped(5);
    for (const QString &name : std::as_const(names)) {
        for (const kit::Credential &credential : CredentialInjection::remembered(name)) {
            if (credential.service == service && isInjected(credential))
                return TestedCredential{credential, QString()};
        }
    }
    return failed(QStringLiteral("no sandbox's kit injects a %1 key; give the kit with --kit KIT").arg(service));
}

/** Why no rule sends the @p service key to @p host: not one of its domains, or not approved. */
api::Reply unsentHost(const kit::Credential &credential, const QString &service, const QString &host)
{
    const QStringList domains = injectionDomains(credential);
    bool named = false;
    for (const QString &domain : domains)
        named = named || proxy::inject::domainMatches(domain, host.toStdString());
    if (!named)
        return failed(QStringLiteral("%1 is not a domain the %2 key is sent to (%3)")
                          .arg(host, service, domains.join(QStringLiteral(", "))));
    return failed(QStringLiteral("sending the %1 key to %2 is not approved; approve it with `paddock binding approve "
                                 "--kit KIT %1`")
                      .arg(service, host));
}

/** @brief What the one request brought back. */
struct Response
{
    long status = 0;
    QString statusLine;
    QString error; ///< set when no response came
};

size_t keepStatusLine(char *data, size_t size, size_t count, void *user)
{
    const QByteArray line = QByteArray(data, qsizetype(size * count)).trimmed();
    // Every response of the exchange (the proxy's 200 to CONNECT first) starts with HTTP/.
    if (line.startsWith("HTTP/"))
        *static_cast<QString *>(user) = QString::fromLatin1(line);
    return size * count;
}

size_t discardBody(char *, size_t size, size_t count, void *)
{
    return size * count;
}

/** One GET of @p url through the proxy at 127.0.0.1:@p port, trusting the bundle sandboxes trust. */
Response requestThroughProxy(const QString &url, quint16 port)
{
    Response response;
    CURL *curl = curl_easy_init();
    if (!curl) {
        response.error = QStringLiteral("libcurl cannot be initialised");
        return response;
    }
    const QByteArray target = url.toUtf8();
    const QByteArray proxy = QStringLiteral("http://127.0.0.1:%1").arg(port).toUtf8();
    const QByteArray ca = QFile::encodeName(CredentialInjection::bundlePath());
    char problem[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_URL, target.constData());
    curl_easy_setopt(curl, CURLOPT_PROXY, proxy.constData());
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
    curl_easy_setopt(curl, CURLOPT_HTTPPROXYTUNNEL, 1L);
    curl_easy_setopt(curl, CURLOPT_CAINFO, ca.constData());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
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

/**
 * @brief One test: a proxy of its own that reaches the tested URL only, with the interception a
 * sandbox's endpoint would get, and the request made from a thread so the daemon's loop stays
 * free to read the key from the keychain when the proxy asks for it.
 */
struct TestRun
{
    QString service, url, host;
    proxy::ProxyEngine engine;
    std::thread worker;
    QObject context; ///< where the worker's answer is delivered, on the daemon's thread
};

QJsonObject answerOf(const TestRun &run, const Response &response)
{
    return {{QStringLiteral("service"), run.service},
            {QStringLiteral("url"), run.url},
            {QStringLiteral("host"), run.host},
            {QStringLiteral("status"), int(response.status)},
            {QStringLiteral("statusLine"), response.statusLine},
            {QStringLiteral("accepted"), response.status >= 200 && response.status < 300}};
}

void sendRequest(const std::shared_ptr<TestRun> &run, proxy::InterceptionConfig config,
                 const proxy::EndpointIdentity &owner, const api::PendingReply &reply)
{
    const quint16 port = quint16(QUrl(run->url).port(443));
    run->engine.setDecider([host = run->host, port](const proxy::ConnectionQuery &query) {
        proxy::Verdict verdict;
        verdict.allowed = query.host == host && query.port == port;
        verdict.rule = QStringLiteral("secret test");
        verdict.reason = verdict.allowed ? QString() : QStringLiteral("only the tested URL is reachable");
        return verdict;
    });
    quint16 proxyPort = 0;
    if (const Result<void> started = run->engine.start(); !started)
        return reply.fail(QLatin1String(api::errors::kInternal), started.error().text());
    const Result<proxy::ProxyEngine::EndpointId> endpoint =
        run->engine.addTcpEndpoint(QHostAddress::LocalHost, 0, owner, &proxyPort);
    if (!endpoint)
        return reply.fail(QLatin1String(api::errors::kInternal), endpoint.error().text());
    if (const Result<void> set = run->engine.setInterception(*endpoint, std::move(config)); !set)
        return reply.fail(QLatin1String(api::errors::kInternal), set.error().text());
    run->worker = std::thread([run, proxyPort, reply] {
        const Response response = requestThroughProxy(run->url, proxyPort);
        QMetaObject::invokeMethod(
            &run->context,
            [run, response, reply] {
                run->worker.join();
                run->engine.stop();
                if (!response.error.isEmpty())
                    return reply.fail(QLatin1String(api::errors::kInternal),
                                      QStringLiteral("no answer from %1: %2").arg(run->host, response.error));
                reply.succeed(answerOf(*run, response));
            },
            Qt::QueuedConnection);
    });
}

void testKey(SandboxService &sandboxes, const QJsonObject &params, const api::PendingReply &reply)
{
    const QString service = params.value(QLatin1String("service")).toString();
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    if (service.isEmpty())
        return reply.complete(invalid(QStringLiteral("secret.test needs a service")));
    const auto found = credentialOf(params, service, sandbox);
    if (const auto *refused = std::get_if<api::Reply>(&found))
        return reply.complete(*refused);
    const TestedCredential tested = std::get<TestedCredential>(found);
    auto run = std::make_shared<TestRun>();
    run->service = service;
    run->url = params.value(QLatin1String("url")).toString(defaultTestUrl(tested.credential).value_or(QString()));
    if (run->url.isEmpty())
        return reply.complete(
            invalid(QStringLiteral("every domain of %1 is a wildcard; give the URL to ask with --url").arg(service)));
    const QUrl parsed(run->url);
    if (!parsed.isValid() || parsed.scheme() != QLatin1String("https") || parsed.host().isEmpty())
        return reply.complete(invalid(QStringLiteral("--url takes an https:// URL, got '%1'").arg(run->url)));
    run->host = parsed.host().toLower();
    run->engine.setUpstreamProxy(sandboxes.proxy().upstreamProxy());
    // Names resolve as they do for a sandbox (`paddock policy resolve` overrides first).
    network::syncResolveOverrides(run->engine.resolveOverrides(), {}, sandboxes.policyStore().resolveOverrides());
    const proxy::EndpointIdentity owner{sandbox, tested.kitName};
    sandboxes.credentials().interceptionFor(
        tested.credential, sandbox,
        [run, tested, owner, reply](std::optional<proxy::InterceptionConfig> config, const QString &problem) {
            if (!config)
                return reply.complete(failed(problem));
            const auto matching =
                std::find_if(config->rules.begin(), config->rules.end(), [&run](const proxy::InjectRule &rule) {
                    return proxy::inject::domainMatches(rule.domain, run->host.toStdString());
                });
            if (matching == config->rules.end())
                return reply.complete(unsentHost(tested.credential, run->service, run->host));
            sendRequest(run, std::move(*config), owner, reply);
        });
}

} // namespace

void registerKeyTest(api::Server &server, SandboxService &sandboxes)
{
    server.registerAsyncMethod(QStringLiteral("secret.test"),
                               [&sandboxes](const QJsonObject &params, const api::CallContext &,
                                            const api::PendingReply &reply) { testKey(sandboxes, params, reply); });
}

} // namespace paddock::sandbox

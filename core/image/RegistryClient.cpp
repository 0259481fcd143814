// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/RegistryClient.h"

#include "common/Paths.h"
#include "image/ImageStore.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

#include <curl/curl.h>

#include <memory>

namespace paddock::image {

namespace {

constexpr qint64 kMaxTokenBytes = 1 << 20;
constexpr qint64 kMaxErrorBody = 64 << 10;

const QByteArray kManifestTypes = "application/vnd.oci.image.index.v1+json, "
                                  "application/vnd.oci.image.manifest.v1+json, "
                                  "application/vnd.docker.distribution.manifest.list.v2+json, "
                                  "application/vnd.docker.distribution.manifest.v2+json";

/** What curl hands the callbacks: the request's sink or a buffer, and what it has seen. */
struct Transfer
{
    const RegistryClient::Sink *sink = nullptr;
    const RegistryClient::Progress *progress = nullptr;
    QByteArray *body = nullptr;
    qint64 maxBytes = 0;
    qint64 received = 0;
    bool stopped = false;
    QByteArray contentType;
    QByteArray challenge;
    int status = 0;
    const std::atomic_bool *cancel = nullptr;
};

size_t onBody(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const size_t bytes = size * count;
    if (transfer->status < 200 || transfer->status >= 300) {
        // Not the content (an error, a challenge): kept, small, for the message.
        if (transfer->body->size() < kMaxErrorBody)
            transfer->body->append(data, qsizetype(qMin<size_t>(bytes, size_t(kMaxErrorBody))));
        return bytes;
    }
    transfer->received += qint64(bytes);
    if (transfer->received > transfer->maxBytes || (transfer->cancel && transfer->cancel->load())) {
        transfer->stopped = true;
        return 0;
    }
    if (transfer->sink && *transfer->sink) {
        if (!(*transfer->sink)(data, bytes)) {
            transfer->stopped = true;
            return 0;
        }
    } else {
        transfer->body->append(data, qsizetype(bytes));
    }
    if (transfer->progress && *transfer->progress)
        (*transfer->progress)(transfer->received);
    return bytes;
}

size_t onHeader(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const QByteArray line = QByteArray(data, qsizetype(size * count)).trimmed();
    if (line.startsWith("HTTP/")) { // a new response (after a redirect): forget the last one's
        transfer->contentType.clear();
        transfer->challenge.clear();
        transfer->status = line.split(' ').value(1).toInt();
    }
    const qsizetype colon = line.indexOf(':');
    if (colon > 0) {
        const QByteArray name = line.left(colon).trimmed().toLower();
        if (name == "content-type")
            transfer->contentType = line.mid(colon + 1).trimmed();
        else if (name == "www-authenticate" && transfer->challenge.isEmpty())
            transfer->challenge = line.mid(colon + 1).trimmed();
    }
    return size * count;
}

QString sha256Of(const QByteArray &bytes)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

/** The certificate folder Docker reads for @p host: in the user's config, else /etc/docker. */
QString certsDirFor(const QString &dockerConfig, const QString &host)
{
    for (const QString &root : {dockerConfig + QStringLiteral("/certs.d"), QStringLiteral("/etc/docker/certs.d")}) {
        const QString dir = root + QLatin1Char('/') + host;
        if (!host.contains(QLatin1Char('/')) && !host.startsWith(QLatin1Char('.')) && QFileInfo(dir).isDir())
            return dir;
    }
    return {};
}

} // namespace

RegistryOptions RegistryOptions::forUser()
{
    RegistryOptions options;
    options.dockerConfig = dockerConfigDir();
    QFile list(paths::configDir() + QStringLiteral("/insecure-registries"));
    if (list.open(QIODevice::ReadOnly) && list.size() < (64 << 10)) {
        for (const QByteArray &line : list.readAll().split('\n')) {
            const QString host = QString::fromUtf8(line).trimmed();
            if (!host.isEmpty() && !host.startsWith(QLatin1Char('#')))
                options.insecureRegistries << host;
        }
    }
    return options;
}

QString storedName(const RegistryReference &reference)
{
    return ImageStore::normalizedReference(reference.fullName());
}

RegistryClient::RegistryClient(RegistryReference reference, RegistryOptions options)
    : m_ref(std::move(reference)), m_options(std::move(options))
{
    m_login = registryLogin(m_ref.registry, m_options.dockerConfig, &m_loginProblem);
}

bool RegistryClient::allowsPlainHttp() const
{
    return m_ref.isLoopback() || m_options.insecureRegistries.contains(m_ref.registry);
}

QString RegistryClient::baseUrl() const
{
    return (m_plainHttp ? QStringLiteral("http://") : QStringLiteral("https://")) + m_ref.endpointHost() +
           QStringLiteral("/v2/") + m_ref.repository + QLatin1Char('/');
}

RegistryClient::Response RegistryClient::get(const QString &url, const Request &request,
                                             const QByteArray &authorization) const
{
    Response response;
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) {
        response.problem = QStringLiteral("libcurl did not start");
        return response;
    }
    Transfer transfer;
    transfer.sink = &request.sink;
    transfer.progress = &request.progress;
    transfer.body = &response.body;
    transfer.maxBytes = request.maxBytes;
    transfer.cancel = m_options.cancel;
    curl_slist *headers = nullptr;
    if (!request.accept.isEmpty())
        headers = curl_slist_append(headers, ("Accept: " + request.accept).constData());
    if (!authorization.isEmpty())
        headers = curl_slist_append(headers, ("Authorization: " + authorization).constData());
    const std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList(headers, curl_slist_free_all);
    char problem[CURL_ERROR_SIZE] = {};
    const QByteArray target = url.toUtf8();
    const QByteArray proxy = m_options.proxy.toUtf8();
    const QByteArray noProxy = (m_options.noProxy + QStringLiteral(",localhost,127.0.0.1,::1")).toUtf8();
    CURL *handle = curl.get();
    curl_easy_setopt(handle, CURLOPT_URL, target.constData());
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle, CURLOPT_PROXY, proxy.constData());
    curl_easy_setopt(handle, CURLOPT_NOPROXY, noProxy.constData());
    const QByteArray proxyUser = m_options.proxyUser.toUtf8();
    if (!proxyUser.isEmpty()) {
        curl_easy_setopt(handle, CURLOPT_PROXYUSERNAME, proxyUser.constData());
        curl_easy_setopt(handle, CURLOPT_PROXYPASSWORD, m_options.proxyPassword.constData());
    }
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
    // A blob may be sent from elsewhere (storage); the Authorization header is not sent there.
    curl_easy_setopt(handle, CURLOPT_UNRESTRICTED_AUTH, 0L);
    const char *protocols = m_plainHttp || allowsPlainHttp() ? "https,http" : "https";
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, m_plainHttp ? "https,http" : "https");
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, 15L);
    // A manifest, a configuration or a token is small: it comes within a minute or not at all.
    if (request.maxBytes <= m_options.maxDocumentBytes)
        curl_easy_setopt(handle, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, problem);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    // The registry's certificates, also for its token server, as Docker's transport has them.
    const QString certs = certsDirFor(m_options.dockerConfig, m_ref.endpointHost());
    const QByteArray ca = (certs + QStringLiteral("/ca.crt")).toUtf8();
    const QByteArray clientCert = (certs + QStringLiteral("/client.cert")).toUtf8();
    const QByteArray clientKey = (certs + QStringLiteral("/client.key")).toUtf8();
    if (!certs.isEmpty() && QFileInfo::exists(QString::fromUtf8(ca)))
        curl_easy_setopt(handle, CURLOPT_CAINFO, ca.constData());
    if (!certs.isEmpty() && QFileInfo::exists(QString::fromUtf8(clientCert)) &&
        QFileInfo::exists(QString::fromUtf8(clientKey))) {
        curl_easy_setopt(handle, CURLOPT_SSLCERT, clientCert.constData());
        curl_easy_setopt(handle, CURLOPT_SSLKEY, clientKey.constData());
    }
    const CURLcode code = curl_easy_perform(handle);
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response.status);
    response.contentType = transfer.contentType;
    response.challenge = transfer.challenge;
    response.stopped = transfer.stopped;
    if (code != CURLE_OK && !transfer.stopped)
        response.problem = QString::fromUtf8(problem[0] ? problem : curl_easy_strerror(code));
    return response;
}

RegistryClient::Response RegistryClient::send(const Request &request)
{
    Response response = get(baseUrl() + request.path, request, m_authorization);
    if (!response.problem.isEmpty() && !m_plainHttp && allowsPlainHttp()) {
        m_plainHttp = true; // HTTPS failed where plain HTTP is allowed: as Docker does
        response = get(baseUrl() + request.path, request, m_authorization);
    }
    if (response.status != 401 || response.challenge.isEmpty())
        return response;
    QString problem;
    if (!authenticate(response.challenge, &problem)) {
        response.problem = problem;
        return response;
    }
    return get(baseUrl() + request.path, request, m_authorization);
}

std::optional<QByteArray> RegistryClient::fetchToken(const AuthChallenge &challenge, QString *error)
{
    QUrl realm(challenge.params.value(QStringLiteral("realm")));
    const bool plainAllowed = m_plainHttp && realm.scheme() == QLatin1String("http");
    if (!realm.isValid() || realm.host().isEmpty() || (realm.scheme() != QLatin1String("https") && !plainAllowed)) {
        *error = QStringLiteral("the registry %1 sends for a token to '%2', which is not an https address")
                     .arg(m_ref.registry, challenge.params.value(QStringLiteral("realm")).left(120));
        return std::nullopt;
    }
    QUrlQuery query(realm);
    if (const QString service = challenge.params.value(QStringLiteral("service")); !service.isEmpty())
        query.addQueryItem(QStringLiteral("service"), service);
    QString scope = challenge.params.value(QStringLiteral("scope"));
    if (scope.isEmpty())
        scope = QStringLiteral("repository:%1:pull").arg(m_ref.repository);
    query.addQueryItem(QStringLiteral("scope"), scope);
    realm.setQuery(query);
    QByteArray authorization;
    if (m_login)
        authorization = "Basic " + (m_login->username.toUtf8() + ':' + m_login->secret).toBase64();
    Request request;
    request.maxBytes = kMaxTokenBytes;
    const Response response = get(realm.toString(QUrl::FullyEncoded), request, authorization);
    authorization.fill('\0');
    if (!response.problem.isEmpty() || response.status != 200) {
        *error = describe(response, QStringLiteral("a token"));
        return std::nullopt;
    }
    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
    QString token = answer.value(QLatin1String("token")).toString();
    if (token.isEmpty())
        token = answer.value(QLatin1String("access_token")).toString();
    if (token.isEmpty() || token.size() > 64 * 1024) {
        *error = QStringLiteral("the token server of %1 answered no token").arg(m_ref.registry);
        return std::nullopt;
    }
    return token.toUtf8();
}

bool RegistryClient::authenticate(const QByteArray &header, QString *error)
{
    const std::optional<AuthChallenge> challenge = parseAuthenticate(header);
    if (!m_loginProblem.isEmpty()) {
        *error = m_loginProblem;
        return false;
    }
    if (challenge && challenge->scheme == QLatin1String("bearer")) {
        const std::optional<QByteArray> token = fetchToken(*challenge, error);
        if (!token)
            return false;
        m_authorization = "Bearer " + *token;
        return true;
    }
    if (challenge && challenge->scheme == QLatin1String("basic")) {
        if (!m_login) {
            *error = QStringLiteral("the registry %1 needs a login, and there is none for it in %2/config.json "
                                    "(docker login %1)")
                         .arg(m_ref.registry, paths::tildePath(m_options.dockerConfig));
            return false;
        }
        m_authorization = "Basic " + (m_login->username.toUtf8() + ':' + m_login->secret).toBase64();
        return true;
    }
    *error = QStringLiteral("the registry %1 asks for an authentication Paddock does not speak").arg(m_ref.registry);
    return false;
}

QString RegistryClient::describe(const Response &response, const QString &what) const
{
    if (!response.problem.isEmpty())
        return QStringLiteral("the registry %1 could not be reached for %2: %3")
            .arg(m_ref.registry, what, response.problem);
    if (response.status == 401 || response.status == 403) {
        if (!m_login)
            return QStringLiteral("the registry %1 refused %2 without a login (HTTP %3): docker login %1")
                .arg(m_ref.registry, what)
                .arg(response.status);
        return QStringLiteral("the registry %1 refused the login of %2 for %3 (HTTP %4)")
            .arg(m_ref.registry, m_login->username, what)
            .arg(response.status);
    }
    if (response.status == 404)
        return QStringLiteral("the registry %1 does not have %2").arg(m_ref.registry, what);
    const QJsonArray errors = QJsonDocument::fromJson(response.body).object().value(QLatin1String("errors")).toArray();
    const QString said = errors.first().toObject().value(QLatin1String("message")).toString().left(200);
    return QStringLiteral("the registry %1 answered HTTP %2 for %3%4")
        .arg(m_ref.registry)
        .arg(response.status)
        .arg(what, said.isEmpty() ? QString() : QStringLiteral(": ") + said);
}

std::optional<RegistryDocument> RegistryClient::manifest(const QString &reference, QString *error)
{
    Request request;
    request.path = QStringLiteral("manifests/") + reference;
    request.accept = kManifestTypes;
    request.maxBytes = m_options.maxDocumentBytes;
    const Response response = send(request);
    const QString what = QStringLiteral("the image %1:%2").arg(m_ref.repository, reference);
    if (response.stopped) {
        *error = QStringLiteral("the manifest of %1 is larger than %2 bytes").arg(what).arg(m_options.maxDocumentBytes);
        return std::nullopt;
    }
    if (!response.problem.isEmpty() || response.status != 200) {
        *error = response.problem.isEmpty() || response.status != 401 ? describe(response, what) : response.problem;
        return std::nullopt;
    }
    RegistryDocument document{response.body, QString::fromLatin1(response.contentType).section(QLatin1Char(';'), 0, 0),
                              sha256Of(response.body)};
    const QString mediaType =
        QJsonDocument::fromJson(response.body).object().value(QLatin1String("mediaType")).toString();
    if (!mediaType.isEmpty())
        document.mediaType = mediaType;
    if (reference.startsWith(QLatin1String("sha256:")) && document.digest != reference) {
        *error = QStringLiteral("the registry %1 sent a manifest for %2 whose digest is %3")
                     .arg(m_ref.registry, reference, document.digest);
        return std::nullopt;
    }
    return document;
}

std::optional<QByteArray> RegistryClient::smallBlob(const QString &digest, qint64 size, QString *error)
{
    if (size < 0 || size > m_options.maxDocumentBytes) {
        *error = QStringLiteral("the blob %1 is said to be %2 bytes, more than %3")
                     .arg(digest)
                     .arg(size)
                     .arg(m_options.maxDocumentBytes);
        return std::nullopt;
    }
    QByteArray bytes;
    const bool fetched = blob(
        digest, size,
        [&bytes](const char *data, size_t length) {
            bytes.append(data, qsizetype(length));
            return true;
        },
        {}, error);
    return fetched ? std::optional<QByteArray>(bytes) : std::nullopt;
}

bool RegistryClient::blob(const QString &digest, qint64 size, const Sink &sink, const Progress &progress,
                          QString *error)
{
    if (digestHex(digest).isEmpty() || size < 0 || size > m_options.maxLayerBytes) {
        *error = QStringLiteral("the blob %1 (%2 bytes) is refused: not a sha256 digest, or larger than %3 bytes")
                     .arg(digest.left(80))
                     .arg(size)
                     .arg(m_options.maxLayerBytes);
        return false;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    qint64 received = 0;
    bool sinkRefused = false;
    Request request;
    request.path = QStringLiteral("blobs/") + digest;
    request.maxBytes = size;
    request.progress = progress;
    request.sink = [&](const char *data, size_t length) {
        hash.addData(QByteArrayView(data, qsizetype(length)));
        received += qint64(length);
        sinkRefused = !sink(data, length);
        return !sinkRefused;
    };
    const Response response = send(request);
    const QString what = QStringLiteral("the blob %1").arg(digest);
    if (m_options.cancel && m_options.cancel->load()) {
        *error = QStringLiteral("cancelled");
        return false;
    }
    if (sinkRefused) {
        *error = QStringLiteral("%1 could not be written").arg(what);
        return false;
    }
    if (response.stopped) {
        *error =
            QStringLiteral("the registry %1 sent more than the %2 bytes of %3").arg(m_ref.registry).arg(size).arg(what);
        return false;
    }
    if (!response.problem.isEmpty() || response.status != 200) {
        *error = response.problem.isEmpty() || response.status != 401 ? describe(response, what) : response.problem;
        return false;
    }
    const QString got = QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
    if (received != size || got != digest) {
        *error = QStringLiteral("the registry %1 sent %2 bytes whose digest is %3 for %4 (%5 bytes): refused")
                     .arg(m_ref.registry)
                     .arg(received)
                     .arg(got, what)
                     .arg(size);
        return false;
    }
    return true;
}

} // namespace paddock::image

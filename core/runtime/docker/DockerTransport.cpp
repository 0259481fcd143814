// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/DockerTransport.h"

#include "runtime/docker/CurlLibrary.h"
#include "runtime/docker/HijackedConnection.h"
#include "runtime/docker/SshDial.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUrl>

#include <chrono>
#include <memory>
#include <optional>
#include <thread>

Q_LOGGING_CATEGORY(lcDockerHttp, "paddock.runtime.docker.http", QtInfoMsg)

namespace paddock::runtime::docker {

namespace {

constexpr long kConnectTimeoutSeconds = 10;
constexpr int kHijackHeaderTimeoutMs = 30000;
constexpr qsizetype kMaxResponseHeader = 64 * 1024;

/** libcurl, once a handle exists: loaded by newHandle(). */
const CurlLibrary &lib()
{
    return *curlLibrary();
}

struct CurlDeleter
{
    void operator()(CURL *curl) const { lib().easy_cleanup(curl); }
};
using CurlPtr = std::unique_ptr<CURL, CurlDeleter>;

struct SlistDeleter
{
    void operator()(curl_slist *list) const { lib().slist_free_all(list); }
};
using SlistPtr = std::unique_ptr<curl_slist, SlistDeleter>;

/** A new easy handle; null when libcurl cannot be loaded or cannot make one. */
CurlPtr newHandle()
{
    const CurlLibrary *curl = curlLibrary();
    return CurlPtr(curl ? curl->easy_init() : nullptr);
}

/** Why no handle could be made, for an error. */
QString noHandle()
{
    QString problem;
    curlLibrary(&problem);
    return problem.isEmpty() ? QStringLiteral("cannot initialise libcurl")
                             : QStringLiteral("cannot initialise libcurl: %1").arg(problem);
}

QByteArray encodedQuery(const Query &query)
{
    QByteArray out;
    for (const auto &[key, value] : query) {
        out += out.isEmpty() ? '?' : '&';
        out += QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    }
    return out;
}

// The ssh connection this thread made last, for what ssh said when it failed.
thread_local QByteArray t_sshName;
thread_local QString t_sshProblem;

/** What went wrong with this thread's last ssh connection, if ssh said anything (it may end just after). */
QString sshProblem()
{
    if (!t_sshProblem.isEmpty() || t_sshName.isEmpty())
        return t_sshProblem;
    for (int i = 0; i < 40; ++i) {
        if (const QString said = ssh::message(t_sshName); !said.isEmpty())
            return said;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return {};
}

// Connection settings shared by ordinary and hijacked requests.
void configureConnection(CURL *curl, const Endpoint &endpoint, char *errorBuffer)
{
    lib().easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // safe on worker threads
    lib().easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    lib().easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, kConnectTimeoutSeconds);
    lib().easy_setopt(curl, CURLOPT_USERAGENT, "Paddock");
    lib().easy_setopt(curl, CURLOPT_PROXY, ""); // never route the engine through http_proxy
    if (endpoint.kind == Endpoint::Kind::Unix) {
        lib().easy_setopt(curl, CURLOPT_UNIX_SOCKET_PATH, endpoint.socketPath.toLocal8Bit().constData());
        return;
    }
    if (endpoint.kind == Endpoint::Kind::Ssh) {
        // One ssh per connection, started when libcurl connects to the socket made for it.
        t_sshProblem.clear();
        t_sshName = ssh::listen(endpoint, &t_sshProblem);
        lib().easy_setopt(curl, CURLOPT_ABSTRACT_UNIX_SOCKET, t_sshName.constData());
        lib().easy_setopt(curl, CURLOPT_FORBID_REUSE, 1L);
        return;
    }
    if (!endpoint.tls)
        return;
    lib().easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, endpoint.tlsVerify ? 1L : 0L);
    lib().easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, endpoint.tlsVerify ? 2L : 0L);
    if (!endpoint.caFile.isEmpty())
        lib().easy_setopt(curl, CURLOPT_CAINFO, endpoint.caFile.toLocal8Bit().constData());
    if (!endpoint.certFile.isEmpty()) {
        lib().easy_setopt(curl, CURLOPT_SSLCERT, endpoint.certFile.toLocal8Bit().constData());
        lib().easy_setopt(curl, CURLOPT_SSLKEY, endpoint.keyFile.toLocal8Bit().constData());
    }
}

/** A new handle connecting to @p endpoint (configureConnection()); null when libcurl cannot make one. */
CurlPtr handleFor(const Endpoint &endpoint, char *errorBuffer)
{
    CurlPtr handle = newHandle();
    if (handle)
        configureConnection(handle.get(), endpoint, errorBuffer);
    return handle;
}

Error httpError(int status, const QByteArray &body, const QByteArray &method, const QString &path)
{
    QString message;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject())
        message = doc.object().value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = QString::fromUtf8(body).trimmed().left(500);
    if (message.isEmpty())
        message = QStringLiteral("the Docker engine answered HTTP %1 to %2 %3")
                      .arg(status)
                      .arg(QString::fromLatin1(method), path);
    Error::Kind kind = Error::Kind::Engine;
    if (status == 404)
        kind = Error::Kind::NotFound;
    else if (status == 409)
        kind = Error::Kind::Conflict;
    return Error{kind, status, message};
}

struct Transfer
{
    const HttpRequest *request = nullptr;
    CURL *curl = nullptr;
    QByteArray body;
    QFile *upload = nullptr;
    bool refused = false;
    bool uploadFailed = false;
};

size_t onWrite(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const size_t bytes = size * count;
    long status = 0;
    lib().easy_getinfo(transfer->curl, CURLINFO_RESPONSE_CODE, &status);
    // Error bodies are always collected: they hold the engine's message.
    if (status >= 400 || !transfer->request->onData) {
        transfer->body.append(data, qsizetype(bytes));
        return bytes;
    }
    if (!transfer->request->onData(data, bytes)) {
        transfer->refused = true;
        return 0;
    }
    return bytes;
}

size_t onRead(char *buffer, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const qint64 n = transfer->upload->read(buffer, qint64(size * count));
    if (n < 0) {
        transfer->uploadFailed = true;
        return CURL_READFUNC_ABORT;
    }
    return size_t(n);
}

int onProgress(void *user, curl_off_t, curl_off_t, curl_off_t uploadTotal, curl_off_t uploaded)
{
    const auto *transfer = static_cast<Transfer *>(user);
    if (transfer->request->onUpload && uploadTotal > 0)
        transfer->request->onUpload(qint64(uploaded), qint64(uploadTotal));
    const std::atomic_bool *cancel = transfer->request->cancel;
    return cancel && cancel->load() ? 1 : 0;
}

/** Sets @p request's method and, for a POST or PUT, its body or the file @p upload it sends. */
std::optional<Error> setMethod(CURL *curl, const HttpRequest &request, Transfer *transfer, QFile *upload)
{
    if (request.method == "GET") {
        lib().easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else if (request.method == "POST" || request.method == "PUT") {
        lib().easy_setopt(curl, CURLOPT_POST, 1L);
        if (request.method == "PUT") // a body sent as a POST's, under its own method (PUT /containers/ID/archive)
            lib().easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
        if (!request.uploadFile.isEmpty()) {
            if (!upload->open(QIODevice::ReadOnly))
                return Error{Error::Kind::Local, 0,
                             QStringLiteral("cannot read %1: %2").arg(request.uploadFile, upload->errorString())};
            transfer->upload = upload;
            lib().easy_setopt(curl, CURLOPT_READFUNCTION, onRead);
            lib().easy_setopt(curl, CURLOPT_READDATA, transfer);
            lib().easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(upload->size()));
        } else {
            lib().easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
            lib().easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
        }
    } else {
        lib().easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.constData());
        if (request.method == "HEAD")
            lib().easy_setopt(curl, CURLOPT_NOBODY, 1L);
    }
    return std::nullopt;
}

// A unix socket that does not answer: say which of the usual reasons it is.
QString unixSocketDetail(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1 does not exist").arg(path);
    if (!info.isWritable())
        return QStringLiteral("permission denied on %1").arg(path);
    return QStringLiteral("connection refused");
}

} // namespace

DockerTransport::DockerTransport(Endpoint endpoint) : m_endpoint(std::move(endpoint)) {}

QString DockerTransport::unreachableMessage(const QString &detail) const
{
    QString message =
        QStringLiteral("cannot reach the Docker engine at %1: is dockerd running?").arg(m_endpoint.display());
    if (!detail.isEmpty())
        message += QStringLiteral(" (%1)").arg(detail);
    return message;
}

Error DockerTransport::unreachable(const QString &detail) const
{
    return Error{
        Error::Kind::Unreachable, 0,
        unreachableMessage(m_endpoint.kind == Endpoint::Kind::Unix ? unixSocketDetail(m_endpoint.socketPath) : detail)};
}

Error DockerTransport::transferFailure(int code, long status, const QString &detail, const HttpRequest &request) const
{
    if (m_endpoint.kind == Endpoint::Kind::Ssh && status == 0) {
        if (const QString said = sshProblem(); !said.isEmpty())
            return Error{Error::Kind::Unreachable, 0, unreachableMessage(QStringLiteral("ssh: ") + said)};
    }
    switch (CURLcode(code)) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
        return unreachable(detail);
    case CURLE_OPERATION_TIMEDOUT:
        if (status == 0)
            return Error{Error::Kind::Unreachable, 0, unreachableMessage(detail)};
        return Error{Error::Kind::Protocol, 0,
                     QStringLiteral("the Docker engine at %1 did not finish %2 %3 within %4 s")
                         .arg(m_endpoint.display(), QString::fromLatin1(request.method), request.path)
                         .arg(request.timeoutSeconds)};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
        return Error{Error::Kind::Unreachable, 0,
                     QStringLiteral("TLS with the Docker engine at %1 failed: %2 (check DOCKER_CERT_PATH)")
                         .arg(m_endpoint.display(), detail)};
    default:
        return Error{Error::Kind::Protocol, int(status),
                     QStringLiteral("the connection to the Docker engine at %1 failed during %2 %3: %4")
                         .arg(m_endpoint.display(), QString::fromLatin1(request.method), request.path, detail)};
    }
}

Result<HttpResponse> DockerTransport::perform(const HttpRequest &request) const
{
    char errorBuffer[CURL_ERROR_SIZE] = {0};
    CurlPtr handle = handleFor(m_endpoint, errorBuffer);
    if (!handle)
        return Error{Error::Kind::Local, 0, noHandle()};
    CURL *curl = handle.get();

    const QByteArray url =
        m_endpoint.baseUrl() + QUrl::toPercentEncoding(request.path, "/") + encodedQuery(request.query);
    lib().easy_setopt(curl, CURLOPT_URL, url.constData());

    SlistPtr headers(lib().slist_append(nullptr, "Expect:"));
    if (!request.contentType.isEmpty())
        headers.reset(lib().slist_append(headers.release(), ("Content-Type: " + request.contentType).constData()));
    lib().easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());

    Transfer transfer;
    transfer.request = &request;
    transfer.curl = curl;
    QFile upload(request.uploadFile);
    if (std::optional<Error> error = setMethod(curl, request, &transfer, &upload))
        return *error;
    lib().easy_setopt(curl, CURLOPT_WRITEFUNCTION, onWrite);
    lib().easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    lib().easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    lib().easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
    lib().easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    if (request.timeoutSeconds > 0)
        lib().easy_setopt(curl, CURLOPT_TIMEOUT, request.timeoutSeconds);

    const CURLcode rc = lib().easy_perform(curl);
    long status = 0;
    lib().easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    qCDebug(lcDockerHttp) << request.method.constData() << request.path << status;

    if (rc != CURLE_OK) {
        const QString detail = QString::fromLocal8Bit(errorBuffer[0] ? errorBuffer : lib().easy_strerror(rc));
        if ((request.cancel && request.cancel->load()) || transfer.refused)
            return Error{Error::Kind::Cancelled, 0, QStringLiteral("cancelled")};
        if (transfer.uploadFailed)
            return Error{Error::Kind::Local, 0,
                         QStringLiteral("cannot read %1: %2").arg(request.uploadFile, upload.errorString())};
        return transferFailure(int(rc), status, detail, request);
    }
    if (status >= 400)
        return httpError(int(status), transfer.body, request.method, request.path);

    HttpResponse response;
    response.status = int(status);
    response.body = std::move(transfer.body);
    const char *contentType = nullptr;
    lib().easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &contentType);
    if (contentType)
        response.contentType = contentType;
    return response;
}

Result<std::unique_ptr<HijackedConnection>> DockerTransport::hijack(const HttpRequest &request) const
{
    char errorBuffer[CURL_ERROR_SIZE] = {0};
    CurlPtr handle = handleFor(m_endpoint, errorBuffer);
    if (!handle)
        return Error{Error::Kind::Local, 0, noHandle()};
    CURL *curl = handle.get();
    lib().easy_setopt(curl, CURLOPT_URL, m_endpoint.baseUrl().constData());
    lib().easy_setopt(curl, CURLOPT_CONNECT_ONLY, 1L);
    const CURLcode rc = lib().easy_perform(curl);
    if (rc != CURLE_OK) {
        const QString detail = QString::fromLocal8Bit(errorBuffer[0] ? errorBuffer : lib().easy_strerror(rc));
        const QString said = m_endpoint.kind == Endpoint::Kind::Ssh ? sshProblem() : QString();
        return unreachable(said.isEmpty() ? detail : QStringLiteral("ssh: ") + said);
    }
    curl_socket_t fd = CURL_SOCKET_BAD;
    lib().easy_getinfo(curl, CURLINFO_ACTIVESOCKET, &fd);
    if (fd == CURL_SOCKET_BAD)
        return Error{Error::Kind::Protocol, 0, QStringLiteral("libcurl gave no socket for the connection")};

    // Written by hand: libcurl cannot hand over a connection after an HTTP exchange.
    const QByteArray hostHeader = m_endpoint.kind != Endpoint::Kind::Tcp
                                      ? QByteArrayLiteral("localhost")
                                      : QUrl::fromEncoded(m_endpoint.baseUrl()).authority().toUtf8();
    QByteArray wire = request.method + ' ' + m_endpoint.basePath.toUtf8() + QUrl::toPercentEncoding(request.path, "/") +
                      encodedQuery(request.query) + " HTTP/1.1\r\nHost: " + hostHeader +
                      "\r\nUser-Agent: Paddock\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n";
    if (!request.contentType.isEmpty())
        wire += "Content-Type: " + request.contentType + "\r\n";
    wire += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n\r\n" + request.body;

    // The connection outlives this frame and its error buffer: libcurl must not write there later.
    lib().easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
    auto connection = std::make_unique<HijackedConnection>(
        handle.release(), int(fd), m_endpoint.kind == Endpoint::Kind::Tcp && m_endpoint.tls, QByteArray());
    if (!connection->write(wire))
        return Error{Error::Kind::Protocol, 0,
                     QStringLiteral("cannot send %1 %2 to the Docker engine at %3")
                         .arg(QString::fromLatin1(request.method), request.path, m_endpoint.display())};

    QByteArray header;
    qsizetype end = -1;
    char buffer[4096];
    while ((end = header.indexOf("\r\n\r\n")) < 0) {
        if (header.size() > kMaxResponseHeader)
            return Error{Error::Kind::Protocol, 0, QStringLiteral("the Docker engine sent an oversized header")};
        const qint64 n = connection->read(buffer, sizeof buffer, kHijackHeaderTimeoutMs);
        if (n <= 0)
            return Error{Error::Kind::Protocol, 0,
                         QStringLiteral("the Docker engine closed the connection during %1 %2")
                             .arg(QString::fromLatin1(request.method), request.path)};
        header.append(buffer, qsizetype(n));
    }
    QByteArray rest = header.mid(end + 4);
    header.truncate(end);
    const QList<QByteArray> statusLine = header.left(header.indexOf("\r\n")).split(' ');
    const int status = statusLine.size() >= 2 ? statusLine.at(1).toInt() : 0;
    qCDebug(lcDockerHttp) << request.method.constData() << request.path << status << "(hijacked)";
    if (status == 101 || status == 200) {
        connection->m_buffered = std::move(rest);
        return connection;
    }
    // An error answer: read its body for the message. The engine may keep the connection
    // open, so read Content-Length bytes when it says how many.
    QByteArray body = rest;
    qsizetype length = -1;
    for (const QByteArray &line : header.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.toLower().startsWith("content-length:"))
            length = trimmed.mid(15).trimmed().toLongLong();
    }
    while (length < 0 || body.size() < length) {
        const qint64 n = connection->read(buffer, sizeof buffer, length < 0 ? 2000 : kHijackHeaderTimeoutMs);
        if (n <= 0)
            break;
        body.append(buffer, qsizetype(n));
    }
    return httpError(status, body, request.method, request.path);
}

} // namespace paddock::runtime::docker

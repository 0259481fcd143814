// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerEndpoint.h"
#include "runtime/docker/DockerResult.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace paddock::runtime::docker {

class HijackedConnection;

/** Query parameters in order; encoded strictly, since the engine reads `+` as a space. */
using Query = QList<std::pair<QString, QString>>;

/** @brief One HTTP request to the engine. */
struct HttpRequest
{
    QByteArray method = QByteArrayLiteral("GET");
    QString path; ///< with the version prefix, without the query
    Query query;
    QByteArray body;
    QByteArray contentType; ///< set when there is a body
    QString uploadFile;     ///< streamed from disk instead of body, when set
    /** Receives a 2xx/3xx response body as it arrives instead of collecting it; false aborts. */
    std::function<bool(const char *data, size_t size)> onData;
    /** Told how much of the upload (uploadFile or body) has been sent, as it goes. */
    std::function<void(qint64 sent, qint64 total)> onUpload;
    /** Checked while the transfer runs; setting it aborts with Error::Kind::Cancelled. */
    const std::atomic_bool *cancel = nullptr;
    long timeoutSeconds = 0; ///< 0: no limit (streams, waits, builds)
};

struct HttpResponse
{
    int status = 0;
    QByteArray body; ///< empty when onData consumed it
    QByteArray contentType;
};

/**
 * @brief Sends requests to one engine endpoint through libcurl; one easy handle per request,
 * so a transport may be used from several threads at once.
 *
 * Only the method, path and status are logged: bodies and queries may carry environment
 * values or build arguments.
 */
class DockerTransport
{
public:
    explicit DockerTransport(Endpoint endpoint);

    const Endpoint &endpoint() const { return m_endpoint; }

    /** Performs @p request; HTTP errors become an Error with the engine's message. */
    Result<HttpResponse> perform(const HttpRequest &request) const;

    /**
     * Sends @p request on a connection of its own and, once the engine answers 101 or 200,
     * hands the connection over as a raw bidirectional stream (attach, exec start).
     */
    Result<std::unique_ptr<HijackedConnection>> hijack(const HttpRequest &request) const;

    /** The message for an endpoint that does not answer. */
    QString unreachableMessage(const QString &detail) const;

private:
    /** The endpoint did not answer: why, for a unix socket, else libcurl's @p detail. */
    Error unreachable(const QString &detail) const;
    /** What libcurl's @p code (a CURLcode) means for @p request, with HTTP @p status so far. */
    Error transferFailure(int code, long status, const QString &detail, const HttpRequest &request) const;

    Endpoint m_endpoint;
};

} // namespace paddock::runtime::docker

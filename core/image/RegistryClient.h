// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "image/RegistryCredentials.h"
#include "image/RegistryReference.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace paddock::image {

/** @brief How a pull reaches registries and what it accepts from them. */
struct RegistryOptions
{
    QString dockerConfig;           ///< config.json and certs.d/ (dockerConfigDir())
    QStringList insecureRegistries; ///< HOST[:PORT] reached over plain HTTP when HTTPS fails
    QString proxy;                  ///< the upstream proxy's URL, or empty for none
    QString noProxy;                ///< hosts reached directly despite @c proxy
    QString proxyUser;              ///< the proxy's login, sent to it alone, never logged
    QByteArray proxyPassword;
    qint64 maxLayerBytes = qint64(16) << 30; ///< one compressed layer as the registry sends it
    qint64 maxDocumentBytes = 4 << 20;       ///< a manifest, an index or a configuration
    const std::atomic_bool *cancel = nullptr;

    /**
     * For the current user: dockerConfigDir(), and the registries listed one a line in
     * `configDir()/insecure-registries` (lines starting with '#' are comments).
     */
    static RegistryOptions forUser();
};

/** @brief A manifest or an index as the registry served it. */
struct RegistryDocument
{
    QByteArray body;
    QString mediaType;
    QString digest; ///< "sha256:HEX" of @c body
};

/**
 * @brief The pull half of the OCI distribution API (v2) for one repository, over libcurl.
 *
 * TLS is verified, with the certificate authority of `certs.d/HOST[:PORT]/ca.crt` (and a client
 * certificate `client.cert`/`client.key` there) as Docker reads them; plain HTTP only for a
 * loopback registry or one listed as insecure, after HTTPS failed. A 401 is answered once, as
 * its `WWW-Authenticate` asks: HTTP basic with the user's login, or a bearer token fetched from
 * the realm (with the login, when there is one). Every blob is checked against its digest and
 * size while it arrives; the login never appears in errors.
 */
class RegistryClient
{
public:
    using Sink = std::function<bool(const char *data, size_t size)>;
    using Progress = std::function<void(qint64 received)>;

    RegistryClient(RegistryReference reference, RegistryOptions options);

    const RegistryReference &reference() const { return m_ref; }
    /** The manifest or index @p reference (a tag or a digest) names, checked against a digest reference. */
    std::optional<RegistryDocument> manifest(const QString &reference, QString *error);
    /** A configuration (or a manifest) of at most maxDocumentBytes, checked. */
    std::optional<QByteArray> smallBlob(const QString &digest, qint64 size, QString *error);
    /**
     * Streams blob @p digest of @p size bytes into @p sink; false with @p error when the registry
     * sent other bytes than the digest names, more or fewer than @p size, or the sink refused.
     */
    bool blob(const QString &digest, qint64 size, const Sink &sink, const Progress &progress, QString *error);

private:
    struct Response
    {
        long status = 0;
        QByteArray body;
        QByteArray contentType;
        QByteArray challenge;
        QString problem; ///< a transport failure (curl's words), empty when an answer came
        bool stopped = false;
    };
    struct Request
    {
        QString path; ///< under /v2/REPOSITORY/
        QByteArray accept;
        Sink sink; ///< null: the body is kept (up to maxBytes)
        qint64 maxBytes = 0;
        Progress progress;
    };
    /** @p request with the authorization in force; on a 401 authenticates once and asks again. */
    Response send(const Request &request);
    Response get(const QString &url, const Request &request, const QByteArray &authorization) const;
    bool authenticate(const QByteArray &challenge, QString *error);
    std::optional<QByteArray> fetchToken(const AuthChallenge &challenge, QString *error);
    QString describe(const Response &response, const QString &what) const;
    QString baseUrl() const;
    bool allowsPlainHttp() const;

    RegistryReference m_ref;
    RegistryOptions m_options;
    std::optional<RegistryLogin> m_login;
    QString m_loginProblem;
    QByteArray m_authorization; ///< the Authorization header's value in force
    bool m_plainHttp = false;
};

/** The store's name for @p reference: `debian:12` for Docker Hub, else `HOST/REPO:TAG`. */
QString storedName(const RegistryReference &reference);

} // namespace paddock::image

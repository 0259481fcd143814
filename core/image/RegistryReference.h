// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace paddock::image {

/**
 * @brief An image reference as the Docker tools read it: `[HOST[:PORT]/]REPOSITORY[:TAG][@DIGEST]`.
 *
 * The first component names a registry only when it has a '.' or a ':' or is `localhost`;
 * otherwise the image is on Docker Hub (`docker.io`), whose one-component repositories live under
 * `library/`. Without a tag or a digest the tag is `latest`.
 */
struct RegistryReference
{
    QString registry;   ///< "docker.io", "registry.example", "127.0.0.1:5000"
    QString repository; ///< "library/debian", "course/pi"
    QString tag;        ///< empty only when a digest is given
    QString digest;     ///< "sha256:HEX", or empty

    /** @p text parsed, or nullopt with a sentence in @p error. */
    static std::optional<RegistryReference> parse(const QString &text, QString *error);

    /** The host[:port] requests go to: Docker Hub's is `registry-1.docker.io`. */
    QString endpointHost() const;
    /** What /v2/REPOSITORY/manifests/ is asked for: the digest when there is one, else the tag. */
    QString manifestReference() const { return digest.isEmpty() ? tag : digest; }
    /** The full name, `REGISTRY/REPOSITORY:TAG` (or `@DIGEST`), as the image store records it. */
    QString fullName() const;
    /** Whether plain HTTP is allowed without asking: `localhost`, 127.0.0.1 or ::1, any port. */
    bool isLoopback() const;
};

/** @brief One challenge of a `WWW-Authenticate` header: its scheme and its parameters. */
struct AuthChallenge
{
    QString scheme;                ///< "bearer" or "basic", in lower case
    QMap<QString, QString> params; ///< names in lower case: realm, service, scope, ...
};

/**
 * The first challenge of @p header (`Bearer realm="https://auth/token",service="reg",scope="a,b"`):
 * quoted values may hold commas and backslash escapes. nullopt when it is not one.
 */
std::optional<AuthChallenge> parseAuthenticate(const QByteArray &header);

} // namespace paddock::image

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace paddock::image {

/** @brief A login for a registry. The secret is never logged, written or put on a command line. */
struct RegistryLogin
{
    QString username;
    QByteArray secret; ///< a password, or an identity token when username is "<token>"
};

/**
 * The Docker client's folder: `$DOCKER_CONFIG`, else `~/.docker`. Its `config.json` holds the
 * logins and `certs.d/HOST[:PORT]/` the certificate authorities of registries.
 */
QString dockerConfigDir();

/**
 * The login for @p registry ("docker.io" or HOST[:PORT]) that `docker login` left in
 * @p configDir's config.json: a `credHelpers` entry for the host, else an `auths` entry (its
 * base64 `auth` "user:password", or `username` and `password`), else the `credsStore` helper.
 * A helper is `docker-credential-NAME get` with the registry on its standard input; its answer
 * is read as a secret. nullopt (anonymous) when none has a login; @p error when the file or a
 * helper failed.
 */
std::optional<RegistryLogin> registryLogin(const QString &registry, const QString &configDir, QString *error);

} // namespace paddock::image

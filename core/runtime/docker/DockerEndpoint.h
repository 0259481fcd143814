// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerResult.h"

#include <QByteArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>

namespace paddock::runtime::docker {

/**
 * @brief Where the Docker (or Podman) engine listens, as the docker CLI reads it from the
 * environment.
 *
 * `DOCKER_HOST` takes `unix:///path` (empty path: /var/run/docker.sock), `tcp://host:port`
 * (empty host: localhost; no port: 2375, or 2376 with TLS) or a bare `host:port`, which the
 * CLI also takes as TCP. TLS applies to TCP endpoints when `DOCKER_TLS_VERIFY` is non-empty
 * (verify the engine's certificate against ca.pem) or `DOCKER_CERT_PATH` is set (TLS without
 * verification, as the Go client does); certificates come from `DOCKER_CERT_PATH`, else
 * `~/.docker`: ca.pem, and cert.pem with key.pem as the client certificate when both exist.
 * Podman's socket is an ordinary unix endpoint. `ssh://[user@]host[:port]` reaches the engine
 * as the docker CLI does: through the system's ssh (its agent, keys and known hosts), running
 * `docker system dial-stdio` on that host for each connection (SshDial.h).
 */
struct Endpoint
{
    enum class Kind {
        Unix,
        Tcp,
        Ssh
    };

    Kind kind = Kind::Unix;
    QString socketPath = QStringLiteral("/var/run/docker.sock"); ///< Unix only
    QString host;                                                ///< Tcp and Ssh
    int port = 0;                                                ///< Tcp; Ssh: 0 for ssh's own default
    QString sshUser;                                             ///< Ssh: empty for ssh's own default
    QString basePath; ///< a path prefix before `/v1.41/...`, as `tcp://host:port/prefix` allows
    bool tls = false;
    bool tlsVerify = false;
    QString caFile;   ///< empty: the system's trust store
    QString certFile; ///< client certificate, empty for none
    QString keyFile;

    /** The endpoint as DOCKER_HOST would spell it, for messages. */
    QString display() const;
    /** `http://localhost` for a socket or ssh, `http(s)://host:port` for TCP, with basePath. */
    QByteArray baseUrl() const;

    static Endpoint unixSocket(const QString &path);
    /** Parses a DOCKER_HOST value; TLS settings come from @p environment. */
    static Result<Endpoint> parse(const QString &dockerHost,
                                  const QProcessEnvironment &environment = QProcessEnvironment());
    /** DOCKER_HOST or the default socket, with the TLS variables. */
    static Result<Endpoint>
    fromEnvironment(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());
    /** fromEnvironment(), or the default socket when the environment names none that can be used here (ssh). */
    static Endpoint environmentOrDefault();

    /** Every field, as the daemon hands an engine's endpoint to a client (`engine.list`). */
    QJsonObject toJson() const;
    /** An endpoint toJson() gave; a missing field keeps its default. */
    static Endpoint fromJson(const QJsonObject &json);
};

} // namespace paddock::runtime::docker

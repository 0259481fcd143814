// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerEndpoint.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace paddock::runtime::docker {

/**
 * @brief A connection to an engine behind ssh, made as the docker CLI makes it: the system's
 * `ssh` (its agent, keys, config and known hosts; never a prompt: BatchMode) runs `docker system
 * dial-stdio` on the host, which joins its standard input and output to the engine's socket
 * there.
 *
 * libcurl connects to an abstract unix socket made for the one connection; the first peer that
 * is this process is accepted, and ssh is started with that connection as its standard input
 * and output. (libcurl 7.88 cannot take a socket connected by the caller.)
 */
namespace ssh {

/** The arguments after `ssh` for @p endpoint (Endpoint::Kind::Ssh). */
QStringList arguments(const Endpoint &endpoint);
/**
 * Listens for one connection that starts ssh for @p endpoint; the abstract socket's name (for
 * CURLOPT_ABSTRACT_UNIX_SOCKET), or empty with @p error. Nobody connecting within 30 s: it closes.
 */
QByteArray listen(const Endpoint &endpoint, QString *error);
/** What the ssh started for @p name said on its standard error (its last 2 kB), once it ended. */
QString message(const QByteArray &name);

} // namespace ssh
} // namespace paddock::runtime::docker

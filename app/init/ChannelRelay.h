// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace paddock::init {

/**
 * `paddock-init --session-client NAME`: joins standard input and output to the session server
 * listening on the abstract unix socket NAME, until the server closes the connection.
 *
 * A container engine's exec runs it for the host, whose session frames then travel through the
 * engine's stream. It carries bytes only: the server checks the token in the host's hello, so
 * a process of the sandbox that runs this gains nothing it could not do by connecting itself.
 */
int relayChannel(const std::string &abstractName);

} // namespace paddock::init

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace paddock::init {

/**
 * @brief One published port: connections the host makes to it arrive through the daemon's
 * socket @ref socketPath and are carried to 127.0.0.1:@ref port inside the sandbox.
 *
 * The sandbox has no network the host can reach, and the daemon cannot reach into it, so
 * paddock-init dials out: it keeps a few connections to @ref socketPath open, each one
 * announcing "port PORT\n". When a client connects to the host side, the daemon picks one
 * of them and sends the byte 'C'; paddock-init then connects to 127.0.0.1:PORT and joins
 * the two, and dials a fresh idle connection. The socket is the daemon's own, in a
 * directory the sandbox may only read, so the sandbox never decides where the daemon
 * connects.
 */
struct PublishSpec
{
    int port = 0;
    std::string socketPath;
};

/** The variable a runtime may set instead of passing --publish: "PORT=SOCKET PORT=SOCKET ...". */
inline constexpr const char *kPublishVariable = "PADDOCK_PUBLISH";

/** Parses "PORT=UNIX_SOCKET". */
bool parsePublishSpec(const std::string &text, PublishSpec *spec, std::string *error);
/** Parses the space-separated list the variable holds. */
bool parsePublishList(const std::string &text, std::vector<PublishSpec> *specs, std::string *error);

/** Serves @p specs forever (call it on a thread of its own). */
void runPublisher(const std::vector<PublishSpec> &specs);

} // namespace paddock::init

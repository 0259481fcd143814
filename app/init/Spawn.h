// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Identity.h"

#include <string>
#include <vector>

namespace paddock::init {

/** @brief What to start for a session. */
struct SpawnRequest
{
    std::vector<std::string> argv;
    std::vector<std::string> environment; ///< complete, "K=V" each
    std::string workingDir;
    int uid = 0;
    bool terminal = false;
    unsigned short rows = 24;
    unsigned short cols = 80;
};

/** @brief A started session's process and the host side of its terminal or pipes. */
struct Spawned
{
    int pid = -1;
    int terminal = -1; ///< pty master, when it has a terminal
    int input = -1;    ///< write end of its stdin pipe, without a terminal
    int output = -1;   ///< read end of its stdout pipe, without a terminal
    int errors = -1;   ///< read end of its stderr pipe, without a terminal
};

/** @brief Why a session could not start. */
struct SpawnFailure
{
    std::string message;
    /** 127 (not found) or 126 (not executable) when the program itself could not run, as a
     *  shell reports it; 0 when the session could not be set up at all. */
    int exitCode = 0;
};

/**
 * Starts @p request in a session of its own (its process group is its pid), as the user it
 * names through @p identity, with no capability. All fds returned are non-blocking and
 * close-on-exec. Returns false with @p failure when it could not be started (fork, the
 * terminal, the user, the working directory, or exec itself).
 */
bool spawnSession(const SpawnRequest &request, const Identity &identity, Spawned *spawned, SpawnFailure *failure);

/** The absolute path of @p program, searched in the PATH of @p environment; empty when absent. */
std::string findProgram(const std::string &program, const std::vector<std::string> &environment);

} // namespace paddock::init

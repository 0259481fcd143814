// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace paddock::init {

/**
 * @brief Who a session runs as, and how paddock-init makes it so without any host privilege.
 *
 * Under bubblewrap the sandbox's user namespace maps one id only, the host user's, which
 * paddock-init holds as uid 0 (the kit's setup user). The agent's user (normally 1000) is a
 * second user namespace nested in the first, mapping that uid to paddock-init's own: made
 * once at start, before any sandbox process exists, and entered by each session that runs as
 * the agent. Processes there have no capability over paddock-init's namespace, so they cannot
 * trace, signal past PID 1's protection, or read the memory of paddock-init or of root
 * sessions. Under Docker paddock-init already runs as the agent's user and no namespace is made.
 */
class Identity
{
public:
    /** The agent's uid and gid, as given by --agent-user UID:GID (default: paddock-init's own). */
    bool configure(const std::string &agentUser, std::string *error);
    /**
     * Makes the agent's namespace when paddock-init is uid 0 and the agent is another uid.
     * Call before any thread starts: creating a user namespace needs a single-threaded caller,
     * so a short-lived child makes it and paddock-init keeps a handle to it.
     */
    bool prepare(std::string *error);

    int agentUid() const { return m_agentUid; }
    int selfUid() const { return m_selfUid; }

    /**
     * Resolves a session's user ("", "agent", "root", or a number) to a uid this sandbox has;
     * -1 with @p error when it has no such user.
     */
    int resolve(const std::string &user, std::string *error) const;

    /**
     * In a forked child, before exec: become @p uid (enter the agent's namespace when it is the
     * agent's) and give up every capability for good. Only async-signal-safe calls.
     * Returns 0 or an errno value.
     */
    int becomeInChild(int uid) const;

    /** paddock-init's own capabilities, once setup needing them is over. */
    static void dropOwnCapabilities();

private:
    int m_selfUid = 0;
    int m_selfGid = 0;
    int m_agentUid = 0;
    int m_agentGid = 0;
    int m_agentNamespace = -1; ///< fd of the nested user namespace, or -1
};

} // namespace paddock::init

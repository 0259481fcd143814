// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <string>
#include <vector>

#include <linux/filter.h>

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
     * Creating a user namespace needs a single-threaded caller, so a short-lived child makes it
     * and paddock-init keeps a handle to it.
     */
    bool prepare(std::string *error) { return ensureUser(m_agentUid, error); }
    /** The namespace of @p uid made when it is needed and missing (see prepare()); the parent calls it before forking. */
    bool ensureUser(int uid, std::string *error);

    int agentUid() const { return m_agentUid; }
    int selfUid() const { return m_selfUid; }

    /**
     * Resolves a session's user ("", "agent", "root", or a number up to 65534) to a uid; -1 with
     * @p error when it is not one. Any uid works where paddock-init is uid 0 (each is a namespace
     * of its own, made when first used); elsewhere only paddock-init's own.
     */
    int resolve(const std::string &user, std::string *error) const;

    /**
     * In a forked child, before exec: become @p uid (enter the agent's namespace when it is the
     * agent's) and give up every capability for good. Only async-signal-safe calls.
     * Returns 0 or an errno value.
     */
    int becomeInChild(int uid) const;

    /** paddock-init's own capabilities, once setup needing them is over (CAP_SETFCAP stays: ensureUser()). */
    static void dropOwnCapabilities();
    /** Empties the permitted, effective and inheritable sets; false (errno set) when the kernel refused. */
    static bool dropAllCapabilities();

    /**
     * The seccomp program (struct sock_filter instructions, as libseccomp exports them) read
     * from @p fd, loaded into every session after it became its user. False with @p error when
     * it is not a whole number of instructions or too large.
     */
    bool readFilter(int fd, std::string *error);
    /** Each session's data segment, at most @p bytes (0: no limit): a process that eats memory stops there. */
    void setMemoryLimit(long long bytes) { m_memoryLimit = bytes; }

private:
    int m_selfUid = 0;
    int m_selfGid = 0;
    int m_agentUid = 0;
    int m_agentGid = 0;
    std::map<int, int> m_namespaces; ///< uid → fd of its nested user namespace
    std::vector<struct sock_filter> m_filter;
    long long m_memoryLimit = 0;
};

} // namespace paddock::init

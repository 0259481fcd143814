// SPDX-License-Identifier: GPL-3.0-or-later
#include "Identity.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paddock::init {
namespace {

bool parseNumber(const std::string &text, int *value)
{
    if (text.empty() || text.size() > 9)
        return false;
    int result = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        result = result * 10 + (c - '0');
    }
    *value = result;
    return true;
}

bool writeFile(const std::string &path, const std::string &text)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = write(fd, text.data(), text.size()) == ssize_t(text.size());
    close(fd);
    return ok;
}

int dropCapabilities()
{
    // The bounding set first (it needs CAP_SETPCAP, which the full set still holds), then the
    // ambient, inheritable, permitted and effective sets: nothing can be regained by exec either.
    for (int cap = 0; cap <= 63; ++cap) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
            return errno;
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (syscall(SYS_capset, &header, data) != 0)
        return errno;
    return 0;
}

} // namespace

bool Identity::configure(const std::string &agentUser, std::string *error)
{
    m_selfUid = int(getuid());
    m_selfGid = int(getgid());
    m_agentUid = m_selfUid;
    m_agentGid = m_selfGid;
    if (agentUser.empty())
        return true;
    const size_t colon = agentUser.find(':');
    const std::string uid = agentUser.substr(0, colon);
    const std::string gid = colon == std::string::npos ? uid : agentUser.substr(colon + 1);
    if (!parseNumber(uid, &m_agentUid) || !parseNumber(gid, &m_agentGid)) {
        *error = "--agent-user expects UID[:GID], got '" + agentUser + "'";
        return false;
    }
    if (m_agentUid != m_selfUid && m_selfUid != 0) {
        *error = "--agent-user " + agentUser + " needs paddock-init to start as uid 0 in the sandbox";
        return false;
    }
    return true;
}

bool Identity::ensureUser(int uid, std::string *error)
{
    if (uid == m_selfUid || m_namespaces.count(uid))
        return true;
    if (m_selfUid != 0) {
        *error = "this sandbox runs every session as uid " + std::to_string(m_selfUid);
        return false;
    }
    const int gid = uid == m_agentUid ? m_agentGid : uid;
    // A child makes the namespace and waits; the parent maps it and keeps a handle to it.
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) {
        *error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const pid_t child = fork();
    if (child < 0) {
        *error = std::string("cannot fork: ") + std::strerror(errno);
        return false;
    }
    if (child == 0) {
        close(ready[0]);
        // Its /proc files are then the user's to write (paddock-init's are not: it is not dumpable).
        prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
        const char result = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
        (void)!write(ready[1], &result, 1);
        pause(); // killed by the parent once it holds the namespace
        _exit(0);
    }
    close(ready[1]);
    char result = 'n';
    const bool made = read(ready[0], &result, 1) == 1 && result == 'y';
    close(ready[0]);
    const std::string proc = "/proc/" + std::to_string(child);
    int handle = -1;
    std::string step = "setgroups";
    bool ok = made && writeFile(proc + "/setgroups", "deny") && !(step = "uid_map").empty() &&
              writeFile(proc + "/uid_map", std::to_string(uid) + " " + std::to_string(m_selfUid) + " 1\n") &&
              !(step = "gid_map").empty() &&
              writeFile(proc + "/gid_map", std::to_string(gid) + " " + std::to_string(m_selfGid) + " 1\n");
    if (ok) {
        handle = open((proc + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC);
        ok = handle >= 0;
    }
    const int saved = errno;
    kill(child, SIGKILL);
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    if (!ok) {
        *error = std::string("cannot make the user namespace of uid ") + std::to_string(uid) + ": " +
                 (made ? step + ": " + std::strerror(saved) : "user namespaces are not available inside the sandbox");
        return false;
    }
    m_namespaces.emplace(uid, handle);
    return true;
}

int Identity::resolve(const std::string &user, std::string *error) const
{
    if (user.empty() || user == "agent")
        return m_agentUid;
    int uid = -1;
    if (user == "root")
        uid = 0;
    else if (!parseNumber(user, &uid) || uid > 65534) {
        *error = "unknown user '" + user + "': give root, agent or a uid";
        return -1;
    }
    if (uid == m_selfUid || uid == m_agentUid || m_selfUid == 0)
        return uid;
    *error = "this sandbox has no user " + user + ": every session runs as uid " + std::to_string(m_selfUid);
    return -1;
}

int Identity::becomeInChild(int uid) const
{
    const auto found = m_namespaces.find(uid);
    if (uid != m_selfUid && found != m_namespaces.end()) {
        // Entering gives a full set of capabilities in that namespace; they go right after.
        const int gid = uid == m_agentUid ? m_agentGid : uid;
        if (setns(found->second, CLONE_NEWUSER) != 0)
            return errno;
        if (setresgid(gid_t(gid), gid_t(gid), gid_t(gid)) != 0 || setresuid(uid_t(uid), uid_t(uid), uid_t(uid)) != 0)
            return errno;
    } else if (uid != m_selfUid) {
        return EPERM;
    }
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (const int failure = dropCapabilities())
        return failure;
    if (m_memoryLimit > 0) {
        const rlimit limit{rlim_t(m_memoryLimit), rlim_t(m_memoryLimit)};
        if (setrlimit(RLIMIT_DATA, &limit) != 0)
            return errno;
    }
    if (!m_filter.empty()) {
        sock_fprog program{(unsigned short)m_filter.size(), const_cast<sock_filter *>(m_filter.data())};
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0)
            return errno;
    }
    return 0;
}

bool Identity::readFilter(int fd, std::string *error)
{
    std::string bytes;
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) {
        bytes.append(buffer, size_t(n));
        if (bytes.size() > 65536)
            break;
    }
    close(fd);
    if (bytes.empty() || bytes.size() % sizeof(sock_filter) != 0 || bytes.size() / sizeof(sock_filter) > BPF_MAXINSNS) {
        *error = "the seccomp filter given with --seccomp-fd is not a BPF program";
        return false;
    }
    m_filter.resize(bytes.size() / sizeof(sock_filter));
    std::memcpy(m_filter.data(), bytes.data(), bytes.size());
    return true;
}

bool Identity::dropAllCapabilities()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    return syscall(SYS_capset, &header, data) == 0;
}

void Identity::dropOwnCapabilities()
{
    // One is kept: mapping uid 0 of the sandbox into a user's namespace, made when a session
    // first asks for that user, needs CAP_SETFCAP (Linux checks it since 5.12). The bounding
    // set is emptied all the same, so no program started from here regains anything.
    int failure = 0;
    for (int cap = 0; cap <= 63 && !failure; ++cap) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
            failure = errno;
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    // Kept only where it is held (uid 0 of a bubblewrap sandbox); a container's has none.
    if (!failure && syscall(SYS_capget, &header, data) == 0)
        data[0].permitted = data[0].effective = data[0].permitted & (1u << CAP_SETFCAP);
    data[0].inheritable = data[1].permitted = data[1].effective = data[1].inheritable = 0;
    if (!failure && syscall(SYS_capset, &header, data) != 0)
        failure = errno;
    if (failure)
        std::fprintf(stderr, "paddock-init: cannot drop capabilities: %s\n", std::strerror(failure));
}

} // namespace paddock::init

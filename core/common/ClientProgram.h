// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace paddock {

/**
 * @brief The program inside a sandbox that opened a connection: what paddock-init tells the proxy.
 *
 * paddock-init accepts a sandbox's TCP connection on loopback, finds the process that owns the
 * client socket (/proc/net/tcp's inode, then /proc/PID/fd), and writes one line before the
 * client's first byte on the proxy's unix socket:
 *
 *     PADDOCK-CLIENT 1 [to=TRANSPORT:HOST:PORT] PID EXE ARG0 ARG1 ...\n
 *
 * Version 1: the client's bytes follow on the same unix connection (paddock-init splices them).
 * Version 2: the client's own socket is attached to the line (SCM_RIGHTS) and nothing follows;
 * the proxy reads and writes that socket itself, and paddock-init leaves the path.
 * Version 3: a report, with nothing after it: a datagram the sandbox's capture refused, or a
 * name its resolver could not answer; the proxy records it and closes.
 *
 * `to=` says where a captured connection was going (capture redirects every TCP connection
 * of the sandbox to paddock-init, see app/init/Capture.h): `tcp:git.example.com:22`,
 * `tcp:[2001:db8::1]:443`, `udp:198.51.100.7:123`. The host is the name the sandbox looked up
 * when the address was one its resolver handed out. Without it the client is a proxy client
 * that says where it goes itself (CONNECT, absolute-form HTTP, SOCKS5). A destination is no
 * privilege: it asks for what a CONNECT asks for, and is decided the same way.
 *
 * Every field is percent-encoded (every byte outside '!'..'~', and '%' itself), so the line holds
 * no space, control byte or newline of its own. PID 0 means the owner was not found (it had
 * already left, or hides its /proc entry). The line is bounded (@ref MaxBytes); longer command
 * lines are cut (@ref ClientProgram::truncated).
 *
 * Anyone inside a sandbox can reach the proxy's socket and write such a line: the proxy strips
 * it from every connection, but believes it only on a connection whose peer (SO_PEERCRED, set by
 * the kernel at connect) is that sandbox's paddock-init. See proxy::ProxyEngine::setTrustedClient().
 */
struct ClientProgram
{
    long pid = 0;                  ///< in the sandbox's pid namespace; 0: unknown
    std::string exe;               ///< /proc/PID/exe: the file the kernel runs, as the sandbox sees it
    std::vector<std::string> args; ///< /proc/PID/cmdline, cut to fit
    bool truncated = false;

    bool known() const { return pid > 0; }
    /**
     * "curl -s https://example.com/path?…": arguments joined by spaces, quoted when they hold
     * one, without what often carries a credential (URL queries and user information, header
     * values, the values of --user, --password, --token and the like).
     */
    std::string commandLine() const;
    /** The file name of the executable, or of the script an interpreter runs: "curl", "pip". */
    std::string name() const;
    /**
     * Whether a rule's program condition @p condition names this program: a path is compared
     * with the executable and with the script an interpreter runs (its first argument that is
     * not an option); a bare name with their file names and with the name it was started by
     * (argv[0]). The executable's path is the kernel's; the rest is what the process says, so
     * a program condition names a tool, not a wall against code that imitates it.
     */
    bool matches(std::string_view condition) const;
};

namespace preamble {

inline constexpr std::string_view Magic = "PADDOCK-CLIENT ";
/** The longest preamble line, its newline included; a longer one is refused. */
inline constexpr std::size_t MaxBytes = 4096;
/** The longest executable path and total of arguments a preamble carries. */
inline constexpr std::size_t MaxExeBytes = 1024;
inline constexpr std::size_t MaxArgBytes = 1024;

/** How the client's bytes reach the proxy after the line. */
enum class Delivery {
    Relayed,  ///< on the same connection, after the line (version 1)
    Attached, ///< on the client's own socket, passed with the line (version 2)
    Report,   ///< none: the line reports something refused inside the sandbox (version 3)
};

/** @brief Where a captured connection (or a refused datagram) was going: the `to=` field. */
struct Destination
{
    std::string transport; ///< "tcp", "udp" or "dns"; empty: none given
    std::string host;      ///< a name (lower case) or an IP literal without brackets
    unsigned port = 0;

    bool empty() const { return transport.empty(); }
    friend bool operator==(const Destination &, const Destination &) = default;
};

/** The line for @p program, newline included, cut to the bounds above; a Report needs @p to. */
std::string encode(const ClientProgram &program, Delivery delivery = Delivery::Relayed, const Destination &to = {});

enum class Parse {
    NotPreamble, ///< the bytes do not start a preamble: the client's own protocol
    NeedMore,    ///< a prefix of a preamble: wait for more bytes
    Done,        ///< @p program filled, @p consumed bytes belong to the preamble
    Malformed,   ///< starts like one but is not (too long, bad field): close the connection
};

/**
 * Reads a preamble at the start of @p bytes; @p delivery, when given, says which version it was,
 * and @p to where the connection was going (empty when the line does not say).
 */
Parse parse(std::string_view bytes, ClientProgram *program, std::size_t *consumed, Delivery *delivery = nullptr,
            Destination *to = nullptr);

} // namespace preamble
} // namespace paddock

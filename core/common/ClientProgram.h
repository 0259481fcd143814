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
 * `exe=DEV:INO:SIZE:CTIME:SHA256:PLACE` and `script=DEV:INO:SIZE:CTIME:SHA256:PLACE:PATH`
 * (before the PID, after `to=`) say what the executable and an interpreter's script are
 * (FileIdentity); the digest may be empty. PLACE is `ro`, `root`, `moved`, `m` and the mount
 * point with ':' and '%' percent-encoded, or empty (unknown).
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
/**
 * @brief What paddock-init read of a file a program runs (its executable, or the script an
 * interpreter reads): enough to tell it from any other file, and its content's digest.
 */
struct FileIdentity
{
    std::string path; ///< inside the sandbox, every link resolved (the executable's is ClientProgram::exe)
    unsigned long long device = 0;
    unsigned long long inode = 0;
    unsigned long long size = 0;
    long long changedNs = 0; ///< st_ctime: any change of the file or its metadata moves it, and nothing can set it back
    std::string sha256;      ///< lower-case hex; empty when not read (too large, unreadable)

    /** @brief Which of the sandbox's mounts holds the file, as paddock-init's own view says. */
    enum class Place {
        Unknown,   ///< not found out
        ReadOnly,  ///< a read-only mount: the image's or the host's, the sandbox cannot change it
        Root,      ///< the sandbox's writable root: the daemon tells its own writes from its base
        Mount,     ///< another writable mount (@ref mountPoint): the workspace, home, /tmp
        Elsewhere, ///< not the file at @ref path in the sandbox (another mount namespace, or replaced since)
    };
    Place place = Place::Unknown;
    std::string mountPoint; ///< with Place::Mount

    bool known() const { return inode != 0; }
    friend bool operator==(const FileIdentity &, const FileIdentity &) = default;
};

/**
 * @brief Where a program's file comes from, as the daemon tells from the sandbox's layout
 * (sandbox::ProgramOrigins): the sandbox's read-only base (the image's layers or the host's
 * system, and what is mounted read-only), or somewhere the sandbox can write (its own root,
 * the workspace, its home, /tmp).
 */
enum class FileOrigin {
    Unknown,
    Base,
    Written,
};

struct ClientProgram
{
    long pid = 0;                  ///< in the sandbox's pid namespace; 0: unknown
    std::string exe;               ///< /proc/PID/exe: the file the kernel runs, as the sandbox sees it
    std::vector<std::string> args; ///< /proc/PID/cmdline, cut to fit
    bool truncated = false;
    /** The executable (its path is @ref exe) and the script an interpreter runs (none: no path). */
    FileIdentity exeFile;
    FileIdentity scriptFile;
    FileOrigin exeOrigin = FileOrigin::Unknown;
    FileOrigin scriptOrigin = FileOrigin::Unknown;
    /** Where a file of it was written inside the sandbox ("/tmp", "the workspace"); empty when none was. */
    std::string writtenWhere;

    bool known() const { return pid > 0; }
    /** Its executable, and its script if it has one, come unmodified from the sandbox's base. */
    bool fromBase() const
    {
        return exeOrigin == FileOrigin::Base && (scriptFile.path.empty() || scriptOrigin == FileOrigin::Base);
    }
    /**
     * "curl -s https://example.com/path?…": arguments joined by spaces, quoted when they hold
     * one, without what often carries a credential (URL queries and user information, header
     * values, the values of --user, --password, --token and the like).
     */
    std::string commandLine() const;
    /**
     * The file name of the executable, or of the script an interpreter runs: "curl", "pip";
     * an interpreter running a module (`python3 -m pip`) is the interpreter: no file is the module.
     */
    std::string name() const;
    /** The script file an interpreter runs as its arguments name it (`/usr/bin/pip`); empty for others and a module (`-m pip`). */
    std::string scriptArgument() const;
    /**
     * Whether a rule's program condition @p condition is this program, strictly: what an allow
     * needs. A condition is `NAME`, `/ABS/PATH`, `sha256:HEX` or either form with `@sha256:HEX`
     * after it. It is held by the executable, or by the script an interpreter runs (its first
     * argument that is not an option), when:
     * - a NAME is that file's name (or its name with a version after it: `python3` for
     *   python3.11), a PATH is that file's path (links resolved by the kernel, not by the
     *   process: argv[0] and `exec -a` count for nothing);
     * - the file comes unmodified from the sandbox's base (FileOrigin::Base), and for a script
     *   the interpreter too: a copy, a rename, an overwrite or a file in the workspace is
     *   another program, whatever its name;
     * - with a digest, the file's SHA-256 is that digest (then the origin does not matter).
     */
    bool matches(std::string_view condition) const;
    /**
     * Whether @p condition may name this program: what a deny needs, so that an imitation is
     * refused too. Names and paths compare with the executable, the script and argv[0]'s name,
     * whatever their origin; a digest not read counts as the same.
     */
    bool mayBe(std::string_view condition) const;
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
 * Sends @p line on the unix socket @p unixSocket with @p fd attached (SCM_RIGHTS), as version 2
 * delivers a client; what sendmsg() returns (the whole line, a part, or -1 with errno).
 */
long sendAttached(int unixSocket, const std::string &line, int fd);

/**
 * Reads a preamble at the start of @p bytes; @p delivery, when given, says which version it was,
 * and @p to where the connection was going (empty when the line does not say).
 */
Parse parse(std::string_view bytes, ClientProgram *program, std::size_t *consumed, Delivery *delivery = nullptr,
            Destination *to = nullptr);

} // namespace preamble
} // namespace paddock

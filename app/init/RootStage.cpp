// SPDX-License-Identifier: GPL-3.0-or-later
#include "RootStage.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paddock::init {
namespace {

constexpr long kFuseSuperMagic = 0x65735546;
/** What one mount's options may hold: the kernel reads one page. */
constexpr size_t kMaxMountData = 4000;

/** @brief The stage's command line. */
struct RootOptions
{
    std::string layersDir;
    std::vector<std::string> layers;
    bool hostBase = false;
    std::vector<std::pair<std::string, std::string>> baseBinds;    ///< source, path in the base
    std::vector<std::pair<std::string, std::string>> baseSymlinks; ///< target, path in the base
    std::vector<std::string> baseDirs;
    std::string base;
    std::string upper;
    std::string work;
    std::string mountPoint;
    std::string fuseOverlayfs;
    bool kernelOverlay = false; ///< the host's base through the kernel's overlayfs, not fuse-overlayfs
    std::string skeleton;       ///< the host's directories, owned by the user (HostSkeleton.h), or empty
    bool dieWithParent = false;
    bool volatileUpper = false; ///< overlayfs' `volatile`: no sync of the upper layer (a disposable sandbox)
    char **program = nullptr;
};

bool fail(const std::string &what)
{
    std::fprintf(stderr, "paddock-init: cannot mount the sandbox's root: %s\n", what.c_str());
    return false;
}

bool failErrno(const std::string &what)
{
    return fail(what + ": " + std::strerror(errno));
}

bool splitPair(const std::string &text, std::pair<std::string, std::string> *pair)
{
    const size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        return false;
    *pair = {text.substr(0, colon), text.substr(colon + 1)};
    return true;
}

bool parse(int argc, char *argv[], RootOptions *options)
{
    int i = 2; // argv[1] is --mount-root
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            ++i;
            break;
        }
        const bool hasValue = i + 1 < argc;
        std::pair<std::string, std::string> pair;
        if (arg == "--root-host")
            options->hostBase = true;
        else if (arg == "--kernel-overlay")
            options->kernelOverlay = true;
        else if (arg == "--die-with-parent")
            options->dieWithParent = true;
        else if (arg == "--root-volatile")
            options->volatileUpper = true;
        else if (!hasValue)
            return fail("option " + arg + " is unknown or lacks its value");
        else if (arg == "--root-layers")
            options->layersDir = argv[++i];
        else if (arg == "--root-layer")
            options->layers.emplace_back(argv[++i]);
        else if (arg == "--root-base")
            options->base = argv[++i];
        else if (arg == "--root-upper")
            options->upper = argv[++i];
        else if (arg == "--root-work")
            options->work = argv[++i];
        else if (arg == "--root-mount")
            options->mountPoint = argv[++i];
        else if (arg == "--fuse-overlayfs")
            options->fuseOverlayfs = argv[++i];
        else if (arg == "--root-skeleton")
            options->skeleton = argv[++i];
        else if (arg == "--base-dir")
            options->baseDirs.emplace_back(argv[++i]);
        else if (arg == "--base-bind" && splitPair(argv[++i], &pair))
            options->baseBinds.push_back(pair);
        else if (arg == "--base-symlink" && splitPair(argv[++i], &pair))
            options->baseSymlinks.push_back(pair);
        else
            return fail("option " + arg + " is unknown or its value is malformed");
    }
    if (i >= argc || options->upper.empty() || options->work.empty() || options->mountPoint.empty())
        return fail("--mount-root needs --root-upper, --root-work, --root-mount and a program after --");
    if (options->hostBase && (options->base.empty() || (options->fuseOverlayfs.empty() && !options->kernelOverlay)))
        return fail("--root-host needs --root-base and --fuse-overlayfs or --kernel-overlay");
    if (!options->hostBase && options->layersDir.empty())
        return fail("an image root needs --root-layers");
    options->program = argv + i;
    return true;
}

bool writeProcFile(const char *path, const std::string &text)
{
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = write(fd, text.data(), text.size()) == ssize_t(text.size());
    close(fd);
    return ok;
}

/** A user namespace where the host user is 0 with every capability, and a mount namespace of its own. */
bool enterNamespaces()
{
    const uid_t uid = getuid();
    const gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return failErrno("cannot make a user namespace");
    if (!writeProcFile("/proc/self/setgroups", "deny") ||
        !writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") ||
        !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n"))
        return failErrno("cannot map the user into its namespace");
    // Nothing mounted here may reach the host's namespace.
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return failErrno("cannot make the mounts private");
    return true;
}

/** mkdir -p @p path (absolute). */
bool makeDirectories(const std::string &path)
{
    for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        if (mkdir(path.substr(0, slash).c_str(), 0755) != 0 && errno != EEXIST)
            return false;
    }
    return mkdir(path.c_str(), 0755) == 0 || errno == EEXIST;
}

/** The host's system as a base: a tmpfs holding read-only binds of its directories and its links. */
bool assembleHostBase(const RootOptions &options)
{
    if (mount("tmpfs", options.base.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
        return failErrno("cannot mount a tmpfs at " + options.base);
    for (const std::string &dir : options.baseDirs) {
        if (!makeDirectories(options.base + dir))
            return failErrno("cannot create " + dir + " in the base");
    }
    for (const auto &[source, path] : options.baseBinds) {
        const std::string target = options.base + path;
        if (!makeDirectories(target))
            return failErrno("cannot create " + path + " in the base");
        // With the kernel's overlayfs each directory gets an overlay of its own, over the root's.
        if (!options.kernelOverlay && mount(source.c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
            return failErrno("cannot bind " + source);
    }
    for (const auto &[linkTarget, path] : options.baseSymlinks) {
        const std::string link = options.base + path;
        const size_t slash = link.rfind('/');
        if (!makeDirectories(link.substr(0, slash)) || symlink(linkTarget.c_str(), link.c_str()) != 0)
            return failErrno("cannot create the link " + path + " in the base");
    }
    return true;
}

/**
 * A volatile overlay leaves `WORK/work/incompat/volatile` behind, and overlayfs refuses to mount
 * over that work folder again until it is gone: what the upper layer holds may not have reached
 * the disk. A disposable sandbox started again (its command was killed before its removal) takes
 * its upper layer as it is.
 */
void clearVolatileMark(const std::string &work)
{
    const std::string mark = work + "/work/incompat/volatile";
    unlink((mark + "/dirty").c_str());
    rmdir(mark.c_str());
    rmdir((work + "/work/incompat").c_str());
}

bool mountImageRoot(const RootOptions &options)
{
    // Layers are named relative to their store, so many of them fit in one page of options.
    if (chdir(options.layersDir.c_str()) != 0)
        return failErrno("cannot enter " + options.layersDir);
    std::string data = "lowerdir=";
    for (size_t i = 0; i < options.layers.size(); ++i)
        data += (i ? ":" : "") + options.layers[i];
    data += ",upperdir=" + options.upper + ",workdir=" + options.work + ",userxattr";
    if (options.volatileUpper) {
        clearVolatileMark(options.work);
        data += ",volatile";
    }
    if (data.size() > kMaxMountData)
        return fail("the image has too many layers for one overlay mount");
    const bool mounted = mount("overlay", options.mountPoint.c_str(), "overlay", 0, data.c_str()) == 0;
    const int saved = errno;
    if (chdir("/") != 0 || !mounted) {
        errno = saved;
        return failErrno("overlayfs refused " + data);
    }
    return true;
}

/** Whether @p path can stand in an overlay mount's options (which split at ',' and ':'). */
bool plainPath(const std::string &path)
{
    return !path.empty() && path.find_first_of(",:\\") == std::string::npos;
}

bool mountOverlay(const std::string &lower, const std::string &upper, const std::string &work,
                  const std::string &target, bool volatileUpper)
{
    std::string data = "lowerdir=" + lower + ",upperdir=" + upper + ",workdir=" + work + ",userxattr";
    if (volatileUpper) {
        clearVolatileMark(work);
        data += ",volatile";
    }
    if (data.size() > kMaxMountData)
        return fail("the overlay's options are too long: " + data);
    if (mount("overlay", target.c_str(), "overlay", 0, data.c_str()) != 0)
        return failErrno("overlayfs refused " + data);
    return true;
}

/**
 * The host's system through the kernel's overlayfs: one overlay over the base (its /etc, its
 * links), and one over each host directory of the base at its place, each with its part of
 * the upper layer (`upper/usr`, ...) and a work folder of its own (`work/N`). The host's files
 * belong to real root, which the namespace does not map: under an ordinary user, the skeleton
 * (the same directories, the user's) lies over each, so that root inside may create, replace
 * and remove entries in them; a host file itself is replaced rather than changed in place.
 */
bool mountHostRootKernel(const RootOptions &options)
{
    for (const auto &[source, path] : options.baseBinds) {
        if (!plainPath(source) || !plainPath(options.upper + path) || !plainPath(options.skeleton + path + "x"))
            return fail("a path of the root has ',' or ':' in it: " + source);
        if (!makeDirectories(options.upper + path))
            return failErrno("cannot create " + path + " in the upper layer");
    }
    if (!plainPath(options.base) || !plainPath(options.upper) || !plainPath(options.work))
        return fail("a path of the root has ',' or ':' in it: " + options.upper);
    if (!makeDirectories(options.work + "/root") ||
        !mountOverlay(options.base, options.upper, options.work + "/root", options.mountPoint, options.volatileUpper))
        return false;
    int index = 0;
    for (const auto &[source, path] : options.baseBinds) {
        const std::string work = options.work + "/" + std::to_string(++index);
        struct stat st
        {};
        const std::string skeleton = options.skeleton.empty() ? std::string() : options.skeleton + path;
        const bool withSkeleton = !skeleton.empty() && stat(skeleton.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
        const std::string lower = withSkeleton ? skeleton + ":" + source : source;
        if (!makeDirectories(work) ||
            !mountOverlay(lower, options.upper + path, work, options.mountPoint + path, options.volatileUpper))
            return false;
    }
    return true;
}

/** The last line of the file at @p path (at most its last 1000 bytes), or "" when there is none. */
std::string lastLine(const std::string &path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return {};
    char buffer[1000];
    const off_t size = lseek(fd, 0, SEEK_END);
    const off_t from = size > off_t(sizeof buffer) ? size - off_t(sizeof buffer) : 0;
    const ssize_t n = pread(fd, buffer, sizeof buffer, from);
    close(fd);
    std::string text(buffer, n > 0 ? size_t(n) : 0);
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text.substr(text.rfind('\n') + 1);
}

/** Starts fuse-overlayfs in the foreground, as a child that dies with this process; its pid, or -1. */
pid_t startFuseOverlay(const RootOptions &options)
{
    const std::string data =
        "lowerdir=" + options.base + ",upperdir=" + options.upper + ",workdir=" + options.work + ",squash_to_root";
    // What it says goes beside the work directory, not to the sandbox's output: it warns of
    // options it ignores at every mount ("unknown argument ignored: lazytime").
    const std::string log = options.work.substr(0, options.work.rfind('/') + 1) + "fuse-overlayfs.log";
    const pid_t child = fork();
    if (child < 0) {
        failErrno("cannot fork");
        return -1;
    }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The sandbox's descriptors (its session socket, its status report) are not its business.
        syscall(SYS_close_range, 3U, ~0U, 0U);
        const int output = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (output >= 0) {
            dup2(output, STDOUT_FILENO);
            dup2(output, STDERR_FILENO);
        }
        execl(options.fuseOverlayfs.c_str(), "fuse-overlayfs", "-f", "-o", data.c_str(), options.mountPoint.c_str(),
              static_cast<char *>(nullptr));
        std::fprintf(stderr, "paddock-init: cannot run %s: %s\n", options.fuseOverlayfs.c_str(), std::strerror(errno));
        _exit(127);
    }
    // Mounted once the mount point reports FUSE; a few milliseconds as a rule.
    for (int waited = 0; waited < 10000; ++waited) {
        struct statfs fs
        {};
        if (statfs(options.mountPoint.c_str(), &fs) == 0 && fs.f_type == kFuseSuperMagic)
            return child;
        if (waitpid(child, nullptr, WNOHANG) == child) {
            fail("fuse-overlayfs ended before mounting the root: " + lastLine(log));
            return -1;
        }
        usleep(1000);
    }
    kill(child, SIGKILL);
    fail("fuse-overlayfs did not mount the root within 10 seconds");
    return -1;
}

int shellStatus(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/** Runs bubblewrap beside the file system daemon, passes signals on, and ends the daemon after it. */
int superviseBwrap(char **program, pid_t daemon)
{
    sigset_t handled;
    sigemptyset(&handled);
    for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT})
        sigaddset(&handled, sig);
    sigset_t original;
    sigprocmask(SIG_BLOCK, &handled, &original);
    const pid_t child = fork();
    if (child < 0) {
        failErrno("cannot fork");
        return 1;
    }
    if (child == 0) {
        sigprocmask(SIG_SETMASK, &original, nullptr);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(program[0], program);
        std::fprintf(stderr, "paddock-init: cannot run %s: %s\n", program[0], std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    for (;;) {
        siginfo_t info{};
        const int sig = sigwaitinfo(&handled, &info);
        if (sig > 0 && sig != SIGCHLD) {
            kill(child, sig);
            continue;
        }
        const pid_t reaped = waitpid(child, &status, WNOHANG);
        if (reaped == child)
            break;
        waitpid(daemon, nullptr, WNOHANG); // a daemon that ended early is collected
    }
    kill(daemon, SIGTERM);
    while (waitpid(daemon, nullptr, 0) < 0 && errno == EINTR) {
    }
    return shellStatus(status);
}

/**
 * Whether the kernel's overlayfs gives this user a writable root over the host's system: in a
 * namespace as the stage makes it, an overlay of /usr under an empty skeleton folder, and a
 * file created at its top that must land in the upper layer. Folders are made under @p dir.
 */
int probeKernelOverlay(const std::string &dir)
{
    const std::string skeleton = dir + "/skeleton", upper = dir + "/upper", work = dir + "/work", mnt = dir + "/mnt";
    bool made = plainPath(dir) || fail("the probe's folder has ',' or ':' in it");
    for (const std::string &path : {skeleton, upper, work, mnt})
        made = made && (mkdir(path.c_str(), 0700) == 0 || failErrno("cannot create " + path));
    if (!made || !enterNamespaces() || !mountOverlay(skeleton + ":/usr", upper, work, mnt, false))
        return 1;
    const int fd = open((mnt + "/.paddock-probe").c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        failErrno("the kernel's overlayfs mounts but refuses a write");
        return 1;
    }
    close(fd);
    struct stat st
    {};
    if (stat((upper + "/.paddock-probe").c_str(), &st) != 0) {
        failErrno("a write through the kernel's overlayfs did not reach its upper layer");
        return 1;
    }
    return 0;
}

} // namespace

int runRootStage(int argc, char *argv[])
{
    if (argc == 4 && std::strcmp(argv[2], "--probe") == 0)
        return probeKernelOverlay(argv[3]);
    RootOptions options;
    if (!parse(argc, argv, &options))
        return 1;
    if (options.dieWithParent)
        prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!enterNamespaces())
        return 1;
    if (!options.hostBase) {
        if (!mountImageRoot(options))
            return 1;
        execv(options.program[0], options.program);
        failErrno(std::string("cannot run ") + options.program[0]);
        return 1;
    }
    if (!assembleHostBase(options))
        return 1;
    if (options.kernelOverlay) {
        if (!mountHostRootKernel(options))
            return 1;
        execv(options.program[0], options.program);
        failErrno(std::string("cannot run ") + options.program[0]);
        return 1;
    }
    const pid_t daemon = startFuseOverlay(options);
    if (daemon < 0)
        return 1;
    return superviseBwrap(options.program, daemon);
}

} // namespace paddock::init

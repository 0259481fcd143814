// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/SeccompFilter.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <memory>

#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace paddock::runtime::bwrap {
namespace {

struct FilterDeleter
{
    void operator()(void *ctx) const { seccomp_release(ctx); }
};
using Filter = std::unique_ptr<void, FilterDeleter>;

/** System calls refused outright, with the errno a program sees. */
struct Refused
{
    const char *name;
    int error;
};

const Refused kRefused[] = {
    {"keyctl", EPERM},
    {"add_key", EPERM},
    {"request_key", EPERM},
    {"bpf", EPERM},
    {"userfaultfd", EPERM},
    {"perf_event_open", EPERM},
    {"kexec_load", EPERM},
    {"kexec_file_load", EPERM},
    {"io_uring_setup", ENOSYS},
    {"io_uring_enter", ENOSYS},
    {"io_uring_register", ENOSYS},
    {"mount", EPERM},
    {"umount2", EPERM},
    {"pivot_root", EPERM},
    {"move_mount", EPERM},
    {"open_tree", EPERM},
    {"fsopen", EPERM},
    {"fsconfig", EPERM},
    {"fsmount", EPERM},
    {"fspick", EPERM},
    {"mount_setattr", EPERM},
    {"clone3", ENOSYS},
    {"setns", EPERM},
};

bool addRules(scmp_filter_ctx ctx, QString *error)
{
    auto fail = [error](const char *what, int code) {
        *error = QStringLiteral("cannot build the sandbox's seccomp filter (%1): %2")
                     .arg(QLatin1String(what), QString::fromLocal8Bit(std::strerror(-code)));
        return false;
    };
    for (const Refused &refused : kRefused) {
        const int number = seccomp_syscall_resolve_name(refused.name);
        if (number == __NR_SCMP_ERROR)
            continue; // not a call of this architecture
        if (const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(refused.error), number, 0); rc < 0)
            return fail(refused.name, rc);
    }
    // A new user namespace, by unshare or clone: the flag is in the first argument of both.
    for (const char *call : {"unshare", "clone"}) {
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), seccomp_syscall_resolve_name(call), 1,
                                        SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
        if (rc < 0)
            return fail(call, rc);
    }
    // Keystrokes pushed into a terminal: the way out of a sandbox that shares one.
    for (const unsigned long request : {TIOCSTI, TIOCLINUX}) {
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                        SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, request));
        if (rc < 0)
            return fail("ioctl", rc);
    }
    return true;
}

} // namespace

QByteArray sandboxSeccompProgram(QString *error)
{
    const Filter ctx(seccomp_init(SCMP_ACT_ALLOW));
    if (!ctx) {
        *error = QStringLiteral("cannot build the sandbox's seccomp filter: libseccomp failed to start");
        return {};
    }
    // Calls of another architecture (x32, i386 on amd64) are refused rather than left unfiltered.
    seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_NNP, 0); // paddock-init's children have no_new_privs already
    if (!addRules(ctx.get(), error))
        return {};
    const int fd = ::memfd_create("paddock-seccomp", MFD_CLOEXEC);
    if (fd < 0 || seccomp_export_bpf(ctx.get(), fd) < 0) {
        *error = QStringLiteral("cannot export the sandbox's seccomp filter");
        if (fd >= 0)
            ::close(fd);
        return {};
    }
    QByteArray program;
    ::lseek(fd, 0, SEEK_SET);
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        program.append(buffer, n);
    ::close(fd);
    return program;
}

} // namespace paddock::runtime::bwrap

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace paddock::runtime::bwrap {

/**
 * The seccomp filter of every process in a bubblewrap sandbox, as the BPF program the kernel
 * loads (what libseccomp's seccomp_export_bpf() writes), or empty with @p error.
 *
 * It refuses the system calls that open kernel attack surface a coding agent has no use for:
 * new user namespaces (unshare and clone with CLONE_NEWUSER; clone3, whose flags a filter
 * cannot read, answers ENOSYS so C libraries fall back to clone), the keyring (keyctl,
 * add_key, request_key), bpf, userfaultfd, perf_event_open, kexec, io_uring (ENOSYS, so
 * programs use another way), the mount family, and the terminal ioctls that push input into a
 * terminal (TIOCSTI, TIOCLINUX). Everything else is allowed; other architectures' calls are
 * refused. paddock-init loads it into each session after making it its user (Identity), so
 * the supervisor itself keeps what it needs.
 */
QByteArray sandboxSeccompProgram(QString *error);

} // namespace paddock::runtime::bwrap

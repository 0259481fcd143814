// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::runtime::bwrap {

/**
 * Why bubblewrap could not make a sandbox's namespaces here, as a sentence that names the
 * host setting responsible and the command that changes it, from bwrap's own message
 * @p bwrapError and the kernel settings under @p procSys (normally /proc/sys).
 *
 * Hosts restrict unprivileged user namespaces in several ways: AppArmor on Ubuntu 24.04 and
 * later (kernel.apparmor_restrict_unprivileged_userns), Debian's older switch
 * (kernel.unprivileged_userns_clone), or a limit of zero (user.max_user_namespaces, also what
 * a container without nested namespaces looks like).
 */
QString userNamespaceProblem(const QString &bwrapError, const QString &procSys = QStringLiteral("/proc/sys"));

} // namespace paddock::runtime::bwrap

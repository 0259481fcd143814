// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/UserNamespaces.h"

#include <QFile>

namespace paddock::runtime::bwrap {
namespace {

/** The first line of a /proc/sys file, or empty when it does not exist here. */
QString setting(const QString &procSys, const QString &path)
{
    QFile file(procSys + QLatin1Char('/') + path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readLine(64)).trimmed();
}

} // namespace

QString userNamespaceProblem(const QString &bwrapError, const QString &procSys)
{
    const QString detail =
        bwrapError.trimmed().isEmpty() ? QString() : QStringLiteral(" (bubblewrap said: %1)").arg(bwrapError.trimmed());
    if (setting(procSys, QStringLiteral("kernel/apparmor_restrict_unprivileged_userns")) == QLatin1String("1"))
        return QStringLiteral(
                   "this system's AppArmor forbids unprivileged user namespaces "
                   "(kernel.apparmor_restrict_unprivileged_userns = 1, the default on Ubuntu 24.04 and later), "
                   "which bubblewrap sandboxes need. Paddock's package lets its own copy of bubblewrap "
                   "(/usr/libexec/paddock/bwrap), and no other program, create them through the AppArmor profile "
                   "/etc/apparmor.d/paddock-bwrap: with the package installed, load it with "
                   "'sudo apparmor_parser -r /etc/apparmor.d/paddock-bwrap'; without it, install the package, "
                   "or lift the restriction for every program with 'sudo sysctl -w "
                   "kernel.apparmor_restrict_unprivileged_userns=0'. Or use --backend docker%1")
            .arg(detail);
    if (setting(procSys, QStringLiteral("kernel/unprivileged_userns_clone")) == QLatin1String("0"))
        return QStringLiteral("this kernel forbids unprivileged user namespaces "
                              "(kernel.unprivileged_userns_clone = 0), which bubblewrap sandboxes need. Allow them "
                              "with 'sudo sysctl -w kernel.unprivileged_userns_clone=1' (and in "
                              "/etc/sysctl.d/ to keep it), or use --backend docker%1")
            .arg(detail);
    if (setting(procSys, QStringLiteral("user/max_user_namespaces")) == QLatin1String("0") ||
        bwrapError.contains(QLatin1String("max_")) || bwrapError.contains(QLatin1String("ENOSPC")))
        return QStringLiteral("no more user namespaces may be created here (user.max_user_namespaces is 0 or "
                              "exhausted, or this is a container that allows no nested namespaces), and bubblewrap "
                              "sandboxes need them. Raise the limit with 'sudo sysctl -w "
                              "user.max_user_namespaces=15000', or use --backend docker%1")
            .arg(detail);
    return QStringLiteral("bubblewrap cannot create namespaces here%1").arg(detail);
}

} // namespace paddock::runtime::bwrap

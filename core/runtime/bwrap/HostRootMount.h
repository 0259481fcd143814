// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::runtime::bwrap {

/** @brief How a sandbox's writable root over the host's system is mounted here. */
enum class HostRootMount {
    None,   ///< it cannot be: the sandbox gets the host's system read-only
    Kernel, ///< the kernel's overlayfs, in a user namespace (app/init/RootStage.h)
    Fuse,   ///< fuse-overlayfs, where the kernel's overlayfs cannot give one
};

/**
 * How a writable root over the host's system is mounted on this machine, for this user: the
 * kernel's overlayfs when `paddock-init --mount-root --probe` (at @p initPath) says it works,
 * asked once per process; else fuse-overlayfs when it is installed and /dev/fuse opens; else
 * None, with @p problem naming what is missing for each and how to get it.
 *
 * `PADDOCK_TEST_ROOT_MOUNT` (for the tests only) takes the probe's place: `fuse` leaves the
 * kernel's overlayfs out, `none` both (as if /dev/fuse could not be opened). Safe to call from any thread.
 */
HostRootMount hostRootMount(const QString &initPath, QString *problem = nullptr);

} // namespace paddock::runtime::bwrap

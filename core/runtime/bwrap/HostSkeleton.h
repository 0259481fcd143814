// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace paddock::runtime::bwrap {

/**
 * @brief The host's directories, without their files, owned by the user: what lets root inside
 * a sandbox write into a root over the host's system mounted with the kernel's overlayfs.
 *
 * An ordinary user mounts the overlay in a user namespace that maps only that user, where the
 * host's system (real root's) is nobody's: overlayfs would refuse root inside every write into
 * /usr/local/bin. The skeleton, the same folders with the same modes but the user's, lies
 * between the upper layer and the host's directories (app/init/RootStage.h), so the folders
 * seen inside are root's, and a file created, replaced or removed in them is copied up as the
 * user. A host file stays real root's: it can be replaced, not changed in place.
 *
 * It is made once, under `dataDir()/host-skeleton/KEY/`, with each of @p directories at its
 * own path, and made again when KEY changes: a hash of what says the host's system changed
 * (the directories, their immediate subfolders, and the package manager's database), so an
 * upgrade that adds folders gets a new skeleton; a folder added by hand deep under /usr stays
 * the host's (read-only inside) until then. It takes about a second and, on ext4, 4 KiB per
 * folder (about 70 MiB for Debian's /usr with a desktop). Skeletons of earlier keys are removed
 * a day after they were made.
 *
 * Returns the skeleton's folder; empty without @p error when there is no need (the user is
 * root, whom the namespace maps), empty with @p error when it cannot be made (more than
 * 200,000 folders, no space). Safe to call from any thread.
 */
QString hostSkeleton(const QStringList &directories, QString *error);

} // namespace paddock::runtime::bwrap

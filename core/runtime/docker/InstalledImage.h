// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/docker/DockerClient.h"

#include <QList>
#include <QString>

namespace paddock::runtime::docker {

/**
 * @brief The image private to one Docker sandbox that holds what its kit's `setup.install`
 * wrote to the system root.
 *
 * A run of `setup.install` is a container of its own, removed once it ends; its files are
 * committed first (POST /commit) as `paddock-local/OWNER-NAME:installed`, labelled
 * `paddock.installed-for=NAME`, `paddock.owner=OWNER` and `paddock.installed-from=IMAGE`. The
 * sandbox's container (and the next run's) is made from it, so the root keeps those files for
 * the sandbox's life, across stops and starts. Removing the sandbox removes it; a recreation
 * makes it anew from the kit's image.
 *
 * Its configuration is the kit image's: entrypoint, command, environment, user and working
 * folder, not the install container's. A commit fills what the configuration it is given leaves
 * empty from the container, and adds the container's variables and labels it lacks; so an
 * empty entrypoint is given as empty, an empty user and working folder as root and `/` (which
 * mean the same), and each variable of the install container that the kit's image lacks by its
 * name alone, which the engine reads as unset (the SSH agent of setup.install, say, stays its
 * own). Only a command, where the kit's image has neither one nor an entrypoint, is the install
 * container's; the sandbox's container always gives its own.
 *
 * The folder the engine made in the root for each of the kit's tmpfs volumes where the kit's
 * image has none is committed too. The engine's tmpfs over a folder of the image takes that
 * folder's mode (runc 1.1 even over a `mode=` option), and the one made for the mount is root's
 * 0755: the agent could not write to its tmpfs. So each such folder is given, before the
 * commit, the mode its tmpfs has where the image lacks the folder: the volume's, else 1777.
 */
class InstalledImage
{
public:
    InstalledImage(const DockerClient &client, const QString &owner, const QString &sandbox);

    /** `paddock-local/OWNER-NAME:installed`. */
    QString reference() const;
    /**
     * Commits ended container @p container, made from image @p base with the kit's @p volumes,
     * as reference(), and returns reference(). A base that is this sandbox's image already (an
     * earlier run of `setup.install`) gives the configuration of the kit's image it came from.
     */
    Result<QString> commit(const ContainerInfo &container, const QString &base,
                           const QList<SandboxVolume> &volumes) const;
    /**
     * Removes every image labelled for the sandbox, each before the one it was made from. None
     * is fine; one a container still uses stays, and the error says so.
     */
    Status remove() const;

private:
    QString repository() const;
    /** The configuration a commit of @p container made from @p base gets, and the kit's image in @p from. */
    /** Gives each folder @p container added for a tmpfs of @p volumes the mode of its tmpfs. */
    Status keepTmpfsModes(const ContainerInfo &container, const QList<SandboxVolume> &volumes) const;
    Result<QJsonObject> configFor(const ContainerInfo &container, const QString &base, QString *from) const;

    const DockerClient &m_client;
    QString m_owner;
    QString m_sandbox;
};

} // namespace paddock::runtime::docker

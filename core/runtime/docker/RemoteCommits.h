// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "runtime/docker/ContainerSpec.h"

#include <QString>

namespace paddock::runtime::docker {

class DockerClient;
class TarWriter;

/**
 * @brief The git history of a sandbox on a container engine of another computer: HEAD's
 * commit goes in with the workspace, and the commits made inside come out as a git bundle.
 *
 * In: when the workspace is the top of its repository, the `.git` of a shallow clone of its
 * HEAD (`git clone --bare --depth 1`, turned into a work tree's `.git` with an index) is copied
 * in beside the committed files, owned by the agent. A commit made inside then has the
 * desktop's HEAD as its parent, and the container's label `paddock.workspace-base` keeps
 * that commit.
 *
 * Out: an Engine exec as the agent's user runs the image's `git bundle create` of every branch
 * less the base, into a file of the container, which is read back through
 * `GET /containers/ID/archive`, at most kMaxBundleBytes. What comes out is the sandbox's
 * writing: the caller checks it (sandbox/RemoteFetchBack.h) before any repository sees it.
 */
class RemoteCommits
{
public:
    /** The label holding the commit the workspace was copied from. */
    static QString baseLabel() { return QStringLiteral("paddock.workspace-base"); }
    /** A bundle read back from a sandbox, at most. */
    static constexpr qint64 kMaxBundleBytes = 256LL * 1024 * 1024;
    /** The `.git` copied in, at most. */
    static constexpr qint64 kMaxHistoryBytes = 512LL * 1024 * 1024;

    /**
     * Adds `WORKSPACE/.git` to @p tar, owned by @p uid:@p gid, when @p workspace is the top of
     * its repository; returns HEAD's commit, or an empty string when nothing was added.
     */
    static paddock::Result<QString> addRepository(TarWriter &tar, const QString &workspace, qint64 uid, qint64 gid);

    /**
     * Writes the bundle of the commits made in running @p container since its base to
     * @p file; false when there are none (or the container has no base).
     */
    static paddock::Result<bool> bundleOut(const DockerClient &client, const ContainerInfo &container,
                                           const QString &file);
};

} // namespace paddock::runtime::docker

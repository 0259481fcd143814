// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace paddock::runtime {
class Runtime;
}

namespace paddock::sandbox {

/**
 * @brief The commits of a sandbox on a container engine of another computer, brought back to
 * the user's repository as branches `paddock/NAME/<branch>`, as a clone workspace's are.
 *
 * The sandbox's workspace holds HEAD's commit (runtime/docker/RemoteCommits.h); its new
 * commits come out as a git bundle, which is the sandbox's writing and is read as hostile:
 * bounded in size, its head read here first (a bundle of branches only, each a plain branch
 * name: no `..`, no component starting with a dot or a dash, no `@{`), then checked by `git
 * bundle verify` and fetched with every object checked (`transfer.fsckObjects`) into a
 * repository of its own in a private temporary folder, which borrows the user's objects
 * (`objects/info/alternates`) for the commits the bundle builds on. Only then does the user's
 * repository fetch from that one, into branches under `paddock/NAME/` only, without tags and
 * with the file protocol alone. A bundle carries no configuration or hooks, and
 * nothing of it runs: a refused bundle leaves the repository as it was.
 */
class RemoteFetchBack
{
public:
    /**
     * Fetches the commits of running sandbox @p name when @p runtime is an engine of another
     * computer that holds its history; notes saying which branches hold them, or why they
     * did not come back. Empty otherwise.
     */
    static QStringList notes(runtime::Runtime &runtime, const QString &name);

    /**
     * Checks the bundle @p file and fetches its branches into @p repository as
     * `paddock/NAME/<branch>` for sandbox @p name; the branches under that prefix afterwards.
     */
    static Result<QStringList> fetchBundle(const QString &file, const QString &repository, const QString &name);

    /** The branches the head of bundle @p bytes names (its start is enough), each checked. */
    static Result<QStringList> bundleBranches(const QByteArray &bytes);
};

} // namespace paddock::sandbox

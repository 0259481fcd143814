// SPDX-License-Identifier: GPL-3.0-or-later
// git-identity@1 of a schemaVersion "3" kit: the person's git name and email for git inside.
#pragma once

#include "kit/Kit.h"
#include "runtime/SandboxSpec.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace paddock::sandbox {

/** The capability type that asks for it. */
inline constexpr char kGitIdentityCapability[] = "com.docker.sandbox/git-identity@1";

/** Whether @p kit requests git-identity@1 and Paddock applied it. */
bool wantsGitIdentity(const kit::Kit &kit);

/**
 * `user.name` and `user.email` as git on this computer reads them outside any repository (the
 * system's and the person's own configuration), and nothing else of that configuration. A key
 * that is not set is absent; a value with a control character or of more than 256 bytes is
 * left out with a note in @p notes, as is everything when git is not installed.
 */
QMap<QString, QString> hostGitIdentity(QStringList *notes);

/**
 * When @p kit wants it, gives git inside @p spec's sandbox hostGitIdentity() as configuration
 * through its environment (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`, `GIT_CONFIG_VALUE_n`, read
 * by git 2.31 and later as if given with `-c`): nothing is written into the sandbox's files, and
 * the sandbox sees no other key of the host's configuration. A person's own `--env
 * GIT_CONFIG_COUNT` wins, with a note.
 */
void addGitIdentity(const kit::Kit &kit, runtime::SandboxSpec &spec, QStringList *notes);

} // namespace paddock::sandbox

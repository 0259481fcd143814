// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Files the daemon writes into a sandbox's home or workspace, which the sandbox can write too:
// never through a link planted there (KitApplication.cpp).

#include "common/Result.h"
#include "common/UniqueFd.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

#include <sys/types.h>

namespace paddock::sandbox {

/** @p relative split into components, or nothing when it could leave its root ("..", absolute, empty). */
std::optional<QStringList> safeComponents(const QString &relative);

/** Opens (creating as needed, mode 0700) @p components below @p root, never following a link. */
Result<UniqueFd> openDirectoryChain(const QString &root, const QStringList &components);

/** Whether an entry exists at @p components below @p root (a dangling link counts). */
bool existsBelow(const QString &root, const QStringList &components);

/** Writes @p contents to @p relative below @p root atomically (a link is replaced, never written through). */
Result<void> writeBelow(const QString &root, const QString &relative, const QByteArray &contents, mode_t mode);

} // namespace paddock::sandbox

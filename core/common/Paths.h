// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/** @brief Where Paddock keeps its files, following the XDG base directory specification. */
namespace paddock::paths {

/** `$XDG_CONFIG_HOME/paddock` (policy, bindings, kits the user added). */
QString configDir();
/** `$XDG_STATE_HOME/paddock` (logs, the event database). */
QString stateDir();
/** `$XDG_DATA_HOME/paddock` (sandbox homes and state). */
QString dataDir();
/** `$XDG_RUNTIME_DIR/paddock` (sockets). Falls back to a private directory under /tmp. */
QString runtimeDir();
/** The daemon's socket, `runtimeDir()/paddockd.sock`. */
QString daemonSocket();

/** @p path for a person to read: under the home folder as `~/...`; else as it is. */
QString tildePath(const QString &path);

/** Creates @p dir (and parents) and sets its mode to 0700. Returns false with @p error set. */
bool ensurePrivateDir(const QString &dir, QString *error = nullptr);

} // namespace paddock::paths

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::daemon {

/** Where the daemon's log goes, decided once at start. */
enum class LogTarget {
    Journal, ///< stderr is connected to the systemd journal (JOURNAL_STREAM matches it)
    File,    ///< `$XDG_STATE_HOME/paddock/paddockd.log`
    Stderr,  ///< the log file could not be opened
};

/**
 * Installs the Qt message handler of paddockd. Lines in the file carry a UTC timestamp, the
 * pid, the level and the category; journal lines carry a syslog priority prefix instead,
 * the journal adds the time. When @p echoToTerminal is set and stderr is a terminal, file
 * lines are also shown there.
 */
LogTarget installLogHandler(bool verbose, bool echoToTerminal, QString *logFile);

/** True when the process's stderr is the stream systemd named in JOURNAL_STREAM. */
bool stderrIsJournal();

} // namespace paddock::daemon

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

#include <optional>

namespace paddock::cli {

/** The window's own program, installed beside `paddock`. */
inline constexpr char kWindowProgram[] = "paddock-gui";

/**
 * What @p arguments (without the program name) ask of the window, if anything: none at all
 * is the window as it is (an empty path), and a bundle to open (cli::bundleToOpen) is its
 * absolute path where there is a display; without one, `open` stays a command that says why.
 */
std::optional<QString> windowRequest(const QStringList &arguments);

/**
 * Replaces this process with the window's program beside it, given @p bundle when it is not
 * empty. The window lives in a program of its own, so it maps none of the command line's
 * libraries, and a command starts without Qt Quick's. Returns only on failure, with what
 * went wrong in @p error.
 */
void execWindow(const QString &bundle, QString *error);

} // namespace paddock::cli

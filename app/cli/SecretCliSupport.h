// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Command.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace paddock::cli {

/** @brief A value read for `secret set`: wipe() it once handed on. */
struct SecretReadResult
{
    QByteArray value;
    QString error; ///< one sentence; empty on success
};

/** Longest value accepted; provider keys are a few hundred bytes at most. */
inline constexpr qsizetype kMaxSecretBytes = 64 * 1024;

/**
 * Keeps the secret store's informational messages ("stored secret ...") off stderr, which the
 * secret, binding and ca commands keep for one-sentence errors. QT_LOGGING_RULES still wins.
 */
void quietSecretsLogging();

/** Makes every leaf command under @p group call quietSecretsLogging() before it runs. */
void runQuietly(Command &group);

/** Whether @p fd is a terminal a person types at. */
bool isTerminal(int fd);

/**
 * Shows @p prompt on stderr and reads one line from the terminal @p fd with echo turned off
 * (termios), restoring the terminal afterwards, also when interrupted by a signal. The line
 * ends at the newline, which is not part of the value.
 */
SecretReadResult readHiddenLine(int fd, const QString &prompt);

/** Reads @p fd to its end and removes one trailing newline ("\n" or "\r\n"). */
SecretReadResult readAllInput(int fd);

} // namespace paddock::cli

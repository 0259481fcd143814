// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace paddock::secrets {

/**
 * @brief The form in which a secret may be shown to a person: the first four and the last
 * four characters around an ellipsis ("sk-abcdefghijklmnop" becomes "sk-a…mnop").
 *
 * Values shorter than kMinimumPartlyShown characters are replaced by a fixed "••••", so
 * neither their characters nor their length is revealed.
 */
QString mask(const QString &value);

/** Values shorter than this are masked completely. */
inline constexpr int kMinimumPartlyShown = 16;

/**
 * @brief Overwrites the bytes of @p buffer with zeros and empties it.
 *
 * Only this copy is cleared: a QByteArray shared with another one is detached first by Qt,
 * so callers keep a key in a single QByteArray and wipe it when done.
 */
void wipe(QByteArray &buffer);
void wipe(QString &buffer);

/**
 * @brief Makes this process non-dumpable: no core file, no ptrace attach from other
 * processes of the same user. For processes that hold keys (the daemon).
 */
bool disableCoreDumps();

} // namespace paddock::secrets

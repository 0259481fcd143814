// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock {

/** How a double-quoted string spells the control characters that have no short escape. */
enum class ControlEscape {
    Json, ///< `\uXXXX` below U+0020 (JSON)
    Yaml, ///< `\xXX` below U+0020 and for U+007F (YAML)
};

/**
 * @p value between double quotes: `"` and `\` escaped with a backslash, newline, carriage
 * return and tab as `\n`, `\r` and `\t`, other control characters as @p control says.
 */
QString doubleQuoted(const QString &value, ControlEscape control);

/**
 * @p word as one word of a POSIX shell command: as it is when it holds only characters no
 * shell reads specially (letters, digits, `_@%+=:,./-`), else between single quotes.
 */
QString shellWord(const QString &word);

} // namespace paddock

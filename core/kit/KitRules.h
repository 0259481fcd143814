// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit::rules {

/** Kit, service and agent names: `^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`. */
bool isValidKitName(const QString &name);
/** Environment variable names: `^[A-Za-z_][A-Za-z0-9_]*$`. */
bool isValidEnvironmentName(const QString &name);
/** A file mode in octal: one to four digits 0-7 ("755", "0755", "1777"). */
bool isOctalMode(const QString &mode);
/** A byte size such as "512m", "2g", "4096m", "2gib", "100" (binary multiples); nullopt if malformed. */
std::optional<qint64> parseByteSize(const QString &size);
/** A dotted path for `locked:` (`^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)*$`). */
bool isDottedPath(const QString &path);
/** How many `%s` a header format holds (`%%` is a literal percent sign). */
int countFormatPlaceholders(const QString &format);
/**
 * True when a connection to @p domain on port 443 is allowed by one of @p allow
 * (`host`, `host:port`, `host:lo-hi`, `host:*`, `*.suffix` for one label, `**.suffix`
 * for any depth), compared case-insensitively.
 */
bool isDomainAllowed(const QString &domain, const QStringList &allow);

} // namespace paddock::kit::rules

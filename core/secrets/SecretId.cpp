// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/SecretId.h"

#include <QStringList>

namespace paddock::secrets {

bool isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64 || name == QLatin1String(".") || name == QLatin1String(".."))
        return false;
    for (const QChar c : name) {
        const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                        (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                        (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') ||
                        c == QLatin1Char('_') || c == QLatin1Char('-');
        if (!ok)
            return false;
    }
    return true;
}

QString SecretId::keychainKey() const
{
    if (isGlobal())
        return QStringLiteral("global/") + service;
    return QStringLiteral("sandbox/%1/%2").arg(sandbox, service);
}

std::optional<SecretId> SecretId::fromKeychainKey(const QString &key)
{
    const QStringList parts = key.split(QLatin1Char('/'));
    if (parts.size() == 2 && parts[0] == QLatin1String("global") && isValidName(parts[1]))
        return SecretId::global(parts[1]);
    if (parts.size() == 3 && parts[0] == QLatin1String("sandbox") && isValidName(parts[1]) && isValidName(parts[2]))
        return SecretId::forSandbox(parts[1], parts[2]);
    return std::nullopt;
}

QString SecretId::displayName() const
{
    return isGlobal() ? service : sandbox + QLatin1Char('/') + service;
}

QString SecretId::setCommand() const
{
    if (isGlobal())
        return QStringLiteral("paddock secret set %1").arg(service);
    return QStringLiteral("paddock secret set --sandbox %1 %2").arg(sandbox, service);
}

QString SecretId::validate() const
{
    if (!isValidName(service))
        return QStringLiteral("\"%1\" is not a usable service name: use letters, digits, '.', '_' and '-' "
                              "(at most 64 characters)")
            .arg(service);
    if (!isGlobal() && !isValidName(sandbox))
        return QStringLiteral("\"%1\" is not a usable sandbox name: use letters, digits, '.', '_' and '-' "
                              "(at most 64 characters)")
            .arg(sandbox);
    return QString();
}

} // namespace paddock::secrets

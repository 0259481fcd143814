// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitRules.h"

#include <QRegularExpression>

namespace paddock::kit::rules {

namespace {

bool matches(const QString &text, const QRegularExpression &re)
{
    return re.match(text).hasMatch();
}

// A pattern entry's port part allows 443 (the port a credential is injected on).
bool portAllows443(QStringView port)
{
    if (port.isEmpty() || port == QLatin1String("*"))
        return true;
    const qsizetype dash = port.indexOf(QLatin1Char('-'));
    bool okLow = false;
    bool okHigh = false;
    if (dash < 0) {
        return port.toInt(&okLow) == 443 && okLow;
    }
    const int low = port.left(dash).toInt(&okLow);
    const int high = port.mid(dash + 1).toInt(&okHigh);
    return okLow && okHigh && low <= 443 && 443 <= high;
}

QString normaliseHost(QString host)
{
    host = host.trimmed().toLower();
    while (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    return host;
}

} // namespace

bool isValidKitName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"));
    return matches(name, re);
}

bool isValidEnvironmentName(const QString &name)
{
    // \A and \z: `$` would also match before a final newline, which is no name's.
    static const QRegularExpression re(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]*\\z"));
    return matches(name, re);
}

bool isOctalMode(const QString &mode)
{
    static const QRegularExpression re(QStringLiteral("^[0-7]{1,4}$"));
    return matches(mode, re);
}

std::optional<qint64> parseByteSize(const QString &size)
{
    // The grammar of Docker's RAM sizes: a number, an optional space, an optional
    // unit letter, then optional "i" and "b"; every unit is a power of 1024.
    static const QRegularExpression re(QStringLiteral("^(\\d+(\\.\\d+)*) ?([kKmMgGtTpP])?[iI]?[bB]?$"));
    const QRegularExpressionMatch m = re.match(size);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double number = m.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    double multiplier = 1;
    const QString unit = m.captured(3).toLower();
    const QString units = QStringLiteral("kmgtp");
    if (!unit.isEmpty())
        for (qsizetype i = 0; i <= units.indexOf(unit); ++i)
            multiplier *= 1024;
    const double bytes = number * multiplier;
    if (bytes > 9.0e18)
        return std::nullopt;
    return static_cast<qint64>(bytes);
}

bool isDottedPath(const QString &path)
{
    static const QRegularExpression re(QStringLiteral("^[a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)*$"));
    return matches(path, re);
}

int countFormatPlaceholders(const QString &format)
{
    int count = 0;
    for (qsizetype i = 0; i + 1 < format.size(); ++i) {
        if (format.at(i) != QLatin1Char('%'))
            continue;
        if (format.at(i + 1) == QLatin1Char('s'))
            ++count;
        ++i; // "%%" and "%s" both consume the next character
    }
    return count;
}

bool isDomainAllowed(const QString &domain, const QStringList &allow)
{
    const QString host = normaliseHost(domain);
    if (host.isEmpty())
        return false;
    for (const QString &entry : allow) {
        QString pattern = entry.trimmed().toLower();
        QStringView port;
        // "host:port"; an IPv6 literal is not a domain a credential injects into.
        const qsizetype colon = pattern.lastIndexOf(QLatin1Char(':'));
        if (colon >= 0 && !pattern.contains(QLatin1Char('['))) {
            port = QStringView(pattern).mid(colon + 1);
            if (!portAllows443(port))
                continue;
            pattern.truncate(colon);
        }
        pattern = normaliseHost(pattern);
        if (pattern.startsWith(QLatin1String("**."))) {
            const QString suffix = pattern.mid(2); // ".example.com"
            if (host.endsWith(suffix) && host.size() > suffix.size())
                return true;
        } else if (pattern.startsWith(QLatin1String("*."))) {
            const QString suffix = pattern.mid(1);
            if (host.endsWith(suffix) && host.size() > suffix.size() &&
                !host.left(host.size() - suffix.size()).contains(QLatin1Char('.')))
                return true;
        } else if (pattern == host) {
            return true;
        }
    }
    return false;
}

} // namespace paddock::kit::rules

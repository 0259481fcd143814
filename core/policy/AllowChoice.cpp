// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/AllowChoice.h"

#include "common/QuotedString.h"
#include "policy/HostPattern.h"
#include "policy/IpAddress.h"
#include "policy/PublicSuffixList.h"

namespace paddock::policy {
namespace {

constexpr std::uint16_t kDefaultPort = 443;

} // namespace

Result<QString> allowChoicePattern(const QString &host, std::uint16_t port, const QString &what)
{
    const QString name = QString::fromStdString(normaliseHostName(host));
    if (name.isEmpty() || port == 0)
        return fail(QStringLiteral("'%1' is not a host name").arg(host));
    const bool isV6 = name.contains(QLatin1Char(':'));
    const bool isAddress = IpAddress::parse(name).has_value();
    const QString bracketed = isV6 ? QLatin1Char('[') + name + QLatin1Char(']') : name;
    const QString portSuffix = port == kDefaultPort ? QString() : QLatin1Char(':') + QString::number(port);

    if (what.isEmpty() || what == QLatin1String("exact") || what == QLatin1String("hostport"))
        return port == kDefaultPort ? name : bracketed + portSuffix;
    if (what == QLatin1String("anyport"))
        return bracketed + QStringLiteral(":*");
    if (what != QLatin1String("wildcard") && what != QLatin1String("deep"))
        return fail(QStringLiteral("unknown choice '%1': expected exact, anyport, wildcard or deep").arg(what));
    const QLatin1String star(what == QLatin1String("wildcard") ? "*." : "**.");
    if (isAddress)
        return fail(QStringLiteral("%1 is an address: only the address itself can be allowed").arg(name));
    const QString parent = name.section(QLatin1Char('.'), 1);
    if (parent.isEmpty() || PublicSuffixList::system().isPublicSuffix(parent))
        return fail(QStringLiteral("%1 would cover every domain under %2, which anyone can register")
                        .arg(star + parent, parent),
                    QStringLiteral("allow the host itself instead"));
    return star + parent + portSuffix;
}

QString allowPatternCommand(const QString &pattern, const QString &sandbox)
{
    QString command = QStringLiteral("paddock policy allow network ") + shellWord(pattern);
    if (!sandbox.isEmpty())
        command += QStringLiteral(" --sandbox ") + shellWord(sandbox);
    return command;
}

QString allowChoiceCommand(const QString &host, std::uint16_t port, const QString &sandbox, const QString &where,
                           const QString &what)
{
    const Result<QString> pattern = allowChoicePattern(host, port, what);
    if (pattern && where != QLatin1String("kit"))
        return allowPatternCommand(*pattern, where == QLatin1String("global") ? QString() : sandbox);
    // The kit's spec.yaml is reached through the sandbox made from it, as the window does.
    QString command = QStringLiteral("paddock policy allow network ") + shellWord(host.trimmed().toLower());
    if (port != kDefaultPort)
        command += QStringLiteral(" --port %1").arg(port);
    if (where != QLatin1String("global"))
        command += QStringLiteral(" --sandbox ") + shellWord(sandbox);
    command += QStringLiteral(" --where ") + where;
    if (!what.isEmpty() && what != QLatin1String("exact") && what != QLatin1String("hostport"))
        command += QStringLiteral(" --what ") + what;
    return command;
}

} // namespace paddock::policy

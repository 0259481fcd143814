// SPDX-License-Identifier: GPL-3.0-or-later
// CustomSecret as a value: checked, and in the JSON form custom-secrets.json and the daemon's
// `secret.list` hold it (CustomSecrets.h). The file itself is CustomSecrets.cpp's.
#include "secrets/CustomSecrets.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <openssl/rand.h>

namespace paddock::secrets {
namespace {

constexpr int kMaxHosts = 32;
const QLatin1String kPlaceholderPrefix("paddock-ph-");

} // namespace

QJsonObject CustomSecret::toJson() const
{
    QJsonObject object{{QStringLiteral("name"), name},
                       {QStringLiteral("hosts"), QJsonArray::fromStringList(hosts)},
                       {QStringLiteral("variable"), variable},
                       {QStringLiteral("placeholder"), placeholder}};
    if (anywhere)
        object.insert(QStringLiteral("anywhere"), true);
    else
        object.insert(QStringLiteral("header"), header);
    if (body)
        object.insert(QStringLiteral("body"), true);
    if (!sandbox.isEmpty())
        object.insert(QStringLiteral("sandbox"), sandbox);
    if (source)
        object.insert(QStringLiteral("source"), source->toJson());
    return object;
}

CustomSecret CustomSecret::fromJson(const QJsonObject &object, QString *problem)
{
    CustomSecret secret;
    secret.name = object.value(QLatin1String("name")).toString();
    for (const QJsonValue &host : object.value(QLatin1String("hosts")).toArray())
        secret.hosts << host.toString();
    secret.header = object.value(QLatin1String("header")).toString();
    secret.anywhere = object.value(QLatin1String("anywhere")).toBool();
    secret.body = object.value(QLatin1String("body")).toBool();
    secret.variable = object.value(QLatin1String("variable")).toString();
    secret.placeholder = object.value(QLatin1String("placeholder")).toString();
    secret.sandbox = object.value(QLatin1String("sandbox")).toString();
    if (const QJsonValue source = object.value(QLatin1String("source")); !source.isUndefined())
        secret.source = SecretSource::fromJson(source.toObject(), problem);
    return secret;
}

QString CustomSecret::validate() const
{
    if (!isValidName(name))
        return QStringLiteral("'%1' is not a valid secret name (letters, digits, '.', '_' and '-', at most 64)")
            .arg(name.left(80));
    if (hosts.isEmpty())
        return QStringLiteral("%1 names no host: give --host").arg(name);
    if (hosts.size() > kMaxHosts)
        return QStringLiteral("%1 names more than %2 hosts").arg(name).arg(kMaxHosts);
    for (const QString &host : hosts) {
        if (!isHost(host))
            return QStringLiteral("'%1' is not a host name or *.domain").arg(host.left(80));
    }
    if (anywhere == !header.isEmpty())
        return QStringLiteral("%1 needs either a header or anywhere").arg(name);
    if (!anywhere && !isHeaderName(header))
        return QStringLiteral("'%1' is not a header name").arg(header.left(80));
    if (!isVariableName(variable))
        return QStringLiteral("'%1' is not a variable name (letters, digits and '_', not starting with a digit)")
            .arg(variable.left(80));
    static const QRegularExpression shape(QStringLiteral("\\Apaddock-ph-[0-9a-f]{32}\\z"));
    if (!shape.match(placeholder).hasMatch())
        return QStringLiteral("the placeholder of %1 is not one Paddock made").arg(name);
    if (!sandbox.isEmpty() && !isValidName(sandbox))
        return QStringLiteral("'%1' is not a valid sandbox name").arg(sandbox.left(80));
    if (source)
        return source->validate();
    return {};
}

QString CustomSecret::newPlaceholder()
{
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return {};
    return kPlaceholderPrefix +
           QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(bytes), sizeof bytes).toHex());
}

bool CustomSecret::isHeaderName(const QString &name)
{
    static const QRegularExpression token(QStringLiteral("\\A[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}\\z"));
    return token.match(name).hasMatch();
}

bool CustomSecret::isVariableName(const QString &name)
{
    static const QRegularExpression variable(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]{0,127}\\z"));
    return variable.match(name).hasMatch();
}

bool CustomSecret::isHost(const QString &host)
{
    static const QRegularExpression shape(
        QStringLiteral("\\A(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\z"));
    return host.size() <= 253 && shape.match(host).hasMatch();
}

} // namespace paddock::secrets

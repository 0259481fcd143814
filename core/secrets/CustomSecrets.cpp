// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/CustomSecrets.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "secrets/SecretId.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <openssl/rand.h>

namespace paddock::secrets {
namespace {

constexpr qint64 kMaxFileBytes = 1024 * 1024;
constexpr int kMaxSecrets = 256;
constexpr int kMaxHosts = 32;
const QLatin1String kPlaceholderPrefix("paddock-ph-");

QJsonObject toJson(const CustomSecret &secret)
{
    QJsonObject object{{QStringLiteral("name"), secret.name},
                       {QStringLiteral("hosts"), QJsonArray::fromStringList(secret.hosts)},
                       {QStringLiteral("variable"), secret.variable},
                       {QStringLiteral("placeholder"), secret.placeholder}};
    if (secret.anywhere)
        object.insert(QStringLiteral("anywhere"), true);
    else
        object.insert(QStringLiteral("header"), secret.header);
    if (secret.body)
        object.insert(QStringLiteral("body"), true);
    if (!secret.sandbox.isEmpty())
        object.insert(QStringLiteral("sandbox"), secret.sandbox);
    if (secret.source)
        object.insert(QStringLiteral("source"), secret.source->toJson());
    return object;
}

CustomSecret fromJson(const QJsonObject &object, QString *problem)
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

} // namespace

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

QString CustomSecrets::defaultPath()
{
    return paths::configDir() + QStringLiteral("/custom-secrets.json");
}

std::optional<QList<CustomSecret>> CustomSecrets::read(QString *error) const
{
    const auto failed = [error, this](const QString &why) -> std::optional<QList<CustomSecret>> {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, why);
        return std::nullopt;
    };
    QFile file(m_path);
    if (!file.exists())
        return QList<CustomSecret>();
    if (!file.open(QIODevice::ReadOnly))
        return failed(file.errorString());
    if (file.size() > kMaxFileBytes)
        return failed(QStringLiteral("larger than 1 MiB"));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(kMaxFileBytes), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return failed(QStringLiteral("not a JSON object"));
    const QJsonArray entries = document.object().value(QLatin1String("secrets")).toArray();
    if (entries.size() > kMaxSecrets)
        return failed(QStringLiteral("more than %1 secrets").arg(kMaxSecrets));
    QList<CustomSecret> secrets;
    for (const QJsonValue &entry : entries) {
        QString sourceProblem;
        CustomSecret secret = fromJson(entry.toObject(), &sourceProblem);
        if (!sourceProblem.isEmpty())
            return failed(sourceProblem);
        if (const QString problem = secret.validate(); !problem.isEmpty())
            return failed(problem);
        secrets << secret;
    }
    return secrets;
}

std::optional<CustomSecret> CustomSecrets::find(const QString &name) const
{
    for (const CustomSecret &secret : read().value_or(QList<CustomSecret>())) {
        if (secret.name == name)
            return secret;
    }
    return std::nullopt;
}

bool CustomSecrets::set(const CustomSecret &secret, QString *error)
{
    if (const QString problem = secret.validate(); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    std::optional<QList<CustomSecret>> secrets = read(error);
    if (!secrets)
        return false;
    secrets->removeIf([&secret](const CustomSecret &each) { return each.name == secret.name; });
    secrets->append(secret);
    return write(*secrets, error);
}

bool CustomSecrets::remove(const QString &name, bool *removed, QString *error)
{
    std::optional<QList<CustomSecret>> secrets = read(error);
    if (!secrets)
        return false;
    *removed = secrets->removeIf([&name](const CustomSecret &each) { return each.name == name; }) > 0;
    return !*removed || write(*secrets, error);
}

bool CustomSecrets::write(const QList<CustomSecret> &secrets, QString *error) const
{
    if (!paths::ensurePrivateDir(QFileInfo(m_path).absolutePath(), error))
        return false;
    QJsonArray entries;
    for (const CustomSecret &secret : secrets)
        entries.append(toJson(secret));
    const QJsonObject document{{QStringLiteral("secrets"), entries}};
    return writeFileAtomically(m_path, QJsonDocument(document).toJson(QJsonDocument::Indented), error, 0600);
}

} // namespace paddock::secrets

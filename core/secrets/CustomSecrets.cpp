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

namespace paddock::secrets {
namespace {

constexpr qint64 kMaxFileBytes = 1024 * 1024;
constexpr int kMaxSecrets = 256;

} // namespace

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
        CustomSecret secret = CustomSecret::fromJson(entry.toObject(), &sourceProblem);
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
        entries.append(secret.toJson());
    const QJsonObject document{{QStringLiteral("secrets"), entries}};
    return writeFileAtomically(m_path, QJsonDocument(document).toJson(QJsonDocument::Indented), error, 0600);
}

} // namespace paddock::secrets

// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/RegistryCredentials.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>

namespace paddock::image {

namespace {

constexpr qint64 kMaxConfigBytes = 1 << 20;
constexpr qint64 kMaxHelperOutput = 64 << 10;
constexpr int kHelperTimeoutMs = 30000;

/** The keys `docker login` may have filed @p registry under. */
QStringList keysFor(const QString &registry)
{
    if (registry == QLatin1String("docker.io"))
        return {QStringLiteral("https://index.docker.io/v1/"), QStringLiteral("index.docker.io"),
                QStringLiteral("docker.io"), QStringLiteral("registry-1.docker.io")};
    return {registry, QStringLiteral("https://") + registry, QStringLiteral("http://") + registry};
}

std::optional<RegistryLogin> fromHelper(const QString &name, const QString &server, QString *error)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!valid.match(name).hasMatch()) {
        *error = QStringLiteral("config.json names the credential helper '%1', which is not a helper name")
                     .arg(name.left(64));
        return std::nullopt;
    }
    QProcess helper;
    helper.setProgram(QStringLiteral("docker-credential-") + name);
    helper.setArguments({QStringLiteral("get")});
    helper.setProcessChannelMode(QProcess::SeparateChannels);
    helper.start();
    if (!helper.waitForStarted(kHelperTimeoutMs)) {
        *error = QStringLiteral("the credential helper docker-credential-%1 does not start").arg(name);
        return std::nullopt;
    }
    helper.write(server.toUtf8());
    helper.closeWriteChannel();
    if (!helper.waitForFinished(kHelperTimeoutMs)) {
        helper.kill();
        helper.waitForFinished(1000);
        *error = QStringLiteral("the credential helper docker-credential-%1 did not answer").arg(name);
        return std::nullopt;
    }
    QByteArray answer = helper.readAllStandardOutput();
    if (helper.exitStatus() != QProcess::NormalExit || helper.exitCode() != 0 || answer.size() > kMaxHelperOutput)
        return std::nullopt; // no login for this registry ("credentials not found")
    const QJsonObject object = QJsonDocument::fromJson(answer).object();
    answer.fill('\0');
    RegistryLogin login{object.value(QLatin1String("Username")).toString(),
                        object.value(QLatin1String("Secret")).toString().toUtf8()};
    if (login.secret.isEmpty())
        return std::nullopt;
    return login;
}

std::optional<RegistryLogin> fromAuthEntry(const QJsonObject &entry)
{
    RegistryLogin login;
    const QByteArray auth = QByteArray::fromBase64(entry.value(QLatin1String("auth")).toString().toLatin1());
    if (const qsizetype colon = auth.indexOf(':'); colon > 0) {
        login.username = QString::fromUtf8(auth.left(colon));
        login.secret = auth.mid(colon + 1);
    } else if (entry.contains(QLatin1String("username"))) {
        login.username = entry.value(QLatin1String("username")).toString();
        login.secret = entry.value(QLatin1String("password")).toString().toUtf8();
    }
    if (const QString token = entry.value(QLatin1String("identitytoken")).toString(); !token.isEmpty()) {
        login.username = QStringLiteral("<token>");
        login.secret = token.toUtf8();
    }
    if (login.secret.isEmpty())
        return std::nullopt;
    return login;
}

} // namespace

QString dockerConfigDir()
{
    const QString fromEnvironment = QProcessEnvironment::systemEnvironment().value(QStringLiteral("DOCKER_CONFIG"));
    return fromEnvironment.isEmpty() ? QDir::homePath() + QStringLiteral("/.docker") : fromEnvironment;
}

std::optional<RegistryLogin> registryLogin(const QString &registry, const QString &configDir, QString *error)
{
    QFile file(configDir + QStringLiteral("/config.json"));
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxConfigBytes) {
        *error = QStringLiteral("%1 cannot be read (or is larger than 1 MiB)").arg(file.fileName());
        return std::nullopt;
    }
    const QJsonObject config = QJsonDocument::fromJson(file.read(kMaxConfigBytes)).object();
    const QStringList keys = keysFor(registry);
    const QJsonObject helpers = config.value(QLatin1String("credHelpers")).toObject();
    for (const QString &key : keys) {
        if (helpers.contains(key))
            return fromHelper(helpers.value(key).toString(), keys.constFirst(), error);
    }
    const QJsonObject auths = config.value(QLatin1String("auths")).toObject();
    for (const QString &key : keys) {
        if (auths.contains(key)) {
            if (std::optional<RegistryLogin> login = fromAuthEntry(auths.value(key).toObject()))
                return login;
        }
    }
    if (const QString store = config.value(QLatin1String("credsStore")).toString(); !store.isEmpty())
        return fromHelper(store, keys.constFirst(), error);
    return std::nullopt;
}

} // namespace paddock::image

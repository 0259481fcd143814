// SPDX-License-Identifier: GPL-3.0-or-later
#include "SecretListModel.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSecretList, "paddock.gui.secrets", QtWarningMsg)

namespace paddock::gui {
namespace {

/** Overwrites the characters of @p value before it is released. */
void wipe(QString &value)
{
    value.fill(QLatin1Char('\0'));
    value.clear();
}

} // namespace

SecretListModel::SecretListModel(QObject *parent) : QAbstractListModel(parent) {}

void SecretListModel::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    if (m_daemon)
        disconnect(m_daemon, nullptr, this, nullptr);
    m_daemon = daemon;
    m_wasConnected = false;
    if (m_daemon) {
        connect(m_daemon, &DaemonStatus::statusChanged, this, &SecretListModel::onStatusChanged);
        onStatusChanged();
    }
    Q_EMIT daemonChanged();
}

void SecretListModel::onStatusChanged()
{
    const bool connected = m_daemon && m_daemon->connected();
    if (connected == m_wasConnected)
        return;
    m_wasConnected = connected;
    if (connected)
        refresh();
    else
        setKeychain(false, false, QString(), QString());
}

int SecretListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant SecretListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case ServiceRole:
        return row.service;
    case SandboxRole:
        return row.sandbox;
    case MaskedRole:
        return row.masked;
    case PresentRole:
        return row.present;
    case UpdatedRole:
        return row.updated.isValid() ? QLocale().toString(row.updated.toLocalTime(), QLocale::ShortFormat) : QString();
    case DisplayNameRole:
        return row.sandbox.isEmpty() ? row.service : row.sandbox + QLatin1Char('/') + row.service;
    default:
        return {};
    }
}

QHash<int, QByteArray> SecretListModel::roleNames() const
{
    return {{ServiceRole, "service"}, {SandboxRole, "sandbox"}, {MaskedRole, "masked"},
            {PresentRole, "present"}, {UpdatedRole, "updated"}, {DisplayNameRole, "displayName"}};
}

bool SecretListModel::isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64 || name == QLatin1String(".") || name == QLatin1String(".."))
        return false;
    return std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
               (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') || c == QLatin1Char('_') ||
               c == QLatin1Char('-');
    });
}

void SecretListModel::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

void SecretListModel::changeBusy(int delta)
{
    const bool before = busy();
    m_busy += delta;
    if (before != busy())
        Q_EMIT busyChanged();
}

void SecretListModel::setKeychain(bool known, bool available, const QString &message, const QString &install)
{
    if (known == m_keychainKnown && available == m_keychainAvailable && message == m_keychainMessage &&
        install == m_keychainInstall)
        return;
    m_keychainKnown = known;
    m_keychainAvailable = available;
    m_keychainMessage = message;
    m_keychainInstall = install;
    Q_EMIT keychainChanged();
}

void SecretListModel::refresh()
{
    if (!m_daemon || !m_daemon->connected())
        return;
    api::DaemonClient *client = m_daemon->client();
    QPointer<SecretListModel> self(this);
    changeBusy(+1);
    client->call(QStringLiteral("keychain.status"), {}, [self](const api::Reply &reply) {
        if (!self)
            return;
        self->changeBusy(-1);
        if (reply.isError())
            return self->setError(reply.errorMessage());
        self->applyKeychainStatus(reply.result());
    });
    changeBusy(+1);
    client->call(QStringLiteral("secret.list"), {}, [self](const api::Reply &reply) {
        if (!self)
            return;
        self->changeBusy(-1);
        if (reply.isError()) {
            // The banner says it better than an error line when there is no keychain.
            if (reply.errorCode() != QLatin1String(api::errors::kKeychainUnavailable))
                self->setError(reply.errorMessage());
            return;
        }
        self->setError(QString());
        self->applySecretList(reply.result());
    });
}

void SecretListModel::applyKeychainStatus(const QJsonObject &status)
{
    setKeychain(true, status.value(QLatin1String("available")).toBool(),
                status.value(QLatin1String("message")).toString(), status.value(QLatin1String("install")).toString());
}

void SecretListModel::applySecretList(const QJsonObject &result)
{
    QList<Row> rows;
    for (const QJsonValue &value : result.value(QLatin1String("secrets")).toArray()) {
        const QJsonObject object = value.toObject();
        rows << Row{object.value(QLatin1String("service")).toString(),
                    object.value(QLatin1String("sandbox")).toString(), object.value(QLatin1String("masked")).toString(),
                    object.value(QLatin1String("present")).toBool(),
                    QDateTime::fromString(object.value(QLatin1String("updated")).toString(), Qt::ISODate)};
    }
    qCDebug(lcSecretList) << "the keychain holds" << rows.size() << "secrets";
    const bool countChanges = rows.size() != m_rows.size();
    beginResetModel();
    m_rows = rows;
    endResetModel();
    if (countChanges)
        Q_EMIT countChanged();
    if (!m_loaded) {
        m_loaded = true;
        Q_EMIT loadedChanged();
    }
}

void SecretListModel::set(const QString &service, const QString &sandbox, QString value)
{
    if (!m_daemon || !m_daemon->connected()) {
        wipe(value);
        return Q_EMIT actionFailed(tr("The daemon is not connected."));
    }
    if (!isValidName(service) || (!sandbox.isEmpty() && !isValidName(sandbox))) {
        wipe(value);
        return Q_EMIT actionFailed(tr("Names may use letters, digits, '.', '_' and '-' only."));
    }
    if (value.isEmpty())
        return Q_EMIT actionFailed(tr("The key is empty: nothing was stored."));
    QJsonObject params{{QStringLiteral("service"), service}, {QStringLiteral("value"), value}};
    wipe(value);
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    const QString name = sandbox.isEmpty() ? service : sandbox + QLatin1Char('/') + service;
    QPointer<SecretListModel> self(this);
    changeBusy(+1);
    m_daemon->client()->call(QStringLiteral("secret.set"), params, [self, name](const api::Reply &reply) {
        if (!self)
            return;
        self->changeBusy(-1);
        if (reply.isError())
            Q_EMIT self->actionFailed(reply.errorMessage());
        else
            Q_EMIT self->actionSucceeded(tr("The key of %1 is stored in the keychain.").arg(name));
        self->refresh();
    });
}

void SecretListModel::remove(const QString &service, const QString &sandbox)
{
    if (!m_daemon || !m_daemon->connected())
        return Q_EMIT actionFailed(tr("The daemon is not connected."));
    QJsonObject params{{QStringLiteral("service"), service}};
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    const QString name = sandbox.isEmpty() ? service : sandbox + QLatin1Char('/') + service;
    QPointer<SecretListModel> self(this);
    changeBusy(+1);
    m_daemon->client()->call(QStringLiteral("secret.remove"), params, [self, name](const api::Reply &reply) {
        if (!self)
            return;
        self->changeBusy(-1);
        if (reply.isError())
            Q_EMIT self->actionFailed(reply.errorMessage());
        else
            Q_EMIT self->actionSucceeded(tr("The key of %1 was removed from the keychain.").arg(name));
        self->refresh();
    });
}

} // namespace paddock::gui

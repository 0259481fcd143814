// SPDX-License-Identifier: GPL-3.0-or-later
#include "BindingRequest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBindingRequest, "paddock.gui.binding", QtWarningMsg)

namespace paddock::gui {

BindingRequest::BindingRequest(QObject *parent) : QObject(parent) {}

void BindingRequest::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    m_daemon = daemon;
    Q_EMIT daemonChanged();
}

void BindingRequest::setKitDirectory(const QString &directory)
{
    if (m_kitDirectory == directory)
        return;
    m_kitDirectory = directory;
    Q_EMIT kitDirectoryChanged();
}

void BindingRequest::setKitName(const QString &name)
{
    if (m_kitName == name)
        return;
    m_kitName = name;
    Q_EMIT kitNameChanged();
}

void BindingRequest::setPending(const QVariantList &pending)
{
    m_pending = pending;
    Q_EMIT pendingChanged();
}

void BindingRequest::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

void BindingRequest::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

bool BindingRequest::isWildcard(const QString &domain)
{
    return domain.startsWith(QLatin1String("*.")) || domain.startsWith(QLatin1String("**.")) ||
           domain == QLatin1String("*") || domain == QLatin1String("**");
}

void BindingRequest::check()
{
    if (!m_daemon || !m_daemon->connected() || m_kitDirectory.isEmpty())
        return;
    setBusy(true);
    QPointer<BindingRequest> self(this);
    m_daemon->client()->call(
        QStringLiteral("binding.check"), {{QStringLiteral("kit"), m_kitDirectory}}, [self](const api::Reply &reply) {
            if (!self)
                return;
            self->setBusy(false);
            if (reply.isError()) {
                self->setError(reply.errorMessage());
                return Q_EMIT self->failed(reply.errorMessage());
            }
            self->setError(QString());
            QVariantList pending;
            for (const QJsonValue &value : reply.result().value(QLatin1String("credentials")).toArray()) {
                if (!value.toObject().value(QLatin1String("approved")).toBool(true))
                    pending << value.toObject().toVariantMap();
            }
            self->setKitName(reply.result().value(QLatin1String("kit")).toString());
            self->setPending(pending);
            Q_EMIT self->checked();
        });
}

void BindingRequest::approve(const QStringList &services)
{
    if (!m_daemon || !m_daemon->connected()) {
        setError(tr("The daemon is not connected."));
        return Q_EMIT failed(m_error);
    }
    QStringList chosen = services;
    if (chosen.isEmpty()) {
        for (const QVariant &entry : std::as_const(m_pending))
            chosen << entry.toMap().value(QStringLiteral("service")).toString();
    }
    if (chosen.isEmpty())
        return Q_EMIT approved({});
    setBusy(true);
    qCDebug(lcBindingRequest) << "approving" << chosen << "of" << m_kitDirectory;
    QPointer<BindingRequest> self(this);
    m_daemon->client()->call(
        QStringLiteral("binding.approve"),
        {{QStringLiteral("kit"), m_kitDirectory}, {QStringLiteral("services"), QJsonArray::fromStringList(chosen)}},
        [self, chosen](const api::Reply &reply) {
            if (!self)
                return;
            self->setBusy(false);
            if (reply.isError()) {
                self->setError(reply.errorMessage());
                return Q_EMIT self->failed(reply.errorMessage());
            }
            self->setError(QString());
            Q_EMIT self->approved(chosen);
        });
}

} // namespace paddock::gui

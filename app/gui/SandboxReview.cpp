// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxReview.h"

#include <QJsonArray>
#include <QJsonObject>

namespace paddock::gui {

SandboxReview::SandboxReview(QObject *parent) : QObject(parent) {}

void SandboxReview::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    m_daemon = daemon;
    Q_EMIT daemonChanged();
}

void SandboxReview::setName(const QString &name)
{
    if (m_name == name)
        return;
    m_name = name;
    m_changes.clear();
    m_loaded = false;
    setMessage(QString());
    Q_EMIT nameChanged();
    Q_EMIT changesChanged();
}

void SandboxReview::refresh()
{
    if (m_name.isEmpty())
        return;
    if (!m_daemon || !m_daemon->connected())
        return setError(tr("The daemon is not connected."));
    setBusy(true);
    const quint64 generation = ++m_generation;
    QPointer<SandboxReview> self(this);
    m_daemon->client()->call(QStringLiteral("sandbox.review"), {{QStringLiteral("name"), m_name}},
                             [self, generation](const api::Reply &reply) {
                                 if (!self || generation != self->m_generation)
                                     return;
                                 self->setBusy(false);
                                 if (reply.isError())
                                     return self->setError(reply.errorMessage());
                                 self->setError(QString());
                                 QVariantList changes;
                                 for (const QJsonValue &change :
                                      reply.result().value(QLatin1String("changes")).toArray())
                                     changes << change.toObject().toVariantMap();
                                 self->m_changes = changes;
                                 self->m_loaded = true;
                                 Q_EMIT self->changesChanged();
                             });
}

void SandboxReview::revert(const QString &path)
{
    if (!m_daemon || !m_daemon->connected())
        return setError(tr("The daemon is not connected."));
    setBusy(true);
    QPointer<SandboxReview> self(this);
    m_daemon->client()->call(QStringLiteral("sandbox.revert"),
                             {{QStringLiteral("name"), m_name}, {QStringLiteral("path"), path}},
                             [self, path](const api::Reply &reply) {
                                 if (!self)
                                     return;
                                 self->setBusy(false);
                                 if (reply.isError())
                                     return self->setError(reply.errorMessage());
                                 self->setError(QString());
                                 self->setMessage(tr("%1 is back as it was when the sandbox started.").arg(path));
                                 self->refresh();
                             });
}

void SandboxReview::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

void SandboxReview::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

void SandboxReview::setMessage(const QString &message)
{
    if (m_message == message)
        return;
    m_message = message;
    Q_EMIT messageChanged();
}

} // namespace paddock::gui

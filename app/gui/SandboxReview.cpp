// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxReview.h"

#include <QJsonArray>
#include <QJsonObject>

namespace paddock::gui {

SandboxReview::SandboxReview(QObject *parent) : DaemonBound(parent) {}

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
    setBusy(true);
    const quint64 generation = ++m_generation;
    act(QStringLiteral("sandbox.review"), {{QStringLiteral("name"), m_name}},
        [this, generation](const api::Reply &reply) {
            if (generation != m_generation)
                return;
            setBusy(false);
            if (reply.isError())
                return setError(reply.errorMessage());
            setError(QString());
            QVariantList changes;
            for (const QJsonValue &change : reply.result().value(QLatin1String("changes")).toArray())
                changes << change.toObject().toVariantMap();
            m_changes = changes;
            m_loaded = true;
            Q_EMIT changesChanged();
        });
}

void SandboxReview::revert(const QString &path)
{
    setBusy(true);
    act(QStringLiteral("sandbox.revert"), {{QStringLiteral("name"), m_name}, {QStringLiteral("path"), path}},
        [this, path](const api::Reply &reply) {
            setBusy(false);
            if (reply.isError())
                return setError(reply.errorMessage());
            setError(QString());
            setMessage(tr("%1 is back as it was when the sandbox started.").arg(path));
            refresh();
        });
}

void SandboxReview::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

void SandboxReview::setMessage(const QString &message)
{
    if (m_message == message)
        return;
    m_message = message;
    Q_EMIT messageChanged();
}

} // namespace paddock::gui

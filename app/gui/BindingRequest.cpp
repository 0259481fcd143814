// SPDX-License-Identifier: GPL-3.0-or-later
#include "BindingRequest.h"

#include "common/QuotedString.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBindingRequest, "paddock.gui.binding", QtWarningMsg)

namespace paddock::gui {

BindingRequest::BindingRequest(QObject *parent) : DaemonBound(parent) {}

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

QString BindingRequest::approveCommand(const QString &kitDirectory)
{
    return QStringLiteral("paddock binding approve --kit %1 --all").arg(shellWord(kitDirectory));
}

bool BindingRequest::isWildcard(const QString &domain)
{
    return domain.startsWith(QLatin1String("*.")) || domain.startsWith(QLatin1String("**.")) ||
           domain == QLatin1String("*") || domain == QLatin1String("**");
}

void BindingRequest::check()
{
    if (m_kitDirectory.isEmpty())
        return;
    const bool sent = request(
        QStringLiteral("binding.check"), {{QStringLiteral("kit"), m_kitDirectory}}, [this](const api::Reply &reply) {
            setBusy(false);
            if (reply.isError()) {
                setError(reply.errorMessage());
                return Q_EMIT failed(reply.errorMessage());
            }
            setError(QString());
            QVariantList pending;
            for (const QJsonValue &value : reply.result().value(QLatin1String("credentials")).toArray()) {
                if (!value.toObject().value(QLatin1String("approved")).toBool(true))
                    pending << value.toObject().toVariantMap();
            }
            setKitName(reply.result().value(QLatin1String("kit")).toString());
            setPending(pending);
            Q_EMIT checked();
        });
    if (sent)
        setBusy(true);
}

void BindingRequest::approve(const QStringList &services)
{
    QStringList chosen = services;
    if (chosen.isEmpty()) {
        for (const QVariant &entry : std::as_const(m_pending))
            chosen << entry.toMap().value(QStringLiteral("service")).toString();
    }
    if (chosen.isEmpty())
        return Q_EMIT approved({});
    setBusy(true);
    qCDebug(lcBindingRequest) << "approving" << chosen << "of" << m_kitDirectory;
    act(QStringLiteral("binding.approve"),
        {{QStringLiteral("kit"), m_kitDirectory}, {QStringLiteral("services"), QJsonArray::fromStringList(chosen)}},
        [this, chosen](const api::Reply &reply) {
            setBusy(false);
            if (reply.isError()) {
                setError(reply.errorMessage());
                return Q_EMIT failed(reply.errorMessage());
            }
            setError(QString());
            Q_EMIT approved(chosen);
        });
}

} // namespace paddock::gui

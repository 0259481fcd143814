// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxServices.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace paddock::gui {
namespace {

constexpr int kMaxEnvLines = 64;

} // namespace

SandboxServices::SandboxServices(QObject *parent) : DaemonBound(parent) {}

void SandboxServices::setName(const QString &name)
{
    if (name == m_name)
        return;
    m_name = name;
    m_services.clear();
    setError(QString());
    Q_EMIT nameChanged();
    Q_EMIT servicesChanged();
    reload();
}

void SandboxServices::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

void SandboxServices::reload()
{
    if (m_name.isEmpty())
        return;
    const QString asked = m_name;
    request(
        QStringLiteral("service.list"), {{QStringLiteral("sandbox"), asked}}, [this, asked](const api::Reply &reply) {
            if (asked != m_name)
                return;
            if (reply.isError())
                return setError(reply.errorMessage());
            QVariantList services;
            for (const QJsonValue &value : reply.result().value(QLatin1String("services")).toArray()) {
                const QJsonObject service = value.toObject();
                QStringList ports;
                for (const QJsonValue &port : service.value(QLatin1String("ports")).toArray())
                    ports << QString::number(port.toInt());
                services.append(QVariantMap{
                    {QStringLiteral("name"), service.value(QLatin1String("name")).toString()},
                    {QStringLiteral("image"), service.value(QLatin1String("image")).toString()},
                    {QStringLiteral("ports"), ports.join(QStringLiteral(", "))},
                    {QStringLiteral("env"),
                     QStringList(service.value(QLatin1String("env")).toObject().keys()).join(QStringLiteral(", "))}});
            }
            m_services = services;
            Q_EMIT servicesChanged();
        });
}

bool SandboxServices::add(const QString &service, const QString &image, const QString &port, const QString &envText)
{
    static const QRegularExpression variable(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]*\\z"));
    bool ok = false;
    const int number = port.trimmed().toInt(&ok);
    if (!ok || number < 1 || number > 65535) {
        setError(tr("The port is a number from 1 to 65535."));
        return false;
    }
    QJsonObject env;
    const QStringList lines = envText.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > kMaxEnvLines) {
        setError(tr("At most %1 variables.").arg(kMaxEnvLines));
        return false;
    }
    for (const QString &line : lines) {
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        const QString key = line.left(equals).trimmed();
        if (equals < 0 || !variable.match(key).hasMatch()) {
            setError(tr("Each variable is a line NAME=VALUE, not \"%1\".").arg(line.left(80)));
            return false;
        }
        env.insert(key, line.mid(equals + 1));
    }
    const QJsonObject params{{QStringLiteral("sandbox"), m_name},
                             {QStringLiteral("service"), QJsonObject{{QStringLiteral("name"), service.trimmed()},
                                                                     {QStringLiteral("image"), image.trimmed()},
                                                                     {QStringLiteral("ports"), QJsonArray{number}},
                                                                     {QStringLiteral("env"), env}}}};
    setError(QString());
    setBusy(true);
    act(QStringLiteral("service.add"), params,
        [this, service](const api::Reply &reply) { done(service.trimmed(), reply); });
    return true;
}

void SandboxServices::remove(const QString &service)
{
    setError(QString());
    setBusy(true);
    act(QStringLiteral("service.remove"), {{QStringLiteral("sandbox"), m_name}, {QStringLiteral("name"), service}},
        [this, service](const api::Reply &reply) { done(service, reply); });
}

void SandboxServices::done(const QString &service, const api::Reply &reply)
{
    setBusy(false);
    if (reply.isError())
        return setError(reply.errorMessage());
    reload();
    Q_EMIT changed(service);
}

} // namespace paddock::gui

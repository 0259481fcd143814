// SPDX-License-Identifier: GPL-3.0-or-later
#include "UpstreamProxySettings.h"

#include "api/DaemonClient.h"

namespace paddock::gui {

UpstreamProxySettings::UpstreamProxySettings(QObject *parent) : QObject(parent) {}

void UpstreamProxySettings::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    m_daemon = daemon;
    setClient(daemon ? daemon->client() : nullptr);
    emit daemonChanged();
}

void UpstreamProxySettings::setClient(api::DaemonClient *client)
{
    if (m_client == client)
        return;
    if (m_client)
        m_client->disconnect(this);
    m_client = client;
    if (!m_client)
        return;
    const auto start = [this] {
        m_client->subscribe({QStringLiteral("settings")});
        load();
    };
    connect(m_client, &api::DaemonClient::connected, this, start);
    connect(m_client, &api::DaemonClient::eventReceived, this, [this](const QString &topic, const QJsonObject &) {
        if (topic == QLatin1String("settings"))
            load();
    });
    if (m_client->isConnected())
        start();
}

void UpstreamProxySettings::load()
{
    if (!m_client || !m_client->isConnected())
        return;
    m_client->call(QStringLiteral("settings.get"), {},
                   [this, self = QPointer<UpstreamProxySettings>(this)](const api::Reply &reply) {
                       if (!self)
                           return;
                       if (reply.isError())
                           return setError(reply.errorMessage());
                       apply(reply.result());
                   });
}

void UpstreamProxySettings::apply(const QJsonObject &settings)
{
    const QJsonObject proxy = settings.value(QLatin1String("upstreamProxy")).toObject();
    const QJsonObject file = settings.value(QLatin1String("file")).toObject();
    m_url = proxy.value(QLatin1String("url")).toString();
    m_source = proxy.value(QLatin1String("source")).toString();
    m_noProxy = proxy.value(QLatin1String("noProxy")).toString();
    m_passwordSet = proxy.value(QLatin1String("password")).toBool();
    m_problem = proxy.value(QLatin1String("problem")).toString();
    if (m_problem.isEmpty())
        m_problem = settings.value(QLatin1String("problem")).toString();
    m_fileUrl = file.value(QLatin1String("upstreamProxy")).toString();
    m_fileNoProxy = file.value(QLatin1String("noProxy")).toString();
    m_loaded = true;
    emit settingsChanged();
}

QString UpstreamProxySettings::summary() const
{
    if (!m_loaded)
        return tr("Reading the settings…");
    if (m_url.isEmpty())
        return tr("None: connections that are allowed go straight out.");
    const QString password = m_passwordSet ? tr(", with a password from the keychain") : QString();
    return tr("Allowed connections go out through %1 (from %2%3).").arg(m_url, m_source, password);
}

void UpstreamProxySettings::save(const QString &url, const QString &noProxy, const QString &password)
{
    QList<QPair<QString, QJsonObject>> steps;
    const auto setting = [](const char *key, const QString &value) {
        return value.trimmed().isEmpty()
                   ? qMakePair(QStringLiteral("settings.unset"),
                               QJsonObject{{QStringLiteral("key"), QLatin1String(key)}})
                   : qMakePair(QStringLiteral("settings.set"), QJsonObject{{QStringLiteral("key"), QLatin1String(key)},
                                                                           {QStringLiteral("value"), value.trimmed()}});
    };
    steps << setting("upstream-proxy", url) << setting("no-proxy", noProxy);
    if (!password.isEmpty())
        steps << qMakePair(QStringLiteral("settings.set"),
                           QJsonObject{{QStringLiteral("key"), QStringLiteral("upstream-proxy-password")},
                                       {QStringLiteral("value"), password}});
    runSteps(std::move(steps), tr("Saved: in force for every connection from now on."));
}

void UpstreamProxySettings::forgetPassword()
{
    runSteps({qMakePair(QStringLiteral("settings.unset"),
                        QJsonObject{{QStringLiteral("key"), QStringLiteral("upstream-proxy-password")}})},
             tr("The password is removed from the keychain."));
}

void UpstreamProxySettings::runSteps(QList<QPair<QString, QJsonObject>> steps, const QString &doneMessage)
{
    if (!m_client || !m_client->isConnected()) {
        setError(tr("The daemon is not connected."));
        emit saved(false, m_error);
        return;
    }
    if (steps.isEmpty()) {
        setBusy(false);
        setError({});
        emit saved(true, doneMessage);
        return;
    }
    setBusy(true);
    const QPair<QString, QJsonObject> step = steps.takeFirst();
    m_client->call(step.first, step.second,
                   [this, self = QPointer<UpstreamProxySettings>(this), steps = std::move(steps),
                    doneMessage](const api::Reply &reply) mutable {
                       if (!self)
                           return;
                       if (reply.isError()) {
                           setBusy(false);
                           setError(reply.errorMessage());
                           emit saved(false, reply.errorMessage());
                           return;
                       }
                       apply(reply.result());
                       runSteps(std::move(steps), doneMessage);
                   });
}

void UpstreamProxySettings::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    emit errorChanged();
}

void UpstreamProxySettings::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

} // namespace paddock::gui

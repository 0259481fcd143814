// SPDX-License-Identifier: GPL-3.0-or-later
#include "UpstreamProxySettings.h"

namespace paddock::gui {

UpstreamProxySettings::UpstreamProxySettings(QObject *parent) : DaemonBound(parent)
{
    followTopics({QStringLiteral("settings")});
}

void UpstreamProxySettings::daemonEvent(const QString &topic, const QJsonObject &data)
{
    Q_UNUSED(data)
    if (topic == QLatin1String("settings"))
        load();
}

void UpstreamProxySettings::load()
{
    request(QStringLiteral("settings.get"), {}, [this](const api::Reply &reply) {
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
    if (steps.isEmpty()) {
        setBusy(false);
        setError({});
        emit saved(true, doneMessage);
        return;
    }
    setBusy(true);
    const QPair<QString, QJsonObject> step = steps.takeFirst();
    act(step.first, step.second, [this, steps, doneMessage](const api::Reply &reply) {
        if (reply.isError()) {
            setBusy(false);
            setError(reply.errorMessage());
            emit saved(false, reply.errorMessage());
            return;
        }
        apply(reply.result());
        runSteps(steps, doneMessage);
    });
}

void UpstreamProxySettings::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

} // namespace paddock::gui

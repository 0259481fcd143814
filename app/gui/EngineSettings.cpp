// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineSettings.h"

#include <QJsonArray>
#include <QJsonObject>

namespace paddock::gui {

EngineSettings::EngineSettings(QObject *parent) : DaemonBound(parent)
{
    followTopics({QStringLiteral("engines")});
}

void EngineSettings::daemonEvent(const QString &topic, const QJsonObject &data)
{
    Q_UNUSED(data)
    if (topic == QLatin1String("engines"))
        reload();
}

void EngineSettings::reload()
{
    request(QStringLiteral("engine.list"), {}, [this](const api::Reply &reply) {
        if (reply.isError())
            return setError(reply.errorMessage());
        apply(reply.result());
    });
}

void EngineSettings::apply(const QJsonObject &listed)
{
    QVariantList engines;
    for (const QJsonValue &value : listed.value(QLatin1String("engines")).toArray()) {
        const QJsonObject engine = value.toObject();
        const QString source = engine.value(QLatin1String("source")).toString();
        const QString sourceText = source == QLatin1String("local")            ? tr("this computer's engine")
                                   : source == QLatin1String("docker context") ? tr("a docker context")
                                                                               : tr("added in Paddock");
        const bool here = engine.value(QLatin1String("onThisComputer")).toBool();
        engines.append(QVariantMap{
            {QStringLiteral("name"), engine.value(QLatin1String("name")).toString()},
            {QStringLiteral("source"), sourceText},
            {QStringLiteral("host"), engine.value(QLatin1String("host")).toString()},
            {QStringLiteral("where"),
             here ? tr("on this computer") : tr("on another computer: sandboxes get a clone of the workspace")},
            {QStringLiteral("onThisComputer"), here},
            {QStringLiteral("inUse"), engine.value(QLatin1String("inUse")).toBool()},
            {QStringLiteral("dockerCurrent"), engine.value(QLatin1String("dockerCurrent")).toBool()},
            // Only Paddock's own: `local` is this computer's, and a context is the docker CLI's.
            {QStringLiteral("removable"), source == QLatin1String("paddock")}});
    }
    m_engines = engines;
    m_inUse = listed.value(QLatin1String("use")).toString();
    QStringList problems;
    for (const QJsonValue &problem : listed.value(QLatin1String("problems")).toArray())
        problems << problem.toString();
    m_problems = problems.join(QLatin1Char('\n'));
    Q_EMIT enginesChanged();
}

void EngineSettings::use(const QString &name)
{
    setBusy(true);
    act(QStringLiteral("engine.use"), {{QStringLiteral("name"), name}}, [this](const api::Reply &reply) {
        setBusy(false);
        if (reply.isError())
            return setError(reply.errorMessage());
        setError(QString());
        apply(reply.result());
    });
}

void EngineSettings::add(const QString &name, const QString &host, const QString &tlsCa, const QString &tlsCert,
                         const QString &tlsKey, bool remote)
{
    // As `paddock engine add` sends it: the daemon checks every field and asks the engine.
    QJsonObject params{{QStringLiteral("name"), name.trimmed()}, {QStringLiteral("host"), host.trimmed()}};
    for (const auto &[key, path] : {std::pair{"tlsCa", tlsCa}, {"tlsCert", tlsCert}, {"tlsKey", tlsKey}}) {
        if (!path.trimmed().isEmpty())
            params.insert(QLatin1String(key), path.trimmed());
    }
    if (remote)
        params.insert(QStringLiteral("remote"), true);
    setAddError(QString());
    setBusy(true);
    act(QStringLiteral("engine.add"), params, [this, name = name.trimmed()](const api::Reply &reply) {
        setBusy(false);
        if (reply.isError())
            return setAddError(reply.errorMessage());
        apply(reply.result());
        Q_EMIT added(name);
    });
}

void EngineSettings::remove(const QString &name)
{
    setBusy(true);
    act(QStringLiteral("engine.remove"), {{QStringLiteral("name"), name}}, [this](const api::Reply &reply) {
        setBusy(false);
        if (reply.isError())
            return setError(reply.errorMessage());
        setError(QString());
        apply(reply.result());
    });
}

void EngineSettings::setAddError(const QString &error)
{
    if (error == m_addError)
        return;
    m_addError = error;
    Q_EMIT addErrorChanged();
}

void EngineSettings::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged();
}

} // namespace paddock::gui

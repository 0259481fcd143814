// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentPerms.h"

#include <QJsonArray>
#include <QSet>

namespace paddock::gui {
namespace {

// "permission" / SURFACE / PATTERN: the field of a schema problem, as the rows name them.
QString fieldKey(const QString &surface, const QString &pattern)
{
    return surface + QLatin1Char('\n') + pattern;
}

} // namespace

AgentPerms::AgentPerms(QObject *parent) : DaemonBound(parent)
{
    followTopics({QStringLiteral("agent")});
}

void AgentPerms::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == QLatin1String("agent") && data.value(QLatin1String("type")) == QLatin1String("changed") &&
        data.value(QLatin1String("path")).toString() == m_path)
        reload();
}

void AgentPerms::setKit(const QString &kit)
{
    if (kit == m_kit)
        return;
    m_kit = kit;
    m_sandbox.clear();
    m_scope = QStringLiteral("global");
    emit targetChanged();
    reload();
}

void AgentPerms::setSandbox(const QString &sandbox)
{
    if (sandbox == m_sandbox)
        return;
    m_sandbox = sandbox;
    m_kit.clear();
    m_scope = QStringLiteral("project");
    emit targetChanged();
    reload();
}

void AgentPerms::setScope(const QString &scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    emit targetChanged();
    reload();
}

QJsonObject AgentPerms::target() const
{
    QJsonObject params;
    if (!m_sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), m_sandbox);
    else
        params.insert(QStringLiteral("kit"), m_kit);
    params.insert(QStringLiteral("scope"), m_scope);
    return params;
}

void AgentPerms::pending(int delta)
{
    m_pending += delta;
    emit busyChanged();
}

void AgentPerms::reload()
{
    if (m_kit.isEmpty() && m_sandbox.isEmpty())
        return;
    const QString scope = m_scope;
    const bool sent = request(QStringLiteral("agent.config"), target(), [this, scope](const api::Reply &reply) {
        pending(-1);
        if (reply.isError())
            return setError(reply.errorMessage());
        setError({});
        m_schemaVersion = reply.result().value(QLatin1String("schemaVersion")).toString();
        apply(reply.result().value(scope).toObject());
    });
    if (sent)
        pending(1);
}

void AgentPerms::apply(const QJsonObject &file)
{
    // A problem is shown at its rule (its field names the surface and the pattern), else at
    // the rule on its line, else above the table.
    QHash<QString, QString> byField;
    QHash<int, QString> byLine;
    m_problems.clear();
    for (const QJsonValue &value : file.value(QLatin1String("problems")).toArray()) {
        const QJsonObject p = value.toObject();
        const QJsonArray field = p.value(QLatin1String("field")).toArray();
        const QString text = p.value(QLatin1String("message")).toString();
        if (field.size() >= 3 && field.at(0).toString() == QLatin1String("permission"))
            byField.insert(fieldKey(field.at(1).toString(), field.at(2).toString()), text);
        else if (field.size() == 2 && field.at(0).toString() == QLatin1String("permission"))
            byField.insert(fieldKey(field.at(1).toString(), QStringLiteral("*")), text);
        else
            m_problems << tr("Line %1: %2").arg(p.value(QLatin1String("line")).toInt()).arg(text);
        byLine.insert(p.value(QLatin1String("line")).toInt(), text);
    }
    for (const QString &key : {QStringLiteral("parseError"), QStringLiteral("readError")}) {
        if (!file.value(key).toString().isEmpty())
            m_problems << file.value(key).toString();
    }
    m_rules.clear();
    for (const QJsonValue &value : file.value(QLatin1String("surfaces")).toArray()) {
        const QJsonObject surface = value.toObject();
        const QJsonArray rules = surface.value(QLatin1String("rules")).toArray();
        for (qsizetype i = 0; i < rules.size(); ++i) {
            const QJsonObject rule = rules.at(i).toObject();
            const QString name = surface.value(QLatin1String("name")).toString();
            const QString pattern = rule.value(QLatin1String("pattern")).toString();
            const int line = rule.value(QLatin1String("line")).toInt();
            m_rules << QVariantMap{
                {QStringLiteral("surface"), name},
                {QStringLiteral("pattern"), pattern},
                {QStringLiteral("state"), rule.value(QLatin1String("state")).toString()},
                {QStringLiteral("reason"), rule.value(QLatin1String("reason")).toString()},
                {QStringLiteral("shorthand"), surface.value(QLatin1String("shorthand")).toBool()},
                {QStringLiteral("line"), line},
                {QStringLiteral("index"), int(i)},
                {QStringLiteral("count"), int(rules.size())},
                {QStringLiteral("problem"), byField.value(fieldKey(name, pattern), byLine.value(line))}};
        }
    }
    // A rule the schema refuses is not in the model: it still gets a row, to carry its message.
    QSet<QString> shown;
    for (const QVariant &row : std::as_const(m_rules))
        shown.insert(fieldKey(row.toMap().value(QStringLiteral("surface")).toString(),
                              row.toMap().value(QStringLiteral("pattern")).toString()));
    for (auto it = byField.cbegin(); it != byField.cend(); ++it) {
        if (shown.contains(it.key()))
            continue;
        m_rules << QVariantMap{{QStringLiteral("surface"), it.key().section(QLatin1Char('\n'), 0, 0)},
                               {QStringLiteral("pattern"), it.key().section(QLatin1Char('\n'), 1)},
                               {QStringLiteral("state"), QString()},
                               {QStringLiteral("reason"), QString()},
                               {QStringLiteral("shorthand"), false},
                               {QStringLiteral("line"), 0},
                               {QStringLiteral("index"), -1},
                               {QStringLiteral("count"), 0},
                               {QStringLiteral("problem"), it.value()}};
    }
    m_path = file.value(QLatin1String("path")).toString();
    m_exists = file.value(QLatin1String("exists")).toBool();
    emit loaded();
}

void AgentPerms::call(const QString &method, QJsonObject params, bool reloadAfter)
{
    const QJsonObject base = target();
    for (auto it = base.begin(); it != base.end(); ++it)
        params.insert(it.key(), it.value());
    pending(1);
    act(method, params, [this, reloadAfter](const api::Reply &reply) {
        pending(-1);
        if (reply.isError())
            return setError(reply.errorMessage());
        setError({});
        const QJsonObject result = reply.result();
        if (result.contains(QLatin1String("changed")))
            setMessage(result.value(QLatin1String("changed")).toBool()
                           ? tr("Changed %1").arg(result.value(QLatin1String("path")).toString())
                           : tr("No change: the file already says so."));
        if (reloadAfter) {
            reload();
        } else {
            m_testResult = result.toVariantMap();
            emit testResultChanged();
        }
    });
}

void AgentPerms::setRule(const QString &surface, const QString &pattern, const QString &state)
{
    QJsonObject params{{QStringLiteral("surface"), surface.trimmed()}, {QStringLiteral("state"), state}};
    if (!pattern.isEmpty())
        params.insert(QStringLiteral("pattern"), pattern);
    call(QStringLiteral("agent.set"), params, true);
}

void AgentPerms::removeRule(const QString &surface, const QString &pattern)
{
    QJsonObject params{{QStringLiteral("surface"), surface}};
    if (!pattern.isEmpty())
        params.insert(QStringLiteral("pattern"), pattern);
    call(QStringLiteral("agent.remove"), params, true);
}

void AgentPerms::moveRule(const QString &surface, const QString &pattern, int index)
{
    call(QStringLiteral("agent.move"),
         {{QStringLiteral("surface"), surface}, {QStringLiteral("pattern"), pattern}, {QStringLiteral("index"), index}},
         true);
}

void AgentPerms::test(const QString &query)
{
    call(QStringLiteral("agent.test"), {{QStringLiteral("query"), query}}, false);
}

QString AgentPerms::command(const QString &verb, const QString &surface, const QString &pattern,
                            const QString &state) const
{
    const QString where = m_sandbox.isEmpty() ? QStringLiteral("--kit '%1'").arg(m_kit)
                                              : QStringLiteral("--sandbox %1 --scope %2").arg(m_sandbox, m_scope);
    QStringList parts{QStringLiteral("paddock agent-perms"), verb, where, surface};
    if (!pattern.isEmpty())
        parts << QStringLiteral("'%1'").arg(pattern);
    if (!state.isEmpty())
        parts << state;
    return parts.join(QLatin1Char(' '));
}

void AgentPerms::setMessage(const QString &message)
{
    m_message = message;
    emit messageChanged();
}

} // namespace paddock::gui

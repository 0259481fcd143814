// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/AgentVerbs.h"

#include <QJsonArray>

namespace paddock::kit {

namespace {

const char *keyOf(AgentVerb verb)
{
    switch (verb) {
    case AgentVerb::NewSession:
        return "newSession";
    case AgentVerb::Prompt:
        return "prompt";
    case AgentVerb::Resume:
        return "resume";
    case AgentVerb::Continue:
        return "continue";
    case AgentVerb::SessionPicker:
        return "sessionPicker";
    case AgentVerb::List:
        break;
    }
    return "list";
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

/** The `list` command of @p declaration as argv, or empty. */
QStringList listCommand(const std::optional<QJsonObject> &declaration)
{
    if (!declaration)
        return {};
    const QJsonValue list = declaration->value(QLatin1String("list"));
    if (list.isString())
        return list.toString().trimmed().isEmpty()
                   ? QStringList()
                   : QStringList{QStringLiteral("sh"), QStringLiteral("-c"), list.toString()};
    const QStringList argv = strings(list);
    return argv.join(QString()).trimmed().isEmpty() ? QStringList() : argv;
}

} // namespace

QString agentVerbName(AgentVerb verb)
{
    switch (verb) {
    case AgentVerb::NewSession:
        return QStringLiteral("new-session");
    case AgentVerb::SessionPicker:
        return QStringLiteral("session-picker");
    default:
        break;
    }
    return QLatin1String(keyOf(verb));
}

std::optional<AgentVerb> agentVerbNamed(const QString &name)
{
    for (AgentVerb verb : {AgentVerb::NewSession, AgentVerb::Prompt, AgentVerb::Resume, AgentVerb::Continue,
                           AgentVerb::SessionPicker, AgentVerb::List}) {
        if (agentVerbName(verb) == name)
            return verb;
    }
    return std::nullopt;
}

QJsonObject AgentVerbs::declaredJson() const
{
    QJsonArray terminal;
    QJsonArray headlessVerbs;
    for (AgentVerb verb : {AgentVerb::NewSession, AgentVerb::Prompt, AgentVerb::Resume, AgentVerb::Continue,
                           AgentVerb::SessionPicker, AgentVerb::List}) {
        // With a terminal, the kit's own verbs: a new session is listed where the kit declares them.
        if (declares(verb, true) && (interactive || verb == AgentVerb::List))
            terminal.append(agentVerbName(verb));
        if (declares(verb, false))
            headlessVerbs.append(agentVerbName(verb));
    }
    return {{QStringLiteral("terminal"), terminal}, {QStringLiteral("headless"), headlessVerbs}};
}

bool AgentVerbs::declares(AgentVerb verb, bool terminal) const
{
    if (verb == AgentVerb::List)
        return !listCommand(headless).isEmpty() || !listCommand(interactive).isEmpty();
    if (terminal) {
        if (verb == AgentVerb::NewSession)
            return true;
        return interactive && interactive->contains(QLatin1String(keyOf(verb)));
    }
    if (verb == AgentVerb::NewSession || verb == AgentVerb::SessionPicker || !headless)
        return false;
    return !headless->value(QLatin1String(keyOf(verb))).toArray().isEmpty();
}

Result<QStringList> AgentVerbs::argv(AgentVerb verb, bool terminal, const QString &value) const
{
    if (!declares(verb, terminal)) {
        const QString capability =
            terminal ? QStringLiteral("agent-interactive-sessions@1") : QStringLiteral("agent-sessions@1");
        return fail(QStringLiteral("kit %1 does not declare a %2 verb%3")
                        .arg(kitName, agentVerbName(verb),
                             terminal ? QStringLiteral(" for a terminal session")
                                      : QStringLiteral(" for a run without a terminal")),
                    QStringLiteral("the kit's %1 says which operations its agent has").arg(capability));
    }
    if (verb == AgentVerb::List) {
        const QStringList own = listCommand(headless);
        return own.isEmpty() ? listCommand(interactive) : own;
    }
    if (launch.isEmpty())
        return fail(
            QStringLiteral("kit %1's workload names no program (no Entrypoint or Cmd in its image)").arg(kitName));
    QStringList tail;
    if (verb == AgentVerb::NewSession && !(interactive && interactive->contains(QLatin1String("newSession"))))
        tail = interactiveTail.value_or(QStringList());
    else
        tail = strings((terminal ? *interactive : *headless).value(QLatin1String(keyOf(verb))));
    const QString placeholder = QLatin1String(verb == AgentVerb::Prompt   ? kPromptPlaceholder
                                              : verb == AgentVerb::Resume ? kSessionIdPlaceholder
                                                                          : "");
    if (!placeholder.isEmpty()) {
        for (QString &word : tail)
            word.replace(placeholder, value);
    }
    return launch + tail;
}

QJsonObject AgentVerbs::toJson() const
{
    QJsonObject object{{QStringLiteral("kit"), kitName},
                       {QStringLiteral("launch"), QJsonArray::fromStringList(launch)}};
    if (interactiveTail)
        object.insert(QStringLiteral("interactiveTail"), QJsonArray::fromStringList(*interactiveTail));
    if (headless)
        object.insert(QStringLiteral("sessions"), *headless);
    if (interactive)
        object.insert(QStringLiteral("interactiveSessions"), *interactive);
    return object;
}

AgentVerbs AgentVerbs::fromJson(const QJsonObject &object)
{
    AgentVerbs verbs;
    verbs.kitName = object.value(QLatin1String("kit")).toString();
    verbs.launch = strings(object.value(QLatin1String("launch")));
    if (object.contains(QLatin1String("interactiveTail")))
        verbs.interactiveTail = strings(object.value(QLatin1String("interactiveTail")));
    if (object.value(QLatin1String("sessions")).isObject())
        verbs.headless = object.value(QLatin1String("sessions")).toObject();
    if (object.value(QLatin1String("interactiveSessions")).isObject())
        verbs.interactive = object.value(QLatin1String("interactiveSessions")).toObject();
    return verbs;
}

QStringList parseSessionIds(const QByteArray &output)
{
    QStringList ids;
    for (const QByteArray &raw : output.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.size() > 256)
            continue;
        const bool control =
            std::any_of(line.cbegin(), line.cend(), [](char c) { return uchar(c) < 0x20 || c == 0x7f; });
        const QString id = QString::fromUtf8(line);
        if (control || id.contains(QChar::ReplacementCharacter) || ids.contains(id))
            continue;
        ids << id;
        if (ids.size() == kMaxSessionIds)
            break;
    }
    return ids;
}

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/ConfigSchema.h"

#include "agentperms/AgentConfig.h"

#include <QSet>

namespace paddock::agentperms {
namespace {

constexpr qsizetype kMaxReasonChars = 500;
constexpr double kMaxSafeInteger = 9007199254740991.0;

class Checker
{
public:
    explicit Checker(const QString &text) : m_text(text) {}

    void root(const JsonNode &node)
    {
        if (!node.isObject()) {
            add(node.begin, {}, QStringLiteral("the config must be a JSON object"));
            return;
        }
        duplicates(node, {});
        for (const JsonNode::Member &member : node.members) {
            const QStringList field{member.key};
            const QString &key = member.key;
            if (key == QLatin1String("$schema"))
                expectString(member.value, field, false);
            else if (key == QLatin1String("debugLog") || key == QLatin1String("permissionReviewLog") ||
                     key == QLatin1String("yoloMode") || key == QLatin1String("doublePressToConfirm"))
                expectBool(member.value, field);
            else if (key == QLatin1String("toolInputPreviewMaxLength") ||
                     key == QLatin1String("toolTextSummaryMaxLength"))
                expectPositiveInteger(member.value, field);
            else if (key == QLatin1String("piInfrastructureReadPaths"))
                stringArray(member.value, field);
            else if (key == QLatin1String("permission"))
                permission(member.value, field);
            else if (key == QLatin1String("shellTools"))
                shellTools(member.value, field);
            else
                add(member.keyBegin, field,
                    QStringLiteral("unknown key \"%1\"; expected one of: %2")
                        .arg(key, schemaTopLevelKeys().join(QStringLiteral(", "))));
        }
    }

    QList<ConfigProblem> problems;

private:
    void add(qsizetype at, const QStringList &field, const QString &message, bool warning = false)
    {
        problems.append({lineAt(m_text, at), columnAt(m_text, at), field, message, warning});
    }

    void duplicates(const JsonNode &object, const QStringList &field)
    {
        QSet<QString> seen;
        for (const JsonNode::Member &member : object.members) {
            if (seen.contains(member.key))
                add(member.keyBegin, field + QStringList{member.key},
                    QStringLiteral("\"%1\" is written twice; only the last one counts").arg(member.key), true);
            seen.insert(member.key);
        }
    }

    void expectString(const JsonNode &node, const QStringList &field, bool nonEmpty)
    {
        if (!node.isString())
            add(node.begin, field, QStringLiteral("expected a string"));
        else if (nonEmpty && node.string.isEmpty())
            add(node.begin, field, QStringLiteral("expected a non-empty string"));
    }

    void expectBool(const JsonNode &node, const QStringList &field)
    {
        if (node.kind != JsonNode::Kind::Bool)
            add(node.begin, field, QStringLiteral("expected true or false"));
    }

    void expectPositiveInteger(const JsonNode &node, const QStringList &field)
    {
        bool ok = false;
        const double value = node.string.toDouble(&ok);
        const bool integral = node.kind == JsonNode::Kind::Number && ok && value == double(qint64(value));
        if (!integral || value < 1 || value > kMaxSafeInteger)
            add(node.begin, field, QStringLiteral("expected a whole number of at least 1"));
    }

    void stringArray(const JsonNode &node, const QStringList &field)
    {
        if (node.kind != JsonNode::Kind::Array) {
            add(node.begin, field, QStringLiteral("expected a list of strings"));
            return;
        }
        for (std::size_t i = 0; i < node.items.size(); ++i)
            expectString(node.items[i], field + QStringList{QString::number(i)}, true);
    }

    bool state(const JsonNode &node, const QStringList &field)
    {
        if (node.isString() && stateFromName(node.string))
            return true;
        add(node.begin, field,
            node.isString() ? QStringLiteral("\"%1\" is not a state; expected allow, ask or deny").arg(node.string)
                            : QStringLiteral("expected allow, ask or deny"));
        return false;
    }

    void permission(const JsonNode &node, const QStringList &field)
    {
        if (!node.isObject()) {
            add(node.begin, field, QStringLiteral("expected an object of surfaces (\"*\", \"path\", \"bash\", …)"));
            return;
        }
        duplicates(node, field);
        for (const JsonNode::Member &member : node.members) {
            const QStringList surfaceField = field + QStringList{member.key};
            if (member.key.isEmpty())
                add(member.keyBegin, surfaceField, QStringLiteral("a surface name cannot be empty"));
            if (member.value.isObject())
                patternMap(member.value, surfaceField);
            else if (!member.value.isString() || !stateFromName(member.value.string))
                add(member.value.begin, surfaceField,
                    QStringLiteral("expected allow, ask or deny, or an object of patterns"));
        }
    }

    void patternMap(const JsonNode &node, const QStringList &field)
    {
        duplicates(node, field);
        for (const JsonNode::Member &member : node.members) {
            const QStringList patternField = field + QStringList{member.key};
            if (member.key.isEmpty())
                add(member.keyBegin, patternField, QStringLiteral("a pattern cannot be empty"));
            if (member.value.isObject())
                denyWithReason(member.value, patternField);
            else
                state(member.value, patternField);
        }
    }

    void denyWithReason(const JsonNode &node, const QStringList &field)
    {
        const JsonNode *action = node.member(QStringLiteral("action"));
        if (!action || !action->isString() || action->string != QLatin1String("deny"))
            add(action ? action->begin : node.begin, field,
                QStringLiteral("an object here must be {\"action\": \"deny\", \"reason\": \"…\"}"));
        for (const JsonNode::Member &member : node.members) {
            if (member.key == QLatin1String("reason")) {
                if (!member.value.isString())
                    add(member.value.begin, field + QStringList{member.key}, QStringLiteral("expected a string"));
                else if (member.value.string.size() > kMaxReasonChars)
                    add(member.value.begin, field + QStringList{member.key},
                        QStringLiteral("a reason is at most %1 characters").arg(kMaxReasonChars));
            } else if (member.key != QLatin1String("action")) {
                add(member.keyBegin, field + QStringList{member.key},
                    QStringLiteral("unknown key \"%1\"; expected action and reason").arg(member.key));
            }
        }
    }

    void shellTools(const JsonNode &node, const QStringList &field)
    {
        if (!node.isObject()) {
            add(node.begin, field, QStringLiteral("expected an object of tool names"));
            return;
        }
        for (const JsonNode::Member &tool : node.members) {
            const QStringList toolField = field + QStringList{tool.key};
            if (!tool.value.isObject()) {
                add(tool.value.begin, toolField, QStringLiteral("expected {\"commandArgument\": \"…\"}"));
                continue;
            }
            if (!tool.value.member(QStringLiteral("commandArgument")))
                add(tool.value.begin, toolField, QStringLiteral("commandArgument is required"));
            for (const JsonNode::Member &member : tool.value.members) {
                if (member.key == QLatin1String("commandArgument") || member.key == QLatin1String("workdirArgument"))
                    expectString(member.value, toolField + QStringList{member.key}, true);
                else
                    add(member.keyBegin, toolField + QStringList{member.key},
                        QStringLiteral("unknown key \"%1\"; expected commandArgument and workdirArgument")
                            .arg(member.key));
            }
        }
    }

    const QString &m_text;
};

} // namespace

QString ConfigProblem::toString() const
{
    QString where;
    for (const QString &part : field)
        where += where.isEmpty() ? part : QStringLiteral("[%1]").arg(jsonQuoted(part));
    return QStringLiteral("%1:%2: %3%4%5")
        .arg(line)
        .arg(column)
        .arg(warning ? QStringLiteral("warning: ") : QString(), where,
             (where.isEmpty() ? QString() : QStringLiteral(": ")) + message);
}

QStringList schemaTopLevelKeys()
{
    return {QStringLiteral("$schema"),
            QStringLiteral("debugLog"),
            QStringLiteral("permissionReviewLog"),
            QStringLiteral("yoloMode"),
            QStringLiteral("doublePressToConfirm"),
            QStringLiteral("toolInputPreviewMaxLength"),
            QStringLiteral("toolTextSummaryMaxLength"),
            QStringLiteral("piInfrastructureReadPaths"),
            QStringLiteral("permission"),
            QStringLiteral("shellTools")};
}

QList<ConfigProblem> checkConfig(const JsonNode &root, const QString &text)
{
    Checker checker(text);
    checker.root(root);
    return checker.problems;
}

bool hasErrors(const QList<ConfigProblem> &problems)
{
    return std::any_of(problems.cbegin(), problems.cend(), [](const ConfigProblem &p) { return !p.warning; });
}

} // namespace paddock::agentperms

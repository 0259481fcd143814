// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/ScopeFile.h"

#include "agentperms/ConfinedFile.h"

#include <QJsonArray>

namespace paddock::agentperms {
namespace {

QJsonObject verdictJson(const LayerVerdict &v)
{
    return {{QStringLiteral("layer"), v.layer},
            {QStringLiteral("surface"), v.surface},
            {QStringLiteral("pattern"), v.pattern},
            {QStringLiteral("value"), v.value},
            {QStringLiteral("scope"), v.scope},
            {QStringLiteral("line"), v.line},
            {QStringLiteral("state"), stateName(v.state)},
            {QStringLiteral("fallback"), v.fallback},
            {QStringLiteral("rule"), v.ruleText()}};
}

} // namespace

QJsonObject ScopeFile::toJson() const
{
    QJsonArray problemList;
    for (const ConfigProblem &p : problems)
        problemList.append(QJsonObject{{QStringLiteral("line"), p.line},
                                       {QStringLiteral("column"), p.column},
                                       {QStringLiteral("field"), QJsonArray::fromStringList(p.field)},
                                       {QStringLiteral("message"), p.message},
                                       {QStringLiteral("warning"), p.warning}});
    QJsonArray surfaces;
    for (const Surface &s : config.surfaces) {
        QJsonArray rules;
        for (const PatternRule &r : s.rules)
            rules.append(QJsonObject{{QStringLiteral("pattern"), r.pattern},
                                     {QStringLiteral("state"), stateName(r.state)},
                                     {QStringLiteral("reason"), r.reason},
                                     {QStringLiteral("line"), r.line}});
        surfaces.append(QJsonObject{{QStringLiteral("name"), s.name},
                                    {QStringLiteral("shorthand"), s.shorthand},
                                    {QStringLiteral("line"), s.line},
                                    {QStringLiteral("rules"), rules}});
    }
    return {{QStringLiteral("scope"), scope},
            {QStringLiteral("path"), path()},
            {QStringLiteral("exists"), exists},
            {QStringLiteral("text"), text},
            {QStringLiteral("surfaces"), surfaces},
            {QStringLiteral("problems"), problemList},
            {QStringLiteral("parseError"), parseError},
            {QStringLiteral("readError"), readError},
            {QStringLiteral("schemaVersion"), QLatin1String(kSchemaVersion)}};
}

ScopeFile ScopeFile::load(const QString &scope, const QString &root, const QString &relative)
{
    ScopeFile file;
    file.scope = scope;
    file.root = root;
    file.relative = relative;
    bool missing = false;
    QString error;
    const std::optional<QByteArray> data = readConfined(root, relative, kMaxConfigBytes, &missing, &error);
    if (!data) {
        if (!missing)
            file.readError = error;
        return file;
    }
    file.exists = true;
    file.setText(QString::fromUtf8(*data));
    return file;
}

void ScopeFile::setText(const QString &newText)
{
    text = newText;
    config = {};
    problems.clear();
    parseError.clear();
    if (text.trimmed().isEmpty())
        return;
    JsoncError error;
    const std::optional<JsonNode> parsed = parseJsonc(text, &error);
    if (!parsed) {
        parseError = QStringLiteral("%1:%2: %3").arg(error.line).arg(error.column).arg(error.message);
        return;
    }
    problems = checkConfig(*parsed, text);
    config = configFromJson(*parsed, text, scope);
}

bool ScopeFile::save(const QString &newText, QString *error)
{
    ScopeFile checked = *this;
    checked.setText(newText);
    if (!checked.parseError.isEmpty()) {
        *error = QStringLiteral("%1 would not parse: %2").arg(path(), checked.parseError);
        return false;
    }
    if (hasErrors(checked.problems)) {
        *error = QStringLiteral("%1 would not follow the schema: %2").arg(path(), checked.problems.first().toString());
        return false;
    }
    if (!writeConfined(root, relative, newText.toUtf8(), error))
        return false;
    *this = checked;
    exists = true;
    return true;
}

QStringList describeRules(const PermissionConfig &config)
{
    QStringList lines;
    for (const Surface &surface : config.surfaces) {
        if (surface.shorthand) {
            lines << QStringLiteral("%1: %2").arg(surface.name, stateName(surface.rules.first().state));
            continue;
        }
        QStringList rules;
        for (const PatternRule &rule : surface.rules)
            rules << QStringLiteral("%1 → %2").arg(rule.pattern, stateName(rule.state));
        lines << QStringLiteral("%1: %2").arg(surface.name, rules.join(QStringLiteral(", ")));
    }
    return lines;
}

QList<RuleChange> allowRulesFor(const PermissionConfig &config, const AgentDecision &decision,
                                const TestContext &context)
{
    const QString value = decision.value();
    const TestResult result = testCall(config, {decision.tool, value}, context);
    QList<RuleChange> changes;
    for (const LayerVerdict &layer : result.layers) {
        if (layer.state == State::Allow)
            continue;
        RuleChange change;
        change.surface = layer.layer == QLatin1String("tool") ? decision.tool : layer.layer;
        // The value as the agent wrote it; for the path layers, the form (or bash argument) that matched.
        const bool pathLayer =
            layer.layer == QLatin1String("path") || layer.layer == QLatin1String("external_directory");
        change.pattern = pathLayer && !layer.value.isEmpty() ? layer.value : value;
        if (std::none_of(changes.cbegin(), changes.cend(), [&](const RuleChange &c) {
                return c.surface == change.surface && c.pattern == change.pattern;
            }))
            changes.append(change);
    }
    if (changes.isEmpty() && !decision.tool.isEmpty() && !value.isEmpty())
        changes.append({decision.tool, value, State::Allow});
    return changes;
}

QJsonArray lineDiff(const QString &before, const QString &after)
{
    const QStringList a = before.split(QLatin1Char('\n'));
    const QStringList b = after.split(QLatin1Char('\n'));
    // Common prefix and suffix first: an edit touches a few lines of a short file.
    qsizetype head = 0;
    while (head < a.size() && head < b.size() && a.at(head) == b.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a.at(a.size() - 1 - tail) == b.at(b.size() - 1 - tail))
        ++tail;
    const QStringList x = a.mid(head, a.size() - head - tail);
    const QStringList y = b.mid(head, b.size() - head - tail);
    // Longest common subsequence of what is left (small), then walk it; a wholesale rewrite
    // of a large file is shown as such.
    if (x.size() * y.size() > 1000000) {
        QJsonArray diff;
        for (qsizetype i = 0; i < x.size(); ++i)
            diff.append(QJsonObject{{QStringLiteral("kind"), QStringLiteral("-")},
                                    {QStringLiteral("line"), int(head + i + 1)},
                                    {QStringLiteral("text"), x.at(i)}});
        for (qsizetype j = 0; j < y.size(); ++j)
            diff.append(QJsonObject{{QStringLiteral("kind"), QStringLiteral("+")},
                                    {QStringLiteral("line"), int(head + j + 1)},
                                    {QStringLiteral("text"), y.at(j)}});
        return diff;
    }
    std::vector<std::vector<int>> lcs(std::size_t(x.size() + 1), std::vector<int>(std::size_t(y.size() + 1), 0));
    for (qsizetype i = x.size() - 1; i >= 0; --i)
        for (qsizetype j = y.size() - 1; j >= 0; --j)
            lcs[i][j] = x.at(i) == y.at(j) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    QJsonArray diff;
    const auto add = [&diff](const char *kind, qsizetype line, const QString &text) {
        diff.append(QJsonObject{{QStringLiteral("kind"), QLatin1String(kind)},
                                {QStringLiteral("line"), int(line + 1)},
                                {QStringLiteral("text"), text}});
    };
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < x.size() || j < y.size()) {
        if (i < x.size() && j < y.size() && x.at(i) == y.at(j)) {
            ++i;
            ++j;
        } else if (i < x.size() && (j == y.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
            add("-", head + i, x.at(i));
            ++i;
        } else {
            add("+", head + j, y.at(j));
            ++j;
        }
    }
    return diff;
}

QJsonObject testResultJson(const TestResult &result)
{
    QJsonArray layers;
    for (const LayerVerdict &v : result.layers)
        layers.append(verdictJson(v));
    QJsonObject json{{QStringLiteral("state"), stateName(result.state)},
                     {QStringLiteral("layers"), layers},
                     {QStringLiteral("notes"), QJsonArray::fromStringList(result.notes)},
                     {QStringLiteral("certain"), result.certain}};
    if (result.decidedBy)
        json.insert(QStringLiteral("decidedBy"), verdictJson(*result.decidedBy));
    if (result.firstStop)
        json.insert(QStringLiteral("firstStop"), verdictJson(*result.firstStop));
    return json;
}

} // namespace paddock::agentperms

// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/RuleTester.h"

#include <QDir>
#include <QRegularExpression>
#include <QSet>

namespace paddock::agentperms {
namespace {

const QSet<QString> kPathTools{QStringLiteral("read"), QStringLiteral("write"), QStringLiteral("edit"),
                               QStringLiteral("find"), QStringLiteral("grep"),  QStringLiteral("ls")};
const QStringList kMcpBaseline{QStringLiteral("mcp_status"), QStringLiteral("mcp_list"), QStringLiteral("mcp_search"),
                               QStringLiteral("mcp_describe"), QStringLiteral("mcp_connect")};
// Commands that run another command the rule on their own text never sees (documented list).
const QSet<QString> kIndirection{QStringLiteral("sudo"),   QStringLiteral("env"),      QStringLiteral("xargs"),
                                 QStringLiteral("time"),   QStringLiteral("nohup"),    QStringLiteral("timeout"),
                                 QStringLiteral("nice"),   QStringLiteral("parallel"), QStringLiteral("rust-parallel"),
                                 QStringLiteral("rush"),   QStringLiteral("doas"),     QStringLiteral("setsid"),
                                 QStringLiteral("stdbuf"), QStringLiteral("watch"),    QStringLiteral("flock")};
const QSet<QString> kShells{QStringLiteral("bash"), QStringLiteral("sh"), QStringLiteral("dash"), QStringLiteral("zsh"),
                            QStringLiteral("ksh")};

struct FlatRule
{
    QString surface;
    PatternRule rule;
    bool isDefault = false;
};

QList<FlatRule> flatten(const PermissionConfig &config)
{
    QList<FlatRule> rules;
    PatternRule fallback{QStringLiteral("*"), config.universal().value_or(State::Ask), {}, QStringLiteral("default")};
    if (const Surface *all = config.surface(QStringLiteral("*")); all && config.universal())
        fallback = all->rules.first();
    rules.append({QStringLiteral("*"), fallback, true});
    const Surface *mcp = config.surface(QStringLiteral("mcp"));
    if (mcp && std::any_of(mcp->rules.cbegin(), mcp->rules.cend(),
                           [](const PatternRule &r) { return r.state == State::Allow; })) {
        for (const QString &target : kMcpBaseline)
            rules.append({QStringLiteral("mcp"), {target, State::Allow, {}, QStringLiteral("baseline")}, false});
    }
    for (const Surface &surface : config.surfaces) {
        if (surface.name == QLatin1String("*"))
            continue;
        for (const PatternRule &rule : surface.rules)
            rules.append({surface.name, rule, false});
    }
    return rules;
}

QString expandHome(const QString &text, const QString &home)
{
    if (text == QLatin1String("~") || text == QLatin1String("$HOME"))
        return home;
    if (text.startsWith(QLatin1String("~/")))
        return home + text.mid(1);
    if (text.startsWith(QLatin1String("$HOME/")))
        return home + text.mid(5);
    return text;
}

struct Match
{
    FlatRule rule;
    QString value;
};

// The last rule for @p surface matching one of @p values (all of them at once for path
// surfaces, else the first value some non-default rule matches).
Match evaluate(const QList<FlatRule> &rules, const QString &surface, const QStringList &values, bool anyValue,
               const QString &home)
{
    const auto last = [&](const QStringList &candidates) -> std::optional<Match> {
        for (auto it = rules.crbegin(); it != rules.crend(); ++it) {
            if (!wildcardMatches(it->surface, surface, home))
                continue;
            for (const QString &value : candidates) {
                if (wildcardMatches(it->rule.pattern, value, home))
                    return Match{*it, value};
            }
        }
        return std::nullopt;
    };
    if (anyValue)
        return last(values).value_or(Match{rules.first(), values.value(0)});
    for (const QString &value : values) {
        std::optional<Match> match = last({value});
        if (match && !match->rule.isDefault)
            return *match;
    }
    return last({values.value(0, QStringLiteral("*"))}).value_or(Match{rules.first(), values.value(0)});
}

LayerVerdict verdict(const QString &layer, const Match &match)
{
    LayerVerdict v;
    v.layer = layer;
    v.surface = match.rule.surface;
    v.pattern = match.rule.rule.pattern;
    v.value = match.value;
    v.scope = match.rule.rule.scope;
    v.line = match.rule.rule.line;
    v.state = match.rule.rule.state;
    v.fallback = match.rule.isDefault;
    return v;
}

class Evaluation
{
public:
    Evaluation(const PermissionConfig &config, const TestContext &context)
        : m_rules(flatten(config)), m_context(context)
    {}

    QStringList pathForms(const QString &path) const
    {
        QStringList forms{path};
        const QString expanded = expandHome(path, m_context.home);
        if (!forms.contains(expanded))
            forms << expanded;
        if (!QDir::isAbsolutePath(expanded) && !m_context.cwd.isEmpty())
            forms << QDir::cleanPath(m_context.cwd + QLatin1Char('/') + expanded);
        return forms;
    }

    bool isOutside(const QString &path) const
    {
        const QString expanded = expandHome(path, m_context.home);
        if (!QDir::isAbsolutePath(expanded))
            return QDir::cleanPath(expanded).startsWith(QLatin1String(".."));
        if (m_context.cwd.isEmpty())
            return true;
        const QString clean = QDir::cleanPath(expanded);
        return clean != m_context.cwd && !clean.startsWith(m_context.cwd + QLatin1Char('/'));
    }

    // The path gate: only a `path` rule that matched fires it.
    void pathLayer(const QString &path, bool bareToken = false)
    {
        const Match match = evaluate(m_rules, QStringLiteral("path"), pathForms(path), true, m_context.home);
        if (match.rule.isDefault || match.rule.surface != QLatin1String("path"))
            return;
        if (bareToken && (match.rule.rule.pattern == QLatin1String("*") || match.rule.rule.state == State::Allow))
            return;
        add(verdict(QStringLiteral("path"), match));
    }

    void externalLayer(const QString &path)
    {
        if (!isOutside(path))
            return;
        add(verdict(QStringLiteral("external_directory"),
                    evaluate(m_rules, QStringLiteral("external_directory"), pathForms(path), true, m_context.home)));
    }

    void toolLayer(const QString &tool, const QStringList &values, bool anyValue)
    {
        add(verdict(QStringLiteral("tool"), evaluate(m_rules, tool, values, anyValue, m_context.home)));
    }

    void bash(const QString &command);

    // A tool whose catch-all is deny is taken away from the agent before it starts.
    bool hiddenTool(const QString &tool)
    {
        const Match match = evaluate(m_rules, tool, {QStringLiteral("*")}, false, m_context.home);
        if (match.rule.rule.state != State::Deny)
            return false;
        add(verdict(QStringLiteral("tool"), match));
        m_result.notes << QStringLiteral("'%1' is denied for every value: the extension hides the tool from the "
                                         "agent, whose call then fails as an unknown tool")
                              .arg(tool);
        return true;
    }

    TestResult finish()
    {
        TestResult result = m_result;
        result.state = State::Allow;
        for (const LayerVerdict &layer : std::as_const(result.layers)) {
            if (layer.state != State::Allow) {
                result.firstStop = layer;
                break;
            }
        }
        for (const LayerVerdict &layer : std::as_const(result.layers)) {
            if (!result.decidedBy || restrictiveness(layer.state) > restrictiveness(result.state)) {
                result.state = layer.state;
                result.decidedBy = layer;
            }
        }
        return result;
    }

    TestResult m_result;

private:
    void add(const LayerVerdict &verdict) { m_result.layers.append(verdict); }

    QList<FlatRule> m_rules;
    TestContext m_context;
};

void Evaluation::bash(const QString &command)
{
    static const QRegularExpression structure(QStringLiteral("[;&|\\n`<>(){}]|\\$\\("));
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*=\\S*\\s+"));
    QString simple = command.trimmed();
    while (assignment.match(simple).hasMatch())
        simple = simple.mid(assignment.match(simple).capturedLength());
    if (structure.match(simple).hasMatch()) {
        m_result.certain = false;
        m_result.notes << QStringLiteral("the extension splits this command into its parts (chains, pipes, "
                                         "substitutions, subshells, redirections) and decides each; the tester "
                                         "matched the whole text only");
    }
    LayerVerdict bashVerdict =
        verdict(QStringLiteral("bash"), evaluate(m_rules, QStringLiteral("bash"), {simple}, false, m_context.home));
    const QStringList words = simple.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QString program = words.value(0);
    const bool opaque =
        (kShells.contains(program) && words.contains(QLatin1String("-c"))) || program == QLatin1String("eval");
    const bool execFlag =
        (program == QLatin1String("find") &&
         std::any_of(words.cbegin(), words.cend(),
                     [](const QString &w) {
                         return QStringList{"-exec", "-execdir", "-ok", "-okdir"}.contains(w);
                     })) ||
        (program == QLatin1String("fd") && std::any_of(words.cbegin(), words.cend(), [](const QString &w) {
             return QStringList{"-x", "--exec", "-X", "--exec-batch"}.contains(w);
         }));
    if ((opaque || kIndirection.contains(program) || execFlag) && bashVerdict.state == State::Allow) {
        bashVerdict.state = State::Ask;
        m_result.notes << QStringLiteral("'%1' runs another command: the extension floors it to ask unless a rule "
                                         "denies it")
                              .arg(program);
    }
    // Path-shaped arguments go through the external_directory layer, then the path layer,
    // before the command's own rules (the extension's order for bash).
    QStringList checked;
    QStringList bare;
    for (qsizetype i = 1; i < words.size(); ++i) {
        QString word = words.at(i);
        if (word.startsWith(QLatin1Char('-')))
            continue;
        if (word.size() >= 2 && (word.front() == u'\'' || word.front() == u'"') && word.back() == word.front())
            word = word.mid(1, word.size() - 2);
        const bool pathShaped = word.contains(QLatin1Char('/')) || word.startsWith(QLatin1Char('.')) ||
                                word.startsWith(QLatin1Char('~')) || word.startsWith(QLatin1String("$HOME"));
        (pathShaped ? checked : bare) << word;
    }
    for (const QString &word : std::as_const(checked))
        externalLayer(word);
    for (const QString &word : std::as_const(checked))
        pathLayer(word);
    for (const QString &word : std::as_const(bare))
        pathLayer(word, true);
    m_result.layers.append(bashVerdict);
    if (!checked.isEmpty())
        m_result.notes << QStringLiteral("the extension finds path arguments with a bash parser; the tester "
                                         "checked %1 against the path and external_directory rules")
                              .arg(checked.join(QStringLiteral(", ")));
}

} // namespace

std::optional<TestQuery> TestQuery::parse(const QString &text)
{
    static const QRegularExpression shape(QStringLiteral("^\\s*([A-Za-z0-9_*:.-]+?)\\s*(?::\\s*|\\s+)(.*)$"),
                                          QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = shape.match(text);
    if (!match.hasMatch() || match.captured(1).isEmpty())
        return std::nullopt;
    return TestQuery{match.captured(1), match.captured(2).trimmed()};
}

QString LayerVerdict::ruleText() const
{
    if (fallback)
        return scope == QLatin1String("default")
                   ? QStringLiteral("no rule matched: the built-in ask")
                   : QStringLiteral("\"*\": %1 (%2, line %3)").arg(stateName(state), scope).arg(line);
    return QStringLiteral("%1 \"%2\" (%3%4)")
        .arg(surface, pattern, scope, line > 0 ? QStringLiteral(", line %1").arg(line) : QString());
}

bool wildcardMatches(const QString &pattern, const QString &value, const QString &home)
{
    QString expanded = expandHome(pattern, home);
    // "git *" also matches the bare "git".
    const bool optionalArguments = expanded.endsWith(QLatin1String(" *"));
    if (optionalArguments)
        expanded.chop(2);
    QString regex;
    const QStringList parts = expanded.split(QLatin1Char('*'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (i > 0)
            regex += QLatin1String(".*");
        regex += QRegularExpression::escape(parts.at(i)).replace(QLatin1String("\\?"), QLatin1String("."));
    }
    if (optionalArguments)
        regex += QLatin1String("( .*)?");
    const QRegularExpression compiled(QLatin1Char('^') + regex + QLatin1Char('$'),
                                      QRegularExpression::DotMatchesEverythingOption);
    return compiled.match(value).hasMatch();
}

TestResult testCall(const PermissionConfig &config, const TestQuery &query, const TestContext &context)
{
    Evaluation evaluation(config, context);
    const QString &surface = query.surface;
    const bool layerOnly = surface == QLatin1String("path") || surface == QLatin1String("external_directory");
    if (!layerOnly && evaluation.hiddenTool(surface))
        return evaluation.finish();
    if (kPathTools.contains(surface)) {
        evaluation.pathLayer(query.value);
        evaluation.externalLayer(query.value);
        evaluation.toolLayer(surface, evaluation.pathForms(query.value), true);
        evaluation.m_result.notes << QStringLiteral("the extension also matches the path with its links resolved; "
                                                    "the tester matches it as written");
    } else if (surface == QLatin1String("path")) {
        evaluation.pathLayer(query.value);
        if (evaluation.m_result.layers.isEmpty())
            evaluation.m_result.notes << QStringLiteral("no path rule matches: the path layer lets it through");
    } else if (surface == QLatin1String("external_directory")) {
        if (!evaluation.isOutside(query.value))
            evaluation.m_result.notes << QStringLiteral("this path is inside the working directory: the "
                                                        "external_directory layer does not apply");
        evaluation.externalLayer(query.value);
    } else if (surface == QLatin1String("bash")) {
        evaluation.bash(query.value);
    } else {
        evaluation.toolLayer(surface, {query.value.isEmpty() ? QStringLiteral("*") : query.value}, false);
    }
    return evaluation.finish();
}

} // namespace paddock::agentperms

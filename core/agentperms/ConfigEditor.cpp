// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/ConfigEditor.h"

#include <QRegularExpression>

namespace paddock::agentperms {
namespace {

const QString kPermission = QStringLiteral("permission");

bool isBlank(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\r';
}

// The end of the line holding @p offset (its '\n', or the end of the text).
qsizetype lineEnd(const QString &text, qsizetype offset)
{
    const qsizetype newline = text.indexOf(u'\n', offset);
    return newline < 0 ? text.size() : newline;
}

qsizetype lineStart(const QString &text, qsizetype offset)
{
    return offset > 0 ? text.lastIndexOf(u'\n', offset - 1) + 1 : 0;
}

// True when nothing but blanks comes before @p offset on its line.
bool startsItsLine(const QString &text, qsizetype offset)
{
    const qsizetype start = lineStart(text, offset);
    return text.mid(start, offset - start).trimmed().isEmpty();
}

// True when nothing but blanks and a `//` comment follows @p offset on its line.
bool restOfLineIsEmpty(const QString &text, qsizetype offset)
{
    const QString rest = text.mid(offset, lineEnd(text, offset) - offset).trimmed();
    return rest.isEmpty() || rest.startsWith(QLatin1String("//"));
}

// The position of the first ',' after @p offset, skipping blanks, newlines and comments; -1 if none.
qsizetype commaAfter(const QString &text, qsizetype offset)
{
    qsizetype pos = offset;
    while (pos < text.size()) {
        const QChar c = text.at(pos);
        if (c == u',')
            return pos;
        if (isBlank(c) || c == u'\n') {
            ++pos;
        } else if (text.mid(pos, 2) == QLatin1String("//")) {
            pos = lineEnd(text, pos);
        } else if (text.mid(pos, 2) == QLatin1String("/*")) {
            const qsizetype close = text.indexOf(QLatin1String("*/"), pos + 2);
            if (close < 0)
                return -1;
            pos = close + 2;
        } else {
            return -1;
        }
    }
    return -1;
}

} // namespace

ConfigEditor::ConfigEditor(QString text) : m_text(std::move(text))
{
    if (m_text.trimmed().isEmpty())
        m_text = QStringLiteral("{\n}\n");
    // The file's own indentation unit: the leading blanks of its first indented line.
    static const QRegularExpression indented(QStringLiteral("\\n([ \\t]+)\\S"));
    const QRegularExpressionMatch match = indented.match(m_text);
    if (match.hasMatch())
        m_unit = match.captured(1);
}

std::optional<JsonNode> ConfigEditor::parse(QString *error) const
{
    JsoncError parseError;
    std::optional<JsonNode> root = parseJsonc(m_text, &parseError);
    if (!root) {
        *error = QStringLiteral("the config does not parse (line %1, column %2: %3); fix it by hand first")
                     .arg(parseError.line)
                     .arg(parseError.column)
                     .arg(parseError.message);
        return std::nullopt;
    }
    if (!root->isObject()) {
        *error = QStringLiteral("the config is not a JSON object");
        return std::nullopt;
    }
    return root;
}

bool ConfigEditor::locateSurface(const QString &surface, std::optional<JsonNode> *root, const JsonNode::Member **entry,
                                 QString *error) const
{
    *root = parse(error);
    if (!*root)
        return false;
    error->clear();
    *entry = findSurface(**root, surface, error);
    return error->isEmpty();
}

const JsonNode::Member *ConfigEditor::findSurface(const JsonNode &root, const QString &surface, QString *error) const
{
    const JsonNode *permission = root.member(kPermission);
    if (permission && !permission->isObject()) {
        *error = QStringLiteral("\"permission\" is not an object");
        return nullptr;
    }
    return permission ? permission->memberEntry(surface) : nullptr;
}

QString ConfigEditor::indentOf(qsizetype offset) const
{
    const qsizetype start = lineStart(m_text, offset);
    qsizetype end = start;
    while (end < m_text.size() && isBlank(m_text.at(end)))
        ++end;
    return m_text.mid(start, end - start);
}

QString ConfigEditor::memberIndent(const JsonNode &object) const
{
    if (!object.members.empty()) {
        const qsizetype key = object.members.front().keyBegin;
        if (startsItsLine(m_text, key))
            return indentOf(key);
    }
    return indentOf(object.begin) + m_unit;
}

QString ConfigEditor::renderRules(const QList<std::pair<QString, QString>> &rules, const QString &indent) const
{
    QString out = QStringLiteral("{\n");
    for (qsizetype i = 0; i < rules.size(); ++i) {
        out += indent + m_unit + jsonQuoted(rules.at(i).first) + QStringLiteral(": ") + rules.at(i).second;
        out += i + 1 < rules.size() ? QStringLiteral(",\n") : QStringLiteral("\n");
    }
    return out + indent + QLatin1Char('}');
}

void ConfigEditor::appendMember(const JsonNode &object, const QString &key, const QString &value)
{
    const QString indent = memberIndent(object);
    const QString member = jsonQuoted(key) + QStringLiteral(": ") + value;
    if (object.members.empty()) {
        const QString interior = m_text.mid(object.begin + 1, object.end - object.begin - 2);
        if (!interior.contains(u'\n')) {
            m_text.replace(object.begin + 1, interior.size(),
                           QLatin1Char('\n') + indent + member + QLatin1Char('\n') + indentOf(object.begin));
        } else {
            m_text.insert(lineEnd(m_text, object.begin) + 1, indent + member + QLatin1Char('\n'));
        }
        return;
    }
    const qsizetype after = object.members.back().value.end;
    if (restOfLineIsEmpty(m_text, after) && lineEnd(m_text, after) < m_text.size()) {
        // After the line of the last member, so a comment ending that line stays with it.
        const qsizetype next = lineEnd(m_text, after) + 1;
        m_text.insert(next, indent + member + QLatin1Char('\n'));
        m_text.insert(after, QLatin1Char(','));
    } else {
        m_text.insert(after, QStringLiteral(", ") + member);
    }
}

void ConfigEditor::removeMember(const JsonNode &object, std::size_t index)
{
    const JsonNode::Member &member = object.members[index];
    const qsizetype start = lineStart(m_text, member.keyBegin);
    const bool ownLine = startsItsLine(m_text, member.keyBegin);
    qsizetype after = member.value.end;
    while (after < m_text.size() && isBlank(m_text.at(after)))
        ++after;
    const bool hasComma = after < m_text.size() && m_text.at(after) == u',';
    const qsizetype afterComma = hasComma ? after + 1 : after;
    const qsizetype previousComma = index > 0 ? commaAfter(m_text, object.members[index - 1].value.end) : -1;

    if (ownLine && restOfLineIsEmpty(m_text, afterComma)) {
        const qsizetype end = std::min(lineEnd(m_text, afterComma) + 1, m_text.size());
        m_text.remove(start, end - start);
        // The member was the last: the one before it loses its comma.
        if (!hasComma && previousComma >= 0)
            m_text.remove(previousComma, 1);
    } else if (hasComma) {
        qsizetype end = afterComma;
        while (end < m_text.size() && isBlank(m_text.at(end)))
            ++end;
        m_text.remove(member.keyBegin, end - member.keyBegin);
    } else if (previousComma >= 0) {
        m_text.remove(previousComma, member.value.end - previousComma);
    } else {
        m_text.remove(member.keyBegin, member.value.end - member.keyBegin);
    }
}

void ConfigEditor::removeLastMemberNamed(const JsonNode &object, const QString &key)
{
    for (std::size_t i = object.members.size(); i-- > 0;) {
        if (object.members[i].key == key) {
            removeMember(object, i);
            return;
        }
    }
}

bool ConfigEditor::setRule(const QString &surface, const QString &pattern, State state, QString *error)
{
    if (surface.isEmpty() || pattern.isEmpty()) {
        *error = QStringLiteral("a surface and a pattern cannot be empty");
        return false;
    }
    const QString before = m_text;
    std::optional<JsonNode> root;
    const JsonNode::Member *entry = nullptr;
    if (!locateSurface(surface, &root, &entry, error))
        return false;
    const QString value = jsonQuoted(stateName(state));
    const JsonNode *permission = root->member(kPermission);
    if (!permission) {
        const QString indent = memberIndent(*root);
        const QString surfaces = QStringLiteral("{\n") + indent + m_unit + jsonQuoted(surface) + QStringLiteral(": ") +
                                 renderRules({{pattern, value}}, indent + m_unit) + QLatin1Char('\n') + indent +
                                 QLatin1Char('}');
        appendMember(*root, kPermission, surfaces);
    } else if (!entry) {
        appendMember(*permission, surface, renderRules({{pattern, value}}, memberIndent(*permission)));
    } else if (entry->value.isString()) {
        const QString rendered =
            pattern == QLatin1String("*")
                ? value
                : renderRules({{QStringLiteral("*"), jsonQuoted(entry->value.string)}, {pattern, value}},
                              indentOf(entry->keyBegin));
        m_text.replace(entry->value.begin, entry->value.end - entry->value.begin, rendered);
    } else if (entry->value.isObject()) {
        const JsonNode *existing = entry->value.member(pattern);
        if (!existing)
            appendMember(entry->value, pattern, value);
        else if (!(existing->isObject() && state == State::Deny))
            m_text.replace(existing->begin, existing->end - existing->begin, value);
    } else {
        *error = QStringLiteral("surface \"%1\" is neither a state nor an object of patterns").arg(surface);
        return false;
    }
    JsoncError check;
    if (!parseJsonc(m_text, &check)) {
        m_text = before;
        *error = QStringLiteral("the change would not leave valid JSON (%1)").arg(check.message);
        return false;
    }
    return true;
}

bool ConfigEditor::setSurface(const QString &surface, State state, QString *error)
{
    std::optional<JsonNode> root;
    const JsonNode::Member *entry = nullptr;
    if (!locateSurface(surface, &root, &entry, error))
        return false;
    if (!entry) {
        if (!setRule(surface, QStringLiteral("*"), state, error))
            return false;
        return setSurface(surface, state, error);
    }
    m_text.replace(entry->value.begin, entry->value.end - entry->value.begin, jsonQuoted(stateName(state)));
    return true;
}

bool ConfigEditor::removeRule(const QString &surface, const QString &pattern, QString *error)
{
    std::optional<JsonNode> root;
    const JsonNode::Member *entry = nullptr;
    if (!locateSurface(surface, &root, &entry, error))
        return false;
    if (entry && entry->value.isString() && pattern == QLatin1String("*"))
        return removeSurface(surface, error);
    if (!entry || !entry->value.isObject() || !entry->value.member(pattern)) {
        *error = QStringLiteral("surface \"%1\" has no pattern \"%2\"").arg(surface, pattern);
        return false;
    }
    const std::vector<JsonNode::Member> &members = entry->value.members;
    if (members.size() == 1)
        return removeSurface(surface, error);
    removeLastMemberNamed(entry->value, pattern);
    return true;
}

bool ConfigEditor::removeSurface(const QString &surface, QString *error)
{
    const std::optional<JsonNode> root = parse(error);
    if (!root)
        return false;
    const JsonNode *permission = root->member(kPermission);
    if (!permission || !permission->isObject() || !permission->memberEntry(surface)) {
        *error = QStringLiteral("the config has no surface \"%1\"").arg(surface);
        return false;
    }
    removeLastMemberNamed(*permission, surface);
    return true;
}

bool ConfigEditor::moveRule(const QString &surface, const QString &pattern, int index, QString *error)
{
    std::optional<JsonNode> root;
    const JsonNode::Member *entry = nullptr;
    if (!locateSurface(surface, &root, &entry, error))
        return false;
    if (!entry || !entry->value.isObject() || !entry->value.member(pattern)) {
        *error = QStringLiteral("surface \"%1\" has no pattern \"%2\"").arg(surface, pattern);
        return false;
    }
    const std::vector<JsonNode::Member> &members = entry->value.members;
    std::vector<std::size_t> order(members.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::size_t from = 0;
    while (members[from].key != pattern)
        ++from;
    const std::size_t to = std::size_t(std::clamp(index, 0, int(members.size()) - 1));
    if (from == to)
        return true;
    order.erase(order.begin() + qsizetype(from));
    order.insert(order.begin() + qsizetype(to), from);
    if (std::all_of(members.cbegin(), members.cend(),
                    [this](const JsonNode::Member &m) { return startsItsLine(m_text, m.keyBegin); })) {
        moveLines(members, order);
        return true;
    }
    // Members on shared lines trade places; the separators between them stay.
    const auto memberText = [&](std::size_t i) {
        return m_text.mid(members[i].keyBegin, members[i].value.end - members[i].keyBegin);
    };
    QString rebuilt;
    for (std::size_t i = 0; i < members.size(); ++i) {
        rebuilt += memberText(order[i]);
        if (i + 1 < members.size())
            rebuilt += m_text.mid(members[i].value.end, members[i + 1].keyBegin - members[i].value.end);
    }
    const qsizetype start = members.front().keyBegin;
    m_text.replace(start, members.back().value.end - start, rebuilt);
    return true;
}

void ConfigEditor::moveLines(const std::vector<JsonNode::Member> &members, const std::vector<std::size_t> &order)
{
    // One member per line: each line moves whole with the comment that ends it, commas
    // follow the new order, and the lines between members (blank, comments) stay put.
    struct Unit
    {
        qsizetype start, end; // the member's lines, without their final newline
        QString head, tail;   // before and after its comma
    };
    std::vector<Unit> units;
    for (const JsonNode::Member &m : members) {
        Unit unit;
        unit.start = lineStart(m_text, m.keyBegin);
        unit.end = lineEnd(m_text, m.value.end);
        unit.head = m_text.mid(unit.start, m.value.end - unit.start);
        QString rest = m_text.mid(m.value.end, unit.end - m.value.end);
        const qsizetype comma = rest.indexOf(QLatin1Char(','));
        if (comma >= 0 && rest.left(comma).trimmed().isEmpty())
            rest.remove(comma, 1);
        unit.tail = rest;
        units.push_back(unit);
    }
    QString rebuilt;
    for (std::size_t i = 0; i < units.size(); ++i) {
        const Unit &moved = units[order[i]];
        rebuilt += moved.head + (i + 1 < units.size() ? QStringLiteral(",") : QString()) + moved.tail;
        if (i + 1 < units.size())
            rebuilt += m_text.mid(units[i].end, units[i + 1].start - units[i].end);
    }
    m_text.replace(units.front().start, units.back().end - units.front().start, rebuilt);
}

} // namespace paddock::agentperms

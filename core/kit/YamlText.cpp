// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/YamlText.h"

#include "common/QuotedString.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace paddock::kit {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}
bool isLineBreak(char c)
{
    return c == '\n' || c == '\r';
}
bool isFlowIndicator(char c)
{
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

// Words that YAML 1.1 (which yaml-cpp and many decoders still follow) reads as booleans
// or null rather than as text.
const QStringList &reservedWords()
{
    static const QStringList words = {
        QStringLiteral("y"),    QStringLiteral("yes"),   QStringLiteral("n"),     QStringLiteral("no"),
        QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("on"),    QStringLiteral("off"),
        QStringLiteral("null"), QStringLiteral("~"),     QStringLiteral("<<"),    QStringLiteral("="),
        QStringLiteral(".inf"), QStringLiteral("+.inf"), QStringLiteral("-.inf"), QStringLiteral(".nan"),
    };
    return words;
}

bool looksLikeNumberOrDate(const QString &value)
{
    static const QRegularExpression number(
        QStringLiteral("^(?:[-+]?(?:0|[1-9][0-9_]*)"                                  // integer
                       "|[-+]?0[xX][0-9a-fA-F_]+|[-+]?0[oO]?[0-7_]+|[-+]?0[bB][01_]+" // other bases
                       "|[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+]?[0-9]+)?"        // decimal fraction
                       "|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"                            // exponent
                       "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?"           // base 60
                       "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?"                  // date or timestamp
                       ")$"));
    return number.match(value).hasMatch();
}

bool hasControlCharacters(const QString &value)
{
    for (const QChar c : value) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return true;
    }
    return false;
}

QByteArray yamlDoubleQuoted(const QString &value)
{
    return paddock::doubleQuoted(value, ControlEscape::Yaml).toUtf8();
}

} // namespace

bool scalarNeedsQuotes(const QString &value, bool inFlow)
{
    if (value.isEmpty() || value.front().isSpace() || value.back().isSpace())
        return true;
    if (hasControlCharacters(value))
        return true;
    static const QString indicators = QStringLiteral("-?:,[]{}#&*!|>'\"%@`");
    if (indicators.contains(value.front()))
        return true;
    if (value.contains(QLatin1String(": ")) || value.contains(QLatin1String(" #")) || value.endsWith(QLatin1Char(':')))
        return true;
    if (inFlow) {
        for (const QChar c : value) {
            if (c == QLatin1Char(',') || c == QLatin1Char('[') || c == QLatin1Char(']') || c == QLatin1Char('{') ||
                c == QLatin1Char('}'))
                return true;
        }
        if (value.contains(QLatin1Char(':')))
            return true;
    }
    if (reservedWords().contains(value, Qt::CaseInsensitive))
        return true;
    return looksLikeNumberOrDate(value);
}

QByteArray renderInlineScalar(const QString &value, ScalarStyle preferred, bool inFlow)
{
    switch (preferred) {
    case ScalarStyle::Plain:
    case ScalarStyle::Literal:
    case ScalarStyle::Folded:
        if (!scalarNeedsQuotes(value, inFlow))
            return value.toUtf8();
        return yamlDoubleQuoted(value);
    case ScalarStyle::SingleQuoted:
        if (hasControlCharacters(value))
            return yamlDoubleQuoted(value);
        return '\'' + QString(value).replace(QLatin1Char('\''), QStringLiteral("''")).toUtf8() + '\'';
    case ScalarStyle::DoubleQuoted:
        return yamlDoubleQuoted(value);
    }
    return yamlDoubleQuoted(value);
}

YamlText::YamlText(QByteArray text) : m_text(std::move(text))
{
    const qsizetype bom = m_text.startsWith("\xef\xbb\xbf") ? 3 : 0;
    m_lineStarts << bom;
    for (qsizetype i = 0; i < m_text.size(); ++i) {
        if (m_text.at(i) == '\n' && i + 1 <= m_text.size())
            m_lineStarts << i + 1;
    }
    // A final newline does not open a line of its own.
    if (m_lineStarts.size() > 1 && m_lineStarts.last() == m_text.size())
        m_lineStarts.removeLast();
    const qsizetype firstBreak = m_text.indexOf('\n');
    m_newline = (firstBreak > 0 && m_text.at(firstBreak - 1) == '\r') ? QByteArray("\r\n") : QByteArray("\n");

    try {
        const std::vector<YAML::Node> documents = YAML::LoadAll(m_text.toStdString());
        if (documents.size() > 1) {
            m_parseError =
                QStringLiteral("the file holds %1 YAML documents; a kit is exactly one").arg(documents.size());
            return;
        }
        m_root = documents.empty() ? YAML::Node() : documents.front();
        m_parsed = true;
    } catch (const YAML::Exception &e) {
        QString message = QString::fromStdString(e.msg);
        const int line = e.mark.line;
        if (line >= 0 && line < lineCount()) {
            const QByteArray content = m_text.mid(lineStart(line), lineContentEnd(line) - lineStart(line));
            qsizetype firstVisible = 0;
            while (firstVisible < content.size() && isSpace(content.at(firstVisible)))
                ++firstVisible;
            if (content.left(firstVisible).contains('\t'))
                message += QStringLiteral(" (this line is indented with a tab; YAML allows only spaces)");
        }
        m_parseError = QStringLiteral("%1:%2: %3").arg(line + 1).arg(e.mark.column + 1).arg(message);
    }
}

qsizetype YamlText::lineContentEnd(int line) const
{
    qsizetype end = nextLineStart(line);
    if (end > lineStart(line) && m_text.at(end - 1) == '\n')
        --end;
    if (end > lineStart(line) && m_text.at(end - 1) == '\r')
        --end;
    return end;
}

qsizetype YamlText::nextLineStart(int line) const
{
    return line + 1 < lineCount() ? m_lineStarts.at(line + 1) : m_text.size();
}

int YamlText::lineAt(qsizetype offset) const
{
    const auto it = std::upper_bound(m_lineStarts.cbegin(), m_lineStarts.cend(), offset);
    return std::max(0, int(it - m_lineStarts.cbegin()) - 1);
}

int YamlText::indentation(int line) const
{
    int n = 0;
    for (qsizetype i = lineStart(line); i < lineContentEnd(line) && m_text.at(i) == ' '; ++i)
        ++n;
    return n;
}

bool YamlText::isBlank(int line) const
{
    for (qsizetype i = lineStart(line); i < lineContentEnd(line); ++i) {
        if (!isSpace(m_text.at(i)))
            return false;
    }
    return true;
}

bool YamlText::isComment(int line) const
{
    const qsizetype at = lineStart(line) + indentation(line);
    return at < lineContentEnd(line) && m_text.at(at) == '#';
}

qsizetype YamlText::offsetOf(const YAML::Mark &mark) const
{
    if (mark.line < 0 || mark.line >= lineCount())
        return m_text.size();
    return std::min(lineStart(mark.line) + mark.column, m_text.size());
}

qsizetype YamlText::contentStart(const YAML::Node &node) const
{
    qsizetype p = offsetOf(node.Mark());
    // Skip "&anchor" and "!tag" properties, which yaml-cpp includes in the node's mark.
    while (p < m_text.size() && (m_text.at(p) == '&' || m_text.at(p) == '!')) {
        while (p < m_text.size() && !isSpace(m_text.at(p)) && !isLineBreak(m_text.at(p)))
            ++p;
        while (p < m_text.size() && (isSpace(m_text.at(p)) || isLineBreak(m_text.at(p))))
            ++p;
    }
    return p;
}

ScalarStyle YamlText::scalarStyle(const YAML::Node &scalar) const
{
    const qsizetype p = contentStart(scalar);
    if (p >= m_text.size())
        return ScalarStyle::Plain;
    switch (m_text.at(p)) {
    case '"':
        return ScalarStyle::DoubleQuoted;
    case '\'':
        return ScalarStyle::SingleQuoted;
    case '|':
        return ScalarStyle::Literal;
    case '>':
        return ScalarStyle::Folded;
    default:
        return ScalarStyle::Plain;
    }
}

std::optional<TextRange> YamlText::scalarRange(const YAML::Node &scalar, int parentIndent, bool inFlow,
                                               bool isKey) const
{
    const qsizetype start = contentStart(scalar);
    if (start >= m_text.size())
        return std::nullopt;
    std::optional<qsizetype> end;
    switch (scalarStyle(scalar)) {
    case ScalarStyle::DoubleQuoted:
    case ScalarStyle::SingleQuoted:
        end = quotedEnd(start);
        break;
    case ScalarStyle::Literal:
    case ScalarStyle::Folded:
        end = blockScalarEnd(start, parentIndent);
        break;
    case ScalarStyle::Plain:
        end = plainEnd(start, parentIndent, inFlow, isKey);
        break;
    }
    if (!end)
        return std::nullopt;
    return TextRange{start, *end};
}

std::optional<qsizetype> YamlText::quotedEnd(qsizetype start) const
{
    const char quote = m_text.at(start);
    for (qsizetype i = start + 1; i < m_text.size(); ++i) {
        const char c = m_text.at(i);
        if (quote == '"' && c == '\\') {
            ++i;
        } else if (c == quote) {
            if (quote == '\'' && i + 1 < m_text.size() && m_text.at(i + 1) == '\'')
                ++i; // '' is an escaped quote inside single quotes
            else
                return i + 1;
        }
    }
    return std::nullopt;
}

std::optional<qsizetype> YamlText::plainEnd(qsizetype start, int parentIndent, bool inFlow, bool isKey) const
{
    // Scan one line of a plain scalar; returns the end of its last word and whether a
    // comment stopped it (a comment ends a plain scalar for good).
    auto scanLine = [&](qsizetype from, qsizetype lineEnd, bool *stoppedByComment) {
        qsizetype i = from;
        *stoppedByComment = false;
        for (; i < lineEnd; ++i) {
            const char c = m_text.at(i);
            if (c == '#' && i > from && isSpace(m_text.at(i - 1))) {
                *stoppedByComment = true;
                break;
            }
            if (c == ':') {
                const char next = i + 1 < lineEnd ? m_text.at(i + 1) : ' ';
                if (isSpace(next) || (inFlow && isFlowIndicator(next)))
                    break;
            }
            if (inFlow && isFlowIndicator(c))
                break;
        }
        while (i > from && isSpace(m_text.at(i - 1)))
            --i;
        return i;
    };

    int line = lineAt(start);
    bool stopped = false;
    qsizetype end = scanLine(start, lineContentEnd(line), &stopped);
    const bool endsLine = end == lineContentEnd(line) || stopped;
    if (isKey || inFlow || stopped || !endsLine)
        return end;
    // A plain scalar in block context continues on lines indented past its owner.
    for (int next = line + 1; next < lineCount(); ++next) {
        if (isBlank(next))
            continue;
        if (indentation(next) <= parentIndent || isComment(next))
            break;
        end = scanLine(lineStart(next) + indentation(next), lineContentEnd(next), &stopped);
        if (stopped)
            break;
    }
    return end;
}

std::optional<qsizetype> YamlText::blockScalarEnd(qsizetype start, int parentIndent) const
{
    const int headerLine = lineAt(start);
    // An explicit indentation indicator ("|2") fixes the content column; otherwise the
    // first non-blank line does.
    int contentIndent = -1;
    for (qsizetype i = start + 1; i < lineContentEnd(headerLine); ++i) {
        const char c = m_text.at(i);
        if (c >= '1' && c <= '9') {
            contentIndent = parentIndent + (c - '0');
            break;
        }
        if (c != '-' && c != '+')
            break;
    }
    // The header ends before any comment on its line.
    qsizetype end = start + 1;
    while (end < lineContentEnd(headerLine) && !isSpace(m_text.at(end)))
        ++end;
    for (int line = headerLine + 1; line < lineCount(); ++line) {
        if (isBlank(line))
            continue;
        const int indent = indentation(line);
        if (contentIndent < 0)
            contentIndent = indent > parentIndent ? indent : parentIndent + 1;
        if (indent < contentIndent)
            break;
        end = lineContentEnd(line);
    }
    return end;
}

std::optional<qsizetype> YamlText::flowEnd(qsizetype open) const
{
    int depth = 0;
    char previous = 0; // last non-blank byte seen, to tell a quoted scalar from a quote in a word
    for (qsizetype i = open; i < m_text.size(); ++i) {
        const char c = m_text.at(i);
        if ((c == '"' || c == '\'') &&
            (previous == '[' || previous == '{' || previous == ',' || previous == ':' || previous == '?')) {
            const std::optional<qsizetype> end = quotedEnd(i);
            if (!end)
                return std::nullopt;
            i = *end - 1;
            previous = c;
            continue;
        }
        if (c == '#' && i > 0 && (isSpace(m_text.at(i - 1)) || isLineBreak(m_text.at(i - 1)))) {
            while (i < m_text.size() && m_text.at(i) != '\n')
                ++i;
            continue;
        }
        if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0)
                return i + 1;
        }
        if (!isSpace(c) && !isLineBreak(c))
            previous = c;
    }
    return std::nullopt;
}

std::optional<qsizetype> YamlText::nodeEnd(const YAML::Node &node, int parentIndent, bool inFlow) const
{
    switch (node.Type()) {
    case YAML::NodeType::Scalar: {
        const std::optional<TextRange> range = scalarRange(node, parentIndent, inFlow);
        return range ? std::optional<qsizetype>(range->end) : std::nullopt;
    }
    case YAML::NodeType::Sequence:
    case YAML::NodeType::Map: {
        const qsizetype start = contentStart(node);
        if (start < m_text.size() && (m_text.at(start) == '[' || m_text.at(start) == '{'))
            return flowEnd(start);
        if (node.size() == 0)
            return std::nullopt;
        if (node.IsSequence()) {
            const YAML::Node last = node[node.size() - 1];
            if (last.IsNull())
                return std::nullopt; // a bare "-" has no mark of its own
            return nodeEnd(last, columnOf(start), false);
        }
        YAML::const_iterator last = node.begin();
        for (YAML::const_iterator it = node.begin(); it != node.end(); ++it)
            last = it;
        return entryEnd(last->first, last->second);
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<qsizetype> YamlText::colonAfterKey(const YAML::Node &key) const
{
    const qsizetype keyStart = contentStart(key);
    const std::optional<TextRange> range = scalarRange(key, columnOf(keyStart), false, true);
    if (!range)
        return std::nullopt;
    qsizetype p = range->end;
    while (p < m_text.size() && isSpace(m_text.at(p)))
        ++p;
    if (p < m_text.size() && m_text.at(p) == ':')
        return p;
    return std::nullopt;
}

std::optional<qsizetype> YamlText::entryEnd(const YAML::Node &key, const YAML::Node &value) const
{
    const int keyColumn = columnOf(contentStart(key));
    if (!value.IsNull())
        return nodeEnd(value, keyColumn, false);
    const std::optional<qsizetype> colon = colonAfterKey(key);
    if (!colon)
        return std::nullopt;
    // An explicit null ("~", "null") on the key's line belongs to the entry.
    const int line = lineAt(*colon);
    qsizetype p = *colon + 1;
    while (p < lineContentEnd(line) && isSpace(m_text.at(p)))
        ++p;
    if (p < lineContentEnd(line) && m_text.at(p) != '#')
        return plainEnd(p, keyColumn, false, false);
    return *colon + 1;
}

std::optional<QList<TextRange>> YamlText::flowItems(const YAML::Node &collection) const
{
    QList<TextRange> items;
    if (collection.IsSequence()) {
        for (std::size_t i = 0; i < collection.size(); ++i) {
            const YAML::Node item = collection[i];
            if (item.IsNull())
                return std::nullopt;
            const std::optional<qsizetype> end = nodeEnd(item, 0, true);
            if (!end)
                return std::nullopt;
            items << TextRange{offsetOf(item.Mark()), *end};
        }
        return items;
    }
    if (collection.IsMap()) {
        for (YAML::const_iterator it = collection.begin(); it != collection.end(); ++it) {
            if (it->second.IsNull())
                return std::nullopt;
            const std::optional<qsizetype> end = nodeEnd(it->second, 0, true);
            if (!end)
                return std::nullopt;
            items << TextRange{offsetOf(it->first.Mark()), *end};
        }
        return items;
    }
    return std::nullopt;
}

namespace {

// Depth-first search for the first block mapping or sequence nested under a block key.
template<typename Found>
bool findUnderKey(const YamlText &text, const YAML::Node &node, Found found)
{
    if (!node.IsMap())
        return false;
    const qsizetype start = text.contentStart(node);
    if (start < text.bytes().size() && text.bytes().at(start) == '{')
        return false;
    for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
        // Copies: `it->` hands out a temporary, so a reference into it would dangle.
        const YAML::Node key = it->first;
        const YAML::Node value = it->second;
        const int keyColumn = text.columnOf(text.contentStart(key));
        if ((value.IsMap() || value.IsSequence()) && value.size() > 0) {
            const qsizetype valueStart = text.contentStart(value);
            const char first = valueStart < text.bytes().size() ? text.bytes().at(valueStart) : 0;
            if (first != '{' && first != '[' && found(keyColumn, value, text.columnOf(valueStart)))
                return true;
        }
        if (findUnderKey(text, value, found))
            return true;
        if (value.IsSequence()) {
            for (const YAML::Node &item : value) {
                if (findUnderKey(text, item, found))
                    return true;
            }
        }
    }
    return false;
}

} // namespace

int YamlText::indentUnit() const
{
    int unit = 2;
    findUnderKey(*this, m_root, [&](int keyColumn, const YAML::Node &value, int valueColumn) {
        if (!value.IsMap() || valueColumn <= keyColumn)
            return false;
        unit = valueColumn - keyColumn;
        return true;
    });
    return unit;
}

int YamlText::sequenceOffset() const
{
    int offset = -1;
    findUnderKey(*this, m_root, [&](int keyColumn, const YAML::Node &value, int valueColumn) {
        if (!value.IsSequence() || valueColumn < keyColumn)
            return false;
        offset = valueColumn - keyColumn;
        return true;
    });
    return offset >= 0 ? offset : indentUnit();
}

bool YamlText::restOfLineIsEmpty(qsizetype offset) const
{
    const qsizetype end = lineContentEnd(lineAt(offset));
    for (qsizetype i = offset; i < end; ++i) {
        const char c = m_text.at(i);
        if (c == '#')
            return true;
        if (c != ' ' && c != '\t')
            return false;
    }
    return true;
}

std::optional<qsizetype> YamlText::dashBefore(const YAML::Node &item) const
{
    for (qsizetype p = offsetOf(item.Mark()) - 1; p >= 0; --p) {
        const char c = m_text.at(p);
        if (c == '-')
            return p;
        if (c != ' ' && c != '\n' && c != '\r')
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<TextRange> YamlText::blockItemExtent(const YAML::Node &item, int dashColumn) const
{
    if (item.IsNull())
        return std::nullopt; // a bare "-" has no mark of its own
    const qsizetype dash = dashBefore(item).value_or(-1);
    const qsizetype end = nodeEnd(item, dashColumn, false).value_or(-1);
    if (dash < 0 || end <= dash)
        return std::nullopt;
    return TextRange{dash, end};
}

QList<YAML::Node> itemsOf(const YAML::Node &node)
{
    QList<YAML::Node> items;
    if (node.IsSequence()) {
        for (const YAML::Node &item : node)
            items << item;
    } else if (node.IsMap()) {
        for (YAML::const_iterator it = node.begin(); it != node.end(); ++it)
            items << it->second;
    }
    return items;
}

} // namespace paddock::kit

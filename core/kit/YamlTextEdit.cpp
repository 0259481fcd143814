// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/YamlTextEdit.h"

#include "kit/YamlText.h"
#include "kit/YamlTextPath.h"

#include <QLoggingCategory>

#include <algorithm>
#include <functional>

// Off by default: the CLI prints its own one-line errors.
Q_LOGGING_CATEGORY(lcYamlTextEdit, "paddock.kit.yamltextedit", QtWarningMsg)

namespace paddock::kit::YamlTextEdit {
namespace {

using yamlpath::descend;
using yamlpath::dotted;
using yamlpath::isSelector;
using yamlpath::sameTree;

struct Splice
{
    qsizetype begin = 0;
    qsizetype end = 0;
    QByteArray replacement;
};

struct Entry
{
    YAML::Node key;
    YAML::Node value;
};

// What exists of a path: the entries found in order, stopping at the first missing key.
struct Walk
{
    QList<Entry> found;
    bool complete = false;
};

YamlEditOutcome failed(const QByteArray &text, const QString &error)
{
    return {YamlEditOutcome::Status::Failed, text, error};
}

YamlEditOutcome unchanged(const QByteArray &text)
{
    return {YamlEditOutcome::Status::Unchanged, text, {}};
}

QByteArray spaces(int n)
{
    return QByteArray(std::max(0, n), ' ');
}

QString describeKind(const YAML::Node &node)
{
    if (node.IsSequence())
        return QStringLiteral("a list");
    if (node.IsMap())
        return QStringLiteral("a mapping");
    return QStringLiteral("a single value");
}

bool isFlow(const YamlText &text, const YAML::Node &node)
{
    const qsizetype start = text.contentStart(node);
    return start < text.bytes().size() && (text.bytes().at(start) == '[' || text.bytes().at(start) == '{');
}

std::optional<Entry> findEntry(const YAML::Node &map, const QString &key)
{
    const std::string wanted = key.toStdString();
    for (YAML::const_iterator it = map.begin(); it != map.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == wanted)
            return Entry{it->first, it->second};
    }
    return std::nullopt;
}

std::optional<Walk> walk(const YamlText &text, const QStringList &path, QString *error)
{
    Walk result;
    YAML::Node current = text.root();
    for (qsizetype i = 0; i < path.size(); ++i) {
        if (current.IsNull())
            return result;
        if (isSelector(path.at(i)) && current.IsSequence()) {
            const std::optional<YAML::Node> item = yamlpath::selectItem(current, path.at(i));
            if (!item)
                return result;
            result.found << Entry{YAML::Node(), *item};
            current.reset(*item);
            continue;
        }
        if (!current.IsMap() || isSelector(path.at(i))) {
            *error = i == 0
                         ? QStringLiteral("the top level of the file is %1, not a mapping").arg(describeKind(current))
                         : QStringLiteral("%1 is %2, not %3")
                               .arg(dotted(path, i), describeKind(current),
                                    isSelector(path.at(i)) ? QStringLiteral("a list") : QStringLiteral("a mapping"));
            return std::nullopt;
        }
        const std::optional<Entry> entry = findEntry(current, path.at(i));
        if (!entry)
            return result;
        result.found << *entry;
        current.reset(entry->value);
    }
    result.complete = true;
    return result;
}

QByteArray applySplices(QByteArray text, QList<Splice> splices)
{
    std::sort(splices.begin(), splices.end(), [](const Splice &a, const Splice &b) { return a.begin > b.begin; });
    for (const Splice &s : splices)
        text.replace(s.begin, s.end - s.begin, s.replacement);
    return text;
}

// New lines after @p line (or at the end of the text for -1). A file without a final
// newline keeps that habit: the break goes before the new lines instead of after them.
Splice insertLinesAfter(const YamlText &text, int line, const QList<QByteArray> &lines)
{
    const QByteArray &bytes = text.bytes();
    const qsizetype at = line < 0 ? bytes.size() : text.nextLineStart(line);
    const QByteArray nl = text.newline();
    QByteArray joined;
    for (qsizetype i = 0; i < lines.size(); ++i)
        joined += (i ? nl : QByteArray()) + lines.at(i);
    if (at == bytes.size() && !bytes.isEmpty() && !bytes.endsWith('\n'))
        return {at, at, nl + joined};
    return {at, at, joined + nl};
}

Splice removeLines(const YamlText &text, int first, int last)
{
    if (text.nextLineStart(last) == text.bytes().size() && !text.endsWithNewline() && first > 0)
        return {text.lineContentEnd(first - 1), text.bytes().size(), {}};
    return {text.lineStart(first), text.nextLineStart(last), {}};
}

// Quoting habit of siblings: a value that needs quotes takes the quotes its siblings
// use. One that does not is quoted only when every sibling that could have been plain
// is quoted anyway (a lone "*.example.com" is quoted by necessity, not by habit).
ScalarStyle siblingStyle(const YamlText &text, const QList<YAML::Node> &siblings, const QString &value, bool inFlow)
{
    QList<ScalarStyle> quoted;
    int couldBePlain = 0;
    int quotedByHabit = 0;
    ScalarStyle habit = ScalarStyle::DoubleQuoted;
    for (const YAML::Node &node : siblings) {
        if (!node.IsScalar())
            continue;
        const ScalarStyle style = text.scalarStyle(node);
        const bool isQuoted = style == ScalarStyle::SingleQuoted || style == ScalarStyle::DoubleQuoted;
        if (isQuoted)
            quoted << style;
        if (!scalarNeedsQuotes(QString::fromStdString(node.Scalar()), inFlow)) {
            ++couldBePlain;
            if (isQuoted) {
                ++quotedByHabit;
                habit = style;
            }
        }
    }
    if (scalarNeedsQuotes(value, inFlow))
        return quoted.isEmpty() ? ScalarStyle::DoubleQuoted : quoted.first();
    if (couldBePlain > 0 && quotedByHabit == couldBePlain)
        return habit;
    return ScalarStyle::Plain;
}

QByteArray renderKey(const QString &key)
{
    return renderInlineScalar(key, ScalarStyle::Plain, false);
}

// Columns from a key to its sequence's dashes: a sibling sequence in the same mapping
// decides, then the file.
int sequenceOffsetIn(const YamlText &text, const YAML::Node &map)
{
    if (map.IsMap()) {
        for (YAML::const_iterator it = map.begin(); it != map.end(); ++it) {
            if (it->second.IsSequence() && it->second.size() > 0 && !isFlow(text, it->second)) {
                return text.columnOf(text.contentStart(it->second)) - text.columnOf(text.contentStart(it->first));
            }
        }
    }
    return text.sequenceOffset();
}

/**
 * Adds the entry whose lines are @p relativeLines (indented relative to the entry's own
 * column) to the mapping where @p walk stopped. Existing block mappings grow at their
 * end; a key with no value (or "~", or "{}") receives the entry on the next line.
 */
bool insertEntry(const YamlText &text, const Walk &walk, const QStringList &path,
                 const QList<QByteArray> &relativeLines, QList<Splice> *splices, QString *error)
{
    const qsizetype depth = walk.found.size();
    const bool atRoot = depth == 0;
    const YAML::Node target = atRoot ? text.root() : walk.found.last().value;
    int column = 0;
    int afterLine = -1;

    if (target.IsMap() && target.size() > 0) {
        if (isFlow(text, target)) {
            *error = QStringLiteral("%1 is written in flow style ({...}); add %2 to it by hand")
                         .arg(atRoot ? QStringLiteral("the top level") : dotted(path, depth), path.at(depth));
            return false;
        }
        YAML::const_iterator last = target.begin();
        for (YAML::const_iterator it = target.begin(); it != target.end(); ++it)
            last = it;
        column = text.columnOf(text.contentStart(target.begin()->first));
        const std::optional<qsizetype> end = text.entryEnd(last->first, last->second);
        if (!end || *end == 0) {
            *error = QStringLiteral("cannot find where %1 ends").arg(dotted(path, depth));
            return false;
        }
        afterLine = text.lineAt(*end - 1);
        // Comments indented under the last entry belong to it.
        while (afterLine + 1 < text.lineCount() && text.isComment(afterLine + 1) &&
               text.indentation(afterLine + 1) > column)
            ++afterLine;
    } else if (atRoot) {
        if (!target.IsNull() && !target.IsMap()) {
            *error = QStringLiteral("the top level of the file is %1, not a mapping").arg(describeKind(target));
            return false;
        }
        column = 0;
        afterLine = -1;
    } else if (target.IsNull() || target.IsMap()) {
        const YAML::Node &ownerKey = walk.found.last().key;
        const std::optional<qsizetype> colon = text.colonAfterKey(ownerKey);
        std::optional<qsizetype> end =
            target.IsMap() ? text.flowEnd(text.contentStart(target)) : text.entryEnd(ownerKey, target);
        if (!colon || !end || text.lineAt(*end - 1) != text.lineAt(*colon)) {
            *error = QStringLiteral("cannot find the value of %1").arg(dotted(path, depth));
            return false;
        }
        // "key: ~" and "key: {}" become "key:" with the entry on the next line.
        if (*end > *colon + 1)
            *splices << Splice{*colon + 1, *end, {}};
        column = text.columnOf(text.contentStart(ownerKey)) + text.indentUnit();
        afterLine = text.lineAt(*colon);
    } else {
        *error = QStringLiteral("%1 is %2, not a mapping").arg(dotted(path, depth), describeKind(target));
        return false;
    }

    QList<QByteArray> lines;
    for (const QByteArray &line : relativeLines)
        lines << spaces(column) + line;
    *splices << insertLinesAfter(text, afterLine, lines);
    return true;
}

// The lines a missing chain of keys needs, ending with @p leafLines under the last key.
QList<QByteArray> missingChain(const YamlText &text, const QStringList &path, qsizetype from,
                               const std::function<QList<QByteArray>(int leafIndent)> &leafLines)
{
    const int unit = text.indentUnit();
    QList<QByteArray> lines;
    for (qsizetype i = from; i + 1 < path.size(); ++i)
        lines << spaces(int(i - from) * unit) + renderKey(path.at(i)) + ':';
    lines << leafLines(int(path.size() - 1 - from) * unit);
    return lines;
}

/**
 * Applies @p splices, then proves the edit: the new text must parse to exactly the old
 * document with @p change applied. Anything else means the text had a shape this writer
 * misread, and the edit is refused rather than saved.
 */
YamlEditOutcome finish(const YamlText &before, const QList<Splice> &splices, const QString &what,
                       const std::function<void(YAML::Node &)> &change)
{
    const QByteArray edited = applySplices(before.bytes(), splices);
    const YamlText after(edited);
    YAML::Node expected = YAML::Clone(before.root());
    change(expected);
    if (!after.parsed() || !sameTree(expected, after.root())) {
        qCInfo(lcYamlTextEdit) << "edit of" << what << "did not produce the expected document;"
                               << (after.parsed() ? QStringLiteral("content differs") : after.parseError());
        return failed(
            before.bytes(),
            QStringLiteral("cannot change %1 without disturbing the rest of the file; edit it by hand").arg(what));
    }
    if (edited == before.bytes())
        return unchanged(edited);
    return {YamlEditOutcome::Status::Changed, edited, {}};
}

std::optional<YamlText> parse(const QByteArray &text, QString *error)
{
    YamlText parsed(text);
    if (!parsed.parsed()) {
        *error = QStringLiteral("the file is not valid YAML: %1").arg(parsed.parseError());
        return std::nullopt;
    }
    return parsed;
}

// Removes path's entry, or its nearest ancestor that would be left empty (never the top level).
YamlEditOutcome removeEntryPruning(const YamlText &text, const Walk &walk, const QStringList &path)
{
    qsizetype count = path.size();
    // Pruning climbs to a selected sequence item, not past it.
    while (count > 1 && !isSelector(path.at(count - 2)) && walk.found.at(count - 2).value.IsMap() &&
           walk.found.at(count - 2).value.size() == 1)
        --count;
    // An item that would keep only the key that selects it goes as a whole, so adding then
    // removing gives the original bytes back.
    if (count >= 3 && isSelector(path.at(count - 2)) && path.at(count - 2).contains(QLatin1Char('=')) &&
        walk.found.at(count - 2).value.size() == 2) {
        const std::optional<int> index = yamlpath::indexOfItem(walk.found.at(count - 3).value, path.at(count - 2));
        if (index)
            return removeFromSequence(text.bytes(), path.mid(0, count - 2), *index);
    }
    const Entry &entry = walk.found.at(count - 1);
    const QString what = dotted(path, count);
    const YAML::Node parent = count == 1 ? text.root() : walk.found.at(count - 2).value;
    if (isFlow(text, parent))
        return failed(text.bytes(), QStringLiteral("%1 is written in flow style ({...}); remove %2 from it by hand")
                                        .arg(count == 1 ? QStringLiteral("the top level") : dotted(path, count - 1),
                                             path.at(count - 1)));
    const qsizetype keyStart = text.offsetOf(entry.key.Mark());
    const int keyLine = text.lineAt(keyStart);
    const std::optional<qsizetype> end = text.entryEnd(entry.key, entry.value);
    if (text.indentation(keyLine) != text.columnOf(keyStart) || !end || !text.restOfLineIsEmpty(*end))
        return failed(text.bytes(), QStringLiteral("cannot find the lines of %1; remove it by hand").arg(what));
    const Splice splice = removeLines(text, keyLine, text.lineAt(*end - 1));
    return finish(text, {splice}, what,
                  [&](YAML::Node &root) { descend(root, path, count - 1).remove(path.at(count - 1).toStdString()); });
}

// Offset of the first byte at or after @p p that is not a space.
qsizetype skipSpaces(const QByteArray &bytes, qsizetype p)
{
    while (p < bytes.size() && bytes.at(p) == ' ')
        ++p;
    return p;
}

/** One edit in progress: the parsed text, what exists of the path, and the splices so far. */
struct Edit
{
    YamlText text;
    Walk walk;
    QStringList path;
    QString what; ///< the whole path, dotted
    QList<Splice> splices;
    QString error;

    bool fail(const QString &why)
    {
        error = why;
        return false;
    }
    /** The mapping that holds the last key of a complete path. */
    YAML::Node leafParent() const { return path.size() == 1 ? text.root() : walk.found.at(path.size() - 2).value; }
};

// The first selector of the path that selects nothing, or -1.
qsizetype missingSelector(const Edit &edit)
{
    for (qsizetype i = edit.walk.found.size(); !edit.walk.complete && i < edit.path.size(); ++i) {
        if (isSelector(edit.path.at(i)))
            return i;
    }
    return -1;
}

std::optional<Edit> startEdit(const QByteArray &source, const QStringList &path, QString *error)
{
    std::optional<YamlText> text = parse(source, error);
    if (!text)
        return std::nullopt;
    std::optional<Walk> found = walk(*text, path, error);
    if (!found)
        return std::nullopt;
    return Edit{std::move(*text), std::move(*found), path, dotted(path, path.size()), {}, {}};
}

// The path stops short: its missing keys are created, ending in a one-item list.
bool appendCreatingList(Edit &edit, const QString &value)
{
    const YamlText &text = edit.text;
    const qsizetype from = edit.walk.found.size();
    const YAML::Node parent = from == 0 ? text.root() : edit.walk.found.last().value;
    const int offset = sequenceOffsetIn(text, parent);
    const QByteArray item = renderInlineScalar(value, siblingStyle(text, {}, value, false), false);
    const QList<QByteArray> lines = missingChain(text, edit.path, from, [&](int indent) {
        return QList<QByteArray>{spaces(indent) + renderKey(edit.path.last()) + ':',
                                 spaces(indent + offset) + "- " + item};
    });
    return insertEntry(text, edit.walk, edit.path, lines, &edit.splices, &edit.error);
}

// "key:" (or "key: ~") with no value: the list starts on the next line.
bool appendUnderEmptyKey(Edit &edit, const QString &value)
{
    const YamlText &text = edit.text;
    const Entry &leaf = edit.walk.found.last();
    const int keyColumn = text.columnOf(text.contentStart(leaf.key));
    const std::optional<qsizetype> colon = text.colonAfterKey(leaf.key);
    const std::optional<qsizetype> end = text.entryEnd(leaf.key, leaf.value);
    if (!colon || !end)
        return edit.fail(QStringLiteral("cannot find the value of %1").arg(edit.what));
    if (*end > *colon + 1)
        edit.splices << Splice{*colon + 1, *end, {}};
    const QByteArray item = renderInlineScalar(value, siblingStyle(text, {}, value, false), false);
    edit.splices << insertLinesAfter(text, text.lineAt(*colon),
                                     {spaces(keyColumn + sequenceOffsetIn(text, edit.leafParent())) + "- " + item});
    return true;
}

// After the last item of a flow list that has one, in the separator its items use.
void appendAfterFlowItems(Edit &edit, const QList<TextRange> &items, qsizetype close, const QByteArray &item)
{
    const YamlText &text = edit.text;
    const QByteArray &bytes = text.bytes();
    const TextRange last = items.last();
    const int lastLine = text.lineAt(last.end - 1);
    if (lastLine == text.lineAt(close - 1)) {
        QByteArray separator = ", ";
        if (items.size() >= 2) {
            const QByteArray between = bytes.mid(items.at(0).end, items.at(1).begin - items.at(0).end);
            if (!between.contains('\n') && between.trimmed() == ",")
                separator = between;
        }
        edit.splices << Splice{last.end, last.end, separator + item};
        return;
    }
    // One item per line: the new item gets its own line.
    const qsizetype p = skipSpaces(bytes, last.end);
    const bool trailingComma = p < bytes.size() && bytes.at(p) == ',';
    const QByteArray indent = spaces(text.columnOf(last.begin));
    if (trailingComma) {
        edit.splices << insertLinesAfter(text, lastLine, {indent + item + ','});
    } else {
        edit.splices << Splice{last.end, last.end, ","};
        edit.splices << insertLinesAfter(text, lastLine, {indent + item});
    }
}

bool appendToFlowList(Edit &edit, const YAML::Node &list, const QString &value)
{
    const YamlText &text = edit.text;
    const qsizetype open = text.contentStart(list);
    const std::optional<qsizetype> close = text.flowEnd(open);
    const std::optional<QList<TextRange>> items = text.flowItems(list);
    if (!close || !items)
        return edit.fail(QStringLiteral("cannot read the list %1; edit it by hand").arg(edit.what));
    const QByteArray item = renderInlineScalar(value, siblingStyle(text, itemsOf(list), value, true), true);
    if (!items->isEmpty()) {
        appendAfterFlowItems(edit, *items, *close, item);
        return true;
    }
    if (text.bytes().mid(open + 1, *close - 1 - open - 1).contains('#'))
        return edit.fail(QStringLiteral("the list %1 holds only a comment; edit it by hand").arg(edit.what));
    edit.splices << Splice{open + 1, *close - 1, item};
    return true;
}

bool appendToBlockList(Edit &edit, const YAML::Node &list, const QString &value)
{
    const YamlText &text = edit.text;
    const YAML::Node last = list[list.size() - 1];
    const int dashColumn = text.columnOf(text.contentStart(list));
    const std::optional<TextRange> extent = text.blockItemExtent(last, dashColumn);
    if (!extent)
        return edit.fail(QStringLiteral("cannot find the end of the list %1; edit it by hand").arg(edit.what));
    const qsizetype itemStart = text.offsetOf(last.Mark());
    const int gap = text.lineAt(extent->begin) == text.lineAt(itemStart) ? int(itemStart - extent->begin - 1) : 1;
    const QByteArray item = renderInlineScalar(value, siblingStyle(text, itemsOf(list), value, false), false);
    edit.splices << insertLinesAfter(text, text.lineAt(extent->end - 1),
                                     {spaces(dashColumn) + '-' + spaces(std::max(1, gap)) + item});
    return true;
}

bool appendItem(Edit &edit, const QString &value)
{
    if (!edit.walk.complete)
        return appendCreatingList(edit, value);
    const YAML::Node list = edit.walk.found.last().value;
    if (list.IsNull())
        return appendUnderEmptyKey(edit, value);
    if (!list.IsSequence())
        return edit.fail(QStringLiteral("%1 is %2, not a list").arg(edit.what, describeKind(list)));
    if (isFlow(edit.text, list))
        return appendToFlowList(edit, list, value);
    return appendToBlockList(edit, list, value);
}

// A flow item written on a line of its own, with only its comma after it.
bool flowItemAloneOnLine(const YamlText &text, qsizetype open, qsizetype close, const TextRange &item)
{
    const int itemLine = text.lineAt(item.begin);
    if (text.lineAt(open) == itemLine || text.lineAt(close - 1) == itemLine)
        return false;
    if (text.lineStart(itemLine) + text.indentation(itemLine) != item.begin)
        return false;
    qsizetype p = skipSpaces(text.bytes(), item.end);
    if (p < text.bytes().size() && text.bytes().at(p) == ',')
        ++p;
    return text.restOfLineIsEmpty(p);
}

bool removeFlowItem(Edit &edit, const YAML::Node &list, int index)
{
    const YamlText &text = edit.text;
    const QByteArray &bytes = text.bytes();
    const int count = int(list.size());
    const qsizetype open = text.contentStart(list);
    const std::optional<qsizetype> close = text.flowEnd(open);
    const std::optional<QList<TextRange>> items = text.flowItems(list);
    if (!close || !items || items->size() != count)
        return edit.fail(QStringLiteral("cannot read the list %1; edit it by hand").arg(edit.what));
    const TextRange item = items->at(index);
    if (count == 1) {
        if (bytes.mid(open + 1, *close - 1 - open - 1).contains('#'))
            return edit.fail(QStringLiteral("the list %1 holds a comment; edit it by hand").arg(edit.what));
        edit.splices << Splice{open + 1, *close - 1, {}};
    } else if (flowItemAloneOnLine(text, open, *close, item)) {
        const int itemLine = text.lineAt(item.begin);
        edit.splices << removeLines(text, itemLine, itemLine);
        // Removing the last item must not leave the comma that was added for it.
        const qsizetype p = skipSpaces(bytes, item.end);
        const bool hadComma = p < bytes.size() && bytes.at(p) == ',';
        if (index == count - 1 && !hadComma) {
            const qsizetype q = skipSpaces(bytes, items->at(index - 1).end);
            if (q < bytes.size() && bytes.at(q) == ',')
                edit.splices << Splice{q, q + 1, {}};
        }
    } else if (index < count - 1) {
        edit.splices << Splice{item.begin, items->at(index + 1).begin, {}};
    } else {
        edit.splices << Splice{items->at(index - 1).end, item.end, {}};
    }
    return true;
}

bool removeBlockItem(Edit &edit, const YAML::Node &list, int index)
{
    const YamlText &text = edit.text;
    const YAML::Node item = list[index];
    const int dashColumn = text.columnOf(text.contentStart(list));
    const std::optional<TextRange> extent = text.blockItemExtent(item, dashColumn);
    if (!extent || text.indentation(text.lineAt(extent->begin)) != text.columnOf(extent->begin) ||
        !text.restOfLineIsEmpty(extent->end))
        return edit.fail(
            QStringLiteral("cannot find the lines of item %1 of %2; remove it by hand").arg(index + 1).arg(edit.what));
    edit.splices << removeLines(text, text.lineAt(extent->begin), text.lineAt(extent->end - 1));
    return true;
}

// The path stops short: its missing keys are created, ending in "key: value".
bool addScalarEntry(Edit &edit, const QString &value)
{
    const YamlText &text = edit.text;
    const qsizetype from = edit.walk.found.size();
    const YAML::Node parent = from == 0 ? text.root() : edit.walk.found.last().value;
    // A new entry among siblings follows their quoting; a new mapping starts plain.
    const QList<YAML::Node> siblings = from + 1 == edit.path.size() ? itemsOf(parent) : QList<YAML::Node>{};
    const QByteArray rendered = renderInlineScalar(value, siblingStyle(text, siblings, value, false), false);
    const QList<QByteArray> lines = missingChain(text, edit.path, from, [&](int indent) {
        return QList<QByteArray>{spaces(indent) + renderKey(edit.path.last()) + ": " + rendered};
    });
    return insertEntry(text, edit.walk, edit.path, lines, &edit.splices, &edit.error);
}

// @p value as a literal block whose header is on @p headerLine, indented as its old content was.
QByteArray renderLiteralBlock(const YamlText &text, int headerLine, int keyColumn, const QString &value)
{
    int contentIndent = keyColumn + text.indentUnit();
    for (int line = headerLine + 1; line < text.lineCount(); ++line) {
        if (!text.isBlank(line)) {
            if (text.indentation(line) > keyColumn)
                contentIndent = text.indentation(line);
            break;
        }
    }
    QString body = value;
    const bool finalBreak = body.endsWith(QLatin1Char('\n'));
    if (finalBreak)
        body.chop(1);
    QByteArray rendered = finalBreak ? "|" : "|-";
    for (const QString &line : body.split(QLatin1Char('\n')))
        rendered += text.newline() + (line.isEmpty() ? QByteArray() : spaces(contentIndent) + line.toUtf8());
    return rendered;
}

// The existing value of a complete path, empty or a scalar, becomes @p value.
bool replaceScalar(Edit &edit, const QString &value)
{
    const YamlText &text = edit.text;
    const Entry &leaf = edit.walk.found.last();
    const YAML::Node parent = edit.leafParent();
    const bool inFlow = isFlow(text, parent);
    const int keyColumn = text.columnOf(text.contentStart(leaf.key));
    if (leaf.value.IsNull()) {
        const std::optional<qsizetype> colon = text.colonAfterKey(leaf.key);
        const std::optional<qsizetype> end = text.entryEnd(leaf.key, leaf.value);
        if (inFlow || !colon || !end)
            return edit.fail(QStringLiteral("cannot find the value of %1; edit it by hand").arg(edit.what));
        const ScalarStyle style = siblingStyle(text, itemsOf(parent), value, false);
        edit.splices << Splice{*colon + 1, *end, ' ' + renderInlineScalar(value, style, false)};
        return true;
    }
    if (!leaf.value.IsScalar())
        return edit.fail(QStringLiteral("%1 is %2, not a single value").arg(edit.what, describeKind(leaf.value)));
    const ScalarStyle style = text.scalarStyle(leaf.value);
    const std::optional<TextRange> range = text.scalarRange(leaf.value, keyColumn, inFlow);
    if (!range)
        return edit.fail(QStringLiteral("cannot find the value of %1; edit it by hand").arg(edit.what));
    const bool block = style == ScalarStyle::Literal || style == ScalarStyle::Folded;
    // A multi-line value stays a literal block when it was one; a block value
    // changed to one line becomes an ordinary scalar.
    const bool staysBlock = block && value.contains(QLatin1Char('\n')) && !value.endsWith(QLatin1String("\n\n")) &&
                            !value.startsWith(QLatin1Char(' ')) && !value.startsWith(QLatin1Char('\n'));
    const QByteArray rendered = staysBlock ? renderLiteralBlock(text, text.lineAt(range->begin), keyColumn, value)
                                           : renderInlineScalar(value, style, inFlow);
    edit.splices << Splice{range->begin, range->end, rendered};
    return true;
}

} // namespace

YamlEditOutcome appendToSequence(const QByteArray &source, const QStringList &path, const QString &value)
{
    QString error;
    std::optional<Edit> edit = startEdit(source, path, &error);
    if (!edit)
        return failed(source, error);
    if (const qsizetype selector = missingSelector(*edit); selector >= 0)
        return yamlpath::appendCreatingItem(source, path, selector, value);
    if (!appendItem(*edit, value))
        return failed(source, edit->error);
    return finish(edit->text, edit->splices, edit->what, [&](YAML::Node &root) {
        YAML::Node list = descend(root, path, path.size());
        YAML::Node added(value.toStdString());
        added.SetTag("");
        list.push_back(added);
    });
}

YamlEditOutcome removeFromSequence(const QByteArray &source, const QStringList &path, int index)
{
    QString error;
    std::optional<Edit> edit = startEdit(source, path, &error);
    if (!edit)
        return failed(source, error);
    const QString what = edit->what;
    if (!edit->walk.complete)
        return failed(source, QStringLiteral("the file has no %1").arg(what));
    const YAML::Node list = edit->walk.found.last().value;
    if (!list.IsSequence())
        return failed(source, QStringLiteral("%1 is %2, not a list").arg(what, describeKind(list)));
    const int count = int(list.size());
    if (index < 0 || index >= count)
        return failed(source, QStringLiteral("%1 has no item %2").arg(what).arg(index + 1));

    auto expectation = [&](YAML::Node &root) {
        YAML::Node parent = descend(root, path, path.size() - 1);
        YAML::Node rest(YAML::NodeType::Sequence);
        const YAML::Node old = parent[path.last().toStdString()];
        for (int i = 0; i < count; ++i) {
            if (i != index)
                rest.push_back(YAML::Clone(old[i]));
        }
        parent[path.last().toStdString()] = rest;
    };
    const bool flow = isFlow(edit->text, list);
    if (!flow && count == 1)
        return removeEntryPruning(edit->text, edit->walk, path);
    if (!(flow ? removeFlowItem(*edit, list, index) : removeBlockItem(*edit, list, index)))
        return failed(source, edit->error);
    return finish(edit->text, edit->splices, what, expectation);
}

YamlEditOutcome setScalar(const QByteArray &source, const QStringList &path, const QString &value)
{
    QString error;
    std::optional<Edit> edit = startEdit(source, path, &error);
    if (!edit)
        return failed(source, error);
    if (missingSelector(*edit) >= 0)
        return failed(source, QStringLiteral("the file has no %1").arg(dotted(path, missingSelector(*edit) + 1)));
    if (!edit->walk.complete) {
        if (!addScalarEntry(*edit, value))
            return failed(source, edit->error);
    } else {
        const YAML::Node &leafValue = edit->walk.found.last().value;
        if (leafValue.IsScalar() && leafValue.Scalar() == value.toStdString())
            return unchanged(source);
        if (!replaceScalar(*edit, value))
            return failed(source, edit->error);
    }
    return finish(edit->text, edit->splices, edit->what, [&](YAML::Node &root) {
        YAML::Node parent = descend(root, path, path.size() - 1);
        YAML::Node leaf = parent[path.last().toStdString()];
        leaf = value.toStdString();
        leaf.SetTag("");
    });
}

YamlEditOutcome removeEntry(const QByteArray &source, const QStringList &path)
{
    QString error;
    std::optional<Edit> edit = startEdit(source, path, &error);
    if (!edit)
        return failed(source, error);
    if (!edit->walk.complete)
        return unchanged(source);
    if (isSelector(path.last()))
        return failed(source, QStringLiteral("remove %1 by hand").arg(edit->what));
    return removeEntryPruning(edit->text, edit->walk, path);
}

} // namespace paddock::kit::YamlTextEdit

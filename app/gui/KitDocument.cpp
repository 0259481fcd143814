// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitDocument.h"

#include "common/AtomicFile.h"
#include "kit/KitLoader.h"
#include "kit/KitV3Descriptor.h"
#include "kit/YamlText.h"
#include "kit/YamlTextEdit.h"

#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <optional>

Q_LOGGING_CATEGORY(lcKitDocument, "paddock.gui.kitdocument", QtWarningMsg)

namespace paddock::gui {

using kit::ScalarStyle;
using kit::TextRange;
using kit::YamlText;

namespace {

QStringList splitPath(const QString &path)
{
    return path.split(QLatin1Char('.'), Qt::SkipEmptyParts);
}

bool isIndex(const QString &part, int *index = nullptr)
{
    bool ok = false;
    const int value = part.toInt(&ok);
    if (ok && index)
        *index = value;
    return ok && value >= 0;
}

bool hasIndex(const QStringList &parts)
{
    return std::any_of(parts.cbegin(), parts.cend(), [](const QString &p) { return isIndex(p); });
}

/** Sets @p error, when asked for, to @p message; returns false. */
bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

QByteArray spaces(int count)
{
    return QByteArray(std::max(0, count), ' ');
}

std::optional<YAML::Node> parse(const QByteArray &text)
{
    try {
        return YAML::Load(text.toStdString());
    } catch (const YAML::Exception &) {
        return std::nullopt;
    }
}

/** A node found along a path, with what the text edits need to know about its place. */
struct Located
{
    YAML::Node node;
    int ownerIndent = 0; ///< column of the key or dash that owns the node
    bool inFlow = false;
    bool found = false;
};

/** The nodes along @p parts as far as they exist: result[i] is parts[i]'s node. */
QList<Located> walk(const YamlText &yaml, const QStringList &parts)
{
    QList<Located> chain;
    YAML::Node current = yaml.root();
    bool inFlow = false;
    for (const QString &part : parts) {
        Located next;
        const bool flow = inFlow || current.Style() == YAML::EmitterStyle::Flow;
        int index = 0;
        if (current.IsMap() && !isIndex(part)) {
            for (auto it = current.begin(); it != current.end(); ++it) {
                if (it->first.IsScalar() && QString::fromStdString(it->first.Scalar()) == part) {
                    next.node = it->second;
                    next.ownerIndent = yaml.columnOf(yaml.offsetOf(it->first.Mark()));
                    next.found = true;
                    break;
                }
            }
        } else if (current.IsSequence() && isIndex(part, &index) && index < int(current.size())) {
            next.node = current[std::size_t(index)];
            // Every item of a block sequence has its dash where the sequence starts.
            next.ownerIndent = yaml.columnOf(yaml.offsetOf(current.Mark()));
            next.found = true;
        }
        if (!next.found)
            break;
        next.inFlow = flow;
        chain << next;
        current.reset(next.node); // rebinds; operator= would overwrite the tree
        inFlow = flow;
    }
    return chain;
}

std::optional<YAML::Node> nodeAt(const QByteArray &text, const QString &path)
{
    const std::optional<YAML::Node> root = parse(text);
    if (!root)
        return std::nullopt;
    YAML::Node current = *root;
    for (const QString &part : splitPath(path)) {
        int index = 0;
        if (current.IsMap() && !isIndex(part)) {
            const YAML::Node child = std::as_const(current)[part.toStdString()];
            if (!child)
                return std::nullopt;
            current.reset(child);
        } else if (current.IsSequence() && isIndex(part, &index) && index < int(current.size())) {
            current.reset(std::as_const(current)[std::size_t(index)]);
        } else {
            return std::nullopt;
        }
    }
    return current;
}

/** Start of the line after the one holding the byte before @p end (inserting after a node). */
qsizetype lineAfter(const YamlText &yaml, qsizetype end)
{
    return yaml.nextLineStart(yaml.lineAt(std::max<qsizetype>(0, end - 1)));
}

/** Inserts @p lines at @p at, which is a line start or the end of the text. */
QByteArray insertLines(const YamlText &yaml, qsizetype at, const QList<QByteArray> &lines)
{
    QByteArray text = yaml.bytes();
    QByteArray block;
    for (const QByteArray &line : lines)
        block += line + yaml.newline();
    if (at >= text.size() && !text.isEmpty() && !text.endsWith('\n'))
        block.prepend(yaml.newline());
    text.insert(at, block);
    return text;
}

QByteArray renderValue(const QVariant &value)
{
    if (value.typeId() == QMetaType::Bool)
        return value.toBool() ? "true" : "false";
    if (value.typeId() == QMetaType::Int || value.typeId() == QMetaType::LongLong ||
        value.typeId() == QMetaType::Double)
        return value.toString().toUtf8();
    return kit::renderInlineScalar(value.toString(), ScalarStyle::Plain, false);
}

/** The lines of a new sequence item at dash column @p dash. */
QList<QByteArray> itemLines(const QVariant &item, int dash, const QStringList &keyOrder, int sequenceOffset)
{
    if (item.typeId() != QMetaType::QVariantMap)
        return {spaces(dash) + "- " + renderValue(item)};
    const QVariantMap map = item.toMap();
    QStringList keys = keyOrder;
    for (const QString &key : map.keys()) {
        if (!keys.contains(key))
            keys << key;
    }
    QList<QByteArray> lines;
    for (const QString &key : std::as_const(keys)) {
        if (!map.contains(key))
            continue;
        const QVariant value = map.value(key);
        const QByteArray prefix = lines.isEmpty() ? spaces(dash) + "- " : spaces(dash + 2);
        if (value.typeId() == QMetaType::QVariantList || value.typeId() == QMetaType::QStringList) {
            // A list value is a block list under its key, as the kit's other lists are.
            lines << prefix + key.toUtf8() + ':';
            for (const QVariant &element : value.toList())
                lines << spaces(dash + 2 + sequenceOffset) + "- " + renderValue(element);
            continue;
        }
        lines << prefix + key.toUtf8() + ": " + renderValue(value);
    }
    if (lines.isEmpty())
        lines << spaces(dash) + "- {}";
    return lines;
}

/** A literal block scalar holding @p value, its lines indented to @p indent. */
/**
 * @p text with the list item "- PLACEHOLDER" replaced by the lines of the mapping @p item, at
 * the same dash; nullopt when the placeholder is not alone after a dash.
 */
std::optional<QByteArray> withItemAt(QByteArray text, const QString &placeholder, const QVariant &item,
                                     const QStringList &keyOrder)
{
    const qsizetype at = text.indexOf(placeholder.toUtf8());
    const qsizetype lineStart = text.lastIndexOf('\n', at) + 1;
    const QByteArray prefix = text.mid(lineStart, at - lineStart);
    if (at < 0 || !prefix.trimmed().startsWith('-') || prefix.trimmed() != "-")
        return std::nullopt;
    const int dash = int(prefix.indexOf('-'));
    const YamlText placed(text);
    QByteArray joined;
    const QList<QByteArray> lines = itemLines(item, dash, keyOrder, placed.sequenceOffset());
    for (qsizetype i = 0; i < lines.size(); ++i)
        joined += (i ? placed.newline() : QByteArray()) + lines.at(i);
    text.replace(lineStart, at + placeholder.size() - lineStart, joined);
    return text;
}

QByteArray literalBlock(const QString &value, int indent, const QByteArray &newline)
{
    QString body = value;
    QByteArray header = "|";
    if (!body.endsWith(QLatin1Char('\n')))
        header += '-';
    else if (body.endsWith(QStringLiteral("\n\n")))
        header += '+';
    if (body.endsWith(QLatin1Char('\n')))
        body.chop(1);
    // Clip and strip need no trailing empty lines; keep only what the content needs.
    QByteArray block = header;
    for (const QString &line : body.split(QLatin1Char('\n'))) {
        block += newline;
        if (!line.isEmpty())
            block += spaces(indent) + line.toUtf8();
    }
    return block;
}

/** Records which path each key and scalar of the document sits at, by line and column. */
struct PathMark
{
    int line = 0;
    int column = 0;
    QString path;
};

void collectMarks(const YAML::Node &node, const QString &path, QList<PathMark> *marks)
{
    auto join = [&](const QString &part) { return path.isEmpty() ? part : path + QLatin1Char('.') + part; };
    if (node.IsMap()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            const QString key = it->first.IsScalar() ? QString::fromStdString(it->first.Scalar()) : QString();
            const QString child = join(key);
            marks->append({it->first.Mark().line + 1, it->first.Mark().column + 1, child});
            collectMarks(it->second, child, marks);
        }
    } else if (node.IsSequence()) {
        int i = 0;
        for (const YAML::Node &item : node) {
            const QString child = join(QString::number(i++));
            marks->append({item.Mark().line + 1, item.Mark().column + 1, child});
            collectMarks(item, child, marks);
        }
    } else if (node.IsScalar() && node.Mark().line >= 0) {
        marks->append({node.Mark().line + 1, node.Mark().column + 1, path});
    }
}

QString pathAt(const QList<PathMark> &marks, int line, int column)
{
    if (line <= 0)
        return {};
    const PathMark *best = nullptr;
    for (const PathMark &mark : marks) {
        if (mark.line > line || (mark.line == line && mark.column > column && column > 0))
            continue;
        if (!best || mark.line > best->line || (mark.line == best->line && mark.column >= best->column))
            best = &mark;
    }
    // Nothing before it on its line: the first thing on that line.
    if (!best || best->line != line) {
        for (const PathMark &mark : marks) {
            if (mark.line == line && (!best || best->line != line || mark.column < best->column))
                best = &mark;
        }
    }
    return best ? best->path : QString();
}

} // namespace

KitDocument::KitDocument(QByteArray text, QString filePath)
    : m_text(std::move(text)),
      m_original(m_text),
      m_filePath(std::move(filePath)),
      m_v3(kit::declaresSchemaV3(m_original))
{
    revalidate();
}

void KitDocument::setText(const QByteArray &text)
{
    m_text = text;
    revalidate();
}

void KitDocument::revalidate()
{
    m_diagnostics.clear();
    // A schemaVersion "3" descriptor is checked by the strict decoder `paddock kit build` uses.
    const QList<kit::Diagnostic> found = m_v3 ? kit::decodeV3Descriptor(m_text, m_filePath).diagnostics
                                              : kit::KitLoader::loadText(m_text, m_filePath).diagnostics;
    QList<PathMark> marks;
    if (const std::optional<YAML::Node> root = parse(m_text))
        collectMarks(*root, {}, &marks);
    for (const kit::Diagnostic &d : found)
        m_diagnostics << KitFieldDiagnostic{d, pathAt(marks, d.line, d.column)};
}

int KitDocument::errorCount() const
{
    return int(std::count_if(m_diagnostics.cbegin(), m_diagnostics.cend(),
                             [](const KitFieldDiagnostic &d) { return d.diagnostic.isError(); }));
}

int KitDocument::warningCount() const
{
    return int(m_diagnostics.size()) - errorCount();
}

QStringList KitDocument::messagesFor(const QString &path) const
{
    QStringList messages;
    for (const KitFieldDiagnostic &d : m_diagnostics) {
        if (d.path == path || d.path.startsWith(path + QLatin1Char('.')))
            messages << d.diagnostic.message;
    }
    return messages;
}

QString KitDocument::scalar(const QString &path) const
{
    const std::optional<YAML::Node> node = nodeAt(m_text, path);
    return node && node->IsScalar() ? QString::fromStdString(node->Scalar()) : QString();
}

bool KitDocument::exists(const QString &path) const
{
    const std::optional<YAML::Node> node = nodeAt(m_text, path);
    return node && node->IsDefined();
}

int KitDocument::count(const QString &path) const
{
    const std::optional<YAML::Node> node = nodeAt(m_text, path);
    return node && (node->IsSequence() || node->IsMap()) ? int(node->size()) : 0;
}

QStringList KitDocument::strings(const QString &path) const
{
    QStringList list;
    const std::optional<YAML::Node> node = nodeAt(m_text, path);
    if (node && node->IsSequence()) {
        for (const YAML::Node &item : *node)
            list << (item.IsScalar() ? QString::fromStdString(item.Scalar()) : QString());
    } else if (node && node->IsScalar() && !node->Scalar().empty()) {
        list << QString::fromStdString(node->Scalar());
    }
    return list;
}

QStringList KitDocument::keys(const QString &path) const
{
    QStringList list;
    const std::optional<YAML::Node> node = nodeAt(m_text, path);
    if (node && node->IsMap()) {
        for (auto it = node->begin(); it != node->end(); ++it)
            list << QString::fromStdString(it->first.as<std::string>(""));
    }
    return list;
}

bool KitDocument::applyText(const QByteArray &text, const QString &path, const QVariant &expected, QString *error)
{
    // Parsed back: an edit that does not read as what was asked is refused.
    const std::optional<YAML::Node> node = nodeAt(text, path);
    bool ok = false;
    if (expected.typeId() == QMetaType::QString)
        ok = node && node->IsScalar() && QString::fromStdString(node->Scalar()) == expected.toString();
    else if (expected.typeId() == QMetaType::Int)
        ok = expected.toInt() < 0 ? !node || !node->IsDefined()
                                  : node && node->IsSequence() && int(node->size()) == expected.toInt();
    else
        ok = parse(text).has_value();
    if (!ok) {
        qCWarning(lcKitDocument) << "edit of" << path << "did not read back as expected";
        return fail(error,
                    QStringLiteral("this change cannot be written without touching other lines; edit the YAML text "
                                   "instead"));
    }
    setText(text);
    return true;
}

std::optional<ScalarStyle> KitDocument::originalStyle(const QString &path) const
{
    const YamlText original(m_original);
    if (!original.parsed())
        return std::nullopt;
    const QStringList parts = splitPath(path);
    const QList<Located> chain = walk(original, parts);
    if (chain.size() != parts.size() || !chain.last().node.IsScalar())
        return std::nullopt;
    return original.scalarStyle(chain.last().node);
}

bool KitDocument::setScalar(const QString &path, const QString &value, QString *error)
{
    const QStringList parts = splitPath(path);
    if (parts.isEmpty())
        return false;
    if (scalar(path) == value && exists(path))
        return true;
    const YamlText yaml(m_text);
    if (!yaml.parsed())
        return fail(
            error,
            QStringLiteral("the YAML text does not parse (%1); fix it in the text first").arg(yaml.parseError()));
    const QList<Located> chain = walk(yaml, parts);
    const bool multiLine = value.contains(QLatin1Char('\n'));

    // An existing scalar: replace exactly its bytes, in its own quoting style when it can hold the value.
    if (chain.size() == parts.size() && (chain.last().node.IsScalar() || chain.last().node.IsNull())) {
        const Located &leaf = chain.last();
        const std::optional<TextRange> range =
            leaf.node.IsNull() ? std::nullopt : yaml.scalarRange(leaf.node, leaf.ownerIndent, leaf.inFlow);
        if (range) {
            // The quoting of the file as it was opened, not of the keystroke before: emptied or
            // briefly needing quotes while typed, a value goes back to how its author wrote it.
            const ScalarStyle style = originalStyle(path).value_or(ScalarStyle::Plain);
            QByteArray rendered;
            if (multiLine && !leaf.inFlow)
                rendered = literalBlock(value, leaf.ownerIndent + yaml.indentUnit(), yaml.newline());
            else
                rendered = kit::renderInlineScalar(value, style, leaf.inFlow);
            QByteArray text = m_text;
            const TextRange replaced = range.value_or(TextRange{});
            text.replace(replaced.begin, replaced.end - replaced.begin, rendered);
            return applyText(text, path, value, error);
        }
    }
    if (!hasIndex(parts)) {
        const kit::YamlEditOutcome outcome = kit::YamlTextEdit::setScalar(m_text, parts, value);
        if (outcome.status == kit::YamlEditOutcome::Status::Failed)
            return fail(error, outcome.error);
        setText(outcome.text);
        return true;
    }

    // Missing keys inside a list item: new lines at the end of the deepest mapping that exists.
    const qsizetype missingFrom = chain.size();
    for (qsizetype i = missingFrom; i < parts.size(); ++i) {
        if (isIndex(parts.at(i)))
            return fail(error,
                        QStringLiteral("%1 has no item %2").arg(parts.mid(0, i).join(QLatin1Char('.')), parts.at(i)));
    }
    if (missingFrom == 0 || !chain.last().node.IsMap() || chain.last().node.size() == 0 || chain.last().inFlow ||
        chain.last().node.Style() == YAML::EmitterStyle::Flow) {
        return fail(error, QStringLiteral("%1 cannot be added here; edit the YAML text instead").arg(path));
    }
    const Located &parent = chain.last();
    const int keyColumn = yaml.columnOf(yaml.offsetOf(parent.node.begin()->first.Mark()));
    const std::optional<qsizetype> end = yaml.nodeEnd(parent.node, parent.ownerIndent, false);
    if (!end)
        return fail(error,
                    QStringLiteral("cannot find where %1 ends").arg(parts.mid(0, missingFrom).join(QLatin1Char('.'))));
    QList<QByteArray> lines;
    const int unit = yaml.indentUnit();
    for (qsizetype i = missingFrom; i < parts.size(); ++i) {
        const int indent = keyColumn + int(i - missingFrom) * unit;
        QByteArray line = spaces(indent) + parts.at(i).toUtf8() + ':';
        if (i + 1 == parts.size())
            line += ' ' + kit::renderInlineScalar(value, ScalarStyle::Plain, false);
        lines << line;
    }
    return applyText(insertLines(yaml, lineAfter(yaml, *end), lines), path, value, error);
}

bool KitDocument::setPlain(const QString &path, const QString &value, QString *error)
{
    static const QRegularExpression plainValue(QStringLiteral("^(true|false|-?[0-9]+(\\.[0-9]+)?)$"));
    if (!plainValue.match(value).hasMatch())
        return fail(error, QStringLiteral("'%1' is not a number or true/false").arg(value));
    // Written as a string first, so the writer finds or creates its place; then unquoted.
    const QByteArray before = m_text;
    static const QString placeholder = QStringLiteral("paddock-plain-value-placeholder");
    if (!setScalar(path, placeholder, error))
        return false;
    QByteArray text = m_text;
    const qsizetype at = text.indexOf(placeholder.toUtf8());
    m_text = before;
    if (at < 0) {
        revalidate();
        return fail(error, QStringLiteral("%1 cannot be written here; edit the YAML text instead").arg(path));
    }
    qsizetype from = at;
    qsizetype to = at + placeholder.size();
    // The placeholder took the quotes of the value it replaced; a plain value drops them.
    if (from > 0 && to < text.size() && (text.at(from - 1) == '"' || text.at(from - 1) == '\'') &&
        text.at(to) == text.at(from - 1)) {
        --from;
        ++to;
    }
    text.replace(from, to - from, value.toUtf8());
    if (!applyText(text, path, value, error)) {
        revalidate();
        return false;
    }
    return true;
}

bool KitDocument::removeEntry(const QString &path, QString *error)
{
    const QStringList parts = splitPath(path);
    if (parts.isEmpty() || !exists(path))
        return true;
    if (!hasIndex(parts)) {
        const kit::YamlEditOutcome outcome = kit::YamlTextEdit::removeEntry(m_text, parts);
        if (outcome.status == kit::YamlEditOutcome::Status::Failed)
            return fail(error, outcome.error);
        setText(outcome.text);
        return true;
    }
    if (isIndex(parts.last()))
        return removeItem(parts.mid(0, parts.size() - 1).join(QLatin1Char('.')), parts.last().toInt(), error);
    const YamlText yaml(m_text);
    const QList<Located> chain = walk(yaml, parts);
    if (chain.size() != parts.size() || chain.at(chain.size() - 2).node.size() < 2 || chain.last().inFlow)
        return fail(error, QStringLiteral("%1 cannot be removed on its own; edit the YAML text instead").arg(path));
    // The entry's lines: from its key's line to the end of its value.
    const Located &leaf = chain.last();
    const YAML::Node parentMap = chain.at(chain.size() - 2).node;
    std::optional<qsizetype> end;
    qsizetype keyOffset = -1;
    for (auto it = parentMap.begin(); it != parentMap.end(); ++it) {
        if (QString::fromStdString(it->first.Scalar()) == parts.last()) {
            keyOffset = yaml.offsetOf(it->first.Mark());
            end = yaml.entryEnd(it->first, it->second);
        }
    }
    const int keyLine = yaml.lineAt(keyOffset);
    // A key sharing its line with the item's dash cannot lose its line.
    const QByteArray before = yaml.bytes().mid(yaml.lineStart(keyLine), keyOffset - yaml.lineStart(keyLine)).trimmed();
    if (!end || keyOffset < 0 || !before.isEmpty())
        return fail(error, QStringLiteral("%1 cannot be removed on its own; edit the YAML text instead").arg(path));
    Q_UNUSED(leaf);
    QByteArray text = m_text;
    const qsizetype from = yaml.lineStart(keyLine);
    text.remove(from, lineAfter(yaml, *end) - from);
    return applyText(text, path, -1, error);
}

bool KitDocument::appendItem(const QString &listPath, const QVariant &item, QString *error, const QStringList &keyOrder)
{
    const QStringList parts = splitPath(listPath);
    if (parts.isEmpty())
        return false;
    const int before = count(listPath);
    const YamlText yaml(m_text);
    if (!yaml.parsed())
        return fail(
            error,
            QStringLiteral("the YAML text does not parse (%1); fix it in the text first").arg(yaml.parseError()));
    const QList<Located> chain = walk(yaml, parts);
    const bool isMap = item.typeId() == QMetaType::QVariantMap;

    if (chain.size() == parts.size() && chain.last().node.IsSequence() && chain.last().node.size() > 0) {
        const Located &list = chain.last();
        if (list.inFlow || list.node.Style() == YAML::EmitterStyle::Flow) {
            if (isMap || hasIndex(parts))
                return fail(
                    error,
                    QStringLiteral("%1 is written as a flow list ([...]); edit the YAML text instead").arg(listPath));
        } else {
            const int dash = yaml.columnOf(yaml.offsetOf(list.node.Mark()));
            const std::optional<qsizetype> end = yaml.nodeEnd(list.node, list.ownerIndent, false);
            if (!end)
                return fail(error, QStringLiteral("cannot find where %1 ends").arg(listPath));
            return applyText(
                insertLines(yaml, lineAfter(yaml, *end), itemLines(item, dash, keyOrder, yaml.sequenceOffset())),
                listPath, before + 1, error);
        }
    }
    if (!hasIndex(parts)) {
        // The writer creates the list and its parents; a mapping item replaces its placeholder line.
        static const QString placeholder = QStringLiteral("paddock-new-item-placeholder");
        const QString value = isMap ? placeholder : item.toString();
        const kit::YamlEditOutcome outcome = kit::YamlTextEdit::appendToSequence(m_text, parts, value);
        if (outcome.status == kit::YamlEditOutcome::Status::Failed)
            return fail(error, outcome.error);
        if (!isMap) {
            setText(outcome.text);
            return true;
        }
        const std::optional<QByteArray> text = withItemAt(outcome.text, placeholder, item, keyOrder);
        if (!text)
            return fail(error, QStringLiteral("%1 cannot be added here; edit the YAML text instead").arg(listPath));
        return applyText(*text, listPath, before + 1, error);
    }

    // A list missing inside a list item: the key, then the item, at the end of the item's mapping.
    const qsizetype missingFrom = chain.size();
    if (missingFrom == 0 || missingFrom == parts.size() || !chain.last().node.IsMap() ||
        chain.last().node.size() == 0 || chain.last().inFlow || chain.last().node.Style() == YAML::EmitterStyle::Flow) {
        return fail(error, QStringLiteral("%1 cannot be added here; edit the YAML text instead").arg(listPath));
    }
    for (qsizetype i = missingFrom; i < parts.size(); ++i) {
        if (isIndex(parts.at(i)))
            return fail(error,
                        QStringLiteral("%1 has no item %2").arg(parts.mid(0, i).join(QLatin1Char('.')), parts.at(i)));
    }
    const Located &parent = chain.last();
    const int keyColumn = yaml.columnOf(yaml.offsetOf(parent.node.begin()->first.Mark()));
    const std::optional<qsizetype> end = yaml.nodeEnd(parent.node, parent.ownerIndent, false);
    if (!end)
        return fail(error, QStringLiteral("cannot find where %1 ends").arg(listPath));
    const int unit = yaml.indentUnit();
    QList<QByteArray> lines;
    int indent = keyColumn;
    for (qsizetype i = missingFrom; i < parts.size(); ++i) {
        indent = keyColumn + int(i - missingFrom) * unit;
        lines << spaces(indent) + parts.at(i).toUtf8() + ':';
    }
    lines << itemLines(item, indent + yaml.sequenceOffset(), keyOrder, yaml.sequenceOffset());
    return applyText(insertLines(yaml, lineAfter(yaml, *end), lines), listPath, before + 1, error);
}

bool KitDocument::removeItem(const QString &listPath, int index, QString *error)
{
    const QStringList parts = splitPath(listPath);
    const int before = count(listPath);
    if (index < 0 || index >= before)
        return fail(error, QStringLiteral("%1 has no item %2").arg(listPath).arg(index + 1));
    if (!hasIndex(parts)) {
        const kit::YamlEditOutcome outcome = kit::YamlTextEdit::removeFromSequence(m_text, parts, index);
        if (outcome.status == kit::YamlEditOutcome::Status::Failed)
            return fail(error, outcome.error);
        setText(outcome.text);
        return true;
    }
    // The last item takes its list's key with it: an empty key would read as null, not [].
    if (before == 1)
        return removeEntry(listPath, error);
    const YamlText yaml(m_text);
    const QList<Located> chain = walk(yaml, parts);
    const Located &list = chain.last();
    if (chain.size() != parts.size() || list.inFlow || list.node.Style() == YAML::EmitterStyle::Flow)
        return fail(error,
                    QStringLiteral("%1 is written as a flow list ([...]); edit the YAML text instead").arg(listPath));
    const qsizetype itemStart = yaml.lineStart(yaml.lineAt(yaml.contentStart(list.node[std::size_t(index)])));
    qsizetype itemEnd = 0;
    if (index + 1 < before) {
        itemEnd = yaml.lineStart(yaml.lineAt(yaml.contentStart(list.node[std::size_t(index + 1)])));
    } else {
        const int dash = yaml.columnOf(yaml.offsetOf(list.node.Mark()));
        const std::optional<qsizetype> end = yaml.nodeEnd(list.node[std::size_t(index)], dash, false);
        if (!end)
            return fail(error, QStringLiteral("cannot find where item %1 of %2 ends").arg(index + 1).arg(listPath));
        itemEnd = lineAfter(yaml, *end);
    }
    QByteArray text = m_text;
    text.remove(itemStart, itemEnd - itemStart);
    return applyText(text, listPath, before - 1, error);
}

} // namespace paddock::gui

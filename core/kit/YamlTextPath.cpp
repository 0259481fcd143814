// SPDX-License-Identifier: GPL-3.0-or-later
// YamlTextEdit paths through sequences: selecting an item, and adding the item a path selects.
#include "kit/YamlTextPath.h"

#include "kit/YamlText.h"

#include <algorithm>

namespace paddock::kit::yamlpath {
namespace {

// Stands for the new item while the writer places it; replaced before anything is returned.
const QString kPlaceholder = QStringLiteral("paddock-new-item-placeholder-3f9c");

YamlEditOutcome failed(const QByteArray &text, const QString &error)
{
    return {YamlEditOutcome::Status::Failed, text, error};
}

QByteArray spaces(int n)
{
    return QByteArray(std::max(0, n), ' ');
}

struct KeySelector
{
    QString key;
    QString value;
};

std::optional<KeySelector> keySelector(const QString &selector)
{
    const qsizetype equals = selector.indexOf(QLatin1Char('='));
    if (!isSelector(selector) || equals < 2)
        return std::nullopt;
    return KeySelector{selector.mid(1, equals - 1), selector.mid(equals + 1, selector.size() - equals - 2)};
}

YAML::Node newScalar(const QString &value)
{
    YAML::Node node(value.toStdString());
    node.SetTag("");
    return node;
}

// The item as the document should read after the edit: {key: value, rest...: {leaf: [value]}}.
YAML::Node expectedItem(const KeySelector &selector, const QStringList &rest, const QString &value)
{
    YAML::Node inner(YAML::NodeType::Sequence);
    inner.push_back(newScalar(value));
    for (qsizetype i = rest.size() - 1; i >= 0; --i) {
        YAML::Node map(YAML::NodeType::Map);
        map[rest.at(i).toStdString()] = inner;
        inner.reset(map);
    }
    YAML::Node item(YAML::NodeType::Map);
    item[selector.key.toStdString()] = newScalar(selector.value);
    item[rest.constFirst().toStdString()] = inner[rest.constFirst().toStdString()];
    return item;
}

QByteArray renderFlowItem(const KeySelector &selector, const QStringList &rest, const QString &value)
{
    QByteArray inner = '[' + renderInlineScalar(value, ScalarStyle::Plain, true) + ']';
    for (qsizetype i = rest.size() - 1; i >= 1; --i)
        inner = "{" + renderInlineScalar(rest.at(i), ScalarStyle::Plain, true) + ": " + inner + '}';
    return "{" + renderInlineScalar(selector.key, ScalarStyle::Plain, true) + ": " +
           renderInlineScalar(selector.value, ScalarStyle::Plain, true) + ", " +
           renderInlineScalar(rest.constFirst(), ScalarStyle::Plain, true) + ": " + inner + '}';
}

// Lines of a block item whose first key sits at @p column, after the dash the writer placed.
QByteArray renderBlockItem(const YamlText &file, const KeySelector &selector, const QStringList &rest,
                           const QString &value, int column)
{
    const int unit = file.indentUnit();
    QByteArray lines = renderInlineScalar(selector.key, ScalarStyle::Plain, false) + ": " +
                       renderInlineScalar(selector.value, ScalarStyle::Plain, false);
    for (qsizetype i = 0; i < rest.size(); ++i)
        lines += file.newline() + spaces(column + int(i) * unit) +
                 renderInlineScalar(rest.at(i), ScalarStyle::Plain, false) + ':';
    const int leafColumn = column + int(rest.size() - 1) * unit;
    lines += file.newline() + spaces(leafColumn + file.sequenceOffset()) + "- " +
             renderInlineScalar(value, ScalarStyle::Plain, false);
    return lines;
}

} // namespace

bool isSelector(const QString &element)
{
    return element.size() >= 3 && element.startsWith(QLatin1Char('[')) && element.endsWith(QLatin1Char(']'));
}

std::optional<YAML::Node> selectItem(const YAML::Node &sequence, const QString &selector)
{
    if (!sequence.IsSequence() || !isSelector(selector))
        return std::nullopt;
    if (const std::optional<KeySelector> wanted = keySelector(selector)) {
        const std::string key = wanted->key.toStdString();
        const std::string value = wanted->value.toStdString();
        for (const YAML::Node &item : sequence) {
            if (!item.IsMap())
                continue;
            for (YAML::const_iterator it = item.begin(); it != item.end(); ++it) {
                if (it->first.IsScalar() && it->first.Scalar() == key && it->second.IsScalar() &&
                    it->second.Scalar() == value)
                    return item;
            }
        }
        return std::nullopt;
    }
    bool number = false;
    const int index = selector.mid(1, selector.size() - 2).toInt(&number);
    if (!number || index < 0 || std::size_t(index) >= sequence.size())
        return std::nullopt;
    return sequence[std::size_t(index)];
}

std::optional<int> indexOfItem(const YAML::Node &sequence, const QString &selector)
{
    const std::optional<YAML::Node> item = selectItem(sequence, selector);
    for (std::size_t i = 0; item && i < sequence.size(); ++i) {
        if (sequence[i].is(*item))
            return int(i);
    }
    return std::nullopt;
}

YAML::Node descend(const YAML::Node &root, const QStringList &path, qsizetype count)
{
    YAML::Node current = root;
    for (qsizetype i = 0; i < count; ++i) {
        if (isSelector(path.at(i))) {
            const std::optional<YAML::Node> item = selectItem(current, path.at(i));
            current.reset(item.value_or(YAML::Node()));
            continue;
        }
        YAML::Node next = current[path.at(i).toStdString()];
        current.reset(next);
    }
    return current;
}

bool sameTree(const YAML::Node &expected, const YAML::Node &actual)
{
    if (expected.Type() != actual.Type())
        return false;
    switch (expected.Type()) {
    case YAML::NodeType::Scalar:
        // A new node has no tag yet; an existing one must keep "!" (quoted) or "?" (plain).
        return expected.Scalar() == actual.Scalar() && (expected.Tag().empty() || expected.Tag() == actual.Tag());
    case YAML::NodeType::Sequence:
        if (expected.size() != actual.size())
            return false;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (!sameTree(expected[i], actual[i]))
                return false;
        }
        return true;
    case YAML::NodeType::Map: {
        if (expected.size() != actual.size())
            return false;
        YAML::const_iterator a = expected.begin();
        YAML::const_iterator b = actual.begin();
        for (; a != expected.end() && b != actual.end(); ++a, ++b) {
            if (!sameTree(a->first, b->first) || !sameTree(a->second, b->second))
                return false;
        }
        return true;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return true;
    }
    return false;
}

QString dotted(const QStringList &path, qsizetype count)
{
    QString text;
    for (qsizetype i = 0; i < std::min(count, path.size()); ++i)
        text += (i == 0 || isSelector(path.at(i)) ? QString() : QStringLiteral(".")) + path.at(i);
    return text;
}

YamlEditOutcome appendCreatingItem(const QByteArray &text, const QStringList &path, qsizetype selector,
                                   const QString &value)
{
    const std::optional<KeySelector> wanted = keySelector(path.value(selector));
    const QStringList listPath = path.mid(0, selector);
    const QStringList rest = path.mid(selector + 1);
    const auto hasSelector = [](const QStringList &p) { return std::any_of(p.cbegin(), p.cend(), isSelector); };
    if (!wanted || listPath.isEmpty() || rest.isEmpty() || hasSelector(rest) || text.contains(kPlaceholder.toUtf8()))
        return failed(text, QStringLiteral("the file has no %1; add it by hand").arg(dotted(path, selector + 1)));

    // The writer places a one-line item where the new item goes, in the list's own style.
    const YamlEditOutcome placed = YamlTextEdit::appendToSequence(text, listPath, kPlaceholder);
    if (placed.status != YamlEditOutcome::Status::Changed)
        return failed(text, placed.error);
    const YamlText before(text);
    const YamlText after(placed.text);
    QByteArray edited = placed.text;
    qsizetype from = edited.indexOf(kPlaceholder.toUtf8());
    qsizetype to = from + kPlaceholder.size();
    if (from > 0 && to < edited.size() && (edited.at(from - 1) == '"' || edited.at(from - 1) == '\'')) {
        --from;
        ++to;
    }
    qsizetype p = from - 1;
    while (p >= 0 && (edited.at(p) == ' ' || edited.at(p) == '\n' || edited.at(p) == '\r'))
        --p;
    const bool block = p >= 0 && edited.at(p) == '-';
    edited.replace(from, to - from,
                   block ? renderBlockItem(after, *wanted, rest, value, after.columnOf(from))
                         : renderFlowItem(*wanted, rest, value));

    const YamlText result(edited);
    YAML::Node expected = YAML::Clone(before.root());
    YAML::Node list = descend(expected, listPath, listPath.size());
    list.push_back(expectedItem(*wanted, rest, value));
    if (!result.parsed() || !sameTree(expected, result.root()))
        return failed(text, QStringLiteral("cannot add %1 without disturbing the rest of the file; edit it by hand")
                                .arg(dotted(path, path.size())));
    return {YamlEditOutcome::Status::Changed, edited, {}};
}

} // namespace paddock::kit::yamlpath

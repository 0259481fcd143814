// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to paddock_kit: YAML held as text, with yaml-cpp used only to find where
// nodes start. Everything about where a node ends is read from the text itself, so an
// edit can replace exactly the bytes it concerns.

#include <QByteArray>
#include <QList>
#include <QString>

#include <yaml-cpp/yaml.h>

#include <optional>

namespace paddock::kit {

/** How a scalar is written in the text. */
enum class ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded
};

/** True when @p value written plain would not read back as the same string. */
bool scalarNeedsQuotes(const QString &value, bool inFlow);

/**
 * Writes @p value on one line in @p preferred style, or in the nearest style that can
 * hold it (plain falls back to double quotes, single quotes to double quotes when the
 * value has control characters). Block styles are not produced here.
 */
QByteArray renderInlineScalar(const QString &value, ScalarStyle preferred, bool inFlow);

/** A half-open byte range [begin, end) of the text. */
struct TextRange
{
    qsizetype begin = 0;
    qsizetype end = 0;
};

/**
 * @brief One YAML document as bytes, its lines, and the extent of its nodes.
 *
 * Positions are byte offsets into bytes(). yaml-cpp marks are converted through the
 * line table, because yaml-cpp does not count a leading byte-order mark in its offsets.
 */
class YamlText
{
public:
    explicit YamlText(QByteArray text);

    /** False when yaml-cpp refused the text; parseError() then says where and why. */
    bool parsed() const { return m_parsed; }
    QString parseError() const { return m_parseError; }
    const YAML::Node &root() const { return m_root; }
    const QByteArray &bytes() const { return m_text; }

    int lineCount() const { return int(m_lineStarts.size()); }
    qsizetype lineStart(int line) const { return m_lineStarts.at(line); }
    /** End of the line's content, before its "\n" or "\r\n". */
    qsizetype lineContentEnd(int line) const;
    /** Start of the next line, or the end of the text for the last line. */
    qsizetype nextLineStart(int line) const;
    int lineAt(qsizetype offset) const;
    /** Leading spaces of @p line. */
    int indentation(int line) const;
    bool isBlank(int line) const;
    bool isComment(int line) const;
    /** "\r\n" when the file's first line ends that way, else "\n". */
    QByteArray newline() const { return m_newline; }
    bool endsWithNewline() const { return m_text.endsWith('\n'); }

    qsizetype offsetOf(const YAML::Mark &mark) const;
    /** Offset where the node's own text starts, after any anchor or tag. */
    qsizetype contentStart(const YAML::Node &node) const;
    int columnOf(qsizetype offset) const { return int(offset - lineStart(lineAt(offset))); }
    ScalarStyle scalarStyle(const YAML::Node &scalar) const;

    /**
     * The bytes of a scalar, from its first character (after properties) to just past
     * its last: the closing quote, the last content line of a block scalar, the last
     * word of a plain scalar (a comment after it is not included).
     * @p parentIndent is the column of the key or dash that owns it.
     */
    std::optional<TextRange> scalarRange(const YAML::Node &scalar, int parentIndent, bool inFlow,
                                         bool isKey = false) const;
    /** Offset just past the bracket that closes the flow collection opened at @p open. */
    std::optional<qsizetype> flowEnd(qsizetype open) const;
    /** Offset just past the last byte of @p node, owned by a key or dash at @p parentIndent. */
    std::optional<qsizetype> nodeEnd(const YAML::Node &node, int parentIndent, bool inFlow) const;
    /** Offset of the ':' that follows a block mapping key. */
    std::optional<qsizetype> colonAfterKey(const YAML::Node &key) const;
    /** Offset just past a mapping entry's value; for a null value, past the ':' (or "~"). */
    std::optional<qsizetype> entryEnd(const YAML::Node &key, const YAML::Node &value) const;
    /** Where each item of a flow collection starts and ends (for a map: key start, value end). */
    std::optional<QList<TextRange>> flowItems(const YAML::Node &collection) const;

    /** Spaces per nesting level in block mappings, as the file writes them (2 if unknown). */
    int indentUnit() const;
    /**
     * Columns from a key to the dashes of its block sequence: 0 for "key:\n- a",
     * 2 for "key:\n  - a". The first block sequence under a key decides; else indentUnit().
     */
    int sequenceOffset() const;

    /** True when only spaces or a comment follow @p offset on its line. */
    bool restOfLineIsEmpty(qsizetype offset) const;
    /** The '-' that introduces the block sequence item @p item. */
    std::optional<qsizetype> dashBefore(const YAML::Node &item) const;
    /** From the dash of block sequence item @p item to the end of its value. */
    std::optional<TextRange> blockItemExtent(const YAML::Node &item, int dashColumn) const;

private:
    std::optional<qsizetype> plainEnd(qsizetype start, int parentIndent, bool inFlow, bool isKey) const;
    std::optional<qsizetype> quotedEnd(qsizetype start) const;
    std::optional<qsizetype> blockScalarEnd(qsizetype start, int parentIndent) const;

    QByteArray m_text;
    QByteArray m_newline;
    QList<qsizetype> m_lineStarts;
    YAML::Node m_root;
    bool m_parsed = false;
    QString m_parseError;
};

/** The items of a sequence, or the values of a mapping, in order; nothing for a scalar. */
QList<YAML::Node> itemsOf(const YAML::Node &node);

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <vector>

namespace paddock::agentperms {

/**
 * @brief One JSON value read from JSONC text, with where it is in that text.
 *
 * Positions are indexes into the QString the value was parsed from, so an edit can replace
 * exactly the characters of one value or one member and leave comments, spacing and key
 * order elsewhere as they were. Object members keep their order and their duplicates (the
 * extension, reading with JSON.parse, keeps the last of a duplicated key).
 */
struct JsonNode
{
    enum class Kind {
        Object,
        Array,
        String,
        Number,
        Bool,
        Null
    };
    struct Member;

    Kind kind = Kind::Null;
    qsizetype begin = 0;         ///< first character of the value
    qsizetype end = 0;           ///< one past its last character
    QString string;              ///< a String's decoded text; a Number's or Bool's spelling
    std::vector<Member> members; ///< an Object's, in the text's order
    std::vector<JsonNode> items; ///< an Array's

    bool isObject() const { return kind == Kind::Object; }
    bool isString() const { return kind == Kind::String; }
    /** The last member named @p key (the one JSON.parse keeps), or null. */
    const JsonNode *member(const QString &key) const;
    const Member *memberEntry(const QString &key) const;
};

struct JsonNode::Member
{
    QString key;
    qsizetype keyBegin = 0; ///< the opening quote of the key
    JsonNode value;
};

/** @brief Why JSONC text does not parse: a 1-based line and column, and one sentence. */
struct JsoncError
{
    int line = 0;
    int column = 0;
    QString message;
};

/** The largest text parseJsonc() reads, and the deepest nesting: a config is a few KiB. */
constexpr qsizetype kMaxJsoncChars = 1024 * 1024;
constexpr int kMaxJsoncDepth = 64;

/**
 * Parses JSON with `//` and `/ * * /` comments, as the extension reads its config. Trailing
 * commas are refused, as the extension refuses them. Returns nothing with @p error set when
 * the text is not such JSON, is larger than kMaxJsoncChars or nests deeper than kMaxJsoncDepth.
 */
std::optional<JsonNode> parseJsonc(const QString &text, JsoncError *error);

/** 1-based line and column of character @p offset of @p text. */
int lineAt(const QString &text, qsizetype offset);
int columnAt(const QString &text, qsizetype offset);

/** @p value as a JSON string literal, quotes included. */
QString jsonQuoted(const QString &value);

} // namespace paddock::agentperms

// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/Jsonc.h"

#include "common/QuotedString.h"

namespace paddock::agentperms {
namespace {

class Parser
{
public:
    explicit Parser(const QString &text) : m_text(text) {}

    std::optional<JsonNode> parseDocument(JsoncError *error)
    {
        std::optional<JsonNode> root;
        if (skipSpace()) {
            if (atEnd())
                fail(m_pos, QStringLiteral("the file holds no JSON value"));
            else
                root = parseValue(0);
            if (root && skipSpace() && !atEnd())
                fail(m_pos, QStringLiteral("unexpected text after the JSON value"));
        }
        if (!m_error.message.isEmpty()) {
            *error = m_error;
            return std::nullopt;
        }
        return root;
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    QChar peek(qsizetype ahead = 0) const { return m_pos + ahead < m_text.size() ? m_text.at(m_pos + ahead) : QChar(); }

    bool fail(qsizetype at, const QString &message)
    {
        if (m_error.message.isEmpty())
            m_error = {lineAt(m_text, at), columnAt(m_text, at), message};
        return false;
    }

    // Whitespace and comments; false on an unterminated block comment.
    bool skipSpace()
    {
        while (!atEnd()) {
            const QChar c = peek();
            if (c == u' ' || c == u'\t' || c == u'\n' || c == u'\r') {
                ++m_pos;
            } else if (c == u'/' && peek(1) == u'/') {
                while (!atEnd() && peek() != u'\n')
                    ++m_pos;
            } else if (c == u'/' && peek(1) == u'*') {
                const qsizetype close = m_text.indexOf(QLatin1String("*/"), m_pos + 2);
                if (close < 0)
                    return fail(m_pos, QStringLiteral("a comment opened here is never closed"));
                m_pos = close + 2;
            } else {
                break;
            }
        }
        return true;
    }

    std::optional<JsonNode> parseValue(int depth)
    {
        if (depth > kMaxJsoncDepth) {
            fail(m_pos, QStringLiteral("the JSON nests deeper than %1 levels").arg(kMaxJsoncDepth));
            return std::nullopt;
        }
        const QChar c = peek();
        if (c == u'{')
            return parseObject(depth);
        if (c == u'[')
            return parseArray(depth);
        if (c == u'"')
            return parseString();
        if (c == u'-' || (c >= u'0' && c <= u'9'))
            return parseNumber();
        for (const auto &[word, kind] : {std::pair{QLatin1String("true"), JsonNode::Kind::Bool},
                                         std::pair{QLatin1String("false"), JsonNode::Kind::Bool},
                                         std::pair{QLatin1String("null"), JsonNode::Kind::Null}}) {
            if (QStringView(m_text).mid(m_pos, word.size()) == word) {
                JsonNode node;
                node.kind = kind;
                node.begin = m_pos;
                node.string = word;
                m_pos += word.size();
                node.end = m_pos;
                return node;
            }
        }
        fail(m_pos, atEnd()
                        ? QStringLiteral("the file ends where a value was expected")
                        : QStringLiteral("expected a value (an object, array, string, number, true, false or null)"));
        return std::nullopt;
    }

    std::optional<JsonNode> parseObject(int depth)
    {
        JsonNode node;
        node.kind = JsonNode::Kind::Object;
        node.begin = m_pos++;
        if (!skipSpace())
            return std::nullopt;
        if (peek() == u'}') {
            node.end = ++m_pos;
            return node;
        }
        while (true) {
            if (peek() != u'"') {
                fail(m_pos, peek() == u'}'
                                ? QStringLiteral("a trailing comma is not allowed (the extension refuses it)")
                                : QStringLiteral("expected a key in double quotes"));
                return std::nullopt;
            }
            JsonNode::Member member;
            member.keyBegin = m_pos;
            std::optional<JsonNode> key = parseString();
            if (!key || !skipSpace())
                return std::nullopt;
            if (peek() != u':') {
                fail(m_pos, QStringLiteral("expected ':' after the key \"%1\"").arg(key->string));
                return std::nullopt;
            }
            ++m_pos;
            if (!skipSpace())
                return std::nullopt;
            std::optional<JsonNode> value = parseValue(depth + 1);
            if (!value || !skipSpace())
                return std::nullopt;
            member.key = key->string;
            member.value = std::move(*value);
            node.members.push_back(std::move(member));
            if (peek() == u',') {
                ++m_pos;
                if (!skipSpace())
                    return std::nullopt;
                continue;
            }
            if (peek() == u'}') {
                node.end = ++m_pos;
                return node;
            }
            fail(m_pos, QStringLiteral("expected ',' or '}' after a member"));
            return std::nullopt;
        }
    }

    std::optional<JsonNode> parseArray(int depth)
    {
        JsonNode node;
        node.kind = JsonNode::Kind::Array;
        node.begin = m_pos++;
        if (!skipSpace())
            return std::nullopt;
        if (peek() == u']') {
            node.end = ++m_pos;
            return node;
        }
        while (true) {
            if (peek() == u']') {
                fail(m_pos, QStringLiteral("a trailing comma is not allowed (the extension refuses it)"));
                return std::nullopt;
            }
            std::optional<JsonNode> item = parseValue(depth + 1);
            if (!item || !skipSpace())
                return std::nullopt;
            node.items.push_back(std::move(*item));
            if (peek() == u',') {
                ++m_pos;
                if (!skipSpace())
                    return std::nullopt;
                continue;
            }
            if (peek() == u']') {
                node.end = ++m_pos;
                return node;
            }
            fail(m_pos, QStringLiteral("expected ',' or ']' after an item"));
            return std::nullopt;
        }
    }

    std::optional<JsonNode> parseString()
    {
        JsonNode node;
        node.kind = JsonNode::Kind::String;
        node.begin = m_pos++;
        while (!atEnd()) {
            const QChar c = m_text.at(m_pos++);
            if (c == u'"') {
                node.end = m_pos;
                return node;
            }
            if (c.unicode() < 0x20) {
                fail(m_pos - 1, QStringLiteral("a control character inside a string must be escaped"));
                return std::nullopt;
            }
            if (c != u'\\') {
                node.string.append(c);
                continue;
            }
            if (!parseEscape(&node.string))
                return std::nullopt;
        }
        fail(node.begin, QStringLiteral("a string opened here is never closed"));
        return std::nullopt;
    }

    bool parseEscape(QString *out)
    {
        const QChar e = peek();
        ++m_pos;
        switch (e.unicode()) {
        case '"':
            out->append(u'"');
            return true;
        case '\\':
            out->append(u'\\');
            return true;
        case '/':
            out->append(u'/');
            return true;
        case 'b':
            out->append(u'\b');
            return true;
        case 'f':
            out->append(u'\f');
            return true;
        case 'n':
            out->append(u'\n');
            return true;
        case 'r':
            out->append(u'\r');
            return true;
        case 't':
            out->append(u'\t');
            return true;
        case 'u': {
            bool ok = false;
            const ushort code = QStringView(m_text).mid(m_pos, 4).toUShort(&ok, 16);
            if (!ok || m_pos + 4 > m_text.size())
                return fail(m_pos, QStringLiteral("\\u takes four hexadecimal digits"));
            m_pos += 4;
            out->append(QChar(code));
            return true;
        }
        default:
            return fail(m_pos - 1, QStringLiteral("unknown escape '\\%1' in a string").arg(e));
        }
    }

    std::optional<JsonNode> parseNumber()
    {
        JsonNode node;
        node.kind = JsonNode::Kind::Number;
        node.begin = m_pos;
        if (peek() == u'-')
            ++m_pos;
        auto digits = [this] {
            const qsizetype start = m_pos;
            while (!atEnd() && peek() >= u'0' && peek() <= u'9')
                ++m_pos;
            return m_pos > start;
        };
        const bool leadingZero = peek() == u'0';
        if (!digits() || (leadingZero && m_pos - node.begin > (m_text.at(node.begin) == u'-' ? 2 : 1))) {
            fail(node.begin, QStringLiteral("malformed number"));
            return std::nullopt;
        }
        if (peek() == u'.') {
            ++m_pos;
            if (!digits()) {
                fail(m_pos, QStringLiteral("malformed number: digits expected after '.'"));
                return std::nullopt;
            }
        }
        if (peek() == u'e' || peek() == u'E') {
            ++m_pos;
            if (peek() == u'+' || peek() == u'-')
                ++m_pos;
            if (!digits()) {
                fail(m_pos, QStringLiteral("malformed number: digits expected in the exponent"));
                return std::nullopt;
            }
        }
        node.end = m_pos;
        node.string = m_text.mid(node.begin, node.end - node.begin);
        return node;
    }

    const QString &m_text;
    qsizetype m_pos = 0;
    JsoncError m_error;
};

} // namespace

const JsonNode::Member *JsonNode::memberEntry(const QString &key) const
{
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
        if (it->key == key)
            return &*it;
    }
    return nullptr;
}

const JsonNode *JsonNode::member(const QString &key) const
{
    const Member *entry = memberEntry(key);
    return entry ? &entry->value : nullptr;
}

std::optional<JsonNode> parseJsonc(const QString &text, JsoncError *error)
{
    if (text.size() > kMaxJsoncChars) {
        *error = {1, 1, QStringLiteral("the file is larger than %1 KiB").arg(kMaxJsoncChars / 1024)};
        return std::nullopt;
    }
    return Parser(text).parseDocument(error);
}

int lineAt(const QString &text, qsizetype offset)
{
    return int(QStringView(text).left(offset).count(u'\n')) + 1;
}

int columnAt(const QString &text, qsizetype offset)
{
    const qsizetype lineStart = offset > 0 ? text.lastIndexOf(u'\n', offset - 1) + 1 : 0;
    return int(offset - lineStart) + 1;
}

QString jsonQuoted(const QString &value)
{
    return doubleQuoted(value, ControlEscape::Json);
}

} // namespace paddock::agentperms

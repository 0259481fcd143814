// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/SecretGuard.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstring>
#include <deque>

namespace paddock::proxy::guard {
namespace {

constexpr std::size_t MaxValues = 4096;
// The prefilter's grams, and the longest stretch of a form's start they are taken from: a longer
// stretch means fewer samples, but more grams in the table and longer runs of the automaton on a
// false alarm.
constexpr std::size_t GramBytes = 4;
constexpr std::size_t MaxSpan = 16;
constexpr unsigned GramTableBits = 17; // 16 KiB: a few thousand grams leave most bits clear

/**
 * Steps the automaton over @p data from @p state, skipping where Patterns::skip() allows; calls
 * @p onMatch(offset, state) where a form ends, and stops when it returns false. The state after.
 */
template<typename OnMatch>
std::uint32_t run(const Patterns &p, std::uint32_t state, std::string_view data, OnMatch &&onMatch)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(data.data());
    const unsigned char *at = begin;
    const unsigned char *end = begin + data.size();
    const unsigned char *skipFrom = at; // no skip() again before the sample that stopped the last one
    while (at < end) {
        if (state == p.start() && at >= skipFrom) {
            at = p.skip(at, end);
            skipFrom = at + p.stride();
        }
        state = p.step(state, *at);
        if (p.matches(state) && !onMatch(std::size_t(at - begin), state))
            break;
        ++at;
    }
    return state;
}

std::string jsonEscaped(std::string_view value, bool escapeSlash)
{
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (const char c : value) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '/':
            out += escapeSlash ? "\\/" : "/";
            break;
        default:
            if (u < 0x20) {
                out += "\\u00";
                out += hex[u >> 4];
                out += hex[u & 15];
            } else {
                out += c;
            }
        }
    }
    return out;
}

std::string percentEncoded(std::string_view value, bool upper, bool spaceAsPlus)
{
    const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    std::string out;
    for (const char c : value) {
        const auto u = static_cast<unsigned char>(c);
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved) {
            out += c;
        } else if (c == ' ' && spaceAsPlus) {
            out += '+';
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return out;
}

// The characters of base64(prefix + value) that depend on the value's bytes alone, where the
// prefix is @p alignment bytes long: what any text holding the value at that offset contains.
std::string base64Core(std::string_view value, int alignment, bool url)
{
    const char *alphabet = url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                               : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string bytes(std::size_t(alignment), '\0');
    bytes.append(value);
    const std::size_t bits = bytes.size() * 8;
    const std::size_t first = (std::size_t(alignment) * 8 + 5) / 6;
    const std::size_t last = bits / 6; // characters wholly inside the bytes
    std::string out;
    for (std::size_t i = first; i < last; ++i) {
        unsigned sextet = 0;
        for (std::size_t b = 0; b < 6; ++b) {
            const std::size_t bit = i * 6 + b;
            const auto byte = static_cast<unsigned char>(bytes[bit / 8]);
            sextet = (sextet << 1) | ((byte >> (7 - bit % 8)) & 1u);
        }
        out += alphabet[sextet];
    }
    OPENSSL_cleanse(bytes.data(), bytes.size());
    return out;
}

void wipeAll(std::vector<std::string> &strings)
{
    for (std::string &s : strings) {
        if (!s.empty())
            OPENSSL_cleanse(s.data(), s.size());
    }
    strings.clear();
}

// Why @p value is not looked for, when it is not: empty when it is.
QString skipReason(const Value &value, std::size_t taken)
{
    if (value.bytes.size() < MinValueBytes)
        return QStringLiteral("%1 %2: shorter than %3 characters").arg(value.file, value.name).arg(MinValueBytes);
    if (taken >= MaxValues)
        return QStringLiteral("%1 %2: more than %3 values").arg(value.file, value.name).arg(MaxValues);
    return {};
}

QString safeLabel(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        const bool plain = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
                           c == u'.' || c == u'_' || c == u'-' || c == u'/';
        out += plain ? c : QChar(u'_');
    }
    return out.left(120);
}

} // namespace

QString modeName(Mode mode)
{
    switch (mode) {
    case Mode::Off:
        return QStringLiteral("off");
    case Mode::Refuse:
        return QStringLiteral("refuse");
    case Mode::Redact:
        return QStringLiteral("redact");
    }
    return QStringLiteral("off");
}

std::optional<Mode> modeFromName(const QString &name)
{
    for (const Mode mode : {Mode::Off, Mode::Refuse, Mode::Redact}) {
        if (name == modeName(mode))
            return mode;
    }
    return std::nullopt;
}

std::vector<std::string> formsOf(std::string_view value)
{
    std::vector<std::string> forms{std::string(value),
                                   jsonEscaped(value, false),
                                   jsonEscaped(value, true),
                                   percentEncoded(value, true, false),
                                   percentEncoded(value, false, false),
                                   percentEncoded(value, true, true)};
    for (const bool url : {false, true}) {
        for (int alignment = 0; alignment < 3; ++alignment)
            forms.push_back(base64Core(value, alignment, url));
    }
    std::sort(forms.begin(), forms.end());
    forms.erase(std::unique(forms.begin(), forms.end()), forms.end());
    forms.erase(
        std::remove_if(forms.begin(), forms.end(), [](const std::string &form) { return form.size() < MinValueBytes; }),
        forms.end());
    return forms;
}

std::string redactionMarker(const Value &value)
{
    return "[redacted by Paddock: " + safeLabel(value.file).toStdString() + " " + safeLabel(value.name).toStdString() +
           "]";
}

Patterns::~Patterns()
{
    // The table spells the forms out: nothing of it is left in freed memory.
    if (!m_rows.empty())
        OPENSSL_cleanse(m_rows.data(), m_rows.size() * sizeof(std::uint32_t));
    if (!m_grams.empty())
        OPENSSL_cleanse(m_grams.data(), m_grams.size() * sizeof(std::uint64_t));
}

std::shared_ptr<const Patterns> Patterns::build(std::vector<Value> &values)
{
    std::shared_ptr<Patterns> patterns(new Patterns());
    struct Form
    {
        std::vector<std::string> forms;
        std::size_t bytes = 0;
    };
    std::vector<Form> expanded;
    std::size_t shortest = MaxSpan;
    bool used[256] = {};
    for (Value &value : values) {
        if (const QString why = skipReason(value, patterns->m_values.size()); !why.isEmpty()) {
            patterns->m_skipped.push_back(why);
        } else {
            Form form;
            form.forms = formsOf(std::string_view(value.bytes).substr(0, MaxValueBytes));
            for (const std::string &text : form.forms) {
                form.bytes += text.size();
                shortest = std::min(shortest, text.size());
                for (const char c : text)
                    used[static_cast<unsigned char>(c)] = true;
            }
            expanded.push_back(std::move(form));
            patterns->m_values.push_back({std::string(), value.file, value.name});
        }
        if (!value.bytes.empty())
            OPENSSL_cleanse(value.bytes.data(), value.bytes.size());
        value.bytes.clear();
    }
    for (int c = 0; c < 256; ++c) {
        if (used[c])
            patterns->m_class[c] = std::uint8_t(patterns->m_classes++);
    }
    std::size_t bound = 1;
    for (const Form &form : expanded)
        bound += form.bytes;
    bound = std::min(bound, MaxStates);
    const std::size_t classes = patterns->m_classes;
    std::vector<std::uint16_t> &next = patterns->m_next;
    next.assign(bound * classes, 0);
    patterns->m_matchLength.assign(bound, 0);
    patterns->m_matchValue.assign(bound, 0);
    patterns->m_stride = shortest - GramBytes + 1; // forms are at least MinValueBytes long
    patterns->m_grams.assign((std::size_t(1) << GramTableBits) / 64, 0);

    // The trie: edge 0 means none while it is built (no edge leads back to the root).
    std::size_t states = 1;
    std::vector<Value> kept;
    for (std::size_t v = 0; v < expanded.size(); ++v) {
        if (states + expanded[v].bytes > bound) {
            patterns->m_skipped.push_back(QStringLiteral("%1 %2: too many values to look for")
                                              .arg(patterns->m_values[v].file, patterns->m_values[v].name));
            wipeAll(expanded[v].forms);
            continue;
        }
        const auto index = std::uint16_t(kept.size());
        kept.push_back(patterns->m_values[v]);
        for (const std::string &text : expanded[v].forms)
            patterns->insert(text, index, states);
        wipeAll(expanded[v].forms);
    }
    patterns->m_values = std::move(kept);

    patterns->link(states);
    next.resize(states * classes);
    patterns->m_matchLength.resize(states);
    patterns->m_matchValue.resize(states);
    patterns->compile(states);
    return patterns;
}

void Patterns::insert(std::string_view form, std::uint16_t value, std::size_t &states)
{
    std::size_t state = 0;
    for (const char c : form) {
        std::uint16_t &edge = m_next[state * m_classes + m_class[static_cast<unsigned char>(c)]];
        if (edge == 0)
            edge = std::uint16_t(states++);
        state = edge;
    }
    if (m_matchLength[state] == 0) {
        m_matchLength[state] = std::uint16_t(form.size());
        m_matchValue[state] = value;
    }
    m_longest = std::max(m_longest, form.size());
    addGrams(form);
}

std::uint32_t Patterns::gramHash(const unsigned char *at)
{
    std::uint32_t gram;
    std::memcpy(&gram, at, GramBytes);
    return (gram * 0x9E3779B1u) >> (32 - GramTableBits);
}

void Patterns::addGrams(std::string_view form)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(form.data());
    for (std::size_t offset = 0; offset < m_stride && offset + GramBytes <= form.size(); ++offset) {
        const std::uint32_t hash = gramHash(bytes + offset);
        m_grams[hash / 64] |= std::uint64_t(1) << (hash % 64);
    }
}

const unsigned char *Patterns::skip(const unsigned char *at, const unsigned char *end) const
{
    const std::size_t size = std::size_t(end - at);
    const std::uint64_t *grams = m_grams.data();
    std::size_t sample = m_stride - 1;
    for (; sample + GramBytes <= size; sample += m_stride) {
        const std::uint32_t hash = gramHash(at + sample);
        if (grams[hash / 64] & (std::uint64_t(1) << (hash % 64)))
            break;
    }
    // Starts up to the last sample whose gram is in no form are ruled out.
    return at + (sample - (m_stride - 1));
}

void Patterns::link(std::size_t states)
{
    const std::size_t classes = m_classes;
    // Failure links, breadth first, folded into the table: each state's edges become complete.
    std::vector<std::uint16_t> fail(states, 0);
    std::deque<std::uint16_t> queue;
    for (std::size_t c = 0; c < classes; ++c) {
        if (const std::uint16_t child = m_next[c]; child != 0)
            queue.push_back(child);
    }
    while (!queue.empty()) {
        const std::uint16_t s = queue.front();
        queue.pop_front();
        if (m_matchLength[s] == 0) {
            m_matchLength[s] = m_matchLength[fail[s]];
            m_matchValue[s] = m_matchValue[fail[s]];
        }
        for (std::size_t c = 0; c < classes; ++c) {
            std::uint16_t &edge = m_next[std::size_t(s) * classes + c];
            const std::uint16_t viaFail = m_next[std::size_t(fail[s]) * classes + c];
            if (edge != 0) {
                fail[edge] = viaFail;
                queue.push_back(edge);
            } else {
                edge = viaFail;
            }
        }
    }
}

void Patterns::compile(std::size_t states)
{
    const std::size_t classes = m_classes;
    std::vector<std::uint32_t> order; // new index: old
    std::vector<std::uint32_t> index(states);
    for (const bool matching : {false, true}) {
        if (matching)
            m_firstMatch = std::uint32_t(order.size() * classes);
        for (std::size_t s = 0; s < states; ++s) {
            if ((m_matchLength[s] != 0) == matching) {
                index[s] = std::uint32_t(order.size());
                order.push_back(std::uint32_t(s));
            }
        }
    }
    m_rows.assign(states * classes, 0);
    std::vector<std::uint16_t> lengths(states);
    std::vector<std::uint16_t> values(states);
    for (std::size_t i = 0; i < states; ++i) {
        for (std::size_t c = 0; c < classes; ++c)
            m_rows[i * classes + c] = std::uint32_t(index[m_next[order[i] * classes + c]] * classes);
        lengths[i] = m_matchLength[order[i]];
        values[i] = m_matchValue[order[i]];
    }
    m_matchLength.swap(lengths);
    m_matchValue.swap(values);
    OPENSSL_cleanse(m_next.data(), m_next.size() * sizeof(std::uint16_t));
    m_next.clear();
}

Scanner::Scanner(std::shared_ptr<const Patterns> patterns) : m_patterns(std::move(patterns)) {}

bool Scanner::scan(std::string_view data)
{
    if (m_found || !m_patterns || m_patterns->empty())
        return m_found.has_value();
    const Patterns &p = *m_patterns;
    m_state = run(p, m_state, data, [&](std::size_t, std::uint32_t state) {
        m_found = p.matchValue(state);
        return false;
    });
    m_total += data.size();
    return m_found.has_value();
}

const Value *Scanner::found() const
{
    return m_found ? &m_patterns->values()[*m_found] : nullptr;
}

void Scanner::redact(std::string_view data, std::string &out)
{
    if (!m_patterns || m_patterns->empty()) {
        out.append(data);
        m_total += data.size();
        m_base = m_total;
        return;
    }
    const Patterns &p = *m_patterns;
    m_state = run(p, m_state, data, [&](std::size_t i, std::uint32_t state) {
        const std::uint16_t length = p.matchLength(state);
        const std::uint64_t end = m_total + i + 1;
        const std::uint64_t start = end - length;
        if (!m_ranges.empty() && start < m_ranges.back().end)
            m_ranges.back().end = std::max(m_ranges.back().end, end);
        else
            m_ranges.push_back({start, end, p.matchValue(state)});
        const std::uint16_t value = p.matchValue(state);
        if (std::find(m_redacted.begin(), m_redacted.end(), value) == m_redacted.end())
            m_redacted.push_back(value);
        return true;
    });
    m_pending.append(data);
    m_total += data.size();
    const std::uint64_t hold = p.longestForm() > 0 ? p.longestForm() - 1 : 0;
    release(m_total > hold ? m_total - hold : 0, out);
}

void Scanner::finishRedaction(std::string &out)
{
    release(m_total, out);
}

void Scanner::release(std::uint64_t boundary, std::string &out)
{
    // Bytes before the boundary can be in no match still to come; a range is final once it ends
    // before it, since a later match starts at the boundary or after.
    std::uint64_t cursor = m_base;
    std::size_t done = 0;
    std::uint64_t limit = std::max(boundary, m_base);
    for (; done < m_ranges.size(); ++done) {
        const Range &range = m_ranges[done];
        if (range.start >= limit)
            break;
        out.append(m_pending, std::size_t(cursor - m_base), std::size_t(range.start - cursor));
        if (range.end > limit) {
            limit = range.start; // still open: held from its start
            cursor = range.start;
            break;
        }
        out += redactionMarker(m_patterns->values()[range.value]);
        cursor = range.end;
    }
    m_ranges.erase(m_ranges.begin(), m_ranges.begin() + std::ptrdiff_t(done));
    if (cursor < limit)
        out.append(m_pending, std::size_t(cursor - m_base), std::size_t(limit - cursor));
    cursor = std::max(cursor, limit);
    OPENSSL_cleanse(m_pending.data(), std::size_t(cursor - m_base));
    m_pending.erase(0, std::size_t(cursor - m_base));
    m_base = cursor;
}

} // namespace paddock::proxy::guard

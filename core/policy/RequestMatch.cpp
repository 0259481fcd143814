// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/RequestMatch.h"

#include "common/RequestTarget.h"

#include <QStringView>

#include <algorithm>
#include <cctype>

#include <vector>

namespace paddock::policy {
namespace {

constexpr int kMaxMethods = 16;
constexpr int kMaxStars = 16;

bool isTokenChar(QChar c)
{
    return (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
           c == QLatin1Char('-') || c == QLatin1Char('_');
}

/** Segment-aware glob: `*` within a segment, `**` across segments. */
bool globMatches(QStringView pattern, QStringView text)
{
    // A trailing "/**" covers the folder itself as well as what is inside.
    if (pattern.endsWith(QLatin1String("/**")) && text == pattern.chopped(3))
        return true;
    std::vector<char> row(std::size_t(text.size()) + 1, 0); // pattern so far matches text[0, j)
    row[0] = 1;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const bool star = pattern[i] == QLatin1Char('*');
        const bool doubleStar = star && i + 1 < pattern.size() && pattern[i + 1] == QLatin1Char('*');
        std::vector<char> next(row.size(), 0);
        for (std::size_t j = 0; j < row.size(); ++j) {
            if (star) {
                const bool extend = j > 0 && next[j - 1] && (doubleStar || text[qsizetype(j) - 1] != QLatin1Char('/'));
                next[j] = char(row[j] || extend);
            } else {
                next[j] = char(j > 0 && row[j - 1] && text[qsizetype(j) - 1] == pattern[i]);
            }
        }
        row.swap(next);
        if (doubleStar)
            ++i;
    }
    return row.back() != 0;
}

bool prefixMatches(const QString &prefix, QStringView path)
{
    if (!path.startsWith(prefix))
        return false;
    return path.size() == prefix.size() || prefix.endsWith(QLatin1Char('/')) || path[prefix.size()] == QLatin1Char('/');
}

Result<QStringList> parseMethods(QStringView text)
{
    QStringList methods;
    if (text.isEmpty() || text == QLatin1String("*"))
        return methods;
    for (QStringView part : text.split(QLatin1Char(','))) {
        const QString method = part.trimmed().toString().toUpper();
        if (method.isEmpty() || method.size() > 32 || !std::all_of(method.cbegin(), method.cend(), isTokenChar)) {
            return fail(QStringLiteral("\"%1\" is not an HTTP method (such as GET or POST)").arg(part.toString()));
        }
        if (method == QLatin1String("CONNECT")) {
            return fail(QStringLiteral("CONNECT opens a tunnel; allow or deny the host instead"));
        }
        if (!methods.contains(method))
            methods.append(method);
    }
    if (methods.size() > kMaxMethods) {
        return fail(QStringLiteral("at most %1 methods in one rule").arg(kMaxMethods));
    }
    return methods;
}

Result<void> checkPath(QStringView path)
{
    if (path.isEmpty())
        return {};
    if (!path.startsWith(QLatin1Char('/'))) {
        return fail(QStringLiteral("a path starts with / (such as /gists or /org/**)"));
    }
    if (path.size() > RequestMatch::kMaxPathLength) {
        return fail(QStringLiteral("the path is longer than %1 characters").arg(RequestMatch::kMaxPathLength));
    }
    for (const QChar c : path) {
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f || c == QLatin1Char('?') || c == QLatin1Char('#')) {
            return fail(QStringLiteral("the path may hold no spaces, control characters, '?' or '#' (queries are "
                                       "not matched)"));
        }
    }
    if (path.count(QLatin1Char('*')) > kMaxStars) {
        return fail(QStringLiteral("at most %1 '*' in a path").arg(kMaxStars));
    }
    if (path.contains(QLatin1String("***"))) {
        return fail(QStringLiteral("use * (within a segment) or ** (any depth), not ***"));
    }
    if (canonicalPath(path.toLatin1().toStdString()) != path.toString() && !path.contains(QLatin1Char('*')) &&
        !path.endsWith(QLatin1Char('/'))) {
        return fail(QStringLiteral("write the path without . or .. segments, doubled slashes or escaped letters"));
    }
    return {};
}

} // namespace

QString RequestMatch::toString() const
{
    QString text = methods.join(QLatin1Char(','));
    if (!path.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + path;
    return text;
}

bool RequestMatch::matches(QStringView method, QStringView requestPath) const
{
    if (!methods.isEmpty() && std::none_of(methods.cbegin(), methods.cend(), [&](const QString &m) {
            return m.compare(method, Qt::CaseInsensitive) == 0;
        }))
        return false;
    if (path.isEmpty())
        return true;
    if (requestPath.isEmpty())
        return false;
    return path.contains(QLatin1Char('*')) ? globMatches(path, requestPath) : prefixMatches(path, requestPath);
}

Result<RequestMatch> RequestMatch::parse(QStringView methods, QStringView path)
{
    const Result<QStringList> parsed = parseMethods(methods.trimmed());
    if (!parsed)
        return parsed.error();
    if (const Result<void> checked = checkPath(path); !checked)
        return checked.error();
    return RequestMatch{*parsed, path.toString()};
}

} // namespace paddock::policy

// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/ArgsSubstitution.h"

namespace paddock::kit {

namespace {

const QString kOpen = QStringLiteral("${{");
const QString kClose = QStringLiteral("}}");
const QString kNamespace = QStringLiteral("kit.args.");

qsizetype skipSpace(const QString &text, qsizetype from)
{
    while (from < text.size() && text.at(from).isSpace())
        ++from;
    return from;
}

bool opensNamespaceAt(const QString &text, qsizetype afterOpener)
{
    return QStringView(text).mid(skipSpace(text, afterOpener)).startsWith(kNamespace);
}

} // namespace

bool isValidArgName(const QString &name)
{
    if (name.isEmpty())
        return false;
    const auto isLetter = [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
               c == QLatin1Char('_');
    };
    if (!isLetter(name.at(0)))
        return false;
    for (const QChar c : name) {
        if (!isLetter(c) && !(c >= QLatin1Char('0') && c <= QLatin1Char('9')) && c != QLatin1Char('-'))
            return false;
    }
    return true;
}

bool opensArgReference(const QString &text)
{
    qsizetype from = 0;
    while (true) {
        const qsizetype at = text.indexOf(kOpen, from);
        if (at < 0)
            return false;
        from = at + kOpen.size();
        if (opensNamespaceAt(text, from))
            return true;
    }
}

ArgSubstitution substituteArgs(const QString &text, const QMap<QString, QString> &values)
{
    ArgSubstitution result;
    if (!text.contains(kOpen)) {
        result.text = text;
        return result;
    }
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype at = text.indexOf(kOpen, i);
        if (at < 0) {
            out += QStringView(text).mid(i);
            break;
        }
        // "$${{" is the escape for a literal "${{": drop one dollar, open nothing.
        if (at > i && text.at(at - 1) == QLatin1Char('$')) {
            out += QStringView(text).mid(i, at - 1 - i);
            out += kOpen;
            i = at + kOpen.size();
            continue;
        }
        out += QStringView(text).mid(i, at - i);
        const qsizetype inner = at + kOpen.size();
        if (!opensNamespaceAt(text, inner)) {
            out += kOpen;
            i = inner;
            continue;
        }
        const qsizetype close = text.indexOf(kClose, inner);
        if (close < 0) {
            result.error = QStringLiteral("unterminated argument reference '%1': close it with '}}'")
                               .arg(QStringView(text).mid(at, 40).toString());
            result.errorOffset = at;
            return result;
        }
        const QString name = text.mid(inner, close - inner).trimmed().mid(kNamespace.size());
        const QString written = text.mid(at, close + kClose.size() - at);
        if (!isValidArgName(name)) {
            result.error = QStringLiteral("malformed argument reference '%1': an argument name starts with a "
                                          "letter or '_' and continues with letters, digits, '_' or '-'")
                               .arg(written.left(60));
            result.errorOffset = at;
            return result;
        }
        result.references.append({name, written, at});
        const auto value = values.constFind(name);
        if (value != values.constEnd()) {
            out += *value;
        } else {
            out += written;
            result.unresolved = true;
        }
        i = close + kClose.size();
    }
    result.text = out;
    return result;
}

} // namespace paddock::kit

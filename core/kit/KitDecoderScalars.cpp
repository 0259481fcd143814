// SPDX-License-Identifier: GPL-3.0-or-later
// The decoder's primitives: diagnostics and positions, the strict field table, and scalars
// (with argument substitution), lists, string maps and free-form values.
#include "kit/KitDecoder.h"

#include "kit/ArgsSubstitution.h"
#include "kit/LegacyKeys.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace paddock::kit::detail {

namespace {

// Arbitrary YAML (oauth credentialFile.structure) is copied with this depth and size bound,
// so aliases cannot multiply it into an unbounded tree.
constexpr int kMaxStructureDepth = 32;
constexpr int kMaxStructureNodes = 10000;

} // namespace

Loc locOf(const YAML::Mark &mark)
{
    if (mark.is_null() || mark.line < 0)
        return {};
    return {mark.line + 1, mark.column + 1};
}

QString nodeKindName(const YAML::Node &node)
{
    switch (node.Type()) {
    case YAML::NodeType::Map:
        return QStringLiteral("a mapping");
    case YAML::NodeType::Sequence:
        return QStringLiteral("a list");
    case YAML::NodeType::Scalar:
        return QStringLiteral("a scalar '%1'").arg(QString::fromStdString(node.Scalar()).left(40));
    case YAML::NodeType::Null:
        return QStringLiteral("nothing");
    case YAML::NodeType::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

KitDecoder::KitDecoder(const QString &file, const QByteArray &source, const KitLoadOptions &options,
                       QList<Diagnostic> &diagnostics)
    : m_file(file), m_source(source), m_options(options), m_diagnostics(diagnostics)
{
    m_lineStarts.push_back(0);
    for (qsizetype i = 0; i < source.size(); ++i) {
        if (source.at(i) == '\n')
            m_lineStarts.push_back(i + 1);
    }
}

// -----------------------------------------------------------------------------------------
// Diagnostics

void KitDecoder::report(Diagnostic::Severity severity, Loc loc, const QString &message)
{
    Diagnostic d;
    d.severity = severity;
    d.file = m_file;
    d.line = loc.line;
    d.column = loc.column;
    d.message = message;
    m_diagnostics.append(d);
}

// Where a value is; an empty value (`key:`) has no useful mark of its own.
Loc KitDecoder::valueLoc(const YAML::Node &value, const YAML::Node &key)
{
    const Loc loc = value.IsDefined() && !value.IsNull() ? locOf(value.Mark()) : Loc{};
    return loc.line > 0 ? loc : locOf(key.Mark());
}

Loc KitDecoder::offsetLoc(qsizetype offset) const
{
    const auto next = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const qsizetype line = next - m_lineStarts.begin();
    return {int(line), int(offset - m_lineStarts.at(line - 1) + 1)};
}

// The position of @p written inside the scalar that starts at @p scalar: the
// reference itself in a block scalar rather than the block's first line.
Loc KitDecoder::referenceLoc(const YAML::Node &scalar, const YAML::Node &key, const QString &written) const
{
    const YAML::Mark mark = scalar.Mark();
    if (!mark.is_null() && mark.pos >= 0) {
        const qsizetype found = m_source.indexOf(written.toUtf8(), mark.pos);
        if (found >= 0)
            return offsetLoc(found);
    }
    return valueLoc(scalar, key);
}

// -----------------------------------------------------------------------------------------
// Structure

KitDecoder::Handler KitDecoder::reader(Reader read)
{
    return
        [this, read](const YAML::Node &key, const YAML::Node &value, const At &at) { (this->*read)(value, key, at); };
}

KitDecoder::Handler KitDecoder::listReader(Reader readItem)
{
    return [this, readItem](const YAML::Node &key, const YAML::Node &value, const At &at) {
        eachMapping(value, key, at, readItem);
    };
}

void KitDecoder::fields(const YAML::Node &map, const At &at, const std::vector<Field> &known)
{
    QHash<QString, Loc> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::Node key = it->first;
        const YAML::Node value = it->second;
        if (!key.IsScalar()) {
            error(locOf(key.Mark()),
                  QStringLiteral("a key in %1 must be a plain name, found %2")
                      .arg(at.path.isEmpty() ? QStringLiteral("the top level") : QStringLiteral("`%1`").arg(at.path),
                           nodeKindName(key)));
            continue;
        }
        const QString name = QString::fromStdString(key.Scalar());
        const Loc keyLoc = locOf(key.Mark());
        if (opensArgReference(name)) {
            error(keyLoc, QStringLiteral("the key '%1' references an argument; an argument may only stand in for "
                                         "a value, never for a key")
                              .arg(name));
            continue;
        }
        if (seen.contains(name)) {
            const Loc first = seen.value(name);
            error(
                keyLoc,
                QStringLiteral("duplicate field `%1` (first set at line %2)").arg(at.child(name).path).arg(first.line));
            continue;
        }
        seen.insert(name, keyLoc);
        const auto field =
            std::find_if(known.begin(), known.end(), [&](const Field &f) { return name == QLatin1String(f.name); });
        if (field == known.end()) {
            unknownField(key, at, known);
            continue;
        }
        if (field->handle)
            field->handle(key, value, at.child(name));
    }
}

void KitDecoder::unknownField(const YAML::Node &key, const At &at, const std::vector<Field> &known)
{
    const QString name = QString::fromStdString(key.Scalar());
    const At child = at.child(name);
    if (const auto replacement = legacyKeyReplacement(child.schema)) {
        error(locOf(key.Mark()),
              replacement->startsWith(QLatin1String("nothing: "))
                  ? QStringLiteral("`%1` is not a schemaVersion \"2\" field (it belongs to v1 or an earlier draft) "
                                   "and has no v2 equivalent: %2")
                        .arg(child.path, replacement->mid(9))
                  : QStringLiteral("`%1` is not a schemaVersion \"2\" field (it belongs to v1 or an earlier draft); "
                                   "use %2")
                        .arg(child.path, *replacement));
        return;
    }
    QStringList names;
    for (const Field &f : known)
        names << QString::fromLatin1(f.name);
    error(locOf(key.Mark()),
          QStringLiteral("unknown field `%1` %2; expected one of: %3")
              .arg(name,
                   at.path.isEmpty() ? QStringLiteral("at the top level") : QStringLiteral("in `%1`").arg(at.path),
                   names.join(QStringLiteral(", "))));
}

bool KitDecoder::expectMap(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsMap())
        return true;
    if (!value.IsNull())
        error(valueLoc(value, key),
              QStringLiteral("`%1` must be a mapping, found %2").arg(at.path, nodeKindName(value)));
    return false;
}

bool KitDecoder::expectSequence(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsSequence())
        return true;
    if (!value.IsNull())
        error(valueLoc(value, key), QStringLiteral("`%1` must be a list, found %2").arg(at.path, nodeKindName(value)));
    return false;
}

void KitDecoder::eachMapping(const YAML::Node &value, const YAML::Node &key, const At &at, Reader read)
{
    if (!expectSequence(value, key, at))
        return;
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i) {
        const At entryAt = at.index(i);
        if (expectMap(*it, key, entryAt))
            (this->*read)(*it, key, entryAt);
    }
}

// -----------------------------------------------------------------------------------------
// Scalars

std::optional<QString> KitDecoder::scalarText(const YAML::Node &value, const YAML::Node &key, const At &at,
                                              const QString &expected, bool *unresolved)
{
    if (unresolved)
        *unresolved = false;
    if (value.IsNull())
        return std::nullopt;
    if (!value.IsScalar()) {
        error(valueLoc(value, key),
              QStringLiteral("`%1` must be %2, found %3").arg(at.path, expected, nodeKindName(value)));
        return std::nullopt;
    }
    const QString raw = QString::fromStdString(value.Scalar());
    if (!m_substitute)
        return raw;
    const ArgSubstitution s = substituteArgs(raw, m_values);
    if (!s.error.isEmpty()) {
        error(referenceLoc(value, key, raw.mid(s.errorOffset, 3)), s.error);
        return std::nullopt;
    }
    bool isUnresolved = false;
    for (const ArgReference &ref : s.references) {
        const bool declared = std::any_of(m_args.cbegin(), m_args.cend(),
                                          [&](const ArgEntry &a) { return a.declaration.name == ref.name; });
        if (!declared) {
            error(referenceLoc(value, key, ref.written),
                  QStringLiteral("`%1` references argument `%2`, which the args: block does not declare")
                      .arg(ref.written, ref.name));
        }
        if (!m_values.contains(ref.name))
            isUnresolved = true;
    }
    if (unresolved)
        *unresolved = isUnresolved;
    return s.text;
}

QString KitDecoder::str(const YAML::Node &value, const YAML::Node &key, const At &at, bool *unresolved)
{
    return scalarText(value, key, at, QStringLiteral("a string"), unresolved).value_or(QString());
}

std::optional<bool> KitDecoder::boolean(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    const auto text = scalarText(value, key, at, QStringLiteral("true or false"), &unresolved);
    if (!text || unresolved)
        return std::nullopt;
    const bool plain = value.Tag() == "?" || value.Tag() == "tag:yaml.org,2002:bool";
    static const QStringList trueWords = {QStringLiteral("y"),   QStringLiteral("Y"),   QStringLiteral("yes"),
                                          QStringLiteral("Yes"), QStringLiteral("YES"), QStringLiteral("on"),
                                          QStringLiteral("On"),  QStringLiteral("ON")};
    static const QStringList falseWords = {QStringLiteral("n"),   QStringLiteral("N"),  QStringLiteral("no"),
                                           QStringLiteral("No"),  QStringLiteral("NO"), QStringLiteral("off"),
                                           QStringLiteral("Off"), QStringLiteral("OFF")};
    if (plain && (*text == QLatin1String("true") || *text == QLatin1String("True") || *text == QLatin1String("TRUE")))
        return true;
    if (plain &&
        (*text == QLatin1String("false") || *text == QLatin1String("False") || *text == QLatin1String("FALSE")))
        return false;
    // YAML 1.1 spellings, which sbx's decoder also accepts for a boolean field.
    if (trueWords.contains(*text))
        return true;
    if (falseWords.contains(*text))
        return false;
    error(valueLoc(value, key), QStringLiteral("`%1` must be true or false, found '%2'%3")
                                    .arg(at.path, text->left(40), plain ? QString() : QStringLiteral(" (quoted)")));
    return std::nullopt;
}

std::optional<qint64> KitDecoder::integer(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    const auto text = scalarText(value, key, at, QStringLiteral("an integer"), &unresolved);
    if (!text || unresolved)
        return std::nullopt;
    bool ok = false;
    const qint64 n = text->toLongLong(&ok, 10);
    if (!ok || (value.Tag() != "?" && value.Tag() != "tag:yaml.org,2002:int")) {
        error(valueLoc(value, key), QStringLiteral("`%1` must be an integer, found '%2'").arg(at.path, text->left(40)));
        return std::nullopt;
    }
    return n;
}

std::optional<double> KitDecoder::number(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    const auto text = scalarText(value, key, at, QStringLiteral("a number"), &unresolved);
    if (!text || unresolved)
        return std::nullopt;
    static const QRegularExpression re(QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    if (!re.match(*text).hasMatch() || (value.Tag() != "?" && value.Tag() != "tag:yaml.org,2002:float")) {
        error(valueLoc(value, key), QStringLiteral("`%1` must be a number, found '%2'").arg(at.path, text->left(40)));
        return std::nullopt;
    }
    return text->toDouble();
}

QStringList KitDecoder::strList(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    QStringList items;
    if (!value.IsSequence()) {
        if (!value.IsNull())
            error(valueLoc(value, key),
                  QStringLiteral("`%1` must be a list of strings, found %2").arg(at.path, nodeKindName(value)));
        return items;
    }
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i)
        items << str(*it, key, at.index(i));
    return items;
}

QList<QPair<QString, QString>> KitDecoder::strMap(const YAML::Node &value, const YAML::Node &key, const At &at,
                                                  const std::function<void(const QString &, Loc)> &checkKey)
{
    QList<QPair<QString, QString>> entries;
    if (!expectMap(value, key, at))
        return entries;
    QSet<QString> seen;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const YAML::Node k = it->first;
        if (!k.IsScalar()) {
            error(locOf(k.Mark()),
                  QStringLiteral("a key in `%1` must be a name, found %2").arg(at.path, nodeKindName(k)));
            continue;
        }
        const QString name = QString::fromStdString(k.Scalar());
        const Loc loc = locOf(k.Mark());
        if (opensArgReference(name)) {
            error(loc, QStringLiteral("the key '%1' references an argument; an argument may only stand in for a "
                                      "value, never for a key")
                           .arg(name));
            continue;
        }
        if (seen.contains(name)) {
            error(loc, QStringLiteral("duplicate key `%1` in `%2`").arg(name, at.path));
            continue;
        }
        seen.insert(name);
        if (checkKey)
            checkKey(name, loc);
        entries.append({name, str(it->second, k, at.child(name))});
    }
    return entries;
}

QJsonValue KitDecoder::anyValue(const YAML::Node &value, const YAML::Node &key, const At &at, int depth)
{
    if (++m_structureNodes > kMaxStructureNodes || depth > kMaxStructureDepth) {
        if (m_structureNodes == kMaxStructureNodes + 1 || depth == kMaxStructureDepth + 1)
            error(valueLoc(value, key), QStringLiteral("`%1` is nested too deeply or is too large").arg(at.path));
        return {};
    }
    switch (value.Type()) {
    case YAML::NodeType::Map: {
        QJsonObject object;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!it->first.IsScalar()) {
                error(locOf(it->first.Mark()), QStringLiteral("a key in `%1` must be a name").arg(at.path));
                continue;
            }
            const QString name = QString::fromStdString(it->first.Scalar());
            if (opensArgReference(name)) {
                error(locOf(it->first.Mark()),
                      QStringLiteral("the key '%1' references an argument; an argument may only stand in for a "
                                     "value, never for a key")
                          .arg(name));
                continue;
            }
            object.insert(name, anyValue(it->second, it->first, at.child(name), depth + 1));
        }
        return object;
    }
    case YAML::NodeType::Sequence: {
        QJsonArray array;
        qsizetype i = 0;
        for (auto it = value.begin(); it != value.end(); ++it, ++i)
            array.append(anyValue(*it, key, at.index(i), depth + 1));
        return array;
    }
    case YAML::NodeType::Scalar: {
        const QString text = str(value, key, at);
        if (value.Tag() == "?") {
            if (text == QLatin1String("true") || text == QLatin1String("false"))
                return text == QLatin1String("true");
            bool ok = false;
            const double n = text.toDouble(&ok);
            if (ok && !text.isEmpty() && (text.at(0).isDigit() || text.at(0) == QLatin1Char('-')))
                return n;
        }
        return text;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        break;
    }
    return QJsonValue(QJsonValue::Null);
}

void KitDecoder::checkUniqueList(const YAML::Node &value, const YAML::Node &key, const At &at, const QStringList &items,
                                 const std::function<QString(const QString &)> &invalid)
{
    if (!value.IsSequence())
        return;
    QSet<QString> seen;
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end() && i < items.size(); ++it, ++i) {
        const QString &item = items.at(i);
        const Loc loc = valueLoc(*it, key);
        if (const QString problem = invalid(item); !problem.isEmpty())
            error(loc, QStringLiteral("`%1` %2").arg(at.index(i).path, problem));
        else if (seen.contains(item))
            error(loc, QStringLiteral("`%1` repeats '%2'").arg(at.index(i).path, item));
        seen.insert(item);
    }
}

} // namespace paddock::kit::detail

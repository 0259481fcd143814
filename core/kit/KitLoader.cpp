// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitLoader.h"

#include "kit/ArgsSubstitution.h"
#include "kit/KitFilesTree.h"
#include "kit/KitRules.h"
#include "kit/LegacyKeys.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace paddock::kit {

Q_LOGGING_CATEGORY(lcKitLoader, "paddock.kit.loader")

QString kindName(KitKind kind)
{
    return kind == KitKind::Sandbox ? QStringLiteral("sandbox") : QStringLiteral("mixin");
}

namespace {

// yaml-cpp parses recursively; inputs nested deeper than this are refused before
// parsing so that no file can exhaust the stack.
constexpr int kMaxNesting = 100;
// Arbitrary YAML (oauth credentialFile.structure) is copied with this depth and size bound,
// so aliases cannot multiply it into an unbounded tree.
constexpr int kMaxStructureDepth = 32;
constexpr int kMaxStructureNodes = 10000;

struct Loc
{
    int line = 0;
    int column = 0;
};

Loc locOf(const YAML::Mark &mark)
{
    if (mark.is_null() || mark.line < 0)
        return {};
    return {mark.line + 1, mark.column + 1};
}

/** A key's position in messages: "sandbox.image", "credentials[1].apiKey". */
struct At
{
    QString path;   ///< with list indices, for messages
    QString schema; ///< without indices, for the legacy-key table

    At child(const QString &name) const
    {
        return {path.isEmpty() ? name : path + QLatin1Char('.') + name,
                schema.isEmpty() ? name : schema + QLatin1Char('.') + name};
    }
    At index(qsizetype i) const { return {path + QStringLiteral("[%1]").arg(i), schema}; }
};

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

// The largest nesting of flow collections and block indentation, measured on the
// bytes so that it can run before yaml-cpp does.
int estimateNesting(const QByteArray &text)
{
    int flow = 0;
    int deepest = 0;
    int sequenceMarkers = 0; // "- - - x" nests one block sequence per marker
    bool lineStart = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\n') {
            lineStart = true;
            sequenceMarkers = 0;
            continue;
        }
        if (c == '[' || c == '{')
            deepest = std::max(deepest, ++flow);
        else if ((c == ']' || c == '}') && flow > 0)
            --flow;
        // An indicator opens a block collection only when a space or the line end follows.
        const char next = i + 1 < text.size() ? text.at(i + 1) : '\n';
        const bool indicator = (c == '-' || c == '?' || c == ':') && (next == ' ' || next == '\n');
        if (lineStart && indicator)
            deepest = std::max(deepest, flow + ++sequenceMarkers);
        else if (c != ' ' && c != '\t')
            lineStart = false;
    }
    return deepest;
}

/** A found `args:` declaration, with where it is. */
struct ArgEntry
{
    ArgDeclaration declaration;
    Loc loc;
    bool valid = true;
};

class KitDecoder
{
public:
    KitDecoder(const QString &file, const QByteArray &source, const KitLoadOptions &options,
               QList<Diagnostic> &diagnostics)
        : m_file(file), m_source(source), m_options(options), m_diagnostics(diagnostics)
    {
        m_lineStarts.push_back(0);
        for (qsizetype i = 0; i < source.size(); ++i) {
            if (source.at(i) == '\n')
                m_lineStarts.push_back(i + 1);
        }
    }

    std::optional<Kit> decode(const YAML::Node &root);

private:
    using Handler = std::function<void(const YAML::Node &key, const YAML::Node &value, const At &at)>;
    struct Field
    {
        const char *name;
        Handler handle;
    };

    // -- diagnostics --------------------------------------------------------------------
    void report(Diagnostic::Severity severity, Loc loc, const QString &message)
    {
        Diagnostic d;
        d.severity = severity;
        d.file = m_file;
        d.line = loc.line;
        d.column = loc.column;
        d.message = message;
        m_diagnostics.append(d);
    }
    void error(Loc loc, const QString &message) { report(Diagnostic::Severity::Error, loc, message); }
    void warning(Loc loc, const QString &message) { report(Diagnostic::Severity::Warning, loc, message); }

    // Where a value is; an empty value (`key:`) has no useful mark of its own.
    static Loc valueLoc(const YAML::Node &value, const YAML::Node &key)
    {
        const Loc loc = value.IsDefined() && !value.IsNull() ? locOf(value.Mark()) : Loc{};
        return loc.line > 0 ? loc : locOf(key.Mark());
    }

    Loc offsetLoc(qsizetype offset) const
    {
        const auto next = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
        const qsizetype line = next - m_lineStarts.begin();
        return {int(line), int(offset - m_lineStarts.at(line - 1) + 1)};
    }

    // The position of @p written inside the scalar that starts at @p scalar: the
    // reference itself in a block scalar rather than the block's first line.
    Loc referenceLoc(const YAML::Node &scalar, const YAML::Node &key, const QString &written) const
    {
        const YAML::Mark mark = scalar.Mark();
        if (!mark.is_null() && mark.pos >= 0) {
            const qsizetype found = m_source.indexOf(written.toUtf8(), mark.pos);
            if (found >= 0)
                return offsetLoc(found);
        }
        return valueLoc(scalar, key);
    }

    // -- structure ----------------------------------------------------------------------
    void fields(const YAML::Node &map, const At &at, const std::vector<Field> &known);
    void unknownField(const YAML::Node &key, const At &at, const std::vector<Field> &known);
    bool expectMap(const YAML::Node &value, const YAML::Node &key, const At &at);
    bool expectSequence(const YAML::Node &value, const YAML::Node &key, const At &at);

    // -- scalars ------------------------------------------------------------------------
    std::optional<QString> scalarText(const YAML::Node &value, const YAML::Node &key, const At &at,
                                      const QString &expected, bool *unresolved);
    QString str(const YAML::Node &value, const YAML::Node &key, const At &at, bool *unresolved = nullptr);
    std::optional<bool> boolean(const YAML::Node &value, const YAML::Node &key, const At &at);
    std::optional<qint64> integer(const YAML::Node &value, const YAML::Node &key, const At &at);
    std::optional<double> number(const YAML::Node &value, const YAML::Node &key, const At &at);
    QStringList strList(const YAML::Node &value, const YAML::Node &key, const At &at);
    QList<QPair<QString, QString>> strMap(const YAML::Node &value, const YAML::Node &key, const At &at,
                                          const std::function<void(const QString &, Loc)> &checkKey = {});
    QJsonValue anyValue(const YAML::Node &value, const YAML::Node &key, const At &at, int depth);

    // -- blocks -------------------------------------------------------------------------
    void readArgs(const YAML::Node &value, const YAML::Node &key);
    void resolveArgs(const YAML::Node &argsKey);
    void readSandbox(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readCredential(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readApiKey(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readInjection(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readOAuth(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSetup(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPorts(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readVolumes(const YAML::Node &value, const YAML::Node &key, const At &at);
    void checkUniqueList(const YAML::Node &value, const YAML::Node &key, const At &at, const QStringList &items,
                         const std::function<QString(const QString &)> &invalid);
    void checkComposition();
    void checkInjectDomains();

    QString m_file;
    QByteArray m_source;
    const KitLoadOptions &m_options;
    QList<Diagnostic> &m_diagnostics;
    std::vector<qsizetype> m_lineStarts;

    Kit m_kit;
    QList<ArgEntry> m_args;
    QMap<QString, QString> m_values; // resolved argument values
    bool m_substitute = true;        // false while reading the args: block itself
    int m_structureNodes = 0;

    // What the composition rules need once every field is read.
    std::optional<Loc> m_kindLoc;
    bool m_kindValid = false;
    std::optional<Loc> m_sandboxLoc, m_extendsLoc, m_mixinsLoc, m_requiresLoc, m_nameLoc;
    Loc m_imageLoc;
    std::optional<Loc> m_buildLoc, m_filenameLoc, m_portsLoc, m_publishedPortsLoc;
    struct InjectSite
    {
        QString service;
        QString domain;
        Loc loc;
        bool unresolved = false;
    };
    QList<InjectSite> m_injectSites;
};

// -----------------------------------------------------------------------------------------
// Structure

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

// -----------------------------------------------------------------------------------------
// args

void KitDecoder::readArgs(const YAML::Node &value, const YAML::Node &key)
{
    const At at{QStringLiteral("args"), QStringLiteral("args")};
    if (!expectMap(value, key, at))
        return;
    // The args: block is the contract naming a kit's inputs: its own text is never
    // substituted (a reference-shaped default documents an input, it does not use one).
    m_substitute = false;
    QSet<QString> seen;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const YAML::Node nameNode = it->first;
        const YAML::Node body = it->second;
        const Loc loc = locOf(nameNode.Mark());
        if (!nameNode.IsScalar()) {
            error(loc, QStringLiteral("an argument name must be a plain name, found %1").arg(nodeKindName(nameNode)));
            continue;
        }
        ArgEntry entry;
        entry.loc = loc;
        ArgDeclaration &decl = entry.declaration;
        decl.name = QString::fromStdString(nameNode.Scalar());
        const At argAt = at.child(decl.name);
        if (!isValidArgName(decl.name)) {
            error(loc, QStringLiteral("argument name '%1' is invalid: it must match ^[A-Za-z_][A-Za-z0-9_-]*$")
                           .arg(decl.name));
            entry.valid = false;
        }
        if (seen.contains(decl.name)) {
            error(loc, QStringLiteral("argument `%1` is declared twice").arg(decl.name));
            continue;
        }
        seen.insert(decl.name);
        std::optional<bool> required;
        Loc enumLoc, patternLoc;
        if (expectMap(body, nameNode, argAt)) {
            fields(body, At{argAt.path, QStringLiteral("args.arg")},
                   {
                       {"default", [&](const YAML::Node &k, const YAML::Node &v,
                                       const At &a) { decl.defaultValue = v.IsNull() ? QString() : str(v, k, a); }},
                       {"required",
                        [&](const YAML::Node &k, const YAML::Node &v, const At &a) { required = boolean(v, k, a); }},
                       {"description", [&](const YAML::Node &k, const YAML::Node &v,
                                           const At &a) { decl.description = str(v, k, a); }},
                       {"enum",
                        [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                            enumLoc = valueLoc(v, k);
                            decl.enumValues = strList(v, k, a);
                            checkUniqueList(v, k, a, decl.enumValues, [](const QString &) { return QString(); });
                        }},
                       {"pattern",
                        [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                            patternLoc = valueLoc(v, k);
                            decl.pattern = str(v, k, a);
                        }},
                   });
        }
        decl.required = required.value_or(false);
        if (decl.defaultValue.has_value() == decl.required) {
            error(loc, decl.required ? QStringLiteral("argument `%1` declares both `default` and `required: true`; "
                                                      "declare exactly one of them")
                                           .arg(decl.name)
                                     : QStringLiteral("argument `%1` declares neither `default` nor `required: true`; "
                                                      "declare exactly one of them")
                                           .arg(decl.name));
            entry.valid = false;
        }
        if (!decl.enumValues.isEmpty() && !decl.pattern.isEmpty()) {
            error(patternLoc, QStringLiteral("argument `%1` declares both `enum` and `pattern`; they are mutually "
                                             "exclusive")
                                  .arg(decl.name));
            entry.valid = false;
        }
        if (!decl.pattern.isEmpty() && !QRegularExpression(decl.pattern).isValid()) {
            error(patternLoc, QStringLiteral("argument `%1` has an invalid pattern: %2")
                                  .arg(decl.name, QRegularExpression(decl.pattern).errorString()));
            entry.valid = false;
        } else if (decl.defaultValue && entry.valid) {
            if (!decl.enumValues.isEmpty() && !decl.enumValues.contains(*decl.defaultValue)) {
                error(enumLoc, QStringLiteral("the default '%1' of argument `%2` is not one of its enum values (%3)")
                                   .arg(*decl.defaultValue, decl.name, decl.enumValues.join(QStringLiteral(", "))));
                entry.valid = false;
            } else if (!decl.pattern.isEmpty() && !QRegularExpression(QRegularExpression::anchoredPattern(decl.pattern))
                                                       .match(*decl.defaultValue)
                                                       .hasMatch()) {
                error(patternLoc, QStringLiteral("the default '%1' of argument `%2` does not match its pattern %3")
                                      .arg(*decl.defaultValue, decl.name, decl.pattern));
                entry.valid = false;
            }
        }
        m_args.append(entry);
    }
    m_substitute = true;
}

void KitDecoder::resolveArgs(const YAML::Node &argsKey)
{
    Loc argsLoc = locOf(argsKey.Mark());
    if (argsLoc.line == 0)
        argsLoc = {1, 1};
    for (auto it = m_options.args.constBegin(); it != m_options.args.constEnd(); ++it) {
        const bool declared = std::any_of(m_args.cbegin(), m_args.cend(),
                                          [&](const ArgEntry &a) { return a.declaration.name == it.key(); });
        if (!declared)
            error(
                argsLoc,
                QStringLiteral("--arg %1 names an argument the kit does not declare in its args: block").arg(it.key()));
    }
    for (const ArgEntry &entry : std::as_const(m_args)) {
        const ArgDeclaration &decl = entry.declaration;
        const auto supplied = m_options.args.constFind(decl.name);
        if (supplied != m_options.args.constEnd()) {
            const QString &value = *supplied;
            if (!decl.enumValues.isEmpty() && !decl.enumValues.contains(value)) {
                error(entry.loc, QStringLiteral("the value '%1' given for argument `%2` is not one of: %3")
                                     .arg(value, decl.name, decl.enumValues.join(QStringLiteral(", "))));
                continue;
            }
            if (!decl.pattern.isEmpty()) {
                const QRegularExpression re(QRegularExpression::anchoredPattern(decl.pattern));
                if (re.isValid() && !re.match(value).hasMatch()) {
                    error(entry.loc,
                          QStringLiteral("the value '%1' given for argument `%2` does not match its pattern %3")
                              .arg(value, decl.name, decl.pattern));
                    continue;
                }
            }
            m_values.insert(decl.name, value);
        } else if (decl.defaultValue) {
            m_values.insert(decl.name, *decl.defaultValue);
        } else if (decl.required && m_options.requireArgValues) {
            error(entry.loc,
                  QStringLiteral("argument `%1` is required and has no value: pass --arg %1=VALUE").arg(decl.name));
        }
    }
    for (const ArgEntry &entry : std::as_const(m_args))
        m_kit.args.append(entry.declaration);
    m_kit.argValues = m_values;
}

// -----------------------------------------------------------------------------------------
// Blocks

void KitDecoder::readSandbox(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_sandboxLoc = locOf(key.Mark());
    if (!expectMap(value, key, at))
        return;
    SandboxBlock sandbox;
    m_imageLoc = locOf(key.Mark());
    fields(value, at,
           {
               {"image",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_imageLoc = valueLoc(v, k);
                    sandbox.image = str(v, k, a);
                }},
               {"build",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_buildLoc = locOf(k.Mark());
                    if (!expectMap(v, k, a))
                        return;
                    BuildConfig build;
                    fields(v, a,
                           {
                               {"context", [&](const YAML::Node &k2, const YAML::Node &v2,
                                               const At &a2) { build.context = str(v2, k2, a2); }},
                               {"dockerfile", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                  const At &a2) { build.dockerfile = str(v2, k2, a2); }},
                               {"args", [&](const YAML::Node &k2, const YAML::Node &v2,
                                            const At &a2) { build.args = strMap(v2, k2, a2); }},
                               {"target", [&](const YAML::Node &k2, const YAML::Node &v2,
                                              const At &a2) { build.target = str(v2, k2, a2); }},
                               {"platforms", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                 const At &a2) { build.platforms = strList(v2, k2, a2); }},
                           });
                    sandbox.build = build;
                }},
               {"entrypoint",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (v.IsMap()) {
                        // The draft form `entrypoint: {run: [...], args: [...]}`.
                        fields(v, a, {});
                        return;
                    }
                    sandbox.entrypoint = strList(v, k, a);
                }},
               {"command",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (v.IsSequence()) {
                        sandbox.commandDefault = strList(v, k, a);
                        return;
                    }
                    if (!v.IsMap()) {
                        if (!v.IsNull())
                            error(valueLoc(v, k), QStringLiteral("`%1` must be a list, or a mapping with `default` and "
                                                                 "`interactive` lists; found %2")
                                                      .arg(a.path, nodeKindName(v)));
                        return;
                    }
                    fields(v, a,
                           {
                               {"default", [&](const YAML::Node &k2, const YAML::Node &v2,
                                               const At &a2) { sandbox.commandDefault = strList(v2, k2, a2); }},
                               {"interactive", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                   const At &a2) { sandbox.commandInteractive = strList(v2, k2, a2); }},
                           });
                }},
               {"resources",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    Resources resources;
                    fields(
                        v, a,
                        {
                            {"cpu",
                             [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                 resources.cpu = number(v2, k2, a2);
                                 if (resources.cpu && *resources.cpu < 0)
                                     error(valueLoc(v2, k2), QStringLiteral("`%1` must not be negative").arg(a2.path));
                             }},
                            {"memory",
                             [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                 bool unresolved = false;
                                 resources.memory = str(v2, k2, a2, &unresolved);
                                 if (resources.memory.isEmpty() || unresolved)
                                     return;
                                 resources.memoryBytes = rules::parseByteSize(resources.memory);
                                 if (!resources.memoryBytes)
                                     error(valueLoc(v2, k2), QStringLiteral("`%1` is not a byte size: '%2' (expected "
                                                                            "e.g. 512m, 4096m, 8g)")
                                                                 .arg(a2.path, resources.memory));
                             }},
                            {"gpu", [&](const YAML::Node &k2, const YAML::Node &v2,
                                        const At &a2) { resources.gpu = str(v2, k2, a2); }},
                        });
                    sandbox.resources = resources;
                }},
           });
    m_kit.sandbox = sandbox;
}

void KitDecoder::readInjection(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    Injection inject;
    Loc domainLoc = valueLoc(value, key), formatLoc, schemeLoc, usernameLoc;
    bool domainUnresolved = false, formatUnresolved = false;
    fields(value, at,
           {
               {"domain",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    domainLoc = valueLoc(v, k);
                    inject.domain = str(v, k, a, &domainUnresolved);
                }},
               {"header", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { inject.header = str(v, k, a); }},
               {"format",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    formatLoc = valueLoc(v, k);
                    inject.format = str(v, k, a, &formatUnresolved);
                }},
               {"username",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    usernameLoc = valueLoc(v, k);
                    inject.username = str(v, k, a);
                }},
               {"scheme",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    schemeLoc = valueLoc(v, k);
                    inject.scheme = str(v, k, a);
                }},
           });
    if (inject.domain.isEmpty())
        error(domainLoc, QStringLiteral("`%1` is missing its required field `domain`").arg(at.path));
    if (!inject.scheme.isEmpty() && !inject.format.isEmpty()) {
        error(formatLoc, QStringLiteral("`%1` sets both `format` and `scheme`; they are mutually exclusive (scheme "
                                        "chooses the format)")
                             .arg(at.path));
    } else if (inject.scheme == QLatin1String("bearer")) {
        if (!inject.username.isEmpty())
            error(usernameLoc, QStringLiteral("`%1`: `username` is not valid with scheme: bearer").arg(at.path));
        if (inject.header.isEmpty())
            inject.header = QStringLiteral("Authorization");
        inject.format = QStringLiteral("Bearer %s");
    } else if (inject.scheme == QLatin1String("basic")) {
        if (inject.username.isEmpty())
            error(schemeLoc, QStringLiteral("`%1`: scheme: basic needs a `username`").arg(at.path));
        if (inject.header.isEmpty())
            inject.header = QStringLiteral("Authorization");
        inject.format = QStringLiteral("Basic %s");
        inject.encoding = Injection::Encoding::BasicAuth;
    } else if (!inject.scheme.isEmpty()) {
        error(schemeLoc, QStringLiteral("`%1.scheme` must be bearer or basic, found '%2'").arg(at.path, inject.scheme));
    } else if (inject.format.isEmpty()) {
        error(valueLoc(value, key), QStringLiteral("`%1` needs a `format` with one %s (and a `header`), or a "
                                                   "`scheme` (bearer or basic)")
                                        .arg(at.path));
    } else {
        const int placeholders = rules::countFormatPlaceholders(inject.format);
        if (placeholders != 1 && !formatUnresolved)
            error(formatLoc, QStringLiteral("`%1.format` must contain exactly one %s, found %2 in '%3'")
                                 .arg(at.path)
                                 .arg(placeholders)
                                 .arg(inject.format));
        if (inject.header.isEmpty())
            error(formatLoc, QStringLiteral("`%1` sets a `format` but no `header` to put it in").arg(at.path));
    }
    if (!inject.domain.isEmpty())
        m_injectSites.append({QString(), inject.domain, domainLoc, domainUnresolved});
    apiKey.inject.append(inject);
}

void KitDecoder::readApiKey(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    ApiKey apiKey;
    fields(value, at,
           {
               {"name",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    bool unresolved = false;
                    apiKey.name = str(v, k, a, &unresolved);
                    // An empty name is legal: the kit wants no variable in the sandbox.
                    if (!apiKey.name.isEmpty() && !unresolved && !rules::isValidEnvironmentName(apiKey.name))
                        error(valueLoc(v, k), QStringLiteral("`%1` must be an environment variable name "
                                                             "(^[A-Za-z_][A-Za-z0-9_]*$), found '%2'")
                                                  .arg(a.path, apiKey.name));
                }},
               {"proxyManaged", [&](const YAML::Node &k, const YAML::Node &v,
                                    const At &a) { apiKey.proxyManaged = boolean(v, k, a).value_or(false); }},
               {"inject",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectSequence(v, k, a))
                        return;
                    qsizetype i = 0;
                    for (auto it = v.begin(); it != v.end(); ++it, ++i)
                        readInjection(apiKey, *it, k, a.index(i));
                }},
           });
    credential.apiKey = apiKey;
}

void KitDecoder::readOAuth(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    OAuth oauth;
    bool hasEndpoint = false;
    Loc sentinelsLoc = locOf(key.Mark()), passthroughLoc;
    fields(value, at,
           {
               {"tokenEndpoint",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    hasEndpoint = true;
                    fields(v, a,
                           {
                               {"host", [&](const YAML::Node &k2, const YAML::Node &v2,
                                            const At &a2) { oauth.tokenHost = str(v2, k2, a2); }},
                               {"path", [&](const YAML::Node &k2, const YAML::Node &v2,
                                            const At &a2) { oauth.tokenPath = str(v2, k2, a2); }},
                           });
                    if (oauth.tokenHost.isEmpty())
                        error(valueLoc(v, k), QStringLiteral("`%1` is missing its required field `host`").arg(a.path));
                    if (oauth.tokenPath.isEmpty())
                        error(valueLoc(v, k), QStringLiteral("`%1` is missing its required field `path`").arg(a.path));
                }},
               {"resourceHosts",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.resourceHosts = strList(v, k, a); }},
               {"sentinels",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    sentinelsLoc = locOf(k.Mark());
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a,
                           {
                               {"accessToken", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                   const At &a2) { oauth.accessTokenSentinel = str(v2, k2, a2); }},
                               {"refreshToken", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                    const At &a2) { oauth.refreshTokenSentinel = str(v2, k2, a2); }},
                           });
                }},
               {"credentialFile",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    oauth.hasCredentialFile = true;
                    bool hasStructure = false;
                    Loc templateLoc;
                    fields(v, a,
                           {
                               {"path", [&](const YAML::Node &k2, const YAML::Node &v2,
                                            const At &a2) { oauth.credentialFilePath = str(v2, k2, a2); }},
                               {"template",
                                [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                    templateLoc = locOf(k2.Mark());
                                    oauth.credentialFileTemplate = str(v2, k2, a2);
                                }},
                               {"structure",
                                [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                    if (!expectMap(v2, k2, a2))
                                        return;
                                    hasStructure = true;
                                    oauth.credentialFileStructure = anyValue(v2, k2, a2, 0).toObject();
                                }},
                           });
                    if (oauth.credentialFilePath.isEmpty())
                        error(valueLoc(v, k), QStringLiteral("`%1` is missing its required field `path`").arg(a.path));
                    if (!hasStructure && oauth.credentialFileTemplate.isEmpty())
                        error(valueLoc(v, k),
                              QStringLiteral("`%1` needs a `structure` (or the deprecated `template`)").arg(a.path));
                    if (hasStructure && !oauth.credentialFileTemplate.isEmpty())
                        warning(templateLoc,
                                QStringLiteral("`%1.template` is ignored: `structure` is set and wins").arg(a.path));
                }},
               {"skipIfEnv",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    oauth.skipIfEnv = strList(v, k, a);
                    warning(locOf(k.Mark()), QStringLiteral("`%1` is accepted but ignored in schemaVersion \"2\": "
                                                            "credentials come from bindings, never from the host "
                                                            "environment")
                                                 .arg(a.path));
                }},
               {"responseFields",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a,
                           {
                               {"accessToken", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                   const At &a2) { oauth.responseAccessToken = str(v2, k2, a2); }},
                               {"refreshToken", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                    const At &a2) { oauth.responseRefreshToken = str(v2, k2, a2); }},
                               {"expiresIn", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                 const At &a2) { oauth.responseExpiresIn = str(v2, k2, a2); }},
                               {"scope", [&](const YAML::Node &k2, const YAML::Node &v2,
                                             const At &a2) { oauth.responseScope = str(v2, k2, a2); }},
                           });
                }},
               {"passthrough",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    passthroughLoc = locOf(k.Mark());
                    oauth.passthrough = boolean(v, k, a).value_or(false);
                }},
           });
    if (!hasEndpoint)
        error(valueLoc(value, key),
              QStringLiteral("`%1` is missing its required field `tokenEndpoint` (host and path)").arg(at.path));
    if (oauth.passthrough) {
        warning(passthroughLoc, QStringLiteral("`%1.passthrough: true` gives the sandbox the real OAuth token instead "
                                               "of a sentinel")
                                    .arg(at.path));
    } else if (oauth.accessTokenSentinel.isEmpty() || oauth.refreshTokenSentinel.isEmpty()) {
        error(sentinelsLoc, QStringLiteral("`%1.sentinels` needs both `accessToken` and `refreshToken` (unless "
                                           "passthrough: true)")
                                .arg(at.path));
    }
    credential.oauth = oauth;
}

void KitDecoder::readCredential(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    Credential credential;
    const qsizetype firstSite = m_injectSites.size();
    fields(
        value, at,
        {
            {"service",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { credential.service = str(v, k, a); }},
            {"description",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { credential.description = str(v, k, a); }},
            {"required", [&](const YAML::Node &k, const YAML::Node &v,
                             const At &a) { credential.required = boolean(v, k, a).value_or(false); }},
            {"provider",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 credential.provider = str(v, k, a);
                 warning(locOf(k.Mark()),
                         QStringLiteral("`%1` is a forward-compatible field with no effect yet").arg(a.path));
             }},
            {"apiKey", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readApiKey(credential, v, k, a); }},
            {"oauth", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readOAuth(credential, v, k, a); }},
        });
    if (credential.service.isEmpty())
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `service`").arg(at.path));
    for (qsizetype i = firstSite; i < m_injectSites.size(); ++i)
        m_injectSites[i].service = credential.service;
    m_kit.credentials.append(credential);
}

void KitDecoder::readSetup(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(
        value, at,
        {
            {"install",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 if (!expectSequence(v, k, a))
                     return;
                 qsizetype i = 0;
                 for (auto it = v.begin(); it != v.end(); ++it, ++i) {
                     const At entryAt = a.index(i);
                     if (!expectMap(*it, k, entryAt))
                         continue;
                     InstallCommand command;
                     bool hasCommand = false;
                     fields(*it, entryAt,
                            {
                                {"command",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     hasCommand = true;
                                     if (v2.IsSequence()) {
                                         error(valueLoc(v2, k2), QStringLiteral("`%1` must be a string (it runs with "
                                                                                "sh -c), found a list; only startup "
                                                                                "commands are lists")
                                                                     .arg(a2.path));
                                         return;
                                     }
                                     command.command = str(v2, k2, a2);
                                     if (command.command.trimmed().isEmpty() && v2.IsDefined())
                                         error(valueLoc(v2, k2), QStringLiteral("`%1` must not be empty").arg(a2.path));
                                 }},
                                {"user", [&](const YAML::Node &k2, const YAML::Node &v2,
                                             const At &a2) { command.user = str(v2, k2, a2); }},
                                {"description", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                    const At &a2) { command.description = str(v2, k2, a2); }},
                            });
                     if (!hasCommand)
                         error(valueLoc(*it, k),
                               QStringLiteral("`%1` is missing its required field `command`").arg(entryAt.path));
                     m_kit.setup.install.append(command);
                 }
             }},
            {"startup",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 if (!expectSequence(v, k, a))
                     return;
                 qsizetype i = 0;
                 for (auto it = v.begin(); it != v.end(); ++it, ++i) {
                     const At entryAt = a.index(i);
                     if (!expectMap(*it, k, entryAt))
                         continue;
                     StartupCommand command;
                     bool hasCommand = false;
                     fields(*it, entryAt,
                            {
                                {"command",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     hasCommand = true;
                                     if (v2.IsScalar()) {
                                         error(valueLoc(v2, k2), QStringLiteral("`%1` must be a list of strings "
                                                                                "(exec-style argv), found a string; "
                                                                                "for a shell write [\"sh\", \"-c\", "
                                                                                "\"...\"]")
                                                                     .arg(a2.path));
                                         return;
                                     }
                                     command.command = strList(v2, k2, a2);
                                     if (command.command.isEmpty() && !v2.IsMap())
                                         error(valueLoc(v2, k2),
                                               QStringLiteral("`%1` must be a non-empty list").arg(a2.path));
                                 }},
                                {"user", [&](const YAML::Node &k2, const YAML::Node &v2,
                                             const At &a2) { command.user = str(v2, k2, a2); }},
                                {"background",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     command.background = boolean(v2, k2, a2).value_or(false);
                                 }},
                                {"description", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                    const At &a2) { command.description = str(v2, k2, a2); }},
                            });
                     if (!hasCommand)
                         error(valueLoc(*it, k),
                               QStringLiteral("`%1` is missing its required field `command`").arg(entryAt.path));
                     m_kit.setup.startup.append(command);
                 }
             }},
            {"files",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 if (!expectSequence(v, k, a))
                     return;
                 qsizetype i = 0;
                 for (auto it = v.begin(); it != v.end(); ++it, ++i) {
                     const At entryAt = a.index(i);
                     if (!expectMap(*it, k, entryAt))
                         continue;
                     SetupFile file;
                     Loc pathLoc = valueLoc(*it, k);
                     bool pathUnresolved = false;
                     fields(*it, entryAt,
                            {
                                {"path",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     pathLoc = valueLoc(v2, k2);
                                     file.path = str(v2, k2, a2, &pathUnresolved);
                                 }},
                                {"content",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     file.content = str(v2, k2, a2);
                                     static const QRegularExpression placeholder(QStringLiteral("\\$\\{[^}]+\\}"));
                                     auto matches = placeholder.globalMatch(file.content);
                                     while (matches.hasNext()) {
                                         const QString found = matches.next().captured();
                                         if (found != QLatin1String("${WORKDIR}")) {
                                             error(valueLoc(v2, k2), QStringLiteral("`%1` uses the placeholder %2; "
                                                                                    "only ${WORKDIR} is supported")
                                                                         .arg(a2.path, found));
                                             break;
                                         }
                                     }
                                 }},
                                {"mode",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     bool unresolved = false;
                                     file.mode = str(v2, k2, a2, &unresolved);
                                     if (!file.mode.isEmpty() && !unresolved && !rules::isOctalMode(file.mode))
                                         error(valueLoc(v2, k2), QStringLiteral("`%1` must be an octal mode such as "
                                                                                "\"0644\", found '%2'")
                                                                     .arg(a2.path, file.mode));
                                 }},
                                {"onlyIfMissing",
                                 [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                     file.onlyIfMissing = boolean(v2, k2, a2).value_or(false);
                                 }},
                                {"description", [&](const YAML::Node &k2, const YAML::Node &v2,
                                                    const At &a2) { file.description = str(v2, k2, a2); }},
                            });
                     if (file.path.isEmpty())
                         error(pathLoc, QStringLiteral("`%1` is missing its required field `path`").arg(entryAt.path));
                     else if (!pathUnresolved && !file.path.startsWith(QLatin1Char('/')))
                         error(pathLoc, QStringLiteral("`%1.path` must be an absolute path, found '%2'")
                                            .arg(entryAt.path, file.path));
                     m_kit.setup.files.append(file);
                 }
             }},
        });
}

void KitDecoder::readPorts(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectSequence(value, key, at))
        return;
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i) {
        const At entryAt = at.index(i);
        if (!expectMap(*it, key, entryAt))
            continue;
        Port port;
        bool hasContainer = false;
        fields(*it, entryAt,
               {
                   {"container",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                        hasContainer = true;
                        const auto n = integer(v, k, a);
                        if (n && (*n < 1 || *n > 65535))
                            error(valueLoc(v, k),
                                  QStringLiteral("`%1` must be a port in 1..65535, found %2").arg(a.path).arg(*n));
                        else if (n)
                            port.container = int(*n);
                    }},
                   {"protocol",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                        port.protocol = str(v, k, a);
                        if (!port.protocol.isEmpty() && port.protocol != QLatin1String("tcp") &&
                            port.protocol != QLatin1String("udp"))
                            error(valueLoc(v, k),
                                  QStringLiteral("`%1` must be tcp or udp, found '%2'").arg(a.path, port.protocol));
                    }},
                   {"name", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { port.name = str(v, k, a); }},
               });
        if (!hasContainer)
            error(valueLoc(*it, key),
                  QStringLiteral("`%1` is missing its required field `container`").arg(entryAt.path));
        if (port.protocol.isEmpty())
            port.protocol = QStringLiteral("tcp");
        m_kit.ports.append(port);
    }
}

void KitDecoder::readVolumes(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectSequence(value, key, at))
        return;
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i) {
        const At entryAt = at.index(i);
        if (!expectMap(*it, key, entryAt))
            continue;
        Volume volume;
        Loc pathLoc = valueLoc(*it, key);
        bool pathUnresolved = false;
        fields(
            *it, entryAt,
            {
                {"path",
                 [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                     pathLoc = valueLoc(v, k);
                     volume.path = str(v, k, a, &pathUnresolved);
                 }},
                {"type",
                 [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                     volume.type = str(v, k, a);
                     if (!volume.type.isEmpty() && volume.type != QLatin1String("tmpfs"))
                         error(valueLoc(v, k), QStringLiteral("`%1` must be \"\" (a block-backed volume) or tmpfs, "
                                                              "found '%2'")
                                                   .arg(a.path, volume.type));
                 }},
                {"size",
                 [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                     bool unresolved = false;
                     volume.size = str(v, k, a, &unresolved);
                     if (!volume.size.isEmpty() && !unresolved && !rules::parseByteSize(volume.size))
                         error(valueLoc(v, k), QStringLiteral("`%1` is not a byte size: '%2' (expected e.g. 512m, 10g)")
                                                   .arg(a.path, volume.size));
                 }},
                {"mode",
                 [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                     bool unresolved = false;
                     volume.mode = str(v, k, a, &unresolved);
                     if (!volume.mode.isEmpty() && !unresolved && !rules::isOctalMode(volume.mode))
                         error(valueLoc(v, k), QStringLiteral("`%1` must be an octal mode such as \"0755\", found '%2'")
                                                   .arg(a.path, volume.mode));
                 }},
            });
        if (volume.path.isEmpty())
            error(pathLoc, QStringLiteral("`%1` is missing its required field `path`").arg(entryAt.path));
        else if (!pathUnresolved && !volume.path.startsWith(QLatin1Char('/')))
            error(pathLoc,
                  QStringLiteral("`%1.path` must be an absolute path, found '%2'").arg(entryAt.path, volume.path));
        m_kit.volumes.append(volume);
    }
}

// -----------------------------------------------------------------------------------------
// Whole-kit rules

void KitDecoder::checkComposition()
{
    if (!m_kindValid)
        return;
    const QString kind = kindName(m_kit.kind);
    if (m_kit.isSandbox()) {
        if (!m_kit.sandbox) {
            error(*m_kindLoc, QStringLiteral("kind: sandbox needs a `sandbox:` block with at least `sandbox.image`"));
        } else if (m_kit.sandbox->image.isEmpty() && m_kit.extends.isEmpty()) {
            error(m_imageLoc, m_buildLoc ? QStringLiteral("`sandbox.build` is not built by the runtime yet: set "
                                                          "`sandbox.image` as well")
                                         : QStringLiteral("`sandbox.image` is required (unless the kit `extends` "
                                                          "another sandbox kit)"));
        }
        if (m_requiresLoc)
            error(*m_requiresLoc, QStringLiteral("`requires` is only valid for kind: mixin (a sandbox is a base agent "
                                                 "itself)"));
    } else {
        if (m_sandboxLoc)
            error(*m_sandboxLoc, QStringLiteral("a `sandbox:` block is forbidden for kind: mixin; it belongs to kind: "
                                                "sandbox kits"));
        if (m_extendsLoc)
            error(*m_extendsLoc, QStringLiteral("`extends` is only valid for kind: sandbox, not %1").arg(kind));
        if (m_mixinsLoc)
            error(*m_mixinsLoc, QStringLiteral("`mixins` is only valid for kind: sandbox, not %1").arg(kind));
        if (m_filenameLoc)
            warning(*m_filenameLoc, QStringLiteral("`agentInstructions.filename` is ignored for kind: mixin (a mixin "
                                                   "contributes content to the sandbox's profile)"));
    }
    if (m_buildLoc && m_kit.sandbox && !m_kit.sandbox->image.isEmpty())
        warning(*m_buildLoc, QStringLiteral("`sandbox.build` is accepted but images are not built from it yet; the "
                                            "image is taken from sandbox.image"));
    if (m_mixinsLoc && m_kit.isSandbox())
        warning(*m_mixinsLoc, QStringLiteral("`mixins` is accepted but not applied yet: add the mixins when the "
                                             "sandbox is created"));
}

void KitDecoder::checkInjectDomains()
{
    for (const InjectSite &site : std::as_const(m_injectSites)) {
        if (site.unresolved || rules::isDomainAllowed(site.domain, m_kit.networkAllow))
            continue;
        warning(site.loc, QStringLiteral("credential `%1` injects into %2, which permissions.network.allow does not "
                                         "list: add it to permissions.network.allow, or allow it in the global "
                                         "policy (paddock policy allow %2)")
                              .arg(site.service, site.domain));
    }
}

std::optional<Kit> KitDecoder::decode(const YAML::Node &root)
{
    // The args: block is read first: its declarations say how every other value is
    // substituted, wherever in the file it appears.
    YAML::Node argsKey;
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == "args") {
            argsKey = it->first;
            readArgs(it->second, it->first);
            break;
        }
    }
    resolveArgs(argsKey);

    bool hasSchemaVersion = false;
    bool hasName = false;
    const auto text = [&](QString &target) {
        return [&target, this](const YAML::Node &k, const YAML::Node &v, const At &a) { target = str(v, k, a); };
    };
    fields(root, {},
           {
               {"schemaVersion", [&](const YAML::Node &, const YAML::Node &, const At &) { hasSchemaVersion = true; }},
               {"kind",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_kindLoc = valueLoc(v, k);
                    const QString kind = str(v, k, a);
                    m_kindValid = true;
                    if (kind == QLatin1String("sandbox")) {
                        m_kit.kind = KitKind::Sandbox;
                    } else if (kind == QLatin1String("mixin")) {
                        m_kit.kind = KitKind::Mixin;
                    } else if (kind == QLatin1String("agent")) {
                        m_kindValid = false;
                        error(*m_kindLoc, QStringLiteral("`kind: agent` is the v1 spelling; schemaVersion \"2\" uses "
                                                         "`kind: sandbox`"));
                    } else {
                        m_kindValid = false;
                        error(*m_kindLoc, QStringLiteral("`kind` must be sandbox or mixin, found '%1'").arg(kind));
                    }
                }},
               {"name",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    hasName = true;
                    m_nameLoc = valueLoc(v, k);
                    bool unresolved = false;
                    m_kit.name = str(v, k, a, &unresolved);
                    if (!unresolved && !rules::isValidKitName(m_kit.name))
                        error(*m_nameLoc, QStringLiteral("`name` must be 1-64 lowercase letters, digits and inner "
                                                         "hyphens (^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$), found '%1'")
                                              .arg(m_kit.name));
                }},
               {"version", text(m_kit.version)},
               {"displayName", text(m_kit.displayName)},
               {"description", text(m_kit.description)},
               {"sourceURL", text(m_kit.sourceURL)},
               {"licenses",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_kit.licenses = strList(v, k, a);
                    checkUniqueList(v, k, a, m_kit.licenses, [](const QString &item) {
                        return item.trimmed().isEmpty() ? QStringLiteral("must not be empty") : QString();
                    });
                }},
               {"locked",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_kit.locked = strList(v, k, a);
                    checkUniqueList(v, k, a, m_kit.locked, [](const QString &item) {
                        return rules::isDottedPath(item) ? QString()
                                                         : QStringLiteral("must be a dotted path such as "
                                                                          "sandbox.image, found '%1'")
                                                               .arg(item);
                    });
                }},
               {"security",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a, {{"privileged", [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                       m_kit.privileged = boolean(v2, k2, a2);
                                   }}});
                }},
               {"args", {}},
               {"sandbox",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (v.IsNull())
                        m_sandboxLoc = locOf(k.Mark());
                    else
                        readSandbox(v, k, a);
                }},
               {"extends",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_extendsLoc = locOf(k.Mark());
                    m_kit.extends = str(v, k, a);
                }},
               {"mixins",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_mixinsLoc = locOf(k.Mark());
                    m_kit.mixins = strList(v, k, a);
                }},
               {"requires",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_requiresLoc = locOf(k.Mark());
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a, {{"agent", [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                       bool unresolved = false;
                                       m_kit.requiresAgent = str(v2, k2, a2, &unresolved);
                                       if (!unresolved && !rules::isValidKitName(m_kit.requiresAgent))
                                           error(valueLoc(v2, k2),
                                                 QStringLiteral("`requires.agent` must be a kit name "
                                                                "(^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$), "
                                                                "found '%1'")
                                                     .arg(m_kit.requiresAgent));
                                   }}});
                }},
               {"agentInstructions",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    AgentInstructions instructions;
                    fields(v, a,
                           {
                               {"filename",
                                [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                    instructions.filename = str(v2, k2, a2);
                                    if (!instructions.filename.isEmpty())
                                        m_filenameLoc = locOf(k2.Mark());
                                }},
                               {"content", [&](const YAML::Node &k2, const YAML::Node &v2,
                                               const At &a2) { instructions.content = str(v2, k2, a2); }},
                           });
                    m_kit.agentInstructions = instructions;
                }},
               {"permissions",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a,
                           {{"network", [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                 if (!expectMap(v2, k2, a2))
                                     return;
                                 fields(v2, a2,
                                        {
                                            {"allow", [&](const YAML::Node &k3, const YAML::Node &v3,
                                                          const At &a3) { m_kit.networkAllow = strList(v3, k3, a3); }},
                                            {"deny", [&](const YAML::Node &k3, const YAML::Node &v3,
                                                         const At &a3) { m_kit.networkDeny = strList(v3, k3, a3); }},
                                        });
                             }}});
                }},
               {"ports",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_portsLoc = locOf(k.Mark());
                    readPorts(v, k, a);
                }},
               {"publishedPorts",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_publishedPortsLoc = locOf(k.Mark());
                    warning(*m_publishedPortsLoc, QStringLiteral("`publishedPorts` is deprecated and read as `ports`; "
                                                                 "rename it to `ports`"));
                    readPorts(v, k, a);
                }},
               {"credentials",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (v.IsMap()) {
                        // The v1 mapping form `credentials: {sources: ...}`.
                        fields(v, a, {});
                        return;
                    }
                    if (!expectSequence(v, k, a))
                        return;
                    qsizetype i = 0;
                    for (auto it = v.begin(); it != v.end(); ++it, ++i)
                        readCredential(*it, k, a.index(i));
                }},
               {"environment",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    fields(v, a, {{"variables", [&](const YAML::Node &k2, const YAML::Node &v2, const At &a2) {
                                       m_kit.environment = strMap(v2, k2, a2, [&](const QString &name, Loc loc) {
                                           if (!rules::isValidEnvironmentName(name))
                                               error(loc,
                                                     QStringLiteral("environment variable name '%1' is invalid: it "
                                                                    "must match ^[A-Za-z_][A-Za-z0-9_]*$")
                                                         .arg(name));
                                       });
                                   }}});
                }},
               {"setup", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readSetup(v, k, a); }},
               {"volumes", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readVolumes(v, k, a); }},
           });

    const Loc top = locOf(root.Mark()).line > 0 ? locOf(root.Mark()) : Loc{1, 1};
    if (!hasSchemaVersion)
        error(top, QStringLiteral("missing required field `schemaVersion` (expected \"2\")"));
    if (!m_kindLoc)
        error(top, QStringLiteral("missing required field `kind` (sandbox or mixin)"));
    if (!hasName)
        error(top, QStringLiteral("missing required field `name`"));
    if (m_portsLoc && m_publishedPortsLoc)
        error(*m_publishedPortsLoc, QStringLiteral("`publishedPorts` and `ports` are both set; keep only `ports`"));
    checkComposition();
    checkInjectDomains();
    return m_kit;
}

// -----------------------------------------------------------------------------------------
// schemaVersion "1"

void refuseV1(const YAML::Node &root, const YAML::Node &versionValue, const QString &file, QList<Diagnostic> &out)
{
    const auto add = [&](Loc loc, const QString &message) {
        Diagnostic d;
        d.file = file;
        d.line = loc.line;
        d.column = loc.column;
        d.message = message;
        out.append(d);
    };
    add(locOf(versionValue.Mark()),
        QStringLiteral(
            "schemaVersion \"1\" kits are not supported: Paddock reads schemaVersion \"2\" only. Migrate "
            "the kit with the v1 to v2 mapping published with the kit specification (docker/sbx-kits-contrib, "
            "skills/kit-author/topics/v1-migration.md), then set schemaVersion: \"2\"; each v1 block and its "
            "replacement follows"));
    QList<Diagnostic> blocks;
    const auto legacy = [&](const YAML::Node &key, const QString &path) {
        if (const auto replacement = legacyKeyReplacement(path)) {
            Diagnostic d;
            d.file = file;
            const Loc loc = locOf(key.Mark());
            d.line = loc.line;
            d.column = loc.column;
            d.message = replacement->startsWith(QLatin1String("nothing: "))
                            ? QStringLiteral("v1 block `%1` has no schemaVersion \"2\" equivalent: %2")
                                  .arg(path, replacement->mid(9))
                            : QStringLiteral("v1 block `%1` → in schemaVersion \"2\" use %2").arg(path, *replacement);
            blocks.append(d);
        }
    };
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (!it->first.IsScalar())
            continue;
        const QString name = QString::fromStdString(it->first.Scalar());
        const YAML::Node value = it->second;
        if (name == QLatin1String("kind") && value.IsScalar() && value.Scalar() == "agent") {
            Diagnostic d;
            d.file = file;
            const Loc loc = locOf(value.Mark());
            d.line = loc.line;
            d.column = loc.column;
            d.message = QStringLiteral("v1 `kind: agent` → in schemaVersion \"2\" use `kind: sandbox`");
            blocks.append(d);
        } else if (name == QLatin1String("publishedPorts")) {
            Diagnostic d;
            d.file = file;
            const Loc loc = locOf(it->first.Mark());
            d.line = loc.line;
            d.column = loc.column;
            d.message = QStringLiteral("v1 block `publishedPorts` → in schemaVersion \"2\" use `ports`");
            blocks.append(d);
        }
        legacy(it->first, name);
        if (!value.IsMap())
            continue;
        if (name == QLatin1String("credentials")) {
            legacy(it->first, QStringLiteral("credentials.sources"));
            continue;
        }
        for (auto child = value.begin(); child != value.end(); ++child) {
            if (!child->first.IsScalar())
                continue;
            const QString childName = QString::fromStdString(child->first.Scalar());
            if (name == QLatin1String("environment") || name == QLatin1String("sandbox"))
                legacy(child->first, name + QLatin1Char('.') + childName);
            if (name == QLatin1String("sandbox") && childName == QLatin1String("entrypoint") && child->second.IsMap()) {
                for (auto e = child->second.begin(); e != child->second.end(); ++e) {
                    if (e->first.IsScalar())
                        legacy(e->first,
                               QStringLiteral("sandbox.entrypoint.") + QString::fromStdString(e->first.Scalar()));
                }
            }
        }
    }
    std::stable_sort(blocks.begin(), blocks.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    out.append(blocks);
}

} // namespace

// ---------------------------------------------------------------------------------------------

KitLoadResult KitLoader::loadText(const QByteArray &text, const QString &fileName, const KitLoadOptions &options)
{
    KitLoadResult result;
    const auto fail = [&](int line, int column, const QString &message) {
        Diagnostic d;
        d.file = fileName;
        d.line = line;
        d.column = column;
        d.message = message;
        result.diagnostics.append(d);
        return result;
    };

    if (estimateNesting(text) > kMaxNesting)
        return fail(1, 1,
                    QStringLiteral("the file is nested more than %1 levels deep; a kit never is").arg(kMaxNesting));

    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::Exception &e) {
        const Loc loc = locOf(e.mark);
        return fail(loc.line, loc.column, QStringLiteral("YAML syntax error: %1").arg(QString::fromStdString(e.msg)));
    }

    try {
        if (!root.IsDefined() || root.IsNull())
            return fail(1, 1,
                        QStringLiteral("the file is empty; expected a mapping with schemaVersion: \"2\", kind "
                                       "and name"));
        if (!root.IsMap()) {
            const Loc loc = locOf(root.Mark());
            return fail(loc.line > 0 ? loc.line : 1, loc.column > 0 ? loc.column : 1,
                        QStringLiteral("a kit must be a mapping of fields (schemaVersion, kind, name, ...), found %1")
                            .arg(nodeKindName(root)));
        }

        YAML::Node versionValue;
        bool hasVersion = false;
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (it->first.IsScalar() && it->first.Scalar() == "schemaVersion") {
                versionValue = it->second;
                hasVersion = true;
                break;
            }
        }
        if (hasVersion) {
            const QString version = versionValue.IsScalar() ? QString::fromStdString(versionValue.Scalar()) : QString();
            if (version == QLatin1String("1")) {
                refuseV1(root, versionValue, fileName, result.diagnostics);
                return result;
            }
            if (version != QLatin1String("2")) {
                const Loc loc = locOf(versionValue.Mark());
                return fail(loc.line, loc.column,
                            QStringLiteral("unsupported schemaVersion '%1': Paddock reads schemaVersion \"2\"")
                                .arg(version.left(40)));
            }
        }

        KitDecoder decoder(fileName, text, options, result.diagnostics);
        std::optional<Kit> kit = decoder.decode(root);
        std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                         [](const Diagnostic &a, const Diagnostic &b) {
                             return std::tie(a.line, a.column) < std::tie(b.line, b.column);
                         });
        if (!hasErrors(result.diagnostics))
            result.kit = std::move(kit);
    } catch (const YAML::Exception &e) {
        // Decoding reads nodes only through checked accessors; this is a last line of
        // defence so that a yaml-cpp surprise is a diagnostic, not a crash.
        qCWarning(lcKitLoader) << "unexpected yaml-cpp exception:" << e.what();
        const Loc loc = locOf(e.mark);
        fail(loc.line, loc.column, QStringLiteral("cannot decode the file: %1").arg(QString::fromStdString(e.msg)));
        result.kit.reset();
    }
    return result;
}

KitLoadResult KitLoader::loadDirectory(const QString &dir, const KitLoadOptions &options)
{
    const QDir kitDir(dir);
    QString specPath = kitDir.filePath(QStringLiteral("spec.yaml"));
    if (!QFileInfo::exists(specPath) && QFileInfo::exists(kitDir.filePath(QStringLiteral("spec.yml"))))
        specPath = kitDir.filePath(QStringLiteral("spec.yml"));

    QFile file(specPath);
    if (!QFileInfo(dir).isDir() || !file.open(QIODevice::ReadOnly)) {
        KitLoadResult result;
        Diagnostic d;
        d.file = QFileInfo(dir).isDir() ? specPath : dir;
        d.message = QFileInfo(dir).isDir()
                        ? QStringLiteral("cannot read the kit's spec.yaml: %1").arg(file.errorString())
                        : QStringLiteral("not a kit directory (expected a directory holding spec.yaml)");
        result.diagnostics.append(d);
        return result;
    }
    KitLoadResult result = loadText(file.readAll(), specPath, options);
    QList<KitFile> files;
    result.diagnostics.append(checkFilesTree(dir, &files));
    if (result.kit) {
        result.kit->directory = dir;
        result.kit->files = files;
        if (hasErrors(result.diagnostics))
            result.kit.reset();
    }
    return result;
}

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
// schemaVersion "3" descriptors: the top level, provides/requires, args and the capability list.
#include "kit/KitV3Descriptor.h"

#include "kit/ArgsSubstitution.h"
#include "kit/KitV3Decoder.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace paddock::kit {

namespace detail {

namespace {

constexpr int kMaxJsonDepth = 32;
constexpr int kMaxJsonNodes = 20000;

const QRegularExpression &argNamePattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern;
}

const QRegularExpression &capabilityTypePattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("^[a-z0-9]([a-z0-9.-]*[a-z0-9])?/[a-z0-9]([a-z0-9-]*[a-z0-9])?@[1-9][0-9]*$"));
    return pattern;
}

bool isDomainLabel(const QString &label)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"));
    return pattern.match(label).hasMatch();
}

/** "name >= 1.0, < 2" → ok; an operator without a version, or a stray word, is not. */
bool isConstraint(const QString &entry)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(>=|<=|>|<|=)\\s*(\\S+)\\s*$"));
    const QStringList parts = entry.split(QLatin1Char(','));
    for (const QString &part : parts) {
        const QRegularExpressionMatch match = pattern.match(part);
        if (!match.hasMatch() || !isV3Version(match.captured(2)))
            return false;
    }
    return true;
}

} // namespace

bool isV3Version(const QString &version)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9]+(\\.[0-9A-Za-z-]+)*$"));
    return pattern.match(version).hasMatch();
}

bool isV3CapabilityName(const QString &name)
{
    static const QRegularExpression base(QStringLiteral("^[a-z0-9]([a-z0-9.+-]*[a-z0-9+])?$"));
    const qsizetype slash = name.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return base.match(name).hasMatch();
    const QString ns = name.left(slash);
    const QStringList labels = ns.split(QLatin1Char('.'));
    // A namespace of one's own is reverse-DNS (two labels or more); deb/ and apk/ are derived only.
    if (labels.size() < 2 || ns.size() > 253)
        return false;
    for (const QString &label : labels)
        if (!isDomainLabel(label))
            return false;
    return base.match(name.mid(slash + 1)).hasMatch();
}

// -----------------------------------------------------------------------------------------
// Primitives

void V3Decoder::error(const YAML::Node &node, const QString &message)
{
    const Loc loc = locOf(node.Mark());
    Diagnostic d;
    d.file = m_file;
    d.line = loc.line > 0 ? loc.line : 1;
    d.column = loc.column > 0 ? loc.column : 1;
    d.message = message;
    m_diagnostics.append(d);
}

void V3Decoder::warning(const YAML::Node &node, const QString &message)
{
    error(node, message);
    m_diagnostics.last().severity = Diagnostic::Severity::Warning;
}

void V3Decoder::checkFields(const YAML::Node &map, const QString &path, const QStringList &known)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QString key = it->first.IsScalar() ? QString::fromStdString(it->first.Scalar()) : QString();
        if (!known.contains(key))
            error(it->first, QStringLiteral("unknown field '%1' in %2 (known fields: %3)")
                                 .arg(key.left(60), path.isEmpty() ? QStringLiteral("the descriptor") : path,
                                      known.join(QStringLiteral(", "))));
    }
}

bool V3Decoder::expectMap(const YAML::Node &value, const QString &path)
{
    if (value.IsMap())
        return true;
    error(value, QStringLiteral("`%1` must be a mapping, found %2").arg(path, nodeKindName(value)));
    return false;
}

std::optional<QString> V3Decoder::text(const YAML::Node &value, const QString &path)
{
    if (value.IsScalar())
        return QString::fromStdString(value.Scalar());
    error(value, QStringLiteral("`%1` must be a string, found %2").arg(path, nodeKindName(value)));
    return std::nullopt;
}

std::optional<bool> V3Decoder::boolean(const YAML::Node &value, const QString &path)
{
    const QString written = value.IsScalar() ? QString::fromStdString(value.Scalar()) : QString();
    if (value.IsScalar() && value.Tag() != "!" &&
        (written == QLatin1String("true") || written == QLatin1String("false")))
        return written == QLatin1String("true");
    error(value, QStringLiteral("`%1` must be true or false, found %2").arg(path, nodeKindName(value)));
    return std::nullopt;
}

QStringList V3Decoder::textList(const YAML::Node &value, const QString &path)
{
    QStringList list;
    if (!value.IsSequence()) {
        error(value, QStringLiteral("`%1` must be a list of strings, found %2").arg(path, nodeKindName(value)));
        return list;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (const std::optional<QString> item = text(value[i], QStringLiteral("%1[%2]").arg(path).arg(i)))
            list << *item;
    }
    return list;
}

QJsonValue V3Decoder::toJson(const YAML::Node &value, int depth)
{
    if (++m_jsonNodes > kMaxJsonNodes || depth > kMaxJsonDepth)
        return QJsonValue();
    if (value.IsMap()) {
        QJsonObject object;
        for (auto it = value.begin(); it != value.end(); ++it)
            object.insert(QString::fromStdString(it->first.Scalar()), toJson(it->second, depth + 1));
        return object;
    }
    if (value.IsSequence()) {
        QJsonArray array;
        for (std::size_t i = 0; i < value.size(); ++i)
            array.append(toJson(value[i], depth + 1));
        return array;
    }
    if (!value.IsScalar())
        return QJsonValue();
    const QString written = QString::fromStdString(value.Scalar());
    if (value.Tag() == "!")
        return written; // quoted: a string whatever it spells
    if (written == QLatin1String("true") || written == QLatin1String("false"))
        return written == QLatin1String("true");
    bool isInteger = false;
    const qint64 integer = written.toLongLong(&isInteger);
    if (isInteger)
        return integer;
    bool isNumber = false;
    const double number = written.toDouble(&isNumber);
    if (isNumber)
        return number;
    if (written == QLatin1String("null") || written == QLatin1String("~"))
        return QJsonValue();
    return written;
}

// -----------------------------------------------------------------------------------------
// The top level

std::optional<V3Descriptor> V3Decoder::decode(const YAML::Node &root, const QByteArray &source)
{
    V3Descriptor d;
    for (auto it = root.begin(); it != root.end(); ++it)
        readTopLevel(it->first, it->second, d);
    checkRules(root, d, source);
    if (hasErrors(m_diagnostics))
        return std::nullopt;
    return d;
}

void V3Decoder::readTopLevel(const YAML::Node &key, const YAML::Node &value, V3Descriptor &d)
{
    const QString name = key.IsScalar() ? QString::fromStdString(key.Scalar()) : QString();
    const QMap<QString, QString *> texts{
        {QStringLiteral("kind"), &d.kind},
        {QStringLiteral("displayName"), &d.displayName},
        {QStringLiteral("author"), &d.author},
        {QStringLiteral("description"), &d.description},
        {QStringLiteral("sourceUrl"), &d.sourceUrl},
        {QStringLiteral("iconUrl"), &d.iconUrl},
        {QStringLiteral("version"), &d.version},
        {QStringLiteral("build"), &d.build},
        {QStringLiteral("dockerfile"), &d.dockerfile},
    };
    const QMap<QString, QStringList *> lists{
        {QStringLiteral("licenses"), &d.licenses},     {QStringLiteral("provides"), &d.provides},
        {QStringLiteral("requires"), &d.requirements}, {QStringLiteral("integrates"), &d.integrates},
        {QStringLiteral("conflicts"), &d.conflicts},
    };
    if (name == QLatin1String("schemaVersion")) {
        if (value.IsScalar() && value.Scalar() != "3")
            error(value, QStringLiteral("schemaVersion must be \"3\" here"));
    } else if (texts.contains(name)) {
        if (const std::optional<QString> written = text(value, name))
            *texts.value(name) = *written;
    } else if (lists.contains(name)) {
        *lists.value(name) = textList(value, name);
        if (name != QLatin1String("licenses"))
            checkNames(value, name, *lists.value(name));
    } else if (name == QLatin1String("args")) {
        readArgs(value, d);
    } else if (name == QLatin1String("capabilities")) {
        readCapabilities(value, d);
    } else if (name == QLatin1String("kits")) {
        readKits(value, d);
    } else {
        error(key, QStringLiteral("unknown field '%1' (a schemaVersion \"3\" descriptor has schemaVersion, kind, "
                                  "displayName, author, description, sourceUrl, iconUrl, version, licenses, provides, "
                                  "requires, integrates, conflicts, capabilities, args, build, dockerfile, kits)")
                       .arg(name.left(60)));
    }
}

void V3Decoder::checkNames(const YAML::Node &value, const QString &field, const QStringList &entries)
{
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QString &entry = entries.at(i);
        const YAML::Node at = value[std::size_t(i)];
        if (field != QLatin1String("provides") && opensArgReference(entry)) {
            error(at, QStringLiteral("`%1` entries must stay literal: an argument reference is allowed in provides "
                                     "and version only")
                          .arg(field));
            continue;
        }
        QString name = entry.trimmed();
        bool ok = true;
        if (field == QLatin1String("provides")) {
            const qsizetype atSign = name.indexOf(QLatin1Char('@'));
            if (atSign >= 0) {
                const QString version = name.mid(atSign + 1);
                ok = opensArgReference(version) || isV3Version(version);
                name = name.left(atSign);
            }
        } else if (field != QLatin1String("conflicts")) {
            static const QRegularExpression split(QStringLiteral("^([^\\s<>=,]+)\\s*(.*)$"));
            const QRegularExpressionMatch match = split.match(name);
            ok = match.hasMatch() && (match.captured(2).isEmpty() || isConstraint(match.captured(2)));
            name = match.captured(1);
        }
        if (name.startsWith(QLatin1String("deb/")) || name.startsWith(QLatin1String("apk/")))
            error(at, QStringLiteral("`%1`: the deb/ and apk/ namespaces are derived from a workload's package "
                                     "database and are never written by hand")
                          .arg(field));
        else if (!ok || !isV3CapabilityName(name))
            error(at, QStringLiteral("`%1` entry '%2' is not %3")
                          .arg(field, entry.left(80),
                               field == QLatin1String("provides")    ? QStringLiteral("NAME or NAME@VERSION")
                               : field == QLatin1String("conflicts") ? QStringLiteral("a bare capability name")
                                                                     : QStringLiteral("NAME or NAME OP VERSION[, OP "
                                                                                      "VERSION] (OP: >= > <= < =)")));
    }
}

void V3Decoder::readArgs(const YAML::Node &value, V3Descriptor &d)
{
    if (!expectMap(value, QStringLiteral("args")))
        return;
    for (auto it = value.begin(); it != value.end(); ++it)
        readArg(it->first, it->second, d);
}

void V3Decoder::readArg(const YAML::Node &nameNode, const YAML::Node &body, V3Descriptor &d)
{
    V3Arg arg;
    arg.declaration.name = QString::fromStdString(nameNode.Scalar());
    const QString path = QStringLiteral("args.%1").arg(arg.declaration.name.left(60));
    if (!argNamePattern().match(arg.declaration.name).hasMatch())
        error(nameNode, QStringLiteral("argument name '%1' must match ^[A-Za-z_][A-Za-z0-9_]*$")
                            .arg(arg.declaration.name.left(60)));
    if (!body.IsNull() && !expectMap(body, path))
        return;
    checkFields(body, path,
                {QStringLiteral("default"), QStringLiteral("required"), QStringLiteral("description"),
                 QStringLiteral("enum"), QStringLiteral("pattern"), QStringLiteral("env"), QStringLiteral("buildArg")});
    if (const YAML::Node v = body["default"])
        arg.declaration.defaultValue = text(v, path + QStringLiteral(".default"));
    if (const YAML::Node v = body["required"])
        arg.declaration.required = boolean(v, path + QStringLiteral(".required")).value_or(false);
    if (const YAML::Node v = body["description"])
        arg.declaration.description = text(v, path + QStringLiteral(".description")).value_or(QString());
    if (const YAML::Node v = body["enum"])
        arg.declaration.enumValues = textList(v, path + QStringLiteral(".enum"));
    if (const YAML::Node v = body["pattern"]) {
        arg.declaration.pattern = text(v, path + QStringLiteral(".pattern")).value_or(QString());
        if (!QRegularExpression(arg.declaration.pattern).isValid())
            error(v, QStringLiteral("`%1.pattern` is not a valid regular expression").arg(path));
    }
    for (const auto &[field, target] : {std::pair{"env", &arg.env}, std::pair{"buildArg", &arg.buildArg}}) {
        if (const YAML::Node v = body[field]) {
            *target = text(v, path + QLatin1Char('.') + QLatin1String(field)).value_or(QString());
            if (!argNamePattern().match(*target).hasMatch())
                error(v, QStringLiteral("`%1.%2` must be a variable name").arg(path, QLatin1String(field)));
        }
    }
    if (arg.declaration.defaultValue && arg.declaration.required)
        error(nameNode, QStringLiteral("`%1`: default and required exclude each other").arg(path));
    if (!arg.declaration.enumValues.isEmpty() && !arg.declaration.pattern.isEmpty())
        error(nameNode, QStringLiteral("`%1`: enum and pattern exclude each other").arg(path));
    if (!arg.env.isEmpty() && !arg.buildArg.isEmpty())
        error(nameNode, QStringLiteral("`%1`: env and buildArg exclude each other (an argument resolves in one "
                                       "phase)")
                            .arg(path));
    d.args << arg;
}

void V3Decoder::readKits(const YAML::Node &value, V3Descriptor &d)
{
    if (!value.IsSequence() || value.size() == 0) {
        error(value, QStringLiteral("`kits` must be a list of one kit or more"));
        return;
    }
    static const QRegularExpression digest(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    for (std::size_t i = 0; i < value.size(); ++i) {
        const YAML::Node item = value[i];
        const QString path = QStringLiteral("kits[%1]").arg(i);
        if (!expectMap(item, path))
            continue;
        checkFields(item, path, {QStringLiteral("ref"), QStringLiteral("digest"), QStringLiteral("args")});
        V3KitReference kit;
        kit.ref = item["ref"] ? text(item["ref"], path + QStringLiteral(".ref")).value_or(QString()) : QString();
        if (kit.ref.isEmpty() || kit.ref.startsWith(QLatin1String("git+")) || kit.ref.contains(QLatin1String("://")) ||
            kit.ref.startsWith(QLatin1Char('.')) || kit.ref.startsWith(QLatin1Char('/')))
            error(item, QStringLiteral("`%1.ref` must be a registry reference (not a path or a git URL)").arg(path));
        if (const YAML::Node v = item["digest"]) {
            kit.digest = text(v, path + QStringLiteral(".digest")).value_or(QString());
            if (!digest.match(kit.digest).hasMatch())
                error(v, QStringLiteral("`%1.digest` must be sha256: and 64 hexadecimal digits").arg(path));
        }
        d.kits << kit;
    }
}

// -----------------------------------------------------------------------------------------
// Capabilities

void V3Decoder::readCapabilities(const YAML::Node &value, V3Descriptor &d)
{
    if (!value.IsSequence()) {
        error(value, QStringLiteral("`capabilities` must be a list, found %1").arg(nodeKindName(value)));
        return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        const YAML::Node item = value[i];
        const QString path = QStringLiteral("capabilities[%1]").arg(i);
        if (!expectMap(item, path))
            continue;
        if (item["group"]) {
            if (item["type"] || item["config"] || item["optional"])
                error(item, QStringLiteral("`%1` mixes a group with a request; write one or the other").arg(path));
            checkFields(item, path, {QStringLiteral("group"), QStringLiteral("source")});
            readGroup(item["group"], path + QStringLiteral(".group"), d);
        } else {
            readCapability(item, path, -1, d);
        }
    }
}

void V3Decoder::readGroup(const YAML::Node &body, const QString &path, V3Descriptor &d)
{
    if (!expectMap(body, path))
        return;
    checkFields(body, path,
                {QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("optional"),
                 QStringLiteral("capabilities")});
    V3Group group;
    if (const YAML::Node v = body["name"])
        group.name = text(v, path + QStringLiteral(".name")).value_or(QString());
    if (const YAML::Node v = body["description"])
        group.description = text(v, path + QStringLiteral(".description")).value_or(QString());
    if (const YAML::Node v = body["optional"])
        group.optional = boolean(v, path + QStringLiteral(".optional")).value_or(false);
    d.groups << group;
    const YAML::Node members = body["capabilities"];
    if (!members || !members.IsSequence() || members.size() == 0) {
        error(body, QStringLiteral("`%1.capabilities` must list one request or more").arg(path));
        return;
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
        const YAML::Node member = members[i];
        const QString memberPath = QStringLiteral("%1.capabilities[%2]").arg(path).arg(i);
        if (!expectMap(member, memberPath))
            continue;
        if (member["group"])
            error(member, QStringLiteral("`%1`: groups do not nest").arg(memberPath));
        else if (member["optional"])
            error(member["optional"], QStringLiteral("`%1.optional`: a group member takes its group's optional, "
                                                     "never its own")
                                          .arg(memberPath));
        else
            readCapability(member, memberPath, int(d.groups.size() - 1), d);
    }
}

void V3Decoder::readCapability(const YAML::Node &item, const QString &path, int group, V3Descriptor &d)
{
    checkFields(item, path,
                {QStringLiteral("type"), QStringLiteral("name"), QStringLiteral("optional"),
                 QStringLiteral("description"), QStringLiteral("config"), QStringLiteral("source")});
    V3Capability capability;
    const Loc loc = locOf(item.Mark());
    capability.line = loc.line;
    capability.column = loc.column;
    capability.group = group;
    if (!item["type"]) {
        error(item, QStringLiteral("`%1` names no type (namespace/name@version)").arg(path));
        return;
    }
    capability.type = text(item["type"], path + QStringLiteral(".type")).value_or(QString());
    if (!capabilityTypePattern().match(capability.type).hasMatch()) {
        error(item["type"], QStringLiteral("`%1.type` '%2' is not namespace/name@version (e.g. "
                                           "com.docker.sandbox/network-policy@1)")
                                .arg(path, capability.type.left(80)));
        return;
    }
    if (const YAML::Node v = item["name"])
        capability.name = text(v, path + QStringLiteral(".name")).value_or(QString());
    if (const YAML::Node v = item["description"])
        capability.description = text(v, path + QStringLiteral(".description")).value_or(QString());
    capability.optional =
        group >= 0 ? d.groups.at(group).optional
                   : item["optional"] && boolean(item["optional"], path + QStringLiteral(".optional")).value_or(false);
    if (const YAML::Node source = item["source"]; source && expectMap(source, path + QStringLiteral(".source")))
        checkFields(source, path + QStringLiteral(".source"), {QStringLiteral("kit"), QStringLiteral("path")});
    const YAML::Node config = item["config"];
    capability.hasConfig = bool(config);
    if (config && !config.IsNull()) {
        if (expectMap(config, path + QStringLiteral(".config")))
            capability.config = toJson(config, 0).toObject();
    }
    const qsizetype before = m_diagnostics.size();
    checkConfig(capability.type, config, capability.hasConfig, path + QStringLiteral(".config"));
    // Without a config, what it lacks is said where the entry is.
    for (qsizetype i = before; !config && i < m_diagnostics.size(); ++i) {
        m_diagnostics[i].line = capability.line;
        m_diagnostics[i].column = capability.column;
    }
    d.capabilities << capability;
}

// -----------------------------------------------------------------------------------------
// Whole-descriptor rules

void V3Decoder::checkRules(const YAML::Node &root, const V3Descriptor &d, const QByteArray &source)
{
    const YAML::Node kind = root["kind"];
    if (!root["schemaVersion"])
        error(root, QStringLiteral("schemaVersion is required (\"3\")"));
    if (!kind)
        error(root, QStringLiteral("kind is required (workload or mixin)"));
    else if (d.kind == QLatin1String("sandbox"))
        error(kind, QStringLiteral("kind 'sandbox' is the old spelling: write kind: workload"));
    else if (!QStringList{QStringLiteral("workload"), QStringLiteral("mixin"), QStringLiteral("set")}.contains(d.kind))
        error(kind, QStringLiteral("kind must be workload, mixin or set, found '%1'").arg(d.kind.left(40)));
    if (d.kind == QLatin1String("set") && d.kits.isEmpty())
        error(kind, QStringLiteral("a kind: set descriptor lists its kits in `kits`"));
    if (int(!d.build.isEmpty()) + int(!d.dockerfile.isEmpty()) + int(!d.kits.isEmpty()) > 1)
        error(root, QStringLiteral("build, dockerfile and kits exclude each other: a kit's content has one recipe"));
    if (const YAML::Node v = root["dockerfile"];
        v && (d.dockerfile.startsWith(QLatin1Char('/')) ||
              d.dockerfile.split(QLatin1Char('/')).contains(QLatin1String(".."))))
        error(v, QStringLiteral("`dockerfile` must be a relative path inside the descriptor's folder"));
    if (const YAML::Node v = root["version"]; v && !isV3Version(d.version) && !opensArgReference(d.version))
        error(
            v,
            QStringLiteral("`version` '%1' is not a version (digits and dots, no 'v' prefix)").arg(d.version.left(40)));
    if (const YAML::Node v = root["iconUrl"]; v && !d.iconUrl.startsWith(QLatin1String("https://")))
        error(v, QStringLiteral("`iconUrl` must be an absolute https:// URL"));
    // Every ${{ kit.args.NAME }} anywhere names a declared argument.
    QSet<QString> declared;
    for (const V3Arg &arg : d.args)
        declared.insert(arg.declaration.name);
    const ArgSubstitution scan = substituteArgs(QString::fromUtf8(source), {});
    for (const ArgReference &reference : scan.references) {
        if (!declared.contains(reference.name)) {
            error(root, QStringLiteral("'%1' names an argument that `args` does not declare").arg(reference.written));
            break;
        }
    }
    checkArity(d);
    checkInjectDomains(d);
    checkInteractiveAgreement(d);
}

} // namespace detail

bool declaresSchemaV3(const QByteArray &text)
{
    static const QRegularExpression pattern(
        QStringLiteral("(^|[\\n{,])\\s*\"?schemaVersion\"?\\s*:\\s*[\"']?3[\"']?\\s*([,}\\n#]|$)"));
    return pattern.match(QString::fromUtf8(text.left(kV3DescriptorMaxBytes))).hasMatch();
}

V3DecodeResult decodeV3Descriptor(const QByteArray &text, const QString &fileName)
{
    V3DecodeResult result;
    Diagnostic size;
    size.file = fileName;
    size.line = 1;
    size.column = 1;
    if (text.size() > kV3DescriptorMaxBytes) {
        size.message = QStringLiteral("the descriptor is %1 bytes; a descriptor is at most %2 bytes (512 KiB)")
                           .arg(text.size())
                           .arg(kV3DescriptorMaxBytes);
        result.diagnostics << size;
        return result;
    }
    YAML::Node root;
    if (!detail::parseYaml(text, fileName, root, result.diagnostics))
        return result;
    if (!root.IsMap()) {
        size.message = QStringLiteral("a descriptor must be a mapping (schemaVersion, kind, ...), found %1")
                           .arg(detail::nodeKindName(root));
        result.diagnostics << size;
        return result;
    }
    if (text.size() > kV3DescriptorWarnBytes) {
        size.severity = Diagnostic::Severity::Warning;
        size.message = QStringLiteral("the descriptor is %1 bytes; keep it under 64 KiB (bulk belongs in layers)")
                           .arg(text.size());
        result.diagnostics << size;
    }
    try {
        detail::V3Decoder decoder(fileName, result.diagnostics);
        result.descriptor = decoder.decode(root, text);
    } catch (const YAML::Exception &e) {
        const detail::Loc loc = detail::locOf(e.mark);
        size.line = std::max(loc.line, 1);
        size.column = std::max(loc.column, 1);
        size.message = QStringLiteral("cannot decode the descriptor: %1").arg(QString::fromStdString(e.msg));
        result.diagnostics << size;
        result.descriptor.reset();
    }
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic &a, const Diagnostic &b) {
                         return std::tie(a.line, a.column) < std::tie(b.line, b.column);
                     });
    return result;
}

} // namespace paddock::kit

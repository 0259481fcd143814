// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitV3Authored.h"

#include "kit/ArgsSubstitution.h"
#include "kit/KitV3Decoder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace paddock::kit {

namespace {

/** Collects the diagnostics of one authored descriptor, each placed at a node when it has one. */
class AuthoredProblems
{
public:
    AuthoredProblems(QString file, QList<Diagnostic> &diagnostics) : m_file(std::move(file)), m_diagnostics(diagnostics)
    {}

    void error(const QString &message, const YAML::Node &at = YAML::Node())
    {
        Diagnostic d;
        d.file = m_file;
        if (at.IsDefined() && !at.IsNull()) {
            const detail::Loc loc = detail::locOf(at.Mark());
            d.line = loc.line;
            d.column = loc.column;
        }
        d.message = message;
        m_diagnostics << d;
    }

private:
    QString m_file;
    QList<Diagnostic> &m_diagnostics;
};

/** The descriptor @p path names: the file itself, or the one a folder holds; empty with @p error. */
QString locateDescriptor(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (info.isFile())
        return info.absoluteFilePath();
    if (!info.isDir()) {
        *error = QStringLiteral("%1 is neither a kit folder nor a descriptor file").arg(path);
        return {};
    }
    const QDir folder(info.absoluteFilePath());
    for (const QString &own : {folder.dirName() + QStringLiteral(".yaml"), folder.dirName() + QStringLiteral(".yml")})
        if (QFileInfo(folder.filePath(own)).isFile())
            return folder.filePath(own);
    QStringList descriptors;
    for (const QString &name : folder.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")}, QDir::Files)) {
        QFile file(folder.filePath(name));
        if (file.open(QIODevice::ReadOnly) && declaresSchemaV3(file.read(kV3DescriptorMaxBytes + 1)))
            descriptors << name;
    }
    if (descriptors.size() == 1)
        return folder.filePath(descriptors.constFirst());
    *error =
        descriptors.isEmpty()
            ? QStringLiteral("%1 holds no schemaVersion \"3\" descriptor (STEM.yaml beside STEM.dockerfile)").arg(path)
            : QStringLiteral("%1 holds several descriptors (%2): name the one to build, e.g. %1/%3")
                  .arg(path, descriptors.join(QStringLiteral(", ")), descriptors.constFirst());
    return {};
}

/** Whether @p relative, resolved in @p folder with every link followed, is a file inside it. */
bool isFileInside(const QString &folder, const QString &relative)
{
    const QString real = QFileInfo(QDir(folder).filePath(relative)).canonicalFilePath();
    const QString root = QFileInfo(folder).canonicalFilePath();
    return !real.isEmpty() && real.startsWith(root + QLatin1Char('/')) && QFileInfo(real).isFile();
}

/**
 * The value of each build-phase argument: given, else its default. Errors for a value
 * given to an argument that is not declared or resolves at create, a value its enum or
 * pattern refuses, and a required one left without.
 */
QMap<QString, QString> buildPhaseValues(const V3Descriptor &descriptor, const YAML::Node &root,
                                        const QMap<QString, QString> &given, AuthoredProblems &problems)
{
    QMap<QString, QString> values;
    for (auto it = given.cbegin(); it != given.cend(); ++it) {
        const auto declared = std::find_if(descriptor.args.cbegin(), descriptor.args.cend(),
                                           [&it](const V3Arg &arg) { return arg.declaration.name == it.key(); });
        if (declared == descriptor.args.cend())
            problems.error(QStringLiteral("--arg %1 names an argument the kit does not declare in args").arg(it.key()),
                           root["args"]);
        else if (declared->buildArg.isEmpty())
            problems.error(QStringLiteral("--arg %1: this argument resolves when a sandbox is made, not at build "
                                          "(give it to paddock run --arg)")
                               .arg(it.key()),
                           root["args"][it.key().toStdString()]);
    }
    for (const V3Arg &arg : descriptor.args) {
        if (arg.buildArg.isEmpty())
            continue;
        const ArgDeclaration &declaration = arg.declaration;
        const YAML::Node at = root["args"][declaration.name.toStdString()];
        std::optional<QString> value = given.contains(declaration.name)
                                           ? std::optional<QString>(given.value(declaration.name))
                                           : declaration.defaultValue;
        if (!value) {
            problems.error(QStringLiteral("argument `%1` is required at build and has no value: pass --arg %1=VALUE")
                               .arg(declaration.name),
                           at);
            continue;
        }
        if (!declaration.enumValues.isEmpty() && !declaration.enumValues.contains(*value)) {
            problems.error(QStringLiteral("the value '%1' of argument `%2` is not one of: %3")
                               .arg(*value, declaration.name, declaration.enumValues.join(QStringLiteral(", "))),
                           at);
            continue;
        }
        const QRegularExpression pattern(QRegularExpression::anchoredPattern(declaration.pattern));
        if (!declaration.pattern.isEmpty() && pattern.isValid() && !pattern.match(*value).hasMatch()) {
            problems.error(QStringLiteral("the value '%1' of argument `%2` does not match its pattern %3")
                               .arg(*value, declaration.name, declaration.pattern),
                           at);
            continue;
        }
        values.insert(declaration.name, *value);
    }
    return values;
}

/** A whole-value reference takes the type its value spells when the spelling survives a round trip. */
QJsonValue typedValue(const QString &text)
{
    bool integer = false;
    const qint64 asInteger = text.toLongLong(&integer);
    if (integer && QString::number(asInteger) == text)
        return asInteger;
    bool number = false;
    const double asNumber = text.toDouble(&number);
    if (number && QString::number(asNumber, 'g', 17) == text)
        return asNumber;
    return text;
}

/**
 * @p value with every reference to a build-phase argument of @p values expanded, keys included. In
 * capability configurations (@p typed) a whole-value reference takes the type of its value.
 */
QJsonValue expanded(const QJsonValue &value, const QMap<QString, QString> &values, bool typed)
{
    if (value.isObject()) {
        QJsonObject object;
        const QJsonObject from = value.toObject();
        for (auto it = from.begin(); it != from.end(); ++it)
            object.insert(substituteArgs(it.key(), values).text, expanded(it.value(), values, typed));
        return object;
    }
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(expanded(item, values, typed));
        return array;
    }
    if (!value.isString())
        return value;
    const ArgSubstitution substituted = substituteArgs(value.toString(), values);
    const bool whole = substituted.references.size() == 1 && !substituted.unresolved &&
                       substituted.references.constFirst().written == value.toString();
    return typed && whole ? typedValue(substituted.text) : QJsonValue(substituted.text);
}

/** @p node as JSON with every scalar a string, as the descriptor's own fields read them; `required` a bool. */
QJsonValue asText(const YAML::Node &node, int depth)
{
    if (depth > 8)
        return QJsonValue();
    if (node.IsMap()) {
        QJsonObject object;
        for (auto it = node.begin(); it != node.end(); ++it) {
            const QString key = QString::fromStdString(it->first.Scalar());
            object.insert(key, key == QLatin1String("required") && it->second.IsScalar()
                                   ? QJsonValue(it->second.Scalar() == "true")
                                   : asText(it->second, depth + 1));
        }
        return object;
    }
    if (node.IsSequence()) {
        QJsonArray array;
        for (std::size_t i = 0; i < node.size(); ++i)
            array.append(asText(node[i], depth + 1));
        return array;
    }
    return node.IsScalar() ? QJsonValue(QString::fromStdString(node.Scalar())) : QJsonValue();
}

/** The descriptor as published: the document as JSON, `dockerfile:` left out, build-phase references expanded. */
QJsonObject publishedDescriptor(const YAML::Node &root, const QMap<QString, QString> &values,
                                QList<Diagnostic> &diagnostics, const QString &file)
{
    detail::V3Decoder converter(file, diagnostics);
    QJsonObject document;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QString key = QString::fromStdString(it->first.Scalar());
        if (key == QLatin1String("dockerfile"))
            continue;
        // Capability configurations are typed as YAML reads them; every other field is text.
        const bool capabilities = key == QLatin1String("capabilities");
        const QJsonValue value = capabilities ? converter.toJson(it->second, 0) : asText(it->second, 0);
        document.insert(key, expanded(value, values, capabilities));
    }
    return document;
}

/**
 * agent-context@1's `contentFile` (a path in the folder) as published: the body staged in the
 * image under /usr/share/sandbox/kit/STEM/ and the field rewritten to it (the capability's publish
 * behaviour). @p entry is one capability of @p capabilities, @p node the same one as authored.
 */
QJsonObject stagedContext(QJsonObject entry, const YAML::Node &node, AuthoredKit &kit, AuthoredProblems &problems)
{
    QJsonObject config = entry.value(QLatin1String("config")).toObject();
    const QJsonValue contentFile = config.value(QLatin1String("contentFile"));
    if (!entry.value(QLatin1String("type")).toString().endsWith(QLatin1String("/agent-context@1")) ||
        !contentFile.isString())
        return entry;
    const YAML::Node at = node["config"]["contentFile"];
    const QString relative = QDir::cleanPath(contentFile.toString());
    if (QDir::isAbsolutePath(relative) || relative == QLatin1String("..") ||
        relative.startsWith(QLatin1String("../")) || !isFileInside(kit.folder, relative)) {
        problems.error(QStringLiteral("`contentFile` names %1, which is not a file inside %2")
                           .arg(contentFile.toString(), kit.folder),
                       at);
        return entry;
    }
    const QString staged = QStringLiteral("/usr/share/sandbox/kit/%1/%2").arg(kit.stem, relative);
    kit.staged.insert(relative, staged);
    config.insert(QStringLiteral("contentFile"), staged);
    entry.insert(QStringLiteral("config"), config);
    return entry;
}

/** Every agent-context@1 body of @p document (groups' members too) staged by stagedContext(). */
void stageContentFiles(QJsonObject &document, const YAML::Node &root, AuthoredKit &kit, AuthoredProblems &problems)
{
    QJsonArray capabilities = document.value(QLatin1String("capabilities")).toArray();
    const YAML::Node authored = root["capabilities"];
    for (qsizetype i = 0; i < capabilities.size(); ++i) {
        QJsonObject item = capabilities.at(i).toObject();
        const YAML::Node itemNode = authored[std::size_t(i)];
        if (item.contains(QLatin1String("group"))) {
            QJsonObject group = item.value(QLatin1String("group")).toObject();
            QJsonArray members = group.value(QLatin1String("capabilities")).toArray();
            for (qsizetype m = 0; m < members.size(); ++m)
                members[m] = stagedContext(members.at(m).toObject(), itemNode["group"]["capabilities"][std::size_t(m)],
                                           kit, problems);
            group.insert(QStringLiteral("capabilities"), members);
            item.insert(QStringLiteral("group"), group);
        } else {
            item = stagedContext(item, itemNode, kit, problems);
        }
        capabilities[i] = item;
    }
    if (document.contains(QLatin1String("capabilities")))
        document.insert(QStringLiteral("capabilities"), capabilities);
}

/** Where the content comes from: the inline block, the named recipe, or the companion by stem. */
void findRecipe(const V3Descriptor &descriptor, const YAML::Node &root, AuthoredKit &kit, AuthoredProblems &problems)
{
    if (!descriptor.build.isEmpty()) {
        kit.recipe = descriptor.build.toUtf8();
        return;
    }
    if (!descriptor.dockerfile.isEmpty()) {
        // The decoder refused an escaping path; a link leading out is refused here.
        if (!isFileInside(kit.folder, descriptor.dockerfile))
            problems.error(QStringLiteral("`dockerfile` names %1, which is not a file inside %2")
                               .arg(descriptor.dockerfile, kit.folder),
                           root["dockerfile"]);
        else
            kit.dockerfile = QDir::cleanPath(descriptor.dockerfile);
        return;
    }
    const QString companion = kit.stem + QStringLiteral(".dockerfile");
    if (QFileInfo::exists(QDir(kit.folder).filePath(companion))) {
        if (isFileInside(kit.folder, companion))
            kit.dockerfile = companion;
        else
            problems.error(QStringLiteral("%1 is a link leading out of %2").arg(companion, kit.folder));
        return;
    }
    if (kit.kind == QLatin1String("workload"))
        problems.error(QStringLiteral("a workload kit needs content: write %1 beside the descriptor, name a recipe in "
                                      "`dockerfile`, or give one inline in `build`")
                           .arg(companion),
                       root["kind"]);
}

} // namespace

QString authoredDescriptorFile(const QString &path, QString *error)
{
    return locateDescriptor(path, error);
}

AuthoredKitResult readAuthoredKit(const QString &path, const QMap<QString, QString> &argValues)
{
    AuthoredKitResult result;
    QString error;
    const QString descriptorFile = locateDescriptor(path, &error);
    AuthoredProblems problems(descriptorFile.isEmpty() ? path : descriptorFile, result.diagnostics);
    if (descriptorFile.isEmpty()) {
        problems.error(error);
        return result;
    }
    QFile file(descriptorFile);
    if (!file.open(QIODevice::ReadOnly)) {
        problems.error(QStringLiteral("cannot read the descriptor: %1").arg(file.errorString()));
        return result;
    }
    const QByteArray text = file.read(kV3DescriptorMaxBytes + 1);
    V3DecodeResult decoded = decodeV3Descriptor(text, descriptorFile);
    result.diagnostics = decoded.diagnostics;
    if (!decoded.descriptor)
        return result;
    const V3Descriptor &descriptor = *decoded.descriptor;
    YAML::Node root;
    QList<Diagnostic> ignored;
    if (!detail::parseYaml(text, descriptorFile, root, ignored))
        return result;

    AuthoredKit kit;
    kit.descriptorFile = descriptorFile;
    kit.folder = QFileInfo(descriptorFile).absolutePath();
    kit.stem = QFileInfo(descriptorFile).completeBaseName();
    kit.kind = descriptor.kind;
    if (descriptor.kind == QLatin1String("set")) {
        problems.error(QStringLiteral("a kind: set kit is merged from published kits, which Paddock does not "
                                      "build; compose them with paddock run --kit A --kit B"),
                       root["kind"]);
        return result;
    }
    findRecipe(descriptor, root, kit, problems);
    const QMap<QString, QString> values = buildPhaseValues(descriptor, root, argValues, problems);
    if (hasErrors(result.diagnostics))
        return result;
    for (const V3Arg &arg : descriptor.args)
        if (!arg.buildArg.isEmpty())
            kit.buildArgs.insert(arg.buildArg, values.value(arg.declaration.name));

    QJsonObject published = publishedDescriptor(root, values, result.diagnostics, descriptorFile);
    stageContentFiles(published, root, kit, problems);
    // SPEC-v3 §9.2: a published provide carries a version, its own or the `version:` fallback.
    if (published.value(QLatin1String("version")).toString().isEmpty()) {
        for (const QJsonValue &provided : published.value(QLatin1String("provides")).toArray())
            if (!provided.toString().contains(QLatin1Char('@')))
                problems.error(QStringLiteral("`provides` entry '%1' has no version: a published kit states one "
                                              "(%1@1.0.0), or gives `version:` for its unversioned entries")
                                   .arg(provided.toString()),
                               root["provides"]);
    }
    if (!kit.staged.isEmpty() && !kit.hasRecipe())
        problems.error(QStringLiteral("`contentFile` is staged in the kit's image, and a declaration-only mixin has "
                                      "none: give the body inline in `content`, or give the kit a recipe"),
                       root["capabilities"]);
    if (hasErrors(result.diagnostics))
        return result;
    kit.published = QJsonDocument(published).toJson(QJsonDocument::Compact);
    // What is published must read as any published descriptor does.
    const V3DecodeResult again = decodeV3Descriptor(kit.published, descriptorFile + QStringLiteral(" (as published)"));
    if (!again.descriptor) {
        result.diagnostics += again.diagnostics;
        return result;
    }
    result.kit = std::move(kit);
    return result;
}

} // namespace paddock::kit

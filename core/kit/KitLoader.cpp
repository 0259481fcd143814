// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitLoader.h"

#include "kit/KitDecoder.h"
#include "kit/KitFilesTree.h"
#include "kit/KitV3Authored.h"
#include "kit/KitV3Mapping.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <vector>

namespace paddock::kit {

Q_LOGGING_CATEGORY(lcKitLoader, "paddock.kit.loader")

QString kindName(KitKind kind)
{
    return kind == KitKind::Sandbox ? QStringLiteral("sandbox") : QStringLiteral("mixin");
}

namespace {

using detail::Loc;
using detail::locOf;

// yaml-cpp parses recursively; inputs nested deeper than this are refused before
// parsing so that no file can exhaust the stack.
constexpr int kMaxNesting = 100;

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

void addError(QList<Diagnostic> &diagnostics, const QString &file, int line, int column, const QString &message)
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.column = column;
    d.message = message;
    diagnostics.append(d);
}

/**
 * Where the innermost flow collection ('[' or '{', as @p open) still open at byte @p end of
 * @p text begins: yaml-cpp notices a missing ']' only where the text stops making sense,
 * often lines below. Quoted strings and comments are skipped. Nullopt when none is open.
 */
std::optional<Loc> unclosedFlowOpening(const QByteArray &text, qsizetype end, char open)
{
    const char close = open == '[' ? ']' : '}';
    std::vector<Loc> stack;
    int line = 1, column = 1;
    char quote = 0;
    bool comment = false;
    for (qsizetype i = 0; i < std::min(end, text.size()); ++i, ++column) {
        const char c = text.at(i);
        if (c == '\n') {
            ++line;
            column = 0;
            comment = false;
            continue;
        }
        if (comment)
            continue;
        if (quote) {
            if (c == '\\' && quote == '"')
                ++i, ++column;
            else if (c == quote)
                quote = 0;
            continue;
        }
        const char before = i == 0 ? '\n' : text.at(i - 1);
        // A quote opens a scalar only where one may start; an apostrophe in a plain word does not.
        if ((c == '"' || c == '\'') && std::strchr(" \t\n[{,:-", before))
            quote = c;
        else if (c == '#' && (i == 0 || text.at(i - 1) == ' ' || text.at(i - 1) == '\t'))
            comment = true;
        else if (c == open)
            stack.push_back({line, column});
        else if (c == close && !stack.empty())
            stack.pop_back();
    }
    return stack.empty() ? std::nullopt : std::optional<Loc>(stack.back());
}

} // namespace

namespace detail {

bool parseYaml(const QByteArray &text, const QString &fileName, YAML::Node &root, QList<Diagnostic> &diagnostics)
{
    if (estimateNesting(text) > kMaxNesting) {
        addError(diagnostics, fileName, 1, 1,
                 QStringLiteral("the file is nested more than %1 levels deep; a kit never is").arg(kMaxNesting));
        return false;
    }
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::Exception &e) {
        const Loc loc = locOf(e.mark);
        const QString what = QString::fromStdString(e.msg);
        // A flow collection never closed: named where it opens, which is where the fix goes.
        for (const auto &[open, close, kind] : {std::tuple{'[', ']', "sequence"}, std::tuple{'{', '}', "map"}}) {
            if (!what.contains(QLatin1String("end of %1 flow not found").arg(QLatin1String(kind))))
                continue;
            if (const std::optional<Loc> opening = unclosedFlowOpening(text, e.mark.pos, open)) {
                addError(diagnostics, fileName, opening->line, opening->column,
                         QStringLiteral("YAML syntax error: the '%1' opened here is never closed (a '%2' is "
                                        "missing before line %3)")
                             .arg(QString(QLatin1Char(open)), QString(QLatin1Char(close)))
                             .arg(loc.line));
                return false;
            }
        }
        addError(diagnostics, fileName, loc.line, loc.column, QStringLiteral("YAML syntax error: %1").arg(what));
        return false;
    }
    return true;
}

} // namespace detail

namespace {

/** Whether @p root is a mapping of schemaVersion "2" (or of no version yet): one to decode. */
bool isDecodable(const YAML::Node &root, const QString &fileName, QList<Diagnostic> &diagnostics)
{
    if (!root.IsDefined() || root.IsNull()) {
        addError(diagnostics, fileName, 1, 1,
                 QStringLiteral("the file is empty; expected a mapping with schemaVersion: \"2\", kind and name"));
        return false;
    }
    if (!root.IsMap()) {
        const Loc loc = locOf(root.Mark());
        addError(diagnostics, fileName, loc.line > 0 ? loc.line : 1, loc.column > 0 ? loc.column : 1,
                 QStringLiteral("a kit must be a mapping of fields (schemaVersion, kind, name, ...), found %1")
                     .arg(detail::nodeKindName(root)));
        return false;
    }
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (!it->first.IsScalar() || it->first.Scalar() != "schemaVersion")
            continue;
        const YAML::Node versionValue = it->second;
        const QString version = versionValue.IsScalar() ? QString::fromStdString(versionValue.Scalar()) : QString();
        if (version == QLatin1String("1")) {
            detail::refuseV1(root, versionValue, fileName, diagnostics);
            return false;
        }
        if (version != QLatin1String("2")) {
            const Loc loc = locOf(versionValue.Mark());
            addError(diagnostics, fileName, loc.line, loc.column,
                     QStringLiteral("unsupported schemaVersion '%1': Paddock reads schemaVersion \"2\"%2")
                         .arg(version.left(40),
                              version == QLatin1String("3")
                                  ? QStringLiteral(" in spec.yaml; a schemaVersion \"3\" kit is an OCI image (paddock "
                                                   "kit load FILE) or a descriptor file of its own")
                                  : QString()));
            return false;
        }
        break;
    }
    return true;
}

/** A kit `paddock kit load` wrote: DIR/kit.json, named and placed by DIR/origin.json. */
KitLoadResult loadOciKit(const QString &dir, const KitLoadOptions &options)
{
    const QDir kitDir(dir);
    const QString descriptorPath = kitDir.filePath(QStringLiteral("kit.json"));
    QFile descriptor(descriptorPath);
    QFile origin(kitDir.filePath(QStringLiteral("origin.json")));
    KitLoadResult result;
    if (!descriptor.open(QIODevice::ReadOnly) || !origin.open(QIODevice::ReadOnly)) {
        addError(result.diagnostics, descriptorPath, 0, 0,
                 QStringLiteral("cannot read the loaded kit's kit.json and origin.json"));
        return result;
    }
    const QJsonObject from = QJsonDocument::fromJson(origin.read(1 << 16)).object();
    const V3DecodeResult decoded = decodeV3Descriptor(descriptor.read(kV3DescriptorMaxBytes + 1), descriptorPath);
    if (!decoded.descriptor) {
        result.diagnostics = decoded.diagnostics;
        return result;
    }
    result = kitFromV3(*decoded.descriptor, from.value(QLatin1String("name")).toString(), descriptorPath, options);
    result.diagnostics = decoded.diagnostics + result.diagnostics;
    if (result.kit) {
        result.kit->directory = dir;
        result.kit->reference = from.value(QLatin1String("reference")).toString();
        result.kit->digest = from.value(QLatin1String("digest")).toString();
        if (result.kit->sandbox)
            result.kit->sandbox->image = from.value(QLatin1String("image")).toString();
    }
    return result;
}

} // namespace

// ---------------------------------------------------------------------------------------------

bool KitLoader::isKitDirectory(const QString &dir)
{
    const QDir kitDir(dir);
    return QFileInfo(kitDir.filePath(QStringLiteral("spec.yaml"))).isFile() ||
           (QFileInfo(kitDir.filePath(QStringLiteral("kit.json"))).isFile() &&
            QFileInfo(kitDir.filePath(QStringLiteral("origin.json"))).isFile());
}

KitLoadResult KitLoader::loadText(const QByteArray &text, const QString &fileName, const KitLoadOptions &options)
{
    // A spec.yaml folder is v2; a v3 descriptor is a file of its own or an image's annotation.
    const QString base = QFileInfo(fileName).fileName();
    const bool specFile = base == QLatin1String("spec.yaml") || base == QLatin1String("spec.yml");
    if (!specFile && declaresSchemaV3(text)) {
        V3DecodeResult decoded = decodeV3Descriptor(text, fileName);
        if (!decoded.descriptor) {
            KitLoadResult failed;
            failed.diagnostics = decoded.diagnostics;
            return failed;
        }
        QString name = QFileInfo(fileName).completeBaseName().toLower();
        name.replace(QRegularExpression(QStringLiteral("[^a-z0-9-]+")), QStringLiteral("-"));
        KitLoadResult result = kitFromV3(*decoded.descriptor, name, fileName, options);
        result.diagnostics = decoded.diagnostics + result.diagnostics;
        return result;
    }
    KitLoadResult result;
    YAML::Node root;
    if (!detail::parseYaml(text, fileName, root, result.diagnostics))
        return result;
    try {
        if (!isDecodable(root, fileName, result.diagnostics))
            return result;
        detail::KitDecoder decoder(fileName, text, options, result.diagnostics);
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
        addError(result.diagnostics, fileName, loc.line, loc.column,
                 QStringLiteral("cannot decode the file: %1").arg(QString::fromStdString(e.msg)));
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

    if (!QFileInfo::exists(specPath) && QFileInfo::exists(kitDir.filePath(QStringLiteral("kit.json"))))
        return loadOciKit(dir, options);
    QFile file(specPath);
    if (!QFileInfo(dir).isDir() || !file.open(QIODevice::ReadOnly)) {
        KitLoadResult result;
        Diagnostic d;
        d.file = QFileInfo(dir).isDir() ? specPath : dir;
        d.message = QFileInfo(dir).isDir()
                        ? QStringLiteral("cannot read the kit's spec.yaml: %1").arg(file.errorString())
                        : QStringLiteral("not a kit directory (expected a directory holding spec.yaml)");
        // An authored v3 folder is a recipe: what runs is the kit `paddock kit build` makes of it.
        QString notAuthored;
        if (const QString descriptor = QFileInfo(dir).isDir() ? authoredDescriptorFile(dir, &notAuthored) : QString();
            !descriptor.isEmpty()) {
            d.file = descriptor;
            d.message = QStringLiteral("%1 is an authored kit descriptor, which is built before it runs: `paddock kit "
                                       "build %2` makes the kit, then use the name it prints")
                            .arg(QFileInfo(descriptor).fileName(), dir);
        }
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

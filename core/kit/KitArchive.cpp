// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitArchive.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "image/ImageArchive.h"
#include "image/ImageStore.h"
#include "kit/KitLibrary.h"
#include "kit/KitRules.h"
#include "kit/KitSurface.h"
#include "kit/KitV3Mapping.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace paddock::kit {

namespace {

KitArchiveResult failure(const QString &file, const QString &message)
{
    KitArchiveResult result;
    Diagnostic d;
    d.file = file;
    d.message = message;
    result.diagnostics << d;
    return result;
}

/** "registry.example/team/shell:1.0" → "shell"; the archive's file name when there is no reference. */
QString nameFor(const image::ArchivedImage &image, const QString &path)
{
    QString base = image.tags.value(0);
    base = base.mid(base.lastIndexOf(QLatin1Char('/')) + 1);
    base = base.left(base.indexOf(QLatin1Char(':')));
    if (base.isEmpty())
        base = QFileInfo(path).completeBaseName();
    return KitLibrary::nameFromFolder(base);
}

/** Writes NAME/kit.json and NAME/origin.json under @p root, replacing an earlier load of the name. */
bool writeKitFolder(const QString &root, const QString &name, const QByteArray &descriptor, const QJsonObject &origin,
                    QString *error)
{
    if (!paths::ensurePrivateDir(root, error))
        return false;
    const QString folder = QDir(root).filePath(name);
    if (QFileInfo::exists(folder + QStringLiteral("/spec.yaml"))) {
        *error =
            QStringLiteral("%1 holds a spec.yaml kit already; load this one under another name (--name)").arg(folder);
        return false;
    }
    // Staged in a hidden sibling, which the library does not list, then renamed into place.
    const QString staging = QDir(root).filePath(QStringLiteral(".load-") + name);
    QDir(staging).removeRecursively();
    if (!QDir().mkpath(staging) || !writeFileAtomically(staging + QStringLiteral("/kit.json"), descriptor, error) ||
        !writeFileAtomically(staging + QStringLiteral("/origin.json"),
                             QJsonDocument(origin).toJson(QJsonDocument::Indented), error)) {
        QDir(staging).removeRecursively();
        if (error->isEmpty())
            *error = QStringLiteral("cannot write %1").arg(staging);
        return false;
    }
    QDir(folder).removeRecursively();
    if (!QDir().rename(staging, folder)) {
        QDir(staging).removeRecursively();
        *error = QStringLiteral("cannot move the kit into %1").arg(folder);
        return false;
    }
    return true;
}

/** What @p kit gains over the kit loaded before under its name in @p root; empty when new. */
QStringList wideningsOverLoaded(const QString &root, const Kit &kit)
{
    const QString folder = QDir(root).filePath(kit.name);
    if (!QFileInfo::exists(folder + QStringLiteral("/kit.json")))
        return {};
    const KitLoadResult loaded = KitLoader::loadDirectory(folder);
    // A loaded kit that no longer reads granted nothing anyone relies on: the new one is judged whole.
    return wideningsOf(loaded.kit ? surfaceOf(*loaded.kit) : KitSurface{}, surfaceOf(kit));
}

/** A descriptor read, named and mapped, and checked against the loaded kit it would replace. */
struct MappedKit
{
    KitArchiveResult result;
    KitLoadResult mapped;
    QString name;
    QString root; ///< the library's kits folder
};

/** Decodes @p descriptor (from @p where), names the kit and stops at a widening not approved. */
std::optional<MappedKit> mapDescriptor(const QByteArray &descriptor, const QString &where, const QString &path,
                                       const QString &defaultName, const KitArchiveOptions &options,
                                       KitArchiveResult *stopped)
{
    const V3DecodeResult decoded = decodeV3Descriptor(descriptor, where);
    KitArchiveResult &result = *stopped;
    result.diagnostics = decoded.diagnostics;
    if (!decoded.descriptor)
        return std::nullopt;
    const QString name = options.name.isEmpty() ? defaultName : options.name;
    if (!rules::isValidKitName(name)) {
        result = failure(path, QStringLiteral("'%1' is not a kit name (lower-case letters, digits and '-'); give one "
                                              "with --name")
                                   .arg(name));
        return std::nullopt;
    }
    KitLoadResult mapped = kitFromV3(*decoded.descriptor, name, where);
    result.diagnostics += mapped.diagnostics;
    result.refusedCapabilities = mapped.refusedCapabilities;
    if (!mapped.kit || hasErrors(result.diagnostics))
        return std::nullopt;
    const QString root = options.kitsRoot.isEmpty() ? KitLibrary::defaultImportedRoot() : options.kitsRoot;
    result.widenings = wideningsOverLoaded(root, *mapped.kit);
    if (!result.widenings.isEmpty() && !options.approveWidening) {
        Diagnostic stop;
        stop.file = path;
        stop.message = QStringLiteral("this update of kit %1 is granted more than the one loaded: %2; nothing was "
                                      "loaded. Accept it with --approve-kit-changes")
                           .arg(name, result.widenings.join(QStringLiteral("; ")));
        result.diagnostics << stop;
        result.awaitsApproval = true;
        return std::nullopt;
    }
    return MappedKit{result, std::move(mapped), name, root};
}

/** Writes the kit's folder (NAME/kit.json and origin.json) and completes the result with the kit. */
KitArchiveResult placeKit(MappedKit &&kit, const QString &path, const QByteArray &descriptor, QJsonObject origin)
{
    KitArchiveResult result = std::move(kit.result);
    QString error;
    origin.insert(QStringLiteral("name"), kit.name);
    if (!writeKitFolder(kit.root, kit.name, descriptor, origin, &error))
        return failure(path, error);
    Kit &placed = *kit.mapped.kit;
    if (placed.isSandbox())
        placed.sandbox->image = origin.value(QLatin1String("image")).toString();
    placed.directory = QDir(kit.root).filePath(kit.name);
    placed.reference = origin.value(QLatin1String("reference")).toString();
    placed.digest = origin.value(QLatin1String("digest")).toString();
    result.kit = std::move(placed);
    return result;
}

} // namespace

KitArchiveResult loadKitArchive(const QString &path, const KitArchiveOptions &options)
{
    image::ImageArchive archive;
    QString error;
    if (!archive.open(path, image::ImageLimits{}, &error))
        return failure(path, error);
    const std::optional<QList<image::ArchivedImage>> images = archive.images(&error, true);
    if (!images)
        return failure(path, error);
    const QLatin1String key(kKitDescriptorAnnotation);
    // A descriptor given beside the archive belongs to its one image (a kit built here).
    const auto found = !options.descriptor.isEmpty()
                           ? images->cbegin()
                           : std::find_if(images->cbegin(), images->cend(), [&key](const image::ArchivedImage &image) {
                                 return image.annotations.value(key).isString();
                             });
    if (found == images->cend())
        return failure(path, QStringLiteral("the archive holds no kit: no image for this machine carries the %1 "
                                            "annotation (a spec.yaml kit is a folder: paddock kit add DIR)")
                                 .arg(key));
    const image::ArchivedImage &kitImage = *found;
    const QString schema =
        kitImage.annotations.value(QLatin1String("vnd.docker.sandbox.kit.schema-version")).toString();
    if (options.descriptor.isEmpty() && !schema.isEmpty() && schema != QLatin1String("3"))
        return failure(
            path,
            QStringLiteral("the kit's schema-version annotation is '%1'; Paddock reads \"3\"").arg(schema.left(20)));
    const QByteArray descriptor =
        options.descriptor.isEmpty() ? kitImage.annotations.value(key).toString().toUtf8() : options.descriptor;
    const QString where =
        options.descriptor.isEmpty() ? path + QStringLiteral(" (") + key + QLatin1Char(')') : options.source;
    KitArchiveResult stopped;
    std::optional<MappedKit> mapped =
        mapDescriptor(descriptor, where, path, nameFor(kitImage, path), options, &stopped);
    if (!mapped)
        return stopped;

    const QString imageId =
        QString::fromLatin1(QCryptographicHash::hash(kitImage.configBytes, QCryptographicHash::Sha256).toHex());
    // A workload's layers are a root, a mixin's an overlay on one: both are kept, checked alike.
    image::ImageStore store = options.imageRoot.isEmpty() ? image::ImageStore() : image::ImageStore(options.imageRoot);
    const image::LoadResult loaded = store.load(path);
    if (!loaded.ok)
        return failure(path, loaded.error);
    mapped->result.notes = loaded.notes;
    // An engine's `docker save` names no manifest digest: the image id stands for the content then.
    const QString digest = kitImage.digest.isEmpty() && !options.descriptor.isEmpty()
                               ? QStringLiteral("sha256:") + imageId
                               : kitImage.digest;
    QJsonObject origin{
        {QStringLiteral("reference"), options.reference.isEmpty() ? kitImage.tags.value(0) : options.reference},
        {QStringLiteral("digest"), digest},
        {QStringLiteral("image"), imageId},
    };
    if (options.builtFrom.isEmpty())
        origin.insert(QStringLiteral("archive"),
                      options.source.isEmpty() ? QFileInfo(path).absoluteFilePath() : options.source);
    else
        origin.insert(QStringLiteral("builtFrom"), options.builtFrom);
    return placeKit(std::move(*mapped), path, descriptor, origin);
}

KitArchiveResult storeDeclaredKit(const QByteArray &descriptor, const QString &builtFrom,
                                  const KitArchiveOptions &options)
{
    const QString where = options.source.isEmpty() ? builtFrom : options.source;
    KitArchiveResult stopped;
    std::optional<MappedKit> mapped = mapDescriptor(descriptor, where, where, options.name, options, &stopped);
    if (!mapped)
        return stopped;
    if (mapped->mapped.kit->isSandbox())
        return failure(where, QStringLiteral("a workload kit has layers: it cannot be declaration-only"));
    // No image: a declaration-only mixin has no layers of its own.
    const QJsonObject origin{{QStringLiteral("reference"), options.reference},
                             {QStringLiteral("digest"), QString()},
                             {QStringLiteral("image"), QString()},
                             {QStringLiteral("builtFrom"), builtFrom}};
    return placeKit(std::move(*mapped), where, descriptor, origin);
}

namespace {

/** The origin.json of the kit in @p kitDirectory (at most 64 KiB of it); empty when there is none. */
QJsonObject originOf(const QString &kitDirectory)
{
    QFile origin(QDir(kitDirectory).filePath(QStringLiteral("origin.json")));
    if (kitDirectory.isEmpty() || !origin.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(origin.read(1 << 16)).object();
}

} // namespace

QString loadedArchiveOf(const QString &kitDirectory)
{
    // A pulled kit's "archive" is the reference it was pulled by.
    const QString archive = originOf(kitDirectory).value(QLatin1String("archive")).toString();
    return QDir::isAbsolutePath(archive) ? archive : QString();
}

QString builtFolderOf(const QString &kitDirectory)
{
    return originOf(kitDirectory).value(QLatin1String("builtFrom")).toString();
}

QString referenceOf(const QString &kitDirectory, const QString &image)
{
    const QJsonObject origin = originOf(kitDirectory);
    return origin.value(QLatin1String("image")).toString() == image && !image.isEmpty()
               ? origin.value(QLatin1String("reference")).toString()
               : QString();
}

} // namespace paddock::kit

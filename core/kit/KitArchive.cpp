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
    const auto found = std::find_if(images->cbegin(), images->cend(), [&key](const image::ArchivedImage &image) {
        return image.annotations.value(key).isString();
    });
    if (found == images->cend())
        return failure(path, QStringLiteral("the archive holds no kit: no image for this machine carries the %1 "
                                            "annotation (a spec.yaml kit is a folder: paddock kit add DIR)")
                                 .arg(key));
    const image::ArchivedImage &kitImage = *found;
    const QString schema =
        kitImage.annotations.value(QLatin1String("vnd.docker.sandbox.kit.schema-version")).toString();
    if (!schema.isEmpty() && schema != QLatin1String("3"))
        return failure(
            path,
            QStringLiteral("the kit's schema-version annotation is '%1'; Paddock reads \"3\"").arg(schema.left(20)));
    const QByteArray descriptor = kitImage.annotations.value(key).toString().toUtf8();
    const QString where = path + QStringLiteral(" (") + key + QLatin1Char(')');
    const V3DecodeResult decoded = decodeV3Descriptor(descriptor, where);
    KitArchiveResult result;
    result.diagnostics = decoded.diagnostics;
    if (!decoded.descriptor)
        return result;
    const QString name = options.name.isEmpty() ? nameFor(kitImage, path) : options.name;
    if (!rules::isValidKitName(name))
        return failure(path, QStringLiteral("'%1' is not a kit name (lower-case letters, digits and '-'); give one "
                                            "with --name")
                                 .arg(name));
    KitLoadResult mapped = kitFromV3(*decoded.descriptor, name, where);
    result.diagnostics += mapped.diagnostics;
    result.refusedCapabilities = mapped.refusedCapabilities;
    if (!mapped.kit || hasErrors(result.diagnostics))
        return result;
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
        return result;
    }

    const QString imageId =
        QString::fromLatin1(QCryptographicHash::hash(kitImage.configBytes, QCryptographicHash::Sha256).toHex());
    // A workload's layers are a root, a mixin's an overlay on one: both are kept, checked alike.
    image::ImageStore store = options.imageRoot.isEmpty() ? image::ImageStore() : image::ImageStore(options.imageRoot);
    const image::LoadResult loaded = store.load(path);
    if (!loaded.ok)
        return failure(path, loaded.error);
    result.notes = loaded.notes;
    if (mapped.kit->isSandbox())
        mapped.kit->sandbox->image = imageId;
    const QJsonObject origin{
        {QStringLiteral("name"), name},
        {QStringLiteral("reference"), kitImage.tags.value(0)},
        {QStringLiteral("digest"), kitImage.digest},
        {QStringLiteral("image"), imageId},
        {QStringLiteral("archive"), options.source.isEmpty() ? QFileInfo(path).absoluteFilePath() : options.source},
    };
    if (!writeKitFolder(root, name, descriptor, origin, &error))
        return failure(path, error);
    mapped.kit->directory = QDir(root).filePath(name);
    mapped.kit->reference = kitImage.tags.value(0);
    mapped.kit->digest = kitImage.digest;
    result.kit = std::move(mapped.kit);
    return result;
}

QString loadedArchiveOf(const QString &kitDirectory)
{
    QFile origin(QDir(kitDirectory).filePath(QStringLiteral("origin.json")));
    if (kitDirectory.isEmpty() || !origin.open(QIODevice::ReadOnly))
        return {};
    // A pulled kit's "archive" is the reference it was pulled by.
    const QString archive =
        QJsonDocument::fromJson(origin.read(1 << 16)).object().value(QLatin1String("archive")).toString();
    return QDir::isAbsolutePath(archive) ? archive : QString();
}

} // namespace paddock::kit

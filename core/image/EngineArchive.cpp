// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/EngineArchive.h"

#include "image/ImageArchive.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <optional>

#include <unistd.h>

namespace paddock::image {
namespace {

using Writer = std::unique_ptr<archive, decltype(&archive_write_free)>;

/** The image of @p archive named by @p imageId, read as OCI layout first, then as `docker save`. */
std::optional<ArchivedImage> imageOf(const ImageArchive &archive, const QString &imageId, QString *error)
{
    for (const bool preferOci : {true, false}) {
        QString problem;
        const std::optional<QList<ArchivedImage>> images = archive.images(&problem, preferOci);
        for (const ArchivedImage &image : images.value_or(QList<ArchivedImage>())) {
            if (QCryptographicHash::hash(image.configBytes, QCryptographicHash::Sha256).toHex() == imageId.toLatin1())
                return image;
        }
        if (!images && error->isEmpty())
            *error = problem;
    }
    if (error->isEmpty())
        *error = QStringLiteral("it holds no image %1").arg(imageId.left(12));
    return std::nullopt;
}

bool writeHeader(archive *out, const QByteArray &name, qint64 size)
{
    archive_entry *entry = archive_entry_new();
    archive_entry_set_pathname(entry, name.constData());
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_perm(entry, 0644);
    archive_entry_set_size(entry, size);
    const bool ok = archive_write_header(out, entry) == ARCHIVE_OK;
    archive_entry_free(entry);
    return ok;
}

bool writeMember(archive *out, const QByteArray &name, const QByteArray &data)
{
    return writeHeader(out, name, data.size()) &&
           (data.isEmpty() || archive_write_data(out, data.constData(), size_t(data.size())) == data.size());
}

/** Copies @p size bytes at @p offset of @p fd into @p out as member @p name. */
bool copyMember(archive *out, const QByteArray &name, int fd, qint64 offset, qint64 size)
{
    if (!writeHeader(out, name, size))
        return false;
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    for (qint64 done = 0; done < size;) {
        const ssize_t got =
            ::pread(fd, buffer.data(), size_t(std::min<qint64>(buffer.size(), size - done)), off_t(offset + done));
        if (got <= 0 || archive_write_data(out, buffer.constData(), size_t(got)) != got)
            return false;
        done += got;
    }
    return true;
}

} // namespace

bool writeEngineArchive(const QString &source, const QString &imageId, const QString &tag, const QString &target,
                        QString *error)
{
    ImageArchive archive;
    QString problem;
    if (!archive.open(source, ImageLimits{}, &problem)) {
        *error = QStringLiteral("%1 cannot be read: %2").arg(source, problem);
        return false;
    }
    const std::optional<ArchivedImage> image = imageOf(archive, imageId, &problem);
    if (!image) {
        *error = QStringLiteral("%1 cannot give the image: %2").arg(source, problem);
        return false;
    }
    const Writer out(archive_write_new(), &archive_write_free);
    archive_write_set_format_pax_restricted(out.get());
    if (archive_write_open_filename(out.get(), QFile::encodeName(target).constData()) != ARCHIVE_OK) {
        *error = QStringLiteral("cannot write %1: %2").arg(target, QString::fromUtf8(archive_error_string(out.get())));
        return false;
    }
    const QByteArray configName = imageId.toLatin1() + ".json";
    bool ok = writeMember(out.get(), configName, image->configBytes);
    QJsonArray layers;
    for (qsizetype i = 0; ok && i < image->layerMembers.size(); ++i) {
        const auto located = archive.locate(image->layerMembers.at(i), &problem);
        const QByteArray name = "layer-" + QByteArray::number(i) + ".tar";
        ok = located && copyMember(out.get(), name, archive.fd(), located->first, located->second);
        layers.append(QString::fromLatin1(name));
    }
    const QJsonArray manifest{QJsonObject{{QStringLiteral("Config"), QString::fromLatin1(configName)},
                                          {QStringLiteral("RepoTags"), QJsonArray{tag}},
                                          {QStringLiteral("Layers"), layers}}};
    ok = ok && writeMember(out.get(), "manifest.json", QJsonDocument(manifest).toJson(QJsonDocument::Compact));
    ok = archive_write_close(out.get()) == ARCHIVE_OK && ok;
    if (!ok) {
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(target, problem.isEmpty() ? QString::fromUtf8(archive_error_string(out.get())) : problem);
        QFile::remove(target);
    }
    return ok;
}

} // namespace paddock::image

// SPDX-License-Identifier: GPL-3.0-or-later
// A composition's image on a container engine: the workload's image with its mixins' layers
// from Paddock's image store copied over it, built once by the engine in use and reused.
#include "sandbox/ComposedImage.h"

#include "common/Paths.h"
#include "image/ImageStore.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/SandboxCreation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryFile>

#include <archive.h>
#include <archive_entry.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <climits>
#include <memory>

namespace paddock::sandbox {
namespace {

const QString kRepository = QStringLiteral("paddock/composed:");
/** Part of every tag: an image made the way an earlier Paddock made it is not reused. */
constexpr char kRecipe[] = "paddock-composed-1";
/** How many paths one `RUN rm` names at most. */
constexpr qsizetype kRemovalsPerRun = 500;

/**
 * @brief A build context written as a tar into a file: the Dockerfile, and each layer's files
 * under `layers/N/`, every member root's. A layer's whiteouts (character devices 0/0) and
 * opaque folders (`user.overlay.opaque`) are not copied: they are what the layer removes.
 */
class ContextTar
{
public:
    explicit ContextTar(int fd)
    {
        m_open = m_tar && archive_write_set_format_pax_restricted(m_tar.get()) == ARCHIVE_OK &&
                 archive_write_open_fd(m_tar.get(), fd) == ARCHIVE_OK;
    }

    /** Adds @p folder's files as @p prefix/...; the absolute paths it removes go to @p removed. */
    bool addLayer(const QString &folder, const QString &prefix, QStringList *removed, bool *hasFiles)
    {
        struct stat st
        {};
        if (!m_open || ::lstat(QFile::encodeName(folder).constData(), &st) != 0)
            return failed(QStringLiteral("cannot read the layer %1").arg(folder));
        return addMember(prefix, st, {}, {}) && walk(folder, QString(), prefix, removed, hasFiles);
    }

    bool addText(const QString &name, const QByteArray &text)
    {
        struct stat st
        {};
        st.st_mode = S_IFREG | 0644;
        st.st_size = text.size();
        return m_open && addMember(name, st, {}, text);
    }

    bool finish() { return archive_write_close(m_tar.get()) == ARCHIVE_OK || failed(QStringLiteral("cannot finish")); }
    const QString &error() const { return m_error; }

private:
    bool failed(const QString &what)
    {
        const char *reason = archive_error_string(m_tar.get());
        m_error = reason ? what + QStringLiteral(": ") + QString::fromUtf8(reason) : what;
        return false;
    }

    bool walk(const QString &root, const QString &relative, const QString &prefix, QStringList *removed, bool *hasFiles)
    {
        const QString here = relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
        const QStringList names =
            QDir(here).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : names) {
            const QString inner = relative.isEmpty() ? name : relative + QLatin1Char('/') + name;
            const QString path = root + QLatin1Char('/') + inner;
            const QByteArray encoded = QFile::encodeName(path);
            struct stat st
            {};
            if (::lstat(encoded.constData(), &st) != 0)
                return failed(QStringLiteral("cannot read %1").arg(path));
            if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0)) {
                removed->append(QLatin1Char('/') + inner);
                continue;
            }
            const QString member = prefix + QLatin1Char('/') + inner;
            if (S_ISDIR(st.st_mode)) {
                char opaque = 0;
                if (::lgetxattr(encoded.constData(), "user.overlay.opaque", &opaque, 1) == 1 && opaque == 'y')
                    removed->append(QLatin1Char('/') + inner); // emptied of the layers under it, then copied
                if (!addMember(member, st, {}, {}) || !walk(root, inner, prefix, removed, hasFiles))
                    return false;
            } else if (S_ISLNK(st.st_mode)) {
                QByteArray target(PATH_MAX, '\0');
                const ssize_t n = ::readlink(encoded.constData(), target.data(), size_t(target.size()));
                if (n < 0 || !addMember(member, st, target.left(n), {}))
                    return failed(QStringLiteral("cannot add the link %1").arg(path));
            } else if (S_ISREG(st.st_mode) && !addMember(member, st, {}, {}, path)) {
                return false;
            }
            *hasFiles = true;
        }
        return true;
    }

    /** One member as @p st says, owned by root: a file's data from @p file, else @p text. */
    bool addMember(const QString &name, const struct stat &st, const QByteArray &link, const QByteArray &text,
                   const QString &file = {})
    {
        QFile source(file);
        if (!file.isEmpty() && !source.open(QIODevice::ReadOnly))
            return failed(QStringLiteral("cannot read %1").arg(file));
        const std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(),
                                                                                  &archive_entry_free);
        archive_entry_copy_pathname(entry.get(), name.toUtf8().constData());
        archive_entry_set_filetype(entry.get(), st.st_mode & S_IFMT);
        archive_entry_set_perm(entry.get(), st.st_mode & 07777);
        const qint64 size = file.isEmpty() ? text.size() : source.size();
        archive_entry_set_size(entry.get(), S_ISREG(st.st_mode) ? size : 0);
        archive_entry_set_mtime(entry.get(), std::max<time_t>(0, st.st_mtim.tv_sec), 0);
        if (S_ISLNK(st.st_mode))
            archive_entry_copy_symlink(entry.get(), link.constData());
        if (archive_write_header(m_tar.get(), entry.get()) < ARCHIVE_WARN)
            return failed(QStringLiteral("cannot add %1").arg(name));
        if (!S_ISREG(st.st_mode))
            return true;
        if (file.isEmpty())
            return archive_write_data(m_tar.get(), text.constData(), size_t(text.size())) == text.size() ||
                   failed(QStringLiteral("cannot add %1").arg(name));
        QByteArray chunk;
        for (qint64 left = size; left > 0; left -= chunk.size()) {
            chunk = source.read(std::min<qint64>(left, 1 << 20));
            if (chunk.isEmpty() ||
                archive_write_data(m_tar.get(), chunk.constData(), size_t(chunk.size())) != chunk.size())
                return failed(QStringLiteral("cannot add %1").arg(file));
        }
        return true;
    }

    std::unique_ptr<archive, decltype(&archive_write_free)> m_tar{archive_write_new(), &archive_write_free};
    bool m_open = false;
    QString m_error;
};

QByteArray jsonLine(const char *instruction, const QStringList &words)
{
    return QByteArray(instruction) + ' ' +
           QJsonDocument(QJsonArray::fromStringList(words)).toJson(QJsonDocument::Compact) + '\n';
}

/**
 * Writes into @p tar the context of the composition's image: FROM @p from (the workload's image,
 * run as @p user), then each layer of @p mixins that the image under it lacks, bottom first.
 */
Result<void> writeContext(ContextTar &tar, const QString &from, const QString &user,
                          const QList<image::StoredImage> &mixins, QSet<QString> have, bool *removes)
{
    static const QRegularExpression plainUser(QStringLiteral("^[A-Za-z0-9._:-]*$"));
    if (!plainUser.match(user).hasMatch())
        return fail(QStringLiteral("the workload's image names the user '%1', which Paddock does not put in a "
                                   "Dockerfile")
                        .arg(user.left(80)));
    const QString layersDir = image::ImageStore().layersDir();
    QByteArray steps;
    const QString userName = user.section(QLatin1Char(':'), 0, 0);
    const bool root = userName.isEmpty() || userName == QLatin1String("root") || userName == QLatin1String("0");
    bool asRoot = root;
    int number = 0;
    for (const image::StoredImage &mixin : mixins) {
        for (const QString &layer : mixin.layers) {
            if (have.contains(layer))
                continue; // the image under it has this layer already (a base they share)
            have.insert(layer);
            const QString prefix = QStringLiteral("layers/%1").arg(++number);
            QStringList removed;
            bool hasFiles = false;
            if (!tar.addLayer(layersDir + QLatin1Char('/') + layer, prefix, &removed, &hasFiles))
                return fail(
                    QStringLiteral("the build context of the composition could not be written: %1").arg(tar.error()));
            *removes = *removes || !removed.isEmpty();
            if (!removed.isEmpty() && !asRoot) {
                steps += "USER 0\n";
                asRoot = true;
            }
            for (qsizetype at = 0; at < removed.size(); at += kRemovalsPerRun)
                steps +=
                    jsonLine("RUN", QStringList{QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--")} +
                                        removed.mid(at, kRemovalsPerRun));
            if (hasFiles)
                steps += jsonLine("COPY", {prefix + QLatin1Char('/'), QStringLiteral("/")});
        }
    }
    if (asRoot && !root)
        steps += "USER " + user.toUtf8() + '\n';
    if (!tar.addText(QStringLiteral("Dockerfile"), "FROM " + from.toUtf8() + '\n' + steps) || !tar.finish())
        return fail(QStringLiteral("the build context of the composition could not be written: %1").arg(tar.error()));
    return {};
}

} // namespace

QString composedImageTag(const QString &workloadId, const QStringList &mixinIds)
{
    const QByteArray named = QByteArray(kRecipe) + '\n' + (QStringList{workloadId} + mixinIds).join('\n').toUtf8();
    return kRepository + QString::fromLatin1(QCryptographicHash::hash(named, QCryptographicHash::Sha256).toHex());
}

bool isComposedImage(const QString &image)
{
    return image.startsWith(kRepository);
}

QString composedImageOf(runtime::DockerRuntime &engine, const QString &name)
{
    const runtime::docker::Result<runtime::docker::ContainerInfo> container =
        engine.client().inspectContainer(runtime::DockerRuntime::containerName(name));
    return container && isComposedImage(container.value().image) ? container.value().image : QString();
}

void removeComposedImageIfUnused(const runtime::docker::DockerClient &client, const QString &image, QStringList *notes)
{
    if (!isComposedImage(image) || !client.removeImage(image, false, true).ok())
        return;
    *notes << QStringLiteral("removed %1, the image the engine built for the composition: no sandbox uses it now; "
                             "the next one of the same kits builds it again")
                  .arg(image);
}

Result<void> composedImageIntoEngine(const runtime::docker::DockerClient &client, const CreationPlan &plan,
                                     QStringList *notes)
{
    const QString tag = plan.kit.sandbox ? plan.kit.sandbox->image : QString();
    if (plan.composition.isEmpty() || !isComposedImage(tag))
        return {};
    const runtime::docker::Result<bool> present = client.imageExists(tag);
    if (!present)
        return fail(present.errorMessage());
    if (present.value())
        return {}; // built for an earlier sandbox of the same kits
    const image::ImageStore store;
    const std::optional<image::StoredImage> workload = store.find(plan.engineImage);
    QList<image::StoredImage> mixins;
    for (const QJsonValue &value : plan.composition) {
        const QJsonObject part = value.toObject();
        const QString id = part.value(QLatin1String("image")).toString();
        if (part.value(QLatin1String("kind")).toString() != QLatin1String("mixin") || id.isEmpty())
            continue;
        std::optional<image::StoredImage> mixin = store.find(id);
        if (!mixin)
            return fail(QStringLiteral("mixin %1's layers are not in Paddock's image store")
                            .arg(part.value(QLatin1String("name")).toString()),
                        QStringLiteral("load the kit again (paddock kit load FILE)"));
        mixins << *mixin;
    }
    if (!workload)
        return fail(QStringLiteral("the workload's image is no longer in Paddock's image store"),
                    QStringLiteral("load the kit again (paddock kit load FILE)"));
    QElapsedTimer timer;
    timer.start();
    if (QString problem; !paths::ensurePrivateDir(store.root(), &problem))
        return fail(problem);
    QTemporaryFile context(store.root() + QStringLiteral("/composed-XXXXXX.tar"));
    if (!context.open())
        return fail(QStringLiteral("cannot write a build context in %1: %2").arg(store.root(), context.errorString()));
    ContextTar tar(int(context.handle()));
    const QSet<QString> have(workload->layers.cbegin(), workload->layers.cend());
    bool removes = false;
    if (const Result<void> written =
            writeContext(tar, QStringLiteral("sha256:") + workload->id, workload->config.user, mixins, have, &removes);
        !written)
        return written;
    runtime::docker::BuildOptions build;
    build.contextTar = context.fileName();
    build.tag = tag;
    build.labels = {{QStringLiteral("paddock.kit"), plan.kit.name}};
    const runtime::docker::Result<QString> built = client.buildImage(build);
    if (!built)
        return fail(QStringLiteral("the Docker engine did not build the image of composition %1: %2")
                        .arg(plan.kit.name, built.errorMessage()),
                    removes ? QStringLiteral("a mixin whose layers delete files needs rm in the workload's image")
                            : QString());
    notes->append(QStringLiteral("built the image of composition %1 on the Docker engine as %2 (%3 s)")
                      .arg(plan.kit.name, tag.left(kRepository.size() + 12))
                      .arg(double(timer.elapsed()) / 1000.0, 0, 'f', 1));
    return {};
}

} // namespace paddock::sandbox

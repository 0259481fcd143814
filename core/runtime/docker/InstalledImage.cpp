// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/InstalledImage.h"

#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/TarWriter.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace paddock::runtime::docker {

namespace {

const QString kTag = QStringLiteral("installed");
/** A tmpfs's mode where neither the volume nor the folder under it gives one (the kernel's). */
constexpr int kTmpfsMode = 01777;

QString variableName(const QJsonValue &entry)
{
    return entry.toString().section(QLatin1Char('='), 0, 0);
}

/**
 * @p env with the name alone of each variable of @p container it lacks: the engine then adds
 * none of the container's, and a name without a value is a variable it leaves unset.
 */
QJsonArray withoutOthers(QJsonArray env, const ContainerInfo &container)
{
    QSet<QString> names;
    for (const QJsonValue &entry : std::as_const(env))
        names.insert(variableName(entry));
    const QJsonArray others =
        container.raw.value(QLatin1String("Config")).toObject().value(QLatin1String("Env")).toArray();
    for (const QJsonValue &entry : others) {
        const QString name = variableName(entry);
        if (!name.isEmpty() && !names.contains(name)) {
            names.insert(name);
            env.append(name);
        }
    }
    return env;
}

} // namespace

InstalledImage::InstalledImage(const DockerClient &client, const QString &owner, const QString &sandbox)
    : m_client(client), m_owner(owner), m_sandbox(sandbox)
{}

QString InstalledImage::repository() const
{
    return QStringLiteral("paddock-local/%1-%2").arg(m_owner, m_sandbox);
}

QString InstalledImage::reference() const
{
    return repository() + QLatin1Char(':') + kTag;
}

Result<QJsonObject> InstalledImage::configFor(const ContainerInfo &container, const QString &base, QString *from) const
{
    Result<ImageInfo> image = m_client.inspectImage(base);
    if (!image)
        return image.error();
    *from = base;
    const QMap<QString, QString> &labels = image.value().labels;
    if (labels.value(layout::kLabelInstalledFor) == m_sandbox && labels.value(layout::kLabelOwner) == m_owner) {
        *from = labels.value(layout::kLabelInstalledFrom);
        image = m_client.inspectImage(*from);
        if (!image)
            return Error{image.error().kind, image.error().httpStatus,
                         QStringLiteral("the image %1, which sandbox %2 is made from, is gone: %3")
                             .arg(*from, m_sandbox, image.errorMessage())};
    }
    QJsonObject config = image.value().raw.value(QLatin1String("Config")).toObject();
    // Given, so that the engine does not take them from the install container: an empty
    // entrypoint stays empty, and root in `/` is what an empty user and working folder mean.
    if (config.value(QLatin1String("Entrypoint")).toArray().isEmpty())
        config.insert(QStringLiteral("Entrypoint"), QJsonArray());
    if (config.value(QLatin1String("User")).toString().isEmpty())
        config.insert(QStringLiteral("User"), QStringLiteral("0:0"));
    if (config.value(QLatin1String("WorkingDir")).toString().isEmpty())
        config.insert(QStringLiteral("WorkingDir"), QStringLiteral("/"));
    config.insert(QStringLiteral("Env"), withoutOthers(config.value(QLatin1String("Env")).toArray(), container));
    QJsonObject imageLabels = config.value(QLatin1String("Labels")).toObject();
    imageLabels.insert(layout::kLabelInstalledFor, m_sandbox);
    imageLabels.insert(layout::kLabelInstalledFrom, *from);
    imageLabels.insert(layout::kLabelOwner, m_owner);
    config.insert(QStringLiteral("Labels"), imageLabels);
    return config;
}

Status InstalledImage::keepTmpfsModes(const ContainerInfo &container, const QList<SandboxVolume> &volumes) const
{
    if (std::none_of(volumes.cbegin(), volumes.cend(), [](const SandboxVolume &volume) { return volume.tmpfs; }))
        return {};
    const Result<QStringList> added = m_client.addedPaths(container.id);
    if (!added)
        return added.error();
    TarWriter tar;
    bool any = false;
    for (const SandboxVolume &volume : volumes) {
        const QString path = QDir::cleanPath(volume.path);
        if (!volume.tmpfs || !added.value().contains(path))
            continue;
        bool ok = volume.mode.isEmpty();
        const int mode = ok ? kTmpfsMode : volume.mode.toInt(&ok, 8);
        if (!ok || mode < 0 || mode > 07777)
            return Error{Error::Kind::Protocol, 0,
                         QStringLiteral("the tmpfs volume %1 has no mode in octal: %2").arg(path, volume.mode)};
        // Root's, as the engine made it; a tmpfs is root's whatever the folder under it.
        if (!tar.add(path.mid(1), AE_IFDIR, mode, {}, 0, 0))
            return Error{Error::Kind::Protocol, 0,
                         QStringLiteral("the folder of tmpfs volume %1 was not packed").arg(path)};
        any = true;
    }
    return any ? m_client.putArchive(container.id, QStringLiteral("/"), tar.finish()) : Status{};
}

Result<QString> InstalledImage::commit(const ContainerInfo &container, const QString &base,
                                       const QList<SandboxVolume> &volumes) const
{
    if (const Status kept = keepTmpfsModes(container, volumes); !kept)
        return Error{kept.error().kind, kept.error().httpStatus,
                     QStringLiteral("the folders of its tmpfs volumes were not kept as its kit's image has them: %1")
                         .arg(kept.errorMessage())};
    QString from;
    const Result<QJsonObject> config = configFor(container, base, &from);
    if (!config)
        return config.error();
    const Result<QString> committed = m_client.commitContainer(container.id, repository(), kTag, config.value());
    if (!committed)
        return committed.error();
    return reference();
}

Status InstalledImage::remove() const
{
    const Result<QList<ImageInfo>> listed = m_client.listImages(
        {layout::kLabelInstalledFor + QLatin1Char('=') + m_sandbox, layout::kLabelOwner + QLatin1Char('=') + m_owner},
        true);
    if (!listed)
        return listed.error();
    // A later run of setup.install is made from the image of the one before: the engine
    // removes an image only once no other is made from it.
    QList<ImageInfo> left = listed.value();
    while (!left.isEmpty()) {
        auto newest = std::find_if(left.begin(), left.end(), [&left](const ImageInfo &image) {
            return std::none_of(left.cbegin(), left.cend(), [&image](const ImageInfo &other) {
                return other.raw.value(QLatin1String("ParentId")).toString() == image.id;
            });
        });
        if (newest == left.end())
            newest = left.begin();
        const Status removed = m_client.removeImage(newest->id);
        if (!removed && !removed.is(Error::Kind::NotFound))
            return Error{removed.error().kind, removed.error().httpStatus,
                         QStringLiteral("the image %1 of sandbox %2 was not removed: %3")
                             .arg(reference(), m_sandbox, removed.errorMessage())};
        left.erase(newest);
    }
    return {};
}

} // namespace paddock::runtime::docker

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ImagePreparation.h"

#include "kit/KitLoader.h"

#include <QDir>
#include <QFileInfo>

namespace paddock::gui {
namespace {

const QString kImageTopic = QStringLiteral("image");

} // namespace

ImagePreparation::ImagePreparation(QObject *parent) : DaemonBound(parent)
{
    // Followed before any job starts, so none of its events is missed.
    followTopics({kImageTopic});
}

void ImagePreparation::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == kImageTopic)
        applyEvent(data);
}

void ImagePreparation::setKitDirectory(const QString &directory)
{
    if (m_kitDirectory == directory)
        return;
    m_kitDirectory = directory;
    m_image.clear();
    m_canBuild = false;
    const kit::KitLoadResult loaded =
        directory.isEmpty() ? kit::KitLoadResult{} : kit::KitLoader::loadDirectory(directory);
    if (loaded.ok() && loaded.kit && loaded.kit->sandbox) {
        m_image = loaded.kit->sandbox->image;
        m_canBuild = loaded.kit->sandbox->build.has_value() ||
                     QFileInfo(QDir(directory).filePath(QStringLiteral("Dockerfile"))).isFile();
    }
    m_job.clear();
    setState(QStringLiteral("idle"));
    Q_EMIT kitChanged();
}

void ImagePreparation::setState(const QString &state, const QString &error)
{
    m_state = state;
    setError(error);
    if (state != QLatin1String("working")) {
        m_percent = state == QLatin1String("present") ? 100 : 0;
        m_message.clear();
    }
    Q_EMIT stateChanged();
}

void ImagePreparation::check()
{
    if (m_image.isEmpty())
        return setState(QStringLiteral("failed"), tr("The kit names no image (sandbox.image)."));
    setState(QStringLiteral("checking"));
    const QString image = m_image;
    act(QStringLiteral("image.inspect"), {{QStringLiteral("tag"), image}}, [this, image](const api::Reply &reply) {
        if (m_image != image || !m_job.isEmpty())
            return;
        if (reply.isError())
            return setState(QStringLiteral("failed"), reply.errorMessage());
        setState(reply.result().value(QLatin1String("present")).toBool() ? QStringLiteral("present")
                                                                         : QStringLiteral("missing"));
    });
}

void ImagePreparation::follow(const QString &method, const QJsonObject &params)
{
    m_percent = 0;
    m_message = tr("Starting…");
    m_job = QStringLiteral("pending");
    setState(QStringLiteral("working"));
    act(method, params, [this](const api::Reply &reply) {
        if (reply.isError()) {
            m_job.clear();
            return setState(QStringLiteral("failed"), reply.errorMessage());
        }
        followJob(reply.result().value(QLatin1String("job")).toString());
    });
}

void ImagePreparation::followJob(const QString &job)
{
    if (m_job != QLatin1String("pending") || m_state != QLatin1String("working")) {
        m_percent = 0;
        m_message = tr("Starting…");
    }
    m_job = job;
    setState(QStringLiteral("working"));
}

void ImagePreparation::build()
{
    if (m_state == QLatin1String("working"))
        return;
    follow(QStringLiteral("image.build"), {{QStringLiteral("kit"), m_kitDirectory}});
}

void ImagePreparation::load(const QUrl &file)
{
    if (m_state == QLatin1String("working"))
        return;
    const QString path = file.isLocalFile() ? file.toLocalFile() : file.toString();
    follow(QStringLiteral("image.load"), {{QStringLiteral("file"), QFileInfo(path).absoluteFilePath()}});
}

void ImagePreparation::applyEvent(const QJsonObject &event)
{
    if (m_job.isEmpty() || event.value(QLatin1String("job")).toString() != m_job)
        return;
    const QString state = event.value(QLatin1String("state")).toString();
    if (state == QLatin1String("running")) {
        m_percent = event.value(QLatin1String("percent")).toInt();
        const int step = event.value(QLatin1String("step")).toInt();
        const int total = event.value(QLatin1String("totalSteps")).toInt();
        const QString said = event.value(QLatin1String("message")).toString();
        m_message = total > 0 ? tr("Step %1 of %2: %3").arg(step).arg(total).arg(said) : said;
        return setState(QStringLiteral("working"));
    }
    m_job.clear();
    if (state == QLatin1String("done"))
        return check(); // the image the kit names, now there (or not: a load may hold another)
    setState(QStringLiteral("failed"), event.value(QLatin1String("error")).toString());
}

} // namespace paddock::gui

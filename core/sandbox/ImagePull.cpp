// SPDX-License-Identifier: GPL-3.0-or-later
// image.pull: an image fetched from its registry into Paddock's store, as a job of ImageService.
#include "image/RegistryPull.h"
#include "sandbox/ImageService.h"

#include "api/Protocol.h"
#include "api/Server.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcImages)

namespace paddock::sandbox {

namespace {

QString mebibytes(qint64 bytes)
{
    return QString::number(double(bytes) / double(1 << 20), 'f', 1);
}

/** "512 bytes", "3.4 KiB", "8.3 MiB". */
QString amount(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 bytes").arg(bytes);
    if (bytes < (1 << 20))
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return mebibytes(bytes) + QStringLiteral(" MiB");
}

/** A progress event for blob @p at: a line per blob, moved on at each tenth of it. */
QJsonObject pullEvent(const image::PullProgress &at)
{
    const int percent = int(at.received * 100 / std::max<qint64>(at.size, 1));
    return {{QStringLiteral("step"), at.index},
            {QStringLiteral("totalSteps"), at.count},
            {QStringLiteral("percent"), std::min(percent, 100)},
            {QStringLiteral("message"), QStringLiteral("blob %1/%2 %3: %4 of %5")
                                            .arg(at.index)
                                            .arg(at.count)
                                            .arg(at.digest.mid(7, 12), amount(at.received), amount(at.size))}};
}

} // namespace

image::RegistryOptions ImageService::registryOptions(const proxy::UpstreamProxy *upstream)
{
    image::RegistryOptions options = image::RegistryOptions::forUser();
    if (!upstream)
        return options;
    const QString scheme = upstream->kind == proxy::UpstreamProxy::Kind::Http     ? QStringLiteral("http")
                           : upstream->kind == proxy::UpstreamProxy::Kind::Socks5 ? QStringLiteral("socks5")
                                                                                  : QStringLiteral("socks5h");
    options.proxy = scheme + QStringLiteral("://") + upstream->authority();
    options.noProxy = upstream->noProxy.text();
    options.proxyUser = QString::fromStdString(upstream->user);
    options.proxyPassword = QByteArray::fromStdString(upstream->password);
    return options;
}

api::Reply ImageService::startPull(const QJsonObject &params)
{
    const QString reference = params.value(QLatin1String("reference")).toString().trimmed();
    QString error;
    const std::optional<image::RegistryReference> parsed = image::RegistryReference::parse(reference, &error);
    if (!parsed)
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), error);
    Job &job = newJob(QStringLiteral("pull"));
    qCInfo(lcImages) << "job" << job.id << "pulls" << parsed->fullName();
    const std::shared_ptr<const proxy::UpstreamProxy> upstream = m_upstreamProxy ? m_upstreamProxy() : nullptr;
    image::RegistryOptions options = registryOptions(upstream.get());
    if (const qint64 limit = params.value(QLatin1String("maxLayerBytes")).toInteger(); limit > 0)
        options.maxLayerBytes = limit;
    runJob(job.id, [reference, options, cancel = job.cancel](const std::function<void(QJsonObject)> &progress) {
        image::RegistryOptions pullOptions = options;
        pullOptions.cancel = cancel.get();
        int reported = -1;
        const auto onBlob = [&progress, &reported](const image::PullProgress &at) {
            const int tenth = at.index * 20 + int(at.received * 10 / std::max<qint64>(at.size, 1));
            if (tenth == reported)
                return;
            reported = tenth;
            QJsonObject event = pullEvent(at);
            event.insert(QStringLiteral("percent"), std::min(event.value(QLatin1String("percent")).toInt(), 99));
            progress(event);
        };
        image::ImageStore store;
        image::PullResult pulled;
        const image::LoadResult stored = image::pullIntoStore(store, reference, pullOptions, onBlob, &pulled);
        if (!stored.ok)
            return QJsonObject{{QStringLiteral("state"), QStringLiteral("failed")},
                               {QStringLiteral("error"), stored.error},
                               {QStringLiteral("message"), stored.error},
                               {QStringLiteral("cancelled"), cancel->load()}};
        return QJsonObject{{QStringLiteral("state"), QStringLiteral("done")},
                           {QStringLiteral("percent"), 100},
                           {QStringLiteral("image"), QStringLiteral("sha256:") + stored.images.value(0).id},
                           {QStringLiteral("tags"), QJsonArray{pulled.name}},
                           {QStringLiteral("digest"), pulled.digest},
                           {QStringLiteral("notes"), QJsonArray::fromStringList(stored.notes)},
                           {QStringLiteral("message"),
                            QStringLiteral("pulled %1 (%2) into Paddock's store: %3 MiB, %4 layers unpacked")
                                .arg(pulled.name, pulled.digest, mebibytes(pulled.bytes))
                                .arg(stored.layersUnpacked)}};
    });
    return api::Reply::success({{QStringLiteral("job"), job.id}, {QStringLiteral("reference"), parsed->fullName()}});
}

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/EventLogMethods.h"

#include "api/Server.h"
#include "events/Activity.h"
#include "events/EventHub.h"
#include "events/EventStore.h"
#include "events/LogJson.h"
#include "sandbox/SandboxService.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <memory>
#include <optional>

namespace paddock::sandbox {
namespace {

/** The most events one events.export page carries. */
constexpr int kExportPage = 5000;
/** An answer is one protocol line (at most 1 MiB): a list stops growing past this many bytes. */
constexpr qsizetype kAnswerBudget = 768 * 1024;

/**
 * A JSON list of events that stops taking them once kAnswerBudget is spent; `full` then says
 * the reader has more to ask for.
 */
struct BoundedList
{
    QJsonArray items;
    qsizetype bytes = 0;
    bool full = false;

    bool add(const QJsonObject &item)
    {
        bytes += QJsonDocument(item).toJson(QJsonDocument::Compact).size() + 1;
        if (bytes > kAnswerBudget && !items.isEmpty()) {
            full = true;
            return false;
        }
        items.append(item);
        return true;
    }
};

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply internal(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInternal), message);
}

/** @p key of @p params as a time (invalid when absent); an error when it is there and not a time. */
Result<QDateTime> timeParam(const QJsonObject &params, QLatin1String key)
{
    if (!params.contains(key))
        return QDateTime();
    const QDateTime time = QDateTime::fromString(params.value(key).toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        return fail(QStringLiteral("%1 must be a time such as 2026-01-31T09:15:02.345Z").arg(key));
    return time;
}

/**
 * The store, with everything the proxy did until now written to it; null with @p failed set
 * when it cannot be read.
 */
std::unique_ptr<events::EventStore> openStore(SandboxService &sandboxes, api::Reply *failed)
{
    events::EventHub *hub = sandboxes.eventHub();
    if (!hub) {
        *failed = internal(QStringLiteral("the event log is not open"));
        return nullptr;
    }
    if (!sandboxes.flushEvents()) {
        *failed = internal(QStringLiteral("the event log did not take every event in time"));
        return nullptr;
    }
    auto store = std::make_unique<events::EventStore>(hub->databasePath());
    if (!store->open()) {
        *failed = internal(store->errorString());
        return nullptr;
    }
    return store;
}

api::Reply readLog(SandboxService &sandboxes, const QJsonObject &params)
{
    events::LogFilter filter;
    filter.sandbox = params.value(QLatin1String("sandbox")).toString();
    const Result<QDateTime> since = timeParam(params, QLatin1String("since"));
    if (!since)
        return invalid(since.error().text());
    filter.since = *since;
    // Each section's lines are short; a thousand of each fit one answer.
    filter.limit = std::clamp(params.value(QLatin1String("limit")).toInt(filter.limit), 1, 1000);
    api::Reply failed;
    const std::unique_ptr<events::EventStore> store = openStore(sandboxes, &failed);
    if (!store)
        return failed;
    return api::Reply::success(events::toJson(store->log(filter)));
}

api::Reply exportPage(SandboxService &sandboxes, const QJsonObject &params)
{
    events::EventFilter filter;
    filter.sandbox = params.value(QLatin1String("sandbox")).toString();
    filter.includeUpstreamFailures = true;
    const Result<QDateTime> since = timeParam(params, QLatin1String("since"));
    const Result<QDateTime> until = timeParam(params, QLatin1String("until"));
    if (!since || !until)
        return invalid(since ? until.error().text() : since.error().text());
    filter.since = *since;
    filter.until = *until;
    filter.offset = std::max(0, params.value(QLatin1String("offset")).toInt());
    filter.limit = std::clamp(params.value(QLatin1String("limit")).toInt(kExportPage), 1, kExportPage);
    api::Reply failed;
    const std::unique_ptr<events::EventStore> store = openStore(sandboxes, &failed);
    if (!store)
        return failed;
    BoundedList page;
    if (!store->forEachEvent(filter, [&page](const events::NetworkEvent &event) { return page.add(event.toJson()); }))
        return internal(store->errorString());
    return api::Reply::success({{QStringLiteral("events"), page.items}});
}

api::Reply readRequests(SandboxService &sandboxes, const QJsonObject &params)
{
    events::RequestFilter filter;
    filter.sandbox = params.value(QLatin1String("sandbox")).toString();
    filter.host = params.value(QLatin1String("host")).toString();
    filter.limit = std::clamp(params.value(QLatin1String("limit")).toInt(filter.limit), 1, 10000);
    filter.newestFirst = !params.value(QLatin1String("oldestFirst")).toBool();
    const Result<QDateTime> since = timeParam(params, QLatin1String("since"));
    const Result<QDateTime> until = timeParam(params, QLatin1String("until"));
    if (!since || !until)
        return invalid(since ? until.error().text() : since.error().text());
    filter.since = *since;
    filter.until = *until;
    api::Reply failed;
    const std::unique_ptr<events::EventStore> store = openStore(sandboxes, &failed);
    if (!store)
        return failed;
    BoundedList records;
    if (!store->forEachRequest(filter,
                               [&records](const events::NetworkEvent &event) { return records.add(event.toJson()); }))
        return internal(store->errorString());
    return api::Reply::success(
        {{QStringLiteral("requests"), records.items}, {QStringLiteral("truncated"), records.full}});
}

api::Reply readActivity(SandboxService &sandboxes, const QJsonObject &params)
{
    events::ActivityFilter filter;
    filter.sandbox = params.value(QLatin1String("sandbox")).toString();
    const Result<QDateTime> until = timeParam(params, QLatin1String("until"));
    if (!until)
        return invalid(until.error().text());
    filter.until = *until;
    // A window of whole hours (a week at most) cut into at most kMaxActivityBuckets buckets of whole minutes.
    const int hours = std::clamp(params.value(QLatin1String("hours")).toInt(1), 1, 24 * 7);
    filter.buckets = std::clamp(params.value(QLatin1String("buckets")).toInt(60), 1, events::kMaxActivityBuckets);
    const qint64 minutes = std::max<qint64>(1, qint64(hours) * 60 / filter.buckets);
    filter.bucketMs = minutes * 60'000;
    filter.buckets = int(std::min<qint64>(filter.buckets, qint64(hours) * 60 / minutes));
    filter.hostLimit =
        std::clamp(params.value(QLatin1String("hosts")).toInt(filter.hostLimit), 0, events::kMaxActivityHosts);
    filter.perSandbox = params.value(QLatin1String("perSandbox")).toBool();
    api::Reply failed;
    const std::unique_ptr<events::EventStore> store = openStore(sandboxes, &failed);
    if (!store)
        return failed;
    bool ok = false;
    const events::Activity activity = store->activity(filter, &ok);
    if (!ok)
        return internal(store->errorString());
    return api::Reply::success(events::toJson(activity));
}

} // namespace

void registerEventLogMethods(api::Server &server, SandboxService &sandboxes)
{
    server.registerMethod(
        QStringLiteral("events.log"),
        [&sandboxes](const QJsonObject &params, const api::CallContext &) { return readLog(sandboxes, params); });
    server.registerMethod(
        QStringLiteral("events.export"),
        [&sandboxes](const QJsonObject &params, const api::CallContext &) { return exportPage(sandboxes, params); });
    server.registerMethod(
        QStringLiteral("events.requests"),
        [&sandboxes](const QJsonObject &params, const api::CallContext &) { return readRequests(sandboxes, params); });
    server.registerMethod(
        QStringLiteral("events.activity"),
        [&sandboxes](const QJsonObject &params, const api::CallContext &) { return readActivity(sandboxes, params); });
}

} // namespace paddock::sandbox

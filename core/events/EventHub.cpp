// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/EventHub.h"

#include <QLoggingCategory>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace paddock::events {
namespace {

Q_LOGGING_CATEGORY(lcEventHub, "paddock.events.hub")

// The writer wakes before its interval once this many events wait, so a burst is written
// in transactions of a bounded size instead of one huge one.
constexpr qsizetype kEarlyWriteThreshold = 8192;

} // namespace

struct EventHub::Private
{
    EventHub *q = nullptr;
    Options options;

    std::mutex mutex;
    std::condition_variable wake;       // the writer has work: events, a flush, or a stop
    std::condition_variable progressed; // a batch was written; flush() re-checks
    std::condition_variable opened;     // the writer thread finished opening the database
    QList<NetworkEvent> queue;
    quint64 enqueued = 0;   // events accepted for storage so far
    quint64 processed = 0;  // of those, written or given up on
    bool available = false; // the database opened, so events are queued at all
    bool openDone = false;
    bool stopping = false;
    bool flushRequested = false;
    QString storageError;
    std::atomic<quint64> unstored{0};

    std::shared_mutex subscribersMutex;
    std::vector<std::pair<int, Callback>> subscribers;
    int nextSubscriberId = 1;

    QThread *writer = nullptr;
    std::unique_ptr<EventStore> timerStore;
    QTimer *timer = nullptr;
    std::chrono::steady_clock::time_point lastRetention = std::chrono::steady_clock::now();

    void setStorageProblem(const QString &message)
    {
        {
            std::lock_guard lock(mutex);
            if (storageError == message)
                return;
            storageError = message;
        }
        if (message.isEmpty()) {
            qCInfo(lcEventHub) << "event log writes work again";
            return;
        }
        qCWarning(lcEventHub).noquote() << message << "Live events are still delivered.";
        Q_EMIT q->storageFailed(message);
    }

    void writeBatch(EventStore &store, const QList<NetworkEvent> &batch)
    {
        if (batch.isEmpty())
            return;
        if (store.write(batch)) {
            setStorageProblem(QString());
        } else {
            unstored += quint64(batch.size());
            setStorageProblem(store.errorString());
        }
    }

    void maybeApplyRetention(EventStore &store, bool wrote)
    {
        const auto now = std::chrono::steady_clock::now();
        const bool due = now - lastRetention >= options.retentionInterval;
        const bool tooBig = wrote && options.retention.maxBytes > 0 && store.usedBytes() > options.retention.maxBytes;
        if (!due && !tooBig)
            return;
        lastRetention = now;
        if (!store.applyRetention())
            setStorageProblem(store.errorString());
    }

    void finishBatch(qsizetype size)
    {
        {
            std::lock_guard lock(mutex);
            processed += quint64(size);
        }
        progressed.notify_all();
    }

    void runWriter()
    {
        EventStore store(options.databasePath, options.retention);
        const bool ok = store.open();
        {
            // The error is set before the constructor is released, so it can be read at once.
            std::lock_guard lock(mutex);
            available = ok;
            openDone = true;
            storageError = ok ? QString() : store.errorString();
        }
        opened.notify_all();
        if (!ok) {
            qCWarning(lcEventHub).noquote() << store.errorString() << "Live events are still delivered.";
            Q_EMIT q->storageFailed(store.errorString());
            return;
        }

        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait_for(lock, options.flushInterval,
                          [this] { return stopping || flushRequested || queue.size() >= kEarlyWriteThreshold; });
            QList<NetworkEvent> batch;
            batch.swap(queue);
            flushRequested = false;
            const bool stop = stopping;
            lock.unlock();

            writeBatch(store, batch);
            maybeApplyRetention(store, !batch.isEmpty());
            finishBatch(batch.size());
            // Freed before taking the lock again: publishers must not wait on thousands of frees.
            batch = QList<NetworkEvent>();

            lock.lock();
            if (stop && queue.isEmpty())
                break;
        }
    }

    // Timer mode: the hub's own thread writes what has queued up.
    void writeQueuedNow()
    {
        QList<NetworkEvent> batch;
        {
            std::lock_guard lock(mutex);
            batch.swap(queue);
        }
        writeBatch(*timerStore, batch);
        maybeApplyRetention(*timerStore, !batch.isEmpty());
        finishBatch(batch.size());
    }
};

EventHub::EventHub(QObject *parent) : EventHub(Options{}, parent) {}

EventHub::EventHub(const Options &options, QObject *parent) : QObject(parent), d(std::make_unique<Private>())
{
    qRegisterMetaType<paddock::events::NetworkEvent>();
    d->q = this;
    d->options = options;
    if (options.databasePath.isEmpty())
        return;

    if (options.flushMode == FlushMode::Timer) {
        d->timerStore = std::make_unique<EventStore>(options.databasePath, options.retention);
        d->available = d->timerStore->open();
        if (!d->available) {
            d->setStorageProblem(d->timerStore->errorString());
            d->timerStore.reset();
            return;
        }
        d->timer = new QTimer(this);
        d->timer->setInterval(options.flushInterval);
        connect(d->timer, &QTimer::timeout, this, [this] { d->writeQueuedNow(); });
        d->timer->start();
        return;
    }

    // The writer thread owns its connection (Qt SQL connections belong to one thread); wait
    // for it to open the database so storageError() is meaningful as soon as we return.
    d->writer = QThread::create([p = d.get()] { p->runWriter(); });
    d->writer->setObjectName(QStringLiteral("paddock-events-writer"));
    d->writer->start();
    std::unique_lock lock(d->mutex);
    d->opened.wait(lock, [this] { return d->openDone; });
}

EventHub::~EventHub()
{
    if (d->writer) {
        {
            std::lock_guard lock(d->mutex);
            d->stopping = true;
        }
        d->wake.notify_all();
        d->writer->wait();
        delete d->writer;
        d->writer = nullptr;
    } else if (d->timerStore) {
        d->writeQueuedNow();
    }
}

void EventHub::publish(NetworkEvent event)
{
    if (!event.time.isValid())
        event.time = currentEventTime();

    Q_EMIT eventPublished(event);
    {
        std::shared_lock lock(d->subscribersMutex);
        for (const auto &subscriber : d->subscribers)
            subscriber.second(event);
    }

    if (d->options.databasePath.isEmpty())
        return;
    bool wakeWriter = false;
    {
        std::lock_guard lock(d->mutex);
        if (!d->available || d->queue.size() >= d->options.maxQueued) {
            ++d->unstored;
            return;
        }
        d->queue.append(std::move(event));
        ++d->enqueued;
        wakeWriter = d->writer && d->queue.size() == kEarlyWriteThreshold;
    }
    if (wakeWriter)
        d->wake.notify_one();
}

int EventHub::subscribe(Callback callback)
{
    std::unique_lock lock(d->subscribersMutex);
    const int id = d->nextSubscriberId++;
    d->subscribers.emplace_back(id, std::move(callback));
    return id;
}

void EventHub::unsubscribe(int id)
{
    std::unique_lock lock(d->subscribersMutex);
    std::erase_if(d->subscribers, [id](const auto &subscriber) { return subscriber.first == id; });
}

bool EventHub::flush(std::chrono::milliseconds timeout)
{
    if (d->options.databasePath.isEmpty())
        return false;
    if (d->timerStore) {
        d->writeQueuedNow();
        return isStoring();
    }
    std::unique_lock lock(d->mutex);
    if (!d->available)
        return false;
    const quint64 target = d->enqueued;
    d->flushRequested = true;
    d->wake.notify_all();
    const bool done = d->progressed.wait_for(lock, timeout, [this, target] { return d->processed >= target; });
    return done && d->storageError.isEmpty();
}

bool EventHub::isStoring() const
{
    std::lock_guard lock(d->mutex);
    return d->available && d->storageError.isEmpty();
}

QString EventHub::storageError() const
{
    std::lock_guard lock(d->mutex);
    return d->storageError;
}

quint64 EventHub::unstoredCount() const
{
    return d->unstored.load();
}

QString EventHub::databasePath() const
{
    return d->options.databasePath;
}

} // namespace paddock::events

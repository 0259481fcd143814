// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "events/EventStore.h"
#include "events/NetworkEvent.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace paddock::events {

/**
 * @brief Where the proxy reports connections: every published event reaches live
 * subscribers at once and is stored in the event log in the background.
 *
 * publish() may be called from any thread, as often as the proxy likes: it copies the event
 * into a queue and returns; the queue is written to SQLite in batches, one transaction
 * each, by a writer thread (default) or by a timer on the hub's thread. Storage is
 * best-effort: if the database cannot be opened or written, storageError() says why in
 * one sentence, storageFailed() is emitted, and live delivery goes on regardless, because
 * the boundary must not stop for a full disk. When the queue is full (the disk is slower
 * than the proxy for a long while) further events are delivered live but not stored, and
 * counted in unstoredCount().
 *
 * Subscribers either connect to eventPublished() (a Qt signal: use a queued or automatic
 * connection from an object living in another thread) or register a callback with
 * subscribe(), which is called on the publishing thread and must therefore be quick and
 * thread-safe. Each event keeps the time the proxy gave it; publish() fills in the current
 * time only when it has none.
 *
 * Queries (the log, exports, counts) go through an EventStore of their own on the caller's
 * thread: WAL lets it read while the hub writes. Call flush() first to include events that
 * were published a moment ago.
 *
 * Publishers must stop before the hub is destroyed; destruction writes what is queued.
 */
class EventHub : public QObject
{
    Q_OBJECT

public:
    enum class FlushMode {
        WriterThread, ///< a dedicated thread owns the database and writes every flushInterval
        Timer,        ///< a timer on the hub's thread writes every flushInterval
    };

    struct Options
    {
        /** The database; empty: live delivery only, nothing stored. */
        QString databasePath = EventStore::defaultPath();
        RetentionPolicy retention;
        FlushMode flushMode = FlushMode::WriterThread;
        /** The longest an event waits in the queue before it is written. */
        std::chrono::milliseconds flushInterval{250};
        /** How often retention runs besides at open (and whenever the size limit is passed). */
        std::chrono::milliseconds retentionInterval = std::chrono::minutes(10);
        /** Events waiting to be written beyond this are delivered live but not stored. */
        int maxQueued = 200000;
    };

    using Callback = std::function<void(const NetworkEvent &)>;

    explicit EventHub(QObject *parent = nullptr);
    explicit EventHub(const Options &options, QObject *parent = nullptr);
    ~EventHub() override;

    /** Delivers @p event to every subscriber and queues it for storage. Thread-safe. */
    void publish(NetworkEvent event);

    /** Registers @p callback for every later event; returns an id for unsubscribe(). Thread-safe. */
    int subscribe(Callback callback);
    /**
     * Once this returns, the callback is not running and will not be called again. Not to be
     * called from inside a callback (it waits for running callbacks to finish).
     */
    void unsubscribe(int id);

    /**
     * Waits until every event published before the call has been written, at most
     * @p timeout. Returns true when they were all stored. In Timer mode, call it from the
     * hub's thread.
     */
    bool flush(std::chrono::milliseconds timeout = std::chrono::seconds(30));

    /** True while events are being stored (the database opened and the last write worked). */
    bool isStoring() const;
    /** Why events are not being stored, in one sentence; empty while storage works. */
    QString storageError() const;
    /** Events delivered live but not stored (no database, a failed write, a full queue). */
    quint64 unstoredCount() const;
    QString databasePath() const;

Q_SIGNALS:
    /** Emitted on the publishing thread for every event, in publication order per thread. */
    void eventPublished(const paddock::events::NetworkEvent &event);
    /** Storage stopped working (or could not start); @p message is one sentence. */
    void storageFailed(const QString &message);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace paddock::events

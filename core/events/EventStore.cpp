// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/EventStore.h"

#include "common/Paths.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::events {
namespace {

Q_LOGGING_CATEGORY(lcEventStore, "paddock.events.store")

// Each step brings the schema from version N-1 to N. Steps are only ever appended: a
// database written by any earlier build is brought forward, one transaction per step.
const QList<QStringList> &migrations()
{
    static const QList<QStringList> steps = {
        // 1: refusals and failures one row each; allowed connections as running totals.
        {
            QStringLiteral("CREATE TABLE events ("
                           " id INTEGER PRIMARY KEY,"
                           " time_ms INTEGER NOT NULL,"
                           " sandbox TEXT NOT NULL, kit TEXT NOT NULL,"
                           " host TEXT NOT NULL, port INTEGER NOT NULL, protocol TEXT NOT NULL,"
                           " outcome TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL,"
                           " bytes_up INTEGER NOT NULL, bytes_down INTEGER NOT NULL)"),
            QStringLiteral("CREATE INDEX events_by_time ON events (time_ms)"),
            QStringLiteral("CREATE INDEX events_by_sandbox ON events (sandbox, time_ms)"),
            QStringLiteral("CREATE TABLE allowed ("
                           " sandbox TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL,"
                           " rule TEXT NOT NULL, kit TEXT NOT NULL,"
                           " count INTEGER NOT NULL, first_ms INTEGER NOT NULL, last_ms INTEGER NOT NULL,"
                           " bytes_up INTEGER NOT NULL, bytes_down INTEGER NOT NULL,"
                           " PRIMARY KEY (sandbox, host, port, rule))"),
            QStringLiteral("CREATE INDEX allowed_by_last ON allowed (last_ms)"),
        },
        // 2: refusals also summed per group at write time, so `policy log` reads a few hundred
        // rows instead of grouping every stored refusal.
        {
            QStringLiteral("CREATE TABLE refusal_groups ("
                           " outcome TEXT NOT NULL, sandbox TEXT NOT NULL, host TEXT NOT NULL,"
                           " port INTEGER NOT NULL, rule TEXT NOT NULL,"
                           " kit TEXT NOT NULL, protocol TEXT NOT NULL, reason TEXT NOT NULL,"
                           " count INTEGER NOT NULL, last_ms INTEGER NOT NULL,"
                           " PRIMARY KEY (outcome, sandbox, host, port, rule))"),
            QStringLiteral("CREATE INDEX refusal_groups_by_last ON refusal_groups (outcome, last_ms)"),
            // With a single MAX(), SQLite takes the bare columns from the newest row of each group.
            QStringLiteral("INSERT INTO refusal_groups (outcome, sandbox, host, port, rule, kit, protocol, reason,"
                           " count, last_ms)"
                           " SELECT outcome, sandbox, host, port, rule, kit, protocol, reason, COUNT(*), MAX(time_ms)"
                           " FROM events GROUP BY outcome, sandbox, host, port, rule"),
        },
    };
    return steps;
}

// SQLite result codes that mean the file is not (or no longer) a usable database.
constexpr int kSqliteCorrupt = 11;
constexpr int kSqliteNotADatabase = 26;

QAtomicInteger<quint64> s_connectionCounter;

// Qt binds a null QString as SQL NULL; every text column is NOT NULL, so store "" instead.
QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

QDateTime fromMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QString sqlDetail(const QSqlError &error)
{
    QString detail = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    while (detail.endsWith(QLatin1Char('.')))
        detail.chop(1);
    return detail;
}

bool isCorruption(const QSqlError &error)
{
    const int code = error.nativeErrorCode().toInt();
    // Extended codes keep the primary code in the low byte.
    return (code & 0xff) == kSqliteCorrupt || (code & 0xff) == kSqliteNotADatabase;
}

// The events of one write summed per group, so a burst to one host costs one upsert.
struct GroupTotals
{
    const NetworkEvent *latest = nullptr;
    qint64 count = 0, firstMs = 0, lastMs = 0, bytesUp = 0, bytesDown = 0;
};

class GroupedBatch
{
public:
    void add(const NetworkEvent &event, qint64 ms)
    {
        const bool isAllowed = event.outcome == NetworkEvent::Outcome::Allowed;
        QHash<QString, GroupTotals> &groups = isAllowed ? m_allowed : m_refused;
        const QChar separator(0x1f);
        const QString key = outcomeToken(event.outcome) + separator + event.sandbox + separator + event.host +
                            separator + QString::number(event.port) + separator + event.rule;
        auto it = groups.find(key);
        if (it == groups.end()) {
            it = groups.insert(key, GroupTotals{&event, 0, ms, ms, 0, 0});
            (isAllowed ? m_allowedOrder : m_refusedOrder).append(key);
        }
        GroupTotals &totals = it.value();
        ++totals.count;
        totals.firstMs = std::min(totals.firstMs, ms);
        if (ms >= totals.lastMs) {
            totals.lastMs = ms;
            totals.latest = &event;
        }
        totals.bytesUp += event.bytesUp;
        totals.bytesDown += event.bytesDown;
    }

    /** The allowed groups, in the order they were first seen. */
    QList<GroupTotals> allowed() const { return inOrder(m_allowed, m_allowedOrder); }
    /** The refused and failed groups, in the order they were first seen. */
    QList<GroupTotals> refused() const { return inOrder(m_refused, m_refusedOrder); }

private:
    static QList<GroupTotals> inOrder(const QHash<QString, GroupTotals> &groups, const QStringList &order)
    {
        QList<GroupTotals> list;
        list.reserve(order.size());
        for (const QString &key : order)
            list.append(groups.value(key));
        return list;
    }

    QHash<QString, GroupTotals> m_allowed;
    QStringList m_allowedOrder;
    QHash<QString, GroupTotals> m_refused;
    QStringList m_refusedOrder;
};

} // namespace

struct EventStore::Private
{
    QString path;
    RetentionPolicy retention;
    QString connectionName;
    QSqlDatabase db;
    std::optional<QSqlQuery> insertEvent;
    std::optional<QSqlQuery> upsertAllowed;
    std::optional<QSqlQuery> upsertRefusalGroup;
    QString error;

    bool fail(const QString &sentence)
    {
        error = sentence;
        qCWarning(lcEventStore).noquote() << sentence;
        return false;
    }

    // Keeps the reason the file could not be opened, which says more than "not open".
    bool notOpen()
    {
        if (error.isEmpty())
            error = QStringLiteral("The event log %1 is not open.").arg(path);
        return false;
    }

    bool failQuery(const QSqlError &sqlError, const char *what)
    {
        if (isCorruption(sqlError))
            return fail(QStringLiteral("The event log %1 is not a readable SQLite database (%2); move it aside to "
                                       "start a new log.")
                            .arg(path, sqlDetail(sqlError)));
        return fail(
            QStringLiteral("Cannot %1 the event log %2: %3.").arg(QLatin1String(what), path, sqlDetail(sqlError)));
    }

    // The first column of the first row (an invalid QVariant when there is none); nothing on failure.
    std::optional<QVariant> scalar(const QString &sql, const char *what)
    {
        QSqlQuery query(db);
        if (!query.exec(sql)) {
            failQuery(query.lastError(), what);
            return std::nullopt;
        }
        return query.next() ? query.value(0) : QVariant();
    }

    bool exec(const QString &sql, const char *what)
    {
        QSqlQuery query(db);
        if (!query.exec(sql))
            return failQuery(query.lastError(), what);
        return true;
    }

    // BEGIN IMMEDIATE takes the write lock up front, so a second writer waits for the busy
    // timeout instead of failing when it tries to upgrade a read transaction.
    bool begin(const char *what) { return exec(QStringLiteral("BEGIN IMMEDIATE"), what); }
    bool commit(const char *what)
    {
        if (exec(QStringLiteral("COMMIT"), what))
            return true;
        rollback();
        return false;
    }
    void rollback()
    {
        QSqlQuery query(db);
        query.exec(QStringLiteral("ROLLBACK"));
    }

    // Binds @p values to the prepared @p query in order and runs it.
    bool run(QSqlQuery &query, const QVariantList &values, const char *what)
    {
        for (const QVariant &value : values)
            query.addBindValue(value);
        if (!query.exec())
            return failQuery(query.lastError(), what);
        return true;
    }

    // Prepares @p sql on @p query, then binds @p values and runs it.
    bool run(QSqlQuery &query, const QString &sql, const QVariantList &values, const char *what)
    {
        query.prepare(sql);
        return run(query, values, what);
    }

    bool prepareFile();
    bool configure();
    bool migrate();
    bool prepareStatements();
    bool deleteOldest(const QString &table, const QString &orderColumn, qint64 rows);
    bool deleteEvents(const QString &condition, const QVariantList &values);
    bool storeRefusal(const NetworkEvent &event, qint64 ms);
    bool storeAllowedGroup(const GroupTotals &totals);
    bool storeRefusalGroup(const GroupTotals &totals);
    void readRefusalGroups(NetworkEvent::Outcome outcome, const LogFilter &filter, QList<BlockedEntry> *out);
    void readAllowed(const LogFilter &filter, QList<AllowedEntry> *out);
    void closeConnection();
};

bool EventStore::Private::prepareFile()
{
    const QFileInfo info(path);
    QString dirError;
    if (!paths::ensurePrivateDir(info.absolutePath(), &dirError))
        return fail(QStringLiteral("The event log cannot be kept in %1: %2.").arg(info.absolutePath(), dirError));

    // Create the file ourselves so it is private from the first byte; SQLite gives the -wal
    // and -shm files it creates later the same mode as the database.
    // An existing file is never opened here: closing any descriptor of the database drops
    // every POSIX lock this process holds on it, those of another open connection included.
    const QByteArray native = QFile::encodeName(path);
    struct stat st
    {
    };
    bool statOk = ::lstat(native.constData(), &st) == 0;
    if (!statOk) {
        const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0 && errno != EEXIST)
            return fail(QStringLiteral("The event log %1 cannot be opened: %2.")
                            .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        if (fd >= 0)
            ::close(fd);
        statOk = ::lstat(native.constData(), &st) == 0;
    }
    if (statOk && S_ISREG(st.st_mode) && st.st_uid == ::getuid() && (st.st_mode & 0777) != 0600)
        ::chmod(native.constData(), 0600);
    if (!statOk || !S_ISREG(st.st_mode))
        return fail(QStringLiteral("The event log %1 is not a regular file.").arg(path));
    for (const char *suffix : {"-wal", "-shm"}) {
        const QByteArray side = native + suffix;
        struct stat sideStat
        {
        };
        if (::lstat(side.constData(), &sideStat) == 0 && S_ISREG(sideStat.st_mode) && sideStat.st_uid == ::getuid() &&
            (sideStat.st_mode & 0777) != 0600)
            ::chmod(side.constData(), 0600);
    }
    return true;
}

bool EventStore::Private::migrate()
{
    if (!exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version ("
                             " version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)"),
              "initialise"))
        return false;
    const int latest = int(migrations().size());
    // Another process may be migrating the same file: decide inside the write transaction.
    if (!begin("update the schema of"))
        return false;
    const auto version =
        scalar(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"), "read the schema version of");
    if (!version) {
        rollback();
        return false;
    }
    const int from = version->toInt();
    if (from > latest) {
        rollback();
        return fail(QStringLiteral("The event log %1 was written by a newer version of Paddock (schema %2; this "
                                   "version reads up to %3).")
                        .arg(path)
                        .arg(from)
                        .arg(latest));
    }
    for (int step = from + 1; step <= latest; ++step) {
        for (const QString &statement : migrations().at(step - 1)) {
            if (!exec(statement, "update the schema of")) {
                rollback();
                return false;
            }
        }
        QSqlQuery record(db);
        record.prepare(QStringLiteral("INSERT INTO schema_version (version, applied_ms) VALUES (?, ?)"));
        record.addBindValue(step);
        record.addBindValue(QDateTime::currentMSecsSinceEpoch());
        if (!record.exec()) {
            failQuery(record.lastError(), "update the schema of");
            rollback();
            return false;
        }
        qCDebug(lcEventStore) << "event log" << path << "schema now at version" << step;
    }
    return commit("update the schema of");
}

bool EventStore::Private::deleteOldest(const QString &table, const QString &orderColumn, qint64 rows)
{
    if (rows <= 0)
        return true;
    const QString oldest =
        QStringLiteral("rowid IN (SELECT rowid FROM %1 ORDER BY %2, rowid LIMIT ?)").arg(table, orderColumn);
    if (table == QLatin1String("events"))
        return deleteEvents(oldest, {rows});
    QSqlQuery query(db);
    return run(query, QStringLiteral("DELETE FROM %1 WHERE %2").arg(table, oldest), {rows}, "trim");
}

// Deletes the events matching @p condition and takes them out of their groups' counts, so the
// summary always equals what a GROUP BY over the events would say. Call inside a transaction.
bool EventStore::Private::deleteEvents(const QString &condition, const QVariantList &values)
{
    const QString statements[] = {
        QStringLiteral("UPDATE refusal_groups SET count = count - gone.n FROM"
                       " (SELECT outcome, sandbox, host, port, rule, COUNT(*) AS n FROM events WHERE %1"
                       "  GROUP BY outcome, sandbox, host, port, rule) AS gone"
                       " WHERE refusal_groups.outcome = gone.outcome AND refusal_groups.sandbox = gone.sandbox"
                       " AND refusal_groups.host = gone.host AND refusal_groups.port = gone.port"
                       " AND refusal_groups.rule = gone.rule")
            .arg(condition),
        QStringLiteral("DELETE FROM refusal_groups WHERE count <= 0"),
        QStringLiteral("DELETE FROM events WHERE %1").arg(condition),
    };
    for (const QString &sql : statements) {
        QSqlQuery query(db);
        if (!run(query, sql, sql.contains(QLatin1Char('?')) ? values : QVariantList(), "trim"))
            return false;
    }
    return true;
}

bool EventStore::Private::configure()
{
    const bool configured = exec(QStringLiteral("PRAGMA synchronous = NORMAL"), "configure") &&
                            exec(QStringLiteral("PRAGMA journal_size_limit = 4194304"), "configure");
    const auto mode =
        configured ? scalar(QStringLiteral("PRAGMA journal_mode = WAL"), "configure") : std::optional<QVariant>();
    if (!mode)
        return false;
    if (mode->toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        return fail(QStringLiteral("The event log %1 cannot use write-ahead logging (SQLite kept journal mode %2).")
                        .arg(path, mode->toString()));
    return true;
}

bool EventStore::Private::prepareStatements()
{
    insertEvent.emplace(db);
    upsertAllowed.emplace(db);
    const bool prepared =
        insertEvent->prepare(QStringLiteral(
            "INSERT INTO events (time_ms, sandbox, kit, host, port, protocol, outcome, rule, reason, bytes_up,"
            " bytes_down) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) &&
        upsertAllowed->prepare(QStringLiteral(
            "INSERT INTO allowed (sandbox, host, port, rule, kit, count, first_ms, last_ms, bytes_up, bytes_down)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (sandbox, host, port, rule) DO UPDATE SET"
            " kit = CASE WHEN excluded.last_ms >= last_ms THEN excluded.kit ELSE kit END,"
            " count = count + excluded.count,"
            " first_ms = MIN(first_ms, excluded.first_ms),"
            " last_ms = MAX(last_ms, excluded.last_ms),"
            " bytes_up = bytes_up + excluded.bytes_up,"
            " bytes_down = bytes_down + excluded.bytes_down"));
    upsertRefusalGroup.emplace(db);
    const bool groupPrepared =
        prepared &&
        upsertRefusalGroup->prepare(QStringLiteral(
            "INSERT INTO refusal_groups (outcome, sandbox, host, port, rule, kit, protocol, reason, count, last_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (outcome, sandbox, host, port, rule) DO UPDATE SET"
            " kit = CASE WHEN excluded.last_ms >= last_ms THEN excluded.kit ELSE kit END,"
            " protocol = CASE WHEN excluded.last_ms >= last_ms THEN excluded.protocol ELSE protocol END,"
            " reason = CASE WHEN excluded.last_ms >= last_ms THEN excluded.reason ELSE reason END,"
            " count = count + excluded.count,"
            " last_ms = MAX(last_ms, excluded.last_ms)"));
    if (groupPrepared)
        return true;
    QSqlError sqlError = insertEvent->lastError();
    if (!sqlError.isValid())
        sqlError = upsertAllowed->lastError();
    if (!sqlError.isValid())
        sqlError = upsertRefusalGroup->lastError();
    return failQuery(sqlError, "prepare");
}

bool EventStore::Private::storeRefusal(const NetworkEvent &event, qint64 ms)
{
    return run(*insertEvent,
               {ms, text(event.sandbox), text(event.kit), text(event.host), int(event.port), text(event.protocol),
                outcomeToken(event.outcome), text(event.rule), text(event.reason), event.bytesUp, event.bytesDown},
               "write to");
}

bool EventStore::Private::storeAllowedGroup(const GroupTotals &totals)
{
    const NetworkEvent &latest = *totals.latest;
    return run(*upsertAllowed,
               {text(latest.sandbox), text(latest.host), int(latest.port), text(latest.rule), text(latest.kit),
                totals.count, totals.firstMs, totals.lastMs, totals.bytesUp, totals.bytesDown},
               "write to");
}

bool EventStore::Private::storeRefusalGroup(const GroupTotals &totals)
{
    const NetworkEvent &latest = *totals.latest;
    return run(*upsertRefusalGroup,
               {outcomeToken(latest.outcome), text(latest.sandbox), text(latest.host), int(latest.port),
                text(latest.rule), text(latest.kit), text(latest.protocol), text(latest.reason), totals.count,
                totals.lastMs},
               "write to");
}

void EventStore::Private::closeConnection()
{
    insertEvent.reset();
    upsertAllowed.reset();
    upsertRefusalGroup.reset();
    if (connectionName.isEmpty())
        return;
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(connectionName);
    connectionName.clear();
}

QString EventStore::defaultPath()
{
    return paths::stateDir() + QStringLiteral("/events.sqlite");
}

int EventStore::currentSchemaVersion()
{
    return int(migrations().size());
}

EventStore::EventStore(QString path, RetentionPolicy retention) : d(std::make_unique<Private>())
{
    d->path = std::move(path);
    d->retention = retention;
}

EventStore::~EventStore()
{
    d->closeConnection();
}

bool EventStore::open()
{
    close();
    d->error.clear();
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return d->fail(QStringLiteral("The event log cannot be opened: Qt's SQLite driver (QSQLITE) is not "
                                      "installed."));
    if (!d->prepareFile())
        return false;

    d->connectionName = QStringLiteral("paddock-events-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
    d->db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), d->connectionName);
    d->db.setDatabaseName(d->path);
    // Another process writing at the same moment makes us wait, not fail.
    d->db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!d->db.open()) {
        d->failQuery(d->db.lastError(), "open");
        d->closeConnection();
        return false;
    }

    if (!d->configure() || !d->migrate() || !d->prepareStatements()) {
        d->closeConnection();
        return false;
    }
    if (!applyRetention()) {
        d->closeConnection();
        return false;
    }
    return true;
}

bool EventStore::isOpen() const
{
    return !d->connectionName.isEmpty() && d->db.isOpen();
}

void EventStore::close()
{
    d->closeConnection();
}

QString EventStore::path() const
{
    return d->path;
}

QString EventStore::errorString() const
{
    return d->error;
}

RetentionPolicy EventStore::retention() const
{
    return d->retention;
}

void EventStore::setRetention(const RetentionPolicy &retention)
{
    d->retention = retention;
}

bool EventStore::write(const QList<NetworkEvent> &events)
{
    if (!isOpen())
        return d->notOpen();
    if (events.isEmpty())
        return true;

    // Events are summed per group here first, so a burst to one host costs one upsert; refusals
    // are also stored one row each.
    GroupedBatch batch;
    if (!d->begin("write to"))
        return false;
    for (const NetworkEvent &event : events) {
        const qint64 ms = event.time.isValid() ? event.time.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        batch.add(event, ms);
        if (event.outcome != NetworkEvent::Outcome::Allowed && !d->storeRefusal(event, ms)) {
            d->rollback();
            return false;
        }
    }
    for (const GroupTotals &totals : batch.allowed()) {
        if (!d->storeAllowedGroup(totals)) {
            d->rollback();
            return false;
        }
    }
    for (const GroupTotals &totals : batch.refused()) {
        if (!d->storeRefusalGroup(totals)) {
            d->rollback();
            return false;
        }
    }
    return d->commit("write to");
}

qint64 EventStore::usedBytes() const
{
    if (!isOpen())
        return 0;
    const auto pages = d->scalar(QStringLiteral("PRAGMA page_count"), "measure");
    const auto freePages = d->scalar(QStringLiteral("PRAGMA freelist_count"), "measure");
    const auto pageSize = d->scalar(QStringLiteral("PRAGMA page_size"), "measure");
    if (!pages || !freePages || !pageSize)
        return 0;
    return (pages->toLongLong() - freePages->toLongLong()) * pageSize->toLongLong();
}

bool EventStore::applyRetention(const QDateTime &now)
{
    if (!isOpen())
        return d->notOpen();
    const RetentionPolicy &policy = d->retention;
    bool deleted = false;

    if (policy.maxAge.count() > 0) {
        const qint64 nowMs = now.isValid() ? now.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        const qint64 cutoff = nowMs - qint64(policy.maxAge.count()) * 1000;
        if (!d->begin("trim"))
            return false;
        QSqlQuery query(d->db);
        query.prepare(QStringLiteral("DELETE FROM allowed WHERE last_ms < ?"));
        query.addBindValue(cutoff);
        const auto expired =
            d->scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE time_ms < %1").arg(cutoff), "trim");
        if (!expired || !query.exec() || !d->deleteEvents(QStringLiteral("time_ms < ?"), {cutoff})) {
            if (query.lastError().isValid())
                d->failQuery(query.lastError(), "trim");
            d->rollback();
            return false;
        }
        deleted = expired->toLongLong() > 0 || query.numRowsAffected() > 0;
        if (!d->commit("trim"))
            return false;
    }

    if (policy.maxBytes > 0) {
        // Trim to 90% of the limit so the next few batches do not trigger another pass.
        const qint64 target = policy.maxBytes / 10 * 9;
        qint64 used = usedBytes();
        for (int pass = 0; pass < 16 && used > policy.maxBytes; ++pass) {
            const auto events = d->scalar(QStringLiteral("SELECT COUNT(*) FROM events"), "measure");
            const auto aggregates = d->scalar(QStringLiteral("SELECT COUNT(*) FROM allowed"), "measure");
            if (!events || !aggregates)
                return false;
            if (events->toLongLong() + aggregates->toLongLong() == 0)
                break;
            // Rows are about the same size, so the share of bytes to free is the share of rows.
            const double share = double(used - target) / double(used);
            const auto rowsFor = [share](qint64 rows) { return qint64(std::ceil(double(rows) * share)); };
            if (!d->begin("trim"))
                return false;
            if (!d->deleteOldest(QStringLiteral("events"), QStringLiteral("time_ms"), rowsFor(events->toLongLong())) ||
                !d->deleteOldest(QStringLiteral("allowed"), QStringLiteral("last_ms"),
                                 rowsFor(aggregates->toLongLong()))) {
                d->rollback();
                return false;
            }
            if (!d->commit("trim"))
                return false;
            deleted = true;
            used = usedBytes();
        }
    }

    if (deleted) {
        // Fold the WAL into the file so the space counted above is what the disk holds.
        QSqlQuery checkpoint(d->db);
        checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    // Freed pages are reused by later writes, so a file that reached its limit stays there;
    // only when it is larger than the limit (the limit was lowered) is it rebuilt smaller.
    if (policy.maxBytes > 0 && QFileInfo(d->path).size() > policy.maxBytes) {
        if (!d->exec(QStringLiteral("VACUUM"), "compact"))
            return false;
        QSqlQuery checkpoint(d->db);
        checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    return true;
}

void EventStore::Private::readRefusalGroups(NetworkEvent::Outcome outcome, const LogFilter &filter,
                                            QList<BlockedEntry> *out)
{
    // Without `since`, the summary kept at write time answers; with it, only the refusals
    // since then are grouped (SQLite takes the bare columns from the row holding
    // MAX(time_ms), so each line shows the most recent reason).
    QString sql = filter.since.isValid()
                      ? QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, COUNT(*),"
                                       " MAX(time_ms) AS last FROM events WHERE outcome = ? AND time_ms >= ?")
                      : QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, count,"
                                       " last_ms AS last FROM refusal_groups WHERE outcome = ?");
    QVariantList values{outcomeToken(outcome)};
    if (filter.since.isValid())
        values << filter.since.toMSecsSinceEpoch();
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid())
        sql += QStringLiteral(" GROUP BY sandbox, host, port, rule");
    sql += QStringLiteral(" ORDER BY last DESC, host LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, sql, values, "read"))
        return;
    while (query.next()) {
        BlockedEntry entry;
        entry.host = query.value(0).toString();
        entry.port = quint16(query.value(1).toUInt());
        entry.sandbox = query.value(2).toString();
        entry.kit = query.value(3).toString();
        entry.protocol = query.value(4).toString();
        entry.rule = query.value(5).toString();
        entry.reason = query.value(6).toString();
        entry.count = query.value(7).toLongLong();
        entry.lastSeen = fromMs(query.value(8).toLongLong());
        out->append(entry);
    }
}

void EventStore::Private::readAllowed(const LogFilter &filter, QList<AllowedEntry> *out)
{
    QString sql = QStringLiteral("SELECT host, port, sandbox, kit, rule, count, first_ms, last_ms, bytes_up,"
                                 " bytes_down FROM allowed WHERE 1");
    QVariantList values;
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid()) {
        sql += QStringLiteral(" AND last_ms >= ?");
        values << filter.since.toMSecsSinceEpoch();
    }
    sql += QStringLiteral(" ORDER BY last_ms DESC, host LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, sql, values, "read"))
        return;
    while (query.next()) {
        AllowedEntry entry;
        entry.host = query.value(0).toString();
        entry.port = quint16(query.value(1).toUInt());
        entry.sandbox = query.value(2).toString();
        entry.kit = query.value(3).toString();
        entry.rule = query.value(4).toString();
        entry.count = query.value(5).toLongLong();
        entry.firstSeen = fromMs(query.value(6).toLongLong());
        entry.lastSeen = fromMs(query.value(7).toLongLong());
        entry.bytesUp = query.value(8).toLongLong();
        entry.bytesDown = query.value(9).toLongLong();
        out->append(entry);
    }
}

PolicyLog EventStore::log(const LogFilter &filter) const
{
    PolicyLog result;
    if (!isOpen())
        return result;
    d->readRefusalGroups(NetworkEvent::Outcome::Denied, filter, &result.blocked);
    d->readRefusalGroups(NetworkEvent::Outcome::UpstreamFailed, filter, &result.failed);
    d->readAllowed(filter, &result.allowed);
    return result;
}

bool EventStore::forEachEvent(const EventFilter &filter, const std::function<bool(const NetworkEvent &)> &sink) const
{
    if (!isOpen())
        return d->notOpen();
    QString sql = QStringLiteral("SELECT time_ms, sandbox, kit, host, port, protocol, outcome, rule, reason,"
                                 " bytes_up, bytes_down FROM events WHERE ");
    QVariantList values{outcomeToken(NetworkEvent::Outcome::Denied)};
    if (filter.includeUpstreamFailures)
        values << outcomeToken(NetworkEvent::Outcome::UpstreamFailed);
    if (filter.includeLearned)
        values << outcomeToken(NetworkEvent::Outcome::Learned);
    sql += QStringLiteral("outcome IN (?%1)").arg(QStringLiteral(", ?").repeated(values.size() - 1));
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid()) {
        sql += QStringLiteral(" AND time_ms >= ?");
        values << filter.since.toMSecsSinceEpoch();
    }
    if (filter.until.isValid()) {
        sql += QStringLiteral(" AND time_ms < ?");
        values << filter.until.toMSecsSinceEpoch();
    }
    sql += filter.newestFirst ? QStringLiteral(" ORDER BY time_ms DESC, id DESC")
                              : QStringLiteral(" ORDER BY time_ms, id");
    sql += QStringLiteral(" LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));

    // Forward-only: rows come from SQLite one at a time instead of being cached by Qt.
    QSqlQuery query(d->db);
    query.setForwardOnly(true);
    if (!d->run(query, sql, values, "read"))
        return false;
    while (query.next()) {
        NetworkEvent event;
        event.time = fromMs(query.value(0).toLongLong());
        event.sandbox = query.value(1).toString();
        event.kit = query.value(2).toString();
        event.host = query.value(3).toString();
        event.port = quint16(query.value(4).toUInt());
        event.protocol = query.value(5).toString();
        event.outcome = outcomeFromToken(query.value(6).toString()).value_or(NetworkEvent::Outcome::Denied);
        event.rule = query.value(7).toString();
        event.reason = query.value(8).toString();
        event.bytesUp = query.value(9).toLongLong();
        event.bytesDown = query.value(10).toLongLong();
        if (!sink(event))
            break;
    }
    const QSqlError error = query.lastError();
    // Ends the read transaction at once, so a long-lived store does not pin the WAL.
    query.finish();
    if (error.isValid())
        return d->failQuery(error, "read");
    return true;
}

qint64 EventStore::countDenials(const QString &sandbox, const QDateTime &since) const
{
    if (!isOpen())
        return 0;
    QString sql = QStringLiteral("SELECT COUNT(*) FROM events WHERE outcome = ?");
    QVariantList values{outcomeToken(NetworkEvent::Outcome::Denied)};
    if (!sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << sandbox;
    }
    if (since.isValid()) {
        sql += QStringLiteral(" AND time_ms >= ?");
        values << since.toMSecsSinceEpoch();
    }
    QSqlQuery query(d->db);
    if (!d->run(query, sql, values, "read"))
        return 0;
    return query.next() ? query.value(0).toLongLong() : 0;
}

int EventStore::schemaVersion() const
{
    if (!isOpen())
        return 0;
    const auto version =
        d->scalar(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"), "read the schema version of");
    return version ? version->toInt() : 0;
}

QString EventStore::journalMode() const
{
    if (!isOpen())
        return {};
    const auto mode = d->scalar(QStringLiteral("PRAGMA journal_mode"), "read");
    return mode ? mode->toString() : QString();
}

} // namespace paddock::events

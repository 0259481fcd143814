// SPDX-License-Identifier: GPL-3.0-or-later
// The event log's connection: the file, its pragmas and prepared statements, and failures.
#include "events/EventStorePrivate.h"

#include "common/Paths.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::events {
namespace detail {

Q_LOGGING_CATEGORY(lcEventStore, "paddock.events.store")

QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

QDateTime fromMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

} // namespace detail

namespace {

// SQLite result codes that mean the file is not (or no longer) a usable database.
constexpr int kSqliteCorrupt = 11;
constexpr int kSqliteNotADatabase = 26;

QAtomicInteger<quint64> s_connectionCounter;

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

} // namespace

using namespace detail;

bool EventStore::Private::fail(const QString &sentence)
{
    error = sentence;
    qCWarning(lcEventStore).noquote() << sentence;
    return false;
}

bool EventStore::Private::notOpen()
{
    if (error.isEmpty())
        error = QStringLiteral("The event log %1 is not open.").arg(path);
    return false;
}

bool EventStore::Private::failQuery(const QSqlError &sqlError, const char *what)
{
    if (isCorruption(sqlError))
        return fail(QStringLiteral("The event log %1 is not a readable SQLite database (%2); move it aside to "
                                   "start a new log.")
                        .arg(path, sqlDetail(sqlError)));
    return fail(QStringLiteral("Cannot %1 the event log %2: %3.").arg(QLatin1String(what), path, sqlDetail(sqlError)));
}

std::optional<QVariant> EventStore::Private::scalar(const QString &sql, const char *what)
{
    QSqlQuery query(db);
    if (!query.exec(sql)) {
        failQuery(query.lastError(), what);
        return std::nullopt;
    }
    return query.next() ? query.value(0) : QVariant();
}

bool EventStore::Private::exec(const QString &sql, const char *what)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        return failQuery(query.lastError(), what);
    return true;
}

bool EventStore::Private::commit(const char *what)
{
    if (exec(QStringLiteral("COMMIT"), what))
        return true;
    rollback();
    return false;
}

void EventStore::Private::rollback()
{
    QSqlQuery query(db);
    query.exec(QStringLiteral("ROLLBACK"));
}

bool EventStore::Private::run(QSqlQuery &query, const QVariantList &values, const char *what)
{
    for (const QVariant &value : values)
        query.addBindValue(value);
    if (!query.exec())
        return failQuery(query.lastError(), what);
    return true;
}

bool EventStore::Private::run(QSqlQuery &query, const QString &sql, const QVariantList &values, const char *what)
{
    query.prepare(sql);
    return run(query, values, what);
}

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
    {};
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
        {};
        if (::lstat(side.constData(), &sideStat) == 0 && S_ISREG(sideStat.st_mode) && sideStat.st_uid == ::getuid() &&
            (sideStat.st_mode & 0777) != 0600)
            ::chmod(side.constData(), 0600);
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
            " bytes_down, pid, program, exe, command, written)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) &&
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
    countRepeat.emplace(db);
    const bool groupPrepared =
        prepared &&
        countRepeat->prepare(
            QStringLiteral("UPDATE events SET repeats = repeats + 1, time_ms = MAX(time_ms, ?) WHERE id = ?")) &&
        upsertRefusalGroup->prepare(QStringLiteral(
            "INSERT INTO refusal_groups (outcome, sandbox, host, port, rule, kit, protocol, reason, count, last_ms,"
            " program, command, written)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (outcome, sandbox, host, port, rule) DO UPDATE SET"
            " kit = CASE WHEN excluded.last_ms >= last_ms THEN excluded.kit ELSE kit END,"
            " program = CASE WHEN excluded.last_ms >= last_ms THEN excluded.program ELSE program END,"
            " command = CASE WHEN excluded.last_ms >= last_ms THEN excluded.command ELSE command END,"
            " written = CASE WHEN excluded.last_ms >= last_ms THEN excluded.written ELSE written END,"
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

void EventStore::Private::closeConnection()
{
    countRepeat.reset();
    budgets.clear();
    insertEvent.reset();
    upsertAllowed.reset();
    upsertMinute.reset();
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

    if (!d->configure() || !d->migrate() || !d->prepareStatements() || !d->prepareRequestStatements()) {
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

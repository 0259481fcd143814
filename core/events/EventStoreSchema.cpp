// SPDX-License-Identifier: GPL-3.0-or-later
// The event log's schema and how an older file is brought forward.
#include "events/EventStorePrivate.h"

namespace paddock::events {
namespace detail {

// Steps are only ever appended: a database written by any earlier build is brought forward,
// one transaction per step.
namespace {

/** Steps 1 to 4. */
QList<QStringList> firstSteps()
{
    return {
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
        // 3: which program inside the sandbox opened the connection (a group keeps its newest).
        {
            QStringLiteral("ALTER TABLE events ADD COLUMN pid INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE events ADD COLUMN program TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE events ADD COLUMN exe TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE events ADD COLUMN command TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE refusal_groups ADD COLUMN program TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE refusal_groups ADD COLUMN command TEXT NOT NULL DEFAULT ''"),
        },
        // 4: HTTP requests the proxy saw into, one row each (never a header value or a query).
        {
            QStringLiteral("CREATE TABLE requests ("
                           " id INTEGER PRIMARY KEY,"
                           " time_ms INTEGER NOT NULL,"
                           " sandbox TEXT NOT NULL, kit TEXT NOT NULL,"
                           " host TEXT NOT NULL, port INTEGER NOT NULL, protocol TEXT NOT NULL,"
                           " method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL,"
                           " outcome TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL,"
                           " bytes_up INTEGER NOT NULL, bytes_down INTEGER NOT NULL, duration_ms INTEGER NOT NULL)"),
            QStringLiteral("CREATE INDEX requests_by_time ON requests (time_ms)"),
            QStringLiteral("CREATE INDEX requests_by_sandbox ON requests (sandbox, time_ms)"),
        },
    };
}

/** Steps 5 on. */
QList<QStringList> laterSteps()
{
    return {
        // 5: which program inside the sandbox made each request, as for events.
        {
            QStringLiteral("ALTER TABLE requests ADD COLUMN pid INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE requests ADD COLUMN program TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE requests ADD COLUMN exe TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE requests ADD COLUMN command TEXT NOT NULL DEFAULT ''"),
        },
        // 6: a row may stand for several refusals of a destination in a second (kRowsPerSecondPerDestination).
        {
            QStringLiteral("ALTER TABLE events ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1"),
        },
        // 7: where the program's file was written inside the sandbox, when it was not its base's.
        {
            QStringLiteral("ALTER TABLE events ADD COLUMN written TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE refusal_groups ADD COLUMN written TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE requests ADD COLUMN written TEXT NOT NULL DEFAULT ''"),
        },
        // 8: connections counted per sandbox, host and minute, allowed and refused, written with
        // the groups, so the activity timeline reads a few rows a minute rather than every refusal.
        {
            QStringLiteral("CREATE TABLE activity_minutes ("
                           " sandbox TEXT NOT NULL, host TEXT NOT NULL, minute_ms INTEGER NOT NULL,"
                           " allowed INTEGER NOT NULL, refused INTEGER NOT NULL,"
                           " bytes_up INTEGER NOT NULL, bytes_down INTEGER NOT NULL,"
                           " PRIMARY KEY (sandbox, host, minute_ms))"),
            // Covers the timeline and the sparklines: they never read the table itself.
            QStringLiteral("CREATE INDEX activity_minutes_by_time ON activity_minutes"
                           " (minute_ms, sandbox, allowed, refused)"),
        },
    };
}

} // namespace

const QList<QStringList> &migrations()
{
    static const QList<QStringList> steps = firstSteps() + laterSteps();
    return steps;
}

} // namespace detail

using namespace detail;

int EventStore::currentSchemaVersion()
{
    return int(migrations().size());
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

} // namespace paddock::events

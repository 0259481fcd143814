// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NetworkPolicy.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::api {
class DaemonClient;
} // namespace paddock::api

namespace paddock::gui {

/**
 * @brief What each request did: the request records of one sandbox (or of all), newest first,
 * filtered by what the person types.
 *
 * Paddock records the requests it sees into (plain HTTP, and HTTPS to hosts whose TLS it
 * terminates): method, path with the query left out, status, bytes each way, duration, the
 * rule that decided and the program that asked. The model reads them with `events.requests`
 * when the daemon connects or the sandbox changes, then adds those of the `requests` topic as
 * they happen. It subscribes before it asks; records that arrive while it loads are kept aside
 * and added after the answer, those the answer already has left out. It keeps at most
 * `limit` records; the filter hides rows without asking the daemon again.
 */
class RequestsModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::NetworkPolicy *policy READ policy WRITE setPolicy NOTIFY policyChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
    Q_PROPERTY(int limit READ limit WRITE setLimit NOTIFY limitChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int totalCount READ totalCount NOTIFY countChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    enum Role {
        TimeRole = Qt::UserRole + 1,
        TimeTextRole, ///< "09:15:02" today, else "2026-01-31 09:15"
        SandboxRole,
        MethodRole,
        HostRole,
        PortRole,
        PathRole,
        UrlRole, ///< host[:port]path, the port left out when it is the scheme's
        StatusRole,
        OutcomeRole,
        RuleRole,
        ReasonRole,
        ProgramRole,
        CommandRole,
        WrittenRole, ///< where the program's file was written inside the sandbox; empty: its base's
        BytesUpRole,
        BytesDownRole,
        DurationRole, ///< milliseconds
    };
    Q_ENUM(Role)

    struct Record
    {
        QDateTime time;
        QString sandbox;
        QString method;
        QString host;
        int port = 0;
        QString protocol;
        QString path;
        int status = 0;
        QString outcome;
        QString rule;
        QString reason;
        QString program;
        QString command;
        QString written;
        qint64 bytesUp = 0;
        qint64 bytesDown = 0;
        qint64 durationMs = 0;
        QByteArray key; ///< the record as the daemon sent it: tells a repeat from a new one
    };

    explicit RequestsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    NetworkPolicy *policy() const { return m_policy; }
    void setPolicy(NetworkPolicy *policy);
    /** Whose requests: a sandbox's name, or empty for every sandbox. */
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    QString filter() const { return m_filter; }
    /** Shows only records whose method, URL, status, program or sandbox contains @p filter (any case). */
    void setFilter(const QString &filter);
    int limit() const { return m_limit; }
    /** How many records to keep (default 500, at most 10,000). */
    void setLimit(int limit);
    int totalCount() const { return int(m_records.size()); }
    bool loading() const { return m_loading; }
    QString error() const { return m_error; }

    /** Asks the daemon again and replaces the records. */
    Q_INVOKABLE void reload();
    /** The shown row as a map of its roles, for QML. */
    Q_INVOKABLE QVariantMap get(int row) const;

    /** Replaces the records with an `events.requests` answer (newest first). */
    void setRecords(const QJsonArray &records);
    /** Adds one record of the `requests` topic, when it is of the sandbox shown. */
    void addRecord(const QJsonObject &record);

Q_SIGNALS:
    void policyChanged();
    void sandboxChanged();
    void filterChanged();
    void limitChanged();
    void countChanged();
    void loadingChanged();
    void errorChanged();

private:
    static Record recordOf(const QJsonObject &json);
    bool matches(const Record &record) const;
    void showMatching();
    void refilter();
    void setLoading(bool loading);
    void setError(const QString &error);
    void insertNewest(Record record);

    QPointer<NetworkPolicy> m_policy;
    QPointer<api::DaemonClient> m_client; ///< the one whose `requests` events are listened to
    QString m_sandbox;
    QString m_filter;
    int m_limit = 500;
    QList<Record> m_records; ///< newest first
    QList<int> m_shown;      ///< indexes into m_records that pass the filter, in order
    bool m_loading = false;
    QString m_error;
    quint64 m_generation = 0;
    QList<QJsonObject> m_arrivedWhileLoading;
};

} // namespace paddock::gui

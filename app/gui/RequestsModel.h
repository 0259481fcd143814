// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NetworkPolicy.h"
#include "RowModel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One request Paddock saw into, as `events.requests` and topic `requests` send it. */
struct RequestRecord
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

    /** One record of `events.requests` or of topic `requests`. */
    static std::optional<RequestRecord> fromJson(const QJsonObject &json);
    /** host[:port]path with its scheme, the port left out when it is the scheme's. */
    QString url() const;
    /** Whether its method, URL, status, program, sandbox or outcome contains @p filter (any case). */
    bool matches(const QString &filter) const;
};

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
class RequestsModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::NetworkPolicy *policy READ policy WRITE setPolicy NOTIFY policyChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(int limit READ limit WRITE setLimit NOTIFY limitChanged)
    Q_PROPERTY(QString host READ host NOTIFY narrowed)
    Q_PROPERTY(double fromTime READ fromTime NOTIFY narrowed)
    Q_PROPERTY(double untilTime READ untilTime NOTIFY narrowed)

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

    explicit RequestsModel(QObject *parent = nullptr);

    NetworkPolicy *policy() const { return m_policy; }
    void setPolicy(NetworkPolicy *policy);
    /** Whose requests: a sandbox's name, or empty for every sandbox. */
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    int limit() const { return m_limit; }
    /** How many records to keep (default 500, at most 10,000). */
    void setLimit(int limit);

    /** Only one host's records, when not empty (the activity chart's host clicked). */
    QString host() const { return m_host; }
    /** Only records from this time (ms since the epoch, inclusive) until that one (exclusive); 0: open. */
    double fromTime() const { return double(m_fromMs); }
    double untilTime() const { return double(m_untilMs); }
    /** Shows only @p host's records (all hosts when empty) between @p fromMs and @p untilMs (0: open), asked again. */
    Q_INVOKABLE void narrow(const QString &host, double fromMs = 0, double untilMs = 0);

    /** Asks the daemon again and replaces the records. */
    Q_INVOKABLE void reload();

    /** Replaces the records with an `events.requests` answer (newest first). */
    void setRecords(const QJsonArray &records);
    /** Adds one record of the `requests` topic, when it is of the sandbox shown. */
    void addRecord(const QJsonObject &record);

Q_SIGNALS:
    void policyChanged();
    void sandboxChanged();
    void limitChanged();
    void narrowed();

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void insertNewest(RequestRecord record);

    Rows<RequestRecord> m_rows{this};
    QPointer<NetworkPolicy> m_policy;
    QString m_sandbox;
    int m_limit = 500;
    QString m_host;
    qint64 m_fromMs = 0;
    qint64 m_untilMs = 0;
    QList<QJsonObject> m_arrivedWhileLoading;
};

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief Where the traffic of one sandbox (or of all) went, at a glance: the Network page's
 * timeline of allowed and refused connections and its top destinations.
 *
 * Reads `events.activity`, which sums the event log in the daemon (a few hundred numbers
 * whatever the log holds), when the daemon connects, when the sandbox or the window changes and
 * when refresh() finds connections came since (topic `network`) or a minute has passed (the page
 * calls it every few seconds while it is shown). Without a daemon it keeps what it last read.
 *
 * `buckets` is oldest first, each {start, end (ms since the epoch), allowed, refused, label};
 * `hosts` busiest first, each {host, allowed, refused, bytesUp, bytesDown, bytesText,
 * refusedSandbox, refusedPort, refusedKit} (bytes are those of allowed connections: a refusal
 * carries none).
 */
class ActivityModel : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(int hours READ hours WRITE setHours NOTIFY hoursChanged)
    Q_PROPERTY(QVariantList buckets READ buckets NOTIFY activityChanged)
    Q_PROPERTY(QVariantList hosts READ hosts NOTIFY activityChanged)
    Q_PROPERTY(int hostCount READ hostCount NOTIFY activityChanged)
    Q_PROPERTY(double peak READ peak NOTIFY activityChanged)
    Q_PROPERTY(double allowedTotal READ allowedTotal NOTIFY activityChanged)
    Q_PROPERTY(double refusedTotal READ refusedTotal NOTIFY activityChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY activityChanged)

public:
    explicit ActivityModel(QObject *parent = nullptr);

    /** Whose connections: a sandbox's name, or empty for every sandbox. */
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    /** The window: 1 (the last hour, in minutes) or 24 (the last day, in quarter hours). */
    int hours() const { return m_hours; }
    void setHours(int hours);
    QVariantList buckets() const { return m_buckets; }
    QVariantList hosts() const { return m_hosts; }
    int hostCount() const { return m_hostCount; }
    /** The busiest bucket's connections (at least 1: the chart's scale). */
    double peak() const { return m_peak; }
    double allowedTotal() const { return m_allowedTotal; }
    double refusedTotal() const { return m_refusedTotal; }
    /** Whether an answer has been read. */
    bool loaded() const { return m_loaded; }

    /** Asks the daemon again; a call while one is on its way asks once more after it. */
    Q_INVOKABLE void reload();
    /** Asks again when connections came since the last answer, or a minute has passed (the window moves). */
    Q_INVOKABLE void refresh();
    /** Replaces what is shown with an `events.activity` answer. */
    void setActivity(const QJsonObject &result);

Q_SIGNALS:
    void sandboxChanged();
    void hoursChanged();
    void activityChanged();

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    QString m_sandbox;
    int m_hours = 1;
    QVariantList m_buckets;
    QVariantList m_hosts;
    int m_hostCount = 0;
    double m_peak = 1;
    double m_allowedTotal = 0;
    double m_refusedTotal = 0;
    bool m_loaded = false;
    bool m_asking = false;
    bool m_askAgain = false;
    bool m_changed = false;
    QElapsedTimer m_sinceAsked;
};

} // namespace paddock::gui

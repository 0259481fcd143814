// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"
#include "TerminalText.h"

#include <QString>
#include <QStringDecoder>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The output of one detached sandbox, as `paddock logs NAME` prints it, for the log
 * view: read with `sandbox.logs` from where the last read stopped, polled while @c active.
 *
 * Only the last kMaxChars characters are kept, so a chatty agent cannot fill the window's
 * memory; find() searches what is kept, case-insensitively.
 */
class SandboxLog : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY nameChanged)
    Q_PROPERTY(bool active READ active WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(QString text READ text NOTIFY textChanged)

public:
    static constexpr int kMaxChars = 1024 * 1024;
    static constexpr int kPollIntervalMs = 1000;

    explicit SandboxLog(QObject *parent = nullptr);

    QString name() const { return m_name; }
    void setName(const QString &name);
    bool active() const { return m_active; }
    void setActive(bool active);
    QString text() const { return m_text; }

    /** Reads what is new now. */
    Q_INVOKABLE void poll();
    /**
     * The position of the next match of @p query at or after @p from (before @p from when
     * @p backwards), wrapping around; -1 when there is none.
     */
    Q_INVOKABLE int find(const QString &query, int from, bool backwards = false) const;
    /** How many times @p query occurs. */
    Q_INVOKABLE int countMatches(const QString &query) const;

Q_SIGNALS:
    void nameChanged();
    void activeChanged();
    void textChanged();

protected:
    void daemonConnected() override { poll(); }

private:
    void reset();
    void read(const QJsonObject &result);

    QString m_name;
    bool m_active = false;
    bool m_reading = false;
    qint64 m_offset = 0;
    QStringDecoder m_decoder; ///< keeps a UTF-8 sequence split between two chunks
    TerminalText m_plain;     ///< what the agent's terminal got, as text
    QString m_text;
    QTimer m_timer;
    quint64 m_generation = 0; ///< answers for an earlier name are dropped
};

} // namespace paddock::gui

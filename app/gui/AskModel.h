// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** Connections of one sandbox to one destination, held until someone answers (ask mode). */
struct HeldAsk
{
    QString id;
    QString sandbox;
    QString kit;
    QString host;
    int port = 0;
    QString protocol;
    int waiting = 0;
    QDateTime since;
    QDateTime deadline;
    QString reason;
    QString program; ///< which program inside asked (the newest connection's); empty: not known
    QString command; ///< its command line
    QString written; ///< where its file was written inside the sandbox: not its base's, whatever its name

    /** An ASK of `policy.asks` or of an `asks` event; one without an id is left out. */
    static std::optional<HeldAsk> fromJson(const QJsonObject &object);
};

/**
 * @brief The connections that wait for an answer (ask mode), one row per ASK, oldest first.
 *
 * Filled from the daemon's `policy.asks` when connected (again on every reconnection), then
 * kept live from the `asks` topic: `held` adds a row, `updated` changes it in place (how many
 * connections wait), `ended` takes it away, whoever answered (this window, `paddock policy
 * answer`, the timeout or a client that left). While rows wait, `secondsLeft` counts down
 * once a second. answer() and setAsking() report through answered() and askingChanged().
 */
class AskModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QVariantMap oldest READ oldest NOTIFY oldestChanged)
    Q_PROPERTY(QStringList askingSandboxes READ askingSandboxes NOTIFY askingChanged)

public:
    enum Role {
        AskIdRole = Qt::UserRole + 1,
        SandboxRole,
        KitRole,
        HostRole,
        PortRole,
        ProtocolRole,
        WaitingRole,
        SinceRole,
        DeadlineRole,
        ReasonRole,
        SecondsLeftRole,
        ProgramRole,
        CommandRole,
        WrittenRole, ///< where the program's file was written inside the sandbox; empty: its base's
    };
    Q_ENUM(Role)

    explicit AskModel(QObject *parent = nullptr);

    /** The oldest waiting ASK as get() gives it; empty when nothing waits. */
    QVariantMap oldest() const { return get(0); }
    /** The sandboxes in ask mode, as `sandbox.list` and setAsking() last said. */
    QStringList askingSandboxes() const { return m_asking; }

    /** Asks the daemon again for what waits, and which sandboxes ask. */
    Q_INVOKABLE void reload();
    /**
     * Answers the ASK @p id: @p decision allow or deny; @p where empty for these connections
     * only, else sandbox, kit or global with @p what exact, anyport, wildcard or deep.
     */
    Q_INVOKABLE void answer(const QString &id, const QString &decision, const QString &where = {},
                            const QString &what = {});
    /** Switches ask mode of @p sandbox (`sandbox.ask`). */
    Q_INVOKABLE void setAsking(const QString &sandbox, bool enabled);
    Q_INVOKABLE bool isAsking(const QString &sandbox) const { return m_asking.contains(sandbox); }
    Q_INVOKABLE int rowOf(const QString &id) const;
    /** The patterns of the Allow choices for @p host (NetworkPolicy::allowChoicesFor). */
    Q_INVOKABLE QVariantMap allowChoices(const QString &host, int port) const;
    /** The command line answering @p id as answer() would, shown in the prompt. */
    Q_INVOKABLE QString answerCommand(const QString &id, const QString &decision, const QString &where,
                                      const QString &what) const;

    /** Replaces the rows with a `policy.asks` answer. */
    void setAsks(const QJsonArray &asks);
    /** Applies one `asks` event {change, ask}. */
    void addEvent(const QJsonObject &event);
    /** Reads which sandboxes ask from a `sandbox.list` answer. */
    void setSandboxes(const QJsonArray &sandboxes);
    /** Seconds until @p deadline, never below 0. */
    static int secondsUntil(const QDateTime &deadline, const QDateTime &now = QDateTime::currentDateTimeUtc());

Q_SIGNALS:
    void oldestChanged();
    void askingChanged();
    /** An ASK appeared (live, or in a reload). */
    void held(const QString &id);
    /** The ASK @p id is gone: answered, timed out, or its client left. */
    void ended(const QString &id);
    /** answer() finished: @p message is the daemon's, or why it failed. */
    void answered(const QString &id, bool ok, const QString &message);

protected:
    void daemonConnected() override { reload(); }
    /** A daemon that went away took its held connections with it. */
    void daemonDisconnected() override { setAsks({}); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void insertOrUpdate(const HeldAsk &ask);
    void remove(const QString &id);
    void tick();
    void updateTimer();
    void setAsked(const QString &sandbox, bool asking);
    void loadSandboxes();

    Rows<HeldAsk> m_rows{this};
    QStringList m_asking;
    QTimer m_ticker;
};

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/ProxyTypes.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace paddock::api {
class Server;
class PendingReply;
} // namespace paddock::api

namespace paddock::sandbox {

class PolicyService;
class SandboxService;

/**
 * @brief The connections the proxy holds while a person decides (ask mode, `sandbox.ask`), and
 * their answers, for the window's prompt and `paddock policy ask` / `answer`.
 *
 * Connections of one sandbox to one host and port wait as one ASK, answered together. An ASK
 * goes when its last connection is answered, times out (the proxy refuses it with 403), or
 * its client leaves.
 *
 * Methods (params → result):
 * - `policy.asks` {} → {asks: [ASK..]}: the ASKs waiting now, oldest first.
 * - `policy.answer` {id, decision: allow|deny, where?: sandbox|kit|global, what?: exact|wildcard|
 *   deep|hostport (exact)} → {answered: N, decision, once: bool, pattern?, where?, message}.
 *   Without `where` the answer is for these connections only (allow once, deny once). With it,
 *   `allow` is `policy.allow` (a rule of the sandbox or everywhere, or an entry in the kit's
 *   spec.yaml) and `deny` adds a deny rule (scope `sandbox:NAME`, `kit:KIT` or `global`) made
 *   of the same pattern; then the waiting connections get that answer.
 *
 * ASK: {id, sandbox, kit, host, port, protocol, waiting: N, since, deadline, reason}.
 * Topic `asks`: {change: held|updated|ended, ask: ASK} for every ASK that appears, changes
 * (one more connection waiting, one fewer) or goes; and {change: mode, sandbox, asking: bool}
 * when a sandbox's ask mode is switched (`sandbox.ask`, published by SandboxService).
 */
class AskService : public QObject
{
    Q_OBJECT
public:
    AskService(api::Server &server, SandboxService &sandboxes, PolicyService &policy, QObject *parent = nullptr);

    static QString asksTopic() { return QStringLiteral("asks"); }
    /** Registers the methods and the topic, and follows the proxy's holds. */
    void start();

private:
    struct Ask
    {
        QString id;
        QString sandbox;
        QString kit;
        QString host;
        quint16 port = 0;
        QString protocol;
        QString reason;
        /** Which program inside asked, newest connection first (pid 0: not known), and every one waiting. */
        qint64 pid = 0;
        QString program;
        QString command;
        QString written; ///< where its file was written inside the sandbox; empty: its base's
        QStringList programs;
        QDateTime since;
        QDateTime deadline;
        QList<quint64> connections;
    };

    void onHold(const proxy::ProxyEvent &event);
    static void noteProgram(Ask &ask, const proxy::ProxyEvent &event);
    void answer(const QJsonObject &params, const api::PendingReply &reply);
    /** After a rule was written (or none is), answers @p id's connections and replies. */
    void finishAnswer(const QString &id, bool allow, const QString &rule, QJsonObject result,
                      const api::PendingReply &reply);
    void publish(const QString &change, const Ask &ask);
    static QJsonObject askJson(const Ask &ask);

    api::Server &m_server;
    SandboxService &m_sandboxes;
    PolicyService &m_policy;
    QList<Ask> m_asks; ///< oldest first
    quint64 m_nextId = 1;
};

} // namespace paddock::sandbox

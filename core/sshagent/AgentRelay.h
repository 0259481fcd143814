// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "sshagent/AgentWire.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QLocalServer;
class QLocalSocket;

namespace paddock::sshagent {

/** What a sandbox's agent may sign: everything (unrestricted), or the listed namespaces and logins. */
struct AgentGrant
{
    bool unrestricted = true;
    QStringList sign;         ///< SSHSIG namespaces ("git")
    QStringList authenticate; ///< servers, "host" or "user@host"
};

/** One sign request the relay passed on or refused. */
struct SignRecord
{
    QString key;     ///< the key's fingerprint
    QString purpose; ///< what it was for: "git signature", "login as git to github.com", …
    bool relayed = false;
    QString reason; ///< why it was refused
};

/**
 * @brief A sandbox's SSH agent: a Unix socket the sandbox sees, each connection to it relayed
 * to the backing agent (the user's own), passing on only listing identities, the sign requests
 * the grant admits and verified session bindings. Everything else is answered with FAILURE and
 * never reaches the backing agent; a malformed or oversized message closes the connection.
 */
class AgentRelay : public QObject
{
    Q_OBJECT

public:
    /**
     * @p backingSocket is the user's agent; @p knownHostsPath the user's known hosts on the host,
     * where the keys of the servers in `authenticate` come from.
     */
    AgentRelay(AgentGrant grant, QString backingSocket, QString knownHostsPath, QObject *parent = nullptr);
    ~AgentRelay() override;

    /**
     * Listens on @p socketPath (replacing a stale socket there), for its owner only; with
     * @p anyUid for every uid that reaches it, where the folders above keep others out.
     */
    Result<void> listen(const QString &socketPath, bool anyUid = false);
    /** Stops listening, removes the socket and drops every connection. */
    void close();
    QString socketPath() const { return m_socketPath; }

    /** Called for each sign request relayed or refused. */
    std::function<void(const SignRecord &)> onSign;

private:
    struct Connection;
    void accept();
    void pump(const std::shared_ptr<Connection> &connection);
    void handle(const std::shared_ptr<Connection> &connection, const QByteArray &payload);
    void handleSign(const std::shared_ptr<Connection> &connection, const QByteArray &payload);
    void handleExtension(const std::shared_ptr<Connection> &connection, const QByteArray &payload);
    void fromBacking(const std::shared_ptr<Connection> &connection);
    void forward(const std::shared_ptr<Connection> &connection, const QByteArray &payload);
    void answer(const std::shared_ptr<Connection> &connection, quint8 type);
    void drop(const std::shared_ptr<Connection> &connection);
    /** Whether the grant admits @p purpose on @p connection; the refusal's reason otherwise. */
    std::optional<QString> refusal(const Connection &connection, SignPurpose &purpose, QString *what) const;
    std::optional<QString> loginRefusal(const Connection &connection, const SignPurpose &purpose, QString *what) const;

    AgentGrant m_grant;
    QString m_backingSocket;
    QString m_knownHostsPath;
    QString m_socketPath;
    QLocalServer *m_server = nullptr;
    QList<std::shared_ptr<Connection>> m_connections;
};

} // namespace paddock::sshagent

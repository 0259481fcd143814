// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "kit/Kit.h"
#include "runtime/SandboxSpec.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace paddock::sandbox {

/** @brief A port of a sandbox as the host reaches it. */
struct PublishedPort
{
    quint16 sandboxPort = 0;
    QString hostAddress; ///< "127.0.0.1:41234" while published, else empty
};

/**
 * @brief Publishes the kit's `ports` of running sandboxes on the host's loopback.
 *
 * A sandbox has no network the host can reach (docker's `NetworkMode: none`, bubblewrap's
 * own network namespace), and the daemon cannot reach into it, so paddock-init dials out:
 * for each published port it keeps connections open to `ports.sock`, the daemon's socket in
 * the sandbox's endpoint directory (next to proxy.sock, which the sandbox sees read-only).
 * Each such connection first says "port PORT\n" and then waits. The daemon listens on
 * 127.0.0.1 with an ephemeral port per sandbox port; a client that connects there is given
 * one waiting connection of that port, the daemon sends it the byte 'C', paddock-init
 * connects to 127.0.0.1:PORT inside and joins the two. A client that finds no waiting
 * connection waits for one for a few seconds, then is closed.
 *
 * Everything a sandbox can make the daemon hold is bounded: connections that have not said
 * their port yet (16), idle ones per port (8), host clients waiting per port (64). Beyond,
 * new ones are closed at once, which delays only that sandbox's own ports.
 *
 * The socket belongs to the daemon and sits in a directory the sandbox cannot write, so the
 * sandbox never chooses what the daemon connects to. Only TCP can be published. A host port
 * once given to a sandbox port is asked for again when the sandbox starts again or the
 * daemon finds it running after a restart (they are kept in `paths::runtimeDir()/ports.json`
 * until the sandbox is removed), so a URL keeps working when the port is still free.
 */
class PortForwarder : public QObject
{
    Q_OBJECT
public:
    /** The socket's file name, in the endpoint directory. */
    static QString socketName() { return QStringLiteral("ports.sock"); }
    /** The variable paddock-init reads its published ports from (see app/init/Publish.h). */
    static QString variableName() { return QStringLiteral("PADDOCK_PUBLISH"); }

    /**
     * Asks the sandbox's paddock-init to publish @p ports, through the variable it reads,
     * with the socket next to @c spec.sandboxProxySocket. Returns a note for each port that
     * cannot be published.
     */
    static QStringList publishInto(runtime::SandboxSpec &spec, const QList<kit::Port> &ports);
    /** The sandbox ports @p spec publishes (from the variable publishInto() set). */
    static QList<quint16> portsOf(const runtime::SandboxSpec &spec);

    explicit PortForwarder(QObject *parent = nullptr);
    ~PortForwarder() override;

    /**
     * Listens on @p socketPath for paddock-init and on 127.0.0.1 for each of @p ports of
     * sandbox @p name. Opening an open sandbox again does nothing. Nothing to publish
     * succeeds at once.
     */
    Result<void> open(const QString &name, const QString &socketPath, const QList<quint16> &ports);
    /** Stops publishing (connections in progress are closed) and removes the socket. */
    void close(const QString &name);
    /** Forgets the host ports @p name had: it is removed. */
    void forget(const QString &name);
    void closeAll();
    bool isOpen(const QString &name) const;

    /** The ports of @p name, each with its host address while published. */
    QList<PublishedPort> ports(const QString &name, const QList<quint16> &declared) const;

private:
    class Published;
    void loadHostPorts();
    void saveHostPorts();

    QHash<QString, Published *> m_open;
    /** Host port last given to "SANDBOX/PORT", asked for again next time. */
    QHash<QString, quint16> m_lastHostPort;
    bool m_hostPortsLoaded = false;
};

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerEndpoint.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

namespace paddock::runtime::docker {

class HijackedConnection;

/**
 * @brief The way out of a sandbox on a container engine of another computer.
 *
 * Such a container cannot bind the desktop's proxy socket. This class runs, as an Engine exec
 * of the container, `paddock-init --proxy-mux PATH` (app/init/ProxyMux.h), which listens where
 * the sandbox's relay reaches for the proxy and carries each connection over the exec's stream
 * (proxy/MuxFrame.h); on a thread of its own it joins each stream to a new connection to the
 * sandbox's proxy socket on this computer. Policy, asks, key injection, the guard and the
 * event log are the desktop's, as for a sandbox of this computer. With a ports socket, the
 * exec listens at @p insidePortsPath too, where paddock-init's publisher dials, and those
 * streams (OpenPort) are joined to the sandbox's ports socket here (sandbox/PortForwarder.h):
 * a published port is reached on this computer's 127.0.0.1, never on the engine's computer.
 *
 * The frames from the container are hostile: every bound of the framing is checked, and a
 * frame that breaks one ends the stream. When the stream ends, so does every connection of the
 * sandbox, which has then no way out at all; the relay is told why (@p onChange), and the exec
 * is run again once the engine lets it, for as long as this object lives.
 */
class RemoteRelay
{
public:
    /** @p up: the way out works now; @p sentence says what changed. Called on the relay's thread. */
    using Observer = std::function<void(bool up, const QString &sentence)>;

    /** The sockets joined: the proxy's, and the published ports' (both empty without ports). */
    struct Sockets
    {
        QString insidePath;
        QString proxySocket;
        QString insidePortsPath;
        QString portsSocket;
    };

    RemoteRelay(Endpoint endpoint, QString containerId, Sockets sockets, Observer onChange);
    ~RemoteRelay();
    RemoteRelay(const RemoteRelay &) = delete;
    RemoteRelay &operator=(const RemoteRelay &) = delete;

private:
    void run();
    /** Carries streams over @p stream until it ends; returns why it ended. */
    QString carry(HijackedConnection &stream);
    /** Waits @p ms unless stopped; false once stopped. */
    bool pause(int ms);

    Endpoint m_endpoint;
    QString m_containerId;
    Sockets m_sockets;
    Observer m_onChange;
    int m_wake[2] = {-1, -1}; ///< written to stop the thread
    std::atomic_bool m_stopping{false};
    std::thread m_thread;
};

} // namespace paddock::runtime::docker

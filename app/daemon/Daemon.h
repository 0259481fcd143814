// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "InstanceLock.h"
#include "api/Server.h"
#include "sandbox/AgentPermsService.h"
#include "sandbox/AskService.h"
#include "sandbox/EngineService.h"
#include "sandbox/ImageService.h"
#include "sandbox/PolicyService.h"
#include "sandbox/SandboxService.h"
#include "sandbox/SecretService.h"
#include "sandbox/SettingsService.h"
#include "sandbox/VerifyService.h"

#include <QObject>
#include <QString>

#include <memory>

class QSocketNotifier;

namespace paddock::daemon {

/**
 * @brief paddockd itself: one instance per user, the API server, and a clean stop.
 *
 * start() takes the instance lock, replaces a stale socket, starts the sandbox service (the
 * proxy, the policy, the event log and the sandbox.* methods, see SandboxService) and
 * listens. The daemon stops on SIGTERM, SIGINT or SIGHUP and on the `shutdown` method,
 * removing its socket; running sandboxes are left running.
 */
class Daemon : public QObject
{
    Q_OBJECT
public:
    enum class StartResult {
        Started,
        AlreadyRunning,
        Failed
    };

    explicit Daemon(QObject *parent = nullptr);
    ~Daemon() override;

    /** On failure @p message is the sentence to print (e.g. "paddockd is already running (pid 12)"). */
    StartResult start(const QString &socketPath, QString *message);
    void stop();
    api::Server &server() { return m_server; }

private:
    /** Takes the instance lock, waiting a moment for a daemon on its way out. */
    StartResult takeLock(const QString &lockPath, QString *message);
    /** Removes the socket a daemon that died left behind; refuses one that still answers. */
    StartResult clearStaleSocket(QString *message);
    /** The services that register the API's methods, started before the server listens. */
    bool startServices(QString *message);
    bool installSignalHandlers(QString *error);
    void onSignal();
    /** Pid of the daemon answering on the socket, or -1 when nothing usable answers. */
    qint64 livePeerPid() const;

    api::Server m_server;
    std::unique_ptr<sandbox::SandboxService> m_sandboxes;
    std::unique_ptr<sandbox::ImageService> m_images;
    std::unique_ptr<sandbox::PolicyService> m_policy;
    std::unique_ptr<sandbox::AskService> m_asks;
    std::unique_ptr<sandbox::SecretService> m_secrets;
    std::unique_ptr<sandbox::SettingsService> m_settings;
    std::unique_ptr<sandbox::EngineService> m_engines;
    std::unique_ptr<sandbox::AgentPermsService> m_agentPerms;
    std::unique_ptr<sandbox::VerifyService> m_verify;
    InstanceLock m_lock;
    QString m_socketPath;
    QSocketNotifier *m_signalNotifier = nullptr;
};

} // namespace paddock::daemon

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Server.h"
#include "network/UpstreamSettings.h"
#include "secrets/SecretStore.h"

#include <QObject>
#include <QProcessEnvironment>
#include <QTimer>

#include <memory>
#include <vector>

namespace paddock::sandbox {

class SandboxService;

/**
 * @brief The daemon's network settings (network::SettingsFile), and the upstream proxy every
 * connection out goes through (network::chooseUpstream: the settings, then the environment the
 * daemon started with, then the desktop's). It reads the proxy's password from the keychain,
 * resolves the proxy's name off the proxy's thread (again every few minutes, since a laptop
 * changes networks), and hands the result to the proxy engine.
 *
 * Methods:
 * - `settings.get` → `{upstreamProxy: {url, source, noProxy, password, addresses, problem} | null,
 *   file: {upstreamProxy, noProxy}, problem}`: the proxy in force (its URL never with a
 *   password; `password` says whether one is used) and what the file says.
 * - `settings.set {key, value}`: `upstream-proxy` (a URL: a password in it goes to the
 *   keychain, not the file), `no-proxy`, `upstream-proxy-password`; answered once in force.
 * - `settings.unset {key}`: the same keys.
 *
 * Topic `settings`: `{changed: true}` whenever what is in force changes.
 */
class SettingsService : public QObject
{
    Q_OBJECT
public:
    SettingsService(api::Server &server, SandboxService &sandboxes, QObject *parent = nullptr);
    ~SettingsService() override;

    static QString topic();
    /** Registers the methods and puts the settings in force. */
    void start();
    /**
     * The upstream proxy for an image build's own downloads, as the build arguments Docker
     * predefines (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, each in both cases; kept out of `docker
     * history`): the proxy's URL without user or password, since a kit's build steps are the
     * kit's code. Empty without a proxy.
     */
    QMap<QString, QString> buildArguments() const;

private:
    void registerMethods();
    /** Reads everything again and puts it in force; @p done runs once it is. */
    void apply(std::function<void()> done = {});
    /** The choice with its password (from the keychain when it needs one) and addresses. */
    void finish(network::UpstreamChoice choice, int generation);
    QJsonObject describe() const;
    void set(const QJsonObject &params, const api::PendingReply &reply);
    void unset(const QJsonObject &params, const api::PendingReply &reply);
    /** Stores @p password (empty: removes it) and puts it in force, then replies. */
    void storePassword(QByteArray password, const api::PendingReply &reply);

    api::Server &m_server;
    SandboxService &m_sandboxes;
    std::unique_ptr<secrets::SecretStore> m_store;
    QProcessEnvironment m_environment;
    QTimer m_refresh;
    int m_generation = 0;
    std::vector<std::function<void()>> m_waiting; ///< callers of apply() waiting for the generation in force
    network::SettingsFile m_file;
    QString m_fileProblem;
    network::UpstreamChoice m_choice; ///< in force, with its password and addresses
    bool m_passwordUsed = false;
};

} // namespace paddock::sandbox

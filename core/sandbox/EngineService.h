// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Server.h"
#include "sandbox/Engines.h"

#include <QObject>

#include <memory>

namespace paddock::sandbox {

class SandboxService;

/**
 * @brief The container engines the Docker backend can use (EngineList) and the one in use,
 * kept in EngineFile.
 *
 * Methods:
 * - `engine.list` → `{engines: [{name, source, host, tls, description, onThisComputer, inUse,
 *   dockerCurrent, endpoint?}], use, dockerCurrent, problems}`; @c endpoint is where a client
 *   reaches the engine itself (runtime::docker::Endpoint::toJson(): its TLS files by path),
 *   absent when the host cannot be read.
 * - `engine.add {name, host, tlsCa?, tlsCert?, tlsKey?}`: answered once the engine has
 *   answered over the connection it would be used through (its certificate verified against
 *   tlsCa); refused with the reason otherwise. The files must be absolute and readable.
 * - `engine.remove {name}`: one added with engine.add that no sandbox runs on.
 * - `engine.use {name}`: where `--backend docker` runs without `--engine`.
 *
 * Topic `engines`: `{changed: true}` whenever the list or the one in use changes.
 */
class EngineService : public QObject
{
    Q_OBJECT
public:
    EngineService(api::Server &server, SandboxService &sandboxes, QObject *parent = nullptr);

    static QString topic();
    void start();
    static QJsonObject engineJson(const Engine &engine, const EngineList &list);

private:
    static QJsonObject engineFields(const Engine &engine, const EngineList &list);
    api::Reply list() const;
    void add(const QJsonObject &params, const api::PendingReply &reply);
    api::Reply remove(const QJsonObject &params);
    api::Reply use(const QJsonObject &params);
    /** The file as it is, or the failure to answer with. */
    std::optional<EngineFile> loadFile(api::Reply *failure) const;
    api::Reply save(const EngineFile &file);

    api::Server &m_server;
    SandboxService &m_sandboxes;
    std::shared_ptr<int> m_alive = std::make_shared<int>(0);
};

} // namespace paddock::sandbox

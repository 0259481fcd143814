// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/EngineService.h"

#include "api/Protocol.h"
#include "runtime/docker/DockerClient.h"
#include "sandbox/SandboxService.h"

#include <QFileInfo>
#include <QJsonArray>

#include <thread>

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

/** Why the TLS file @p path given as @p what cannot be used; empty when it can. */
QString fileProblem(const QString &path, const QString &what)
{
    if (path.isEmpty())
        return {};
    if (!QFileInfo(path).isAbsolute())
        return QStringLiteral("%1 must be an absolute path: %2").arg(what, path);
    if (!QFileInfo(path).isFile() || !QFileInfo(path).isReadable())
        return QStringLiteral("%1 %2 is not a readable file").arg(what, path);
    return {};
}

/** Whether the engine answers at @p endpoint: empty when it does, else why not. */
QString check(const runtime::docker::Endpoint &endpoint)
{
    const runtime::docker::DockerClient client(endpoint);
    const runtime::docker::Result<runtime::docker::VersionInfo> answer = client.version();
    return answer ? QString() : answer.errorMessage();
}

} // namespace

EngineService::EngineService(api::Server &server, SandboxService &sandboxes, QObject *parent)
    : QObject(parent), m_server(server), m_sandboxes(sandboxes)
{}

QString EngineService::topic()
{
    return QStringLiteral("engines");
}

void EngineService::start()
{
    m_server.registerTopic(topic());
    m_server.registerMethod(QStringLiteral("engine.list"),
                            [this](const QJsonObject &, const api::CallContext &) { return list(); });
    m_server.registerAsyncMethod(QStringLiteral("engine.add"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { add(params, reply); });
    m_server.registerMethod(QStringLiteral("engine.remove"),
                            [this](const QJsonObject &params, const api::CallContext &) { return remove(params); });
    m_server.registerMethod(QStringLiteral("engine.use"),
                            [this](const QJsonObject &params, const api::CallContext &) { return use(params); });
}

QJsonObject EngineService::engineJson(const Engine &engine, const EngineList &list)
{
    QJsonObject json = engineFields(engine, list);
    // Where a client reaches it itself (`attach`, `exec`): only paths, never a key's contents.
    if (const runtime::docker::Result<runtime::docker::Endpoint> endpoint = engine.endpoint())
        json.insert(QStringLiteral("endpoint"), endpoint.value().toJson());
    return json;
}

QJsonObject EngineService::engineFields(const Engine &engine, const EngineList &list)
{
    return {{QStringLiteral("name"), engine.name},
            {QStringLiteral("source"), Engine::sourceName(engine.source)},
            {QStringLiteral("host"), engine.host},
            {QStringLiteral("tls"), !engine.caFile.isEmpty() || !engine.certFile.isEmpty()},
            {QStringLiteral("description"), engine.description},
            {QStringLiteral("onThisComputer"), engine.onThisComputer()},
            {QStringLiteral("inUse"), engine.name == list.use},
            {QStringLiteral("dockerCurrent"),
             engine.source == Engine::Source::DockerContext && engine.name == list.dockerCurrent}};
}

api::Reply EngineService::list() const
{
    const EngineList engines = EngineList::read();
    QJsonArray rows;
    for (const Engine &engine : engines.engines)
        rows.append(engineJson(engine, engines));
    return api::Reply::success({{QStringLiteral("engines"), rows},
                                {QStringLiteral("use"), engines.use},
                                {QStringLiteral("dockerCurrent"), engines.dockerCurrent},
                                {QStringLiteral("problems"), QJsonArray::fromStringList(engines.problems)}});
}

std::optional<EngineFile> EngineService::loadFile(api::Reply *failure) const
{
    std::variant<EngineFile, FileError> file = EngineFile::load();
    if (const FileError *problem = std::get_if<FileError>(&file)) {
        *failure = api::Reply::failure(QLatin1String(api::errors::kInternal),
                                       QStringLiteral("fix or remove it first: %1").arg(problem->toString()));
        return std::nullopt;
    }
    return std::get<EngineFile>(std::move(file));
}

api::Reply EngineService::save(const EngineFile &file)
{
    if (const Result<void> saved = file.save(); !saved)
        return api::Reply::failure(QLatin1String(api::errors::kInternal), saved.error().text());
    m_server.publish(topic(), {{QStringLiteral("changed"), true}});
    return list();
}

void EngineService::add(const QJsonObject &params, const api::PendingReply &reply)
{
    Engine engine;
    engine.name = params.value(QLatin1String("name")).toString();
    engine.host = params.value(QLatin1String("host")).toString().trimmed();
    engine.caFile = params.value(QLatin1String("tlsCa")).toString();
    engine.certFile = params.value(QLatin1String("tlsCert")).toString();
    engine.keyFile = params.value(QLatin1String("tlsKey")).toString();
    engine.remote = params.value(QLatin1String("remote")).toBool();
    if (!validEngineName(engine.name) || engine.name == QLatin1String("local"))
        return reply.complete(invalid(QStringLiteral("'%1' cannot name an engine: use letters, digits, '.', '_' and "
                                                     "'-' (not 'local')")
                                          .arg(engine.name.left(80))));
    if (EngineList::read().find(engine.name))
        return reply.complete(api::Reply::failure(
            QLatin1String(api::errors::kExists), QStringLiteral("an engine named %1 exists already").arg(engine.name)));
    if (engine.certFile.isEmpty() != engine.keyFile.isEmpty())
        return reply.complete(invalid(QStringLiteral("a client certificate needs its key: give both or neither")));
    for (const auto &[path, what] : {std::pair{engine.caFile, QStringLiteral("the CA file")},
                                     {engine.certFile, QStringLiteral("the certificate file")},
                                     {engine.keyFile, QStringLiteral("the key file")}}) {
        if (const QString problem = fileProblem(path, what); !problem.isEmpty())
            return reply.complete(invalid(problem));
    }
    // Said in the terms of an engine's address, not of the DOCKER_HOST the parser is shared with.
    if (!engine.host.startsWith(QLatin1String("tcp://")) && !engine.host.startsWith(QLatin1String("ssh://")) &&
        !engine.host.startsWith(QLatin1String("unix://")))
        return reply.complete(invalid(QStringLiteral("'%1' is not an engine address: use tcp://HOST:PORT, "
                                                     "ssh://[USER@]HOST[:PORT] or unix:///PATH")
                                          .arg(engine.host.left(200))));
    const runtime::docker::Result<runtime::docker::Endpoint> endpoint = engine.endpoint();
    if (!endpoint)
        return reply.complete(invalid(endpoint.errorMessage()));
    if (endpoint.value().kind != runtime::docker::Endpoint::Kind::Tcp &&
        (!engine.caFile.isEmpty() || !engine.certFile.isEmpty()))
        return reply.complete(invalid(QStringLiteral("TLS files are for tcp:// engines only")));

    std::weak_ptr<int> alive = m_alive;
    std::thread([this, alive, engine, endpoint = endpoint.value(), reply] {
        const QString problem = check(endpoint);
        QMetaObject::invokeMethod(
            this,
            [this, alive, engine, problem, reply] {
                if (alive.expired())
                    return;
                if (!problem.isEmpty())
                    return reply.fail(QLatin1String(api::errors::kBackendUnavailable),
                                      QStringLiteral("engine %1 was not added: %2").arg(engine.name, problem));
                api::Reply failure;
                std::optional<EngineFile> file = loadFile(&failure);
                if (!file)
                    return reply.complete(failure);
                file->engines.append(engine);
                reply.complete(save(*file));
            },
            Qt::QueuedConnection);
    }).detach();
}

api::Reply EngineService::remove(const QJsonObject &params)
{
    const QString name = params.value(QLatin1String("name")).toString();
    api::Reply failure;
    std::optional<EngineFile> file = loadFile(&failure);
    if (!file)
        return failure;
    const auto it = std::find_if(file->engines.begin(), file->engines.end(),
                                 [&name](const Engine &engine) { return engine.name == name; });
    if (it == file->engines.end()) {
        if (EngineList::read().find(name))
            return invalid(QStringLiteral("%1 is not Paddock's to remove: %2")
                               .arg(name, name == QLatin1String("local")
                                              ? QStringLiteral("it is this computer's engine")
                                              : QStringLiteral("it is a docker context "
                                                               "(docker context rm)")));
        return api::Reply::failure(QLatin1String(api::errors::kNotFound),
                                   QStringLiteral("there is no engine named %1").arg(name.left(80)));
    }
    const QStringList users = m_sandboxes.sandboxesOnEngine(name);
    if (!users.isEmpty())
        return api::Reply::failure(QLatin1String(api::errors::kBusy),
                                   QStringLiteral("sandboxes run on engine %1: %2; remove them first")
                                       .arg(name, users.join(QStringLiteral(", "))));
    file->engines.erase(it);
    if (file->use == name)
        file->use.clear();
    m_sandboxes.forgetEngine(name);
    return save(*file);
}

api::Reply EngineService::use(const QJsonObject &params)
{
    const QString name = params.value(QLatin1String("name")).toString();
    if (!EngineList::read().find(name))
        return api::Reply::failure(
            QLatin1String(api::errors::kNotFound),
            QStringLiteral("there is no engine named %1 (paddock engine ls)").arg(name.left(80)));
    api::Reply failure;
    std::optional<EngineFile> file = loadFile(&failure);
    if (!file)
        return failure;
    file->use = name == QLatin1String("local") ? QString() : name;
    return save(*file);
}

} // namespace paddock::sandbox

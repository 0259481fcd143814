// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/FileError.h"
#include "common/Result.h"
#include "runtime/docker/DockerEndpoint.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace paddock::sandbox {

/**
 * @brief A container engine the Docker backend can run sandboxes on: the local one (DOCKER_HOST
 * or the default socket, named `local`), one of the docker CLI's contexts, or one added with
 * `paddock engine add`.
 */
struct Engine
{
    enum class Source {
        Local,
        DockerContext,
        Paddock
    };

    QString name;
    Source source = Source::Paddock;
    QString host; ///< as DOCKER_HOST spells it: unix:///path, tcp://host:port, ssh://user@host
    QString caFile;
    QString certFile;
    QString keyFile;
    bool skipTlsVerify = false; ///< a context's SkipTLSVerify
    /**
     * Added with `--remote` (`remote: true`): the engine shares no folder or socket with this
     * computer, even through a loopback address (a virtual machine's forwarded port, say).
     */
    bool remote = false;
    QString description;

    static QString sourceName(Source source);
    /** Where the Engine API is reached; ssh:// and unusable hosts give an error. */
    runtime::docker::Result<runtime::docker::Endpoint> endpoint() const;
    /**
     * Whether the engine runs on this computer (a unix socket, or TCP to a loopback address), so
     * that its containers can bind this computer's folders and sockets.
     */
    bool onThisComputer() const;
};

/**
 * @brief The engines Paddock itself keeps, and the one in use, `configDir()/engines.yaml`:
 *
 *     use: lab
 *     engines:
 *       lab:
 *         host: tcp://192.0.2.7:2376
 *         tlsCa: /home/alice/lab/ca.pem
 *         tlsCert: /home/alice/lab/cert.pem
 *         tlsKey: /home/alice/lab/key.pem
 *         remote: true
 *
 * Written atomically; read strictly (an unknown key is an error naming its line).
 */
struct EngineFile
{
    QString use; ///< empty: `local`
    QList<Engine> engines;

    static QString path();
    static std::variant<EngineFile, FileError> load(const QString &path = EngineFile::path());
    Result<void> save(const QString &path = EngineFile::path()) const;
};

/** @brief The docker CLI's own contexts, read where it keeps them (never copied). */
struct DockerContexts
{
    QList<Engine> contexts; ///< by name; without the implicit `default`
    QString current;        ///< config.json's currentContext; empty: none
    QStringList problems;   ///< contexts that could not be read, and why

    /** `$DOCKER_CONFIG`, else `$HOME/.docker`, of @p environment. */
    static QString configDir(const QProcessEnvironment &environment);
    static DockerContexts read(const QString &configDir);
};

/** @brief Every engine by name: `local`, the docker contexts, then Paddock's own. */
struct EngineList
{
    QList<Engine> engines;
    QString use = QStringLiteral("local"); ///< the engine in use
    QString dockerCurrent;                 ///< the docker CLI's current context
    QStringList problems;

    /** The list as it is now, from @p environment's docker config and EngineFile. */
    static EngineList read(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());
    std::optional<Engine> find(const QString &name) const;
};

/** Whether @p name can name an engine: letters, digits, `.`, `_` and `-`, at most 64, not starting with `-`. */
bool validEngineName(const QString &name);

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/Engines.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "common/QuotedString.h"
#include "common/YamlDecode.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QUrl>

Q_LOGGING_CATEGORY(lcEngines, "paddock.sandbox.engines", QtInfoMsg)

namespace paddock::sandbox {
namespace {

using yaml::DecodeError;

constexpr qint64 kMaxContextFile = 64 * 1024;
constexpr qint64 kMaxDockerConfig = 1024 * 1024;
constexpr int kMaxContexts = 256;

QString scalar(const YAML::Node &node, const QString &key)
{
    if (!node.IsScalar())
        throw DecodeError{node.Mark(), QStringLiteral("'%1' takes one string").arg(key)};
    return QString::fromStdString(node.Scalar()).trimmed();
}

Engine decodeEngine(const QString &name, const YAML::Node &node)
{
    if (!node.IsMap())
        throw DecodeError{node.Mark(), QStringLiteral("expected the engine's host and TLS files")};
    Engine engine;
    engine.name = name;
    engine.source = Engine::Source::Paddock;
    for (const auto &entry : node) {
        const QString key = entry.first.IsScalar() ? QString::fromStdString(entry.first.Scalar()) : QString();
        if (key == QLatin1String("remote")) {
            const QString value = scalar(entry.second, key);
            if (value != QLatin1String("true") && value != QLatin1String("false"))
                throw DecodeError{entry.second.Mark(), QStringLiteral("'remote' is true or false")};
            engine.remote = value == QLatin1String("true");
            continue;
        }
        QString *target = key == QLatin1String("host")      ? &engine.host
                          : key == QLatin1String("tlsCa")   ? &engine.caFile
                          : key == QLatin1String("tlsCert") ? &engine.certFile
                          : key == QLatin1String("tlsKey")  ? &engine.keyFile
                                                            : nullptr;
        if (!target)
            throw DecodeError{entry.first.Mark(),
                              QStringLiteral("unknown key; expected 'host', 'tlsCa', 'tlsCert', 'tlsKey' or 'remote'")};
        *target = scalar(entry.second, key);
        if (target != &engine.host && !QDir::isAbsolutePath(*target))
            throw DecodeError{entry.second.Mark(), QStringLiteral("'%1' takes an absolute path").arg(key)};
    }
    if (engine.host.isEmpty())
        throw DecodeError{node.Mark(), QStringLiteral("the engine has no 'host'")};
    return engine;
}

EngineFile decode(const YAML::Node &root)
{
    EngineFile file;
    if (!root || root.IsNull())
        return file;
    if (!root.IsMap())
        throw DecodeError{root.Mark(), QStringLiteral("expected 'use' and 'engines'")};
    for (const auto &entry : root) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        if (key == "use") {
            file.use = scalar(entry.second, QStringLiteral("use"));
        } else if (key == "engines") {
            if (!entry.second.IsMap())
                throw DecodeError{entry.second.Mark(), QStringLiteral("expected engines by name")};
            for (const auto &engine : entry.second) {
                const QString name = scalar(engine.first, QStringLiteral("name"));
                if (!validEngineName(name) || name == QLatin1String("local"))
                    throw DecodeError{engine.first.Mark(), QStringLiteral("'%1' cannot name an engine").arg(name)};
                file.engines.append(decodeEngine(name, engine.second));
            }
        } else {
            throw DecodeError{entry.first.Mark(), QStringLiteral("unknown key; expected 'use' or 'engines'")};
        }
    }
    return file;
}

Result<QByteArray> readBounded(const QString &path, qint64 limit)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("%1 cannot be read: %2").arg(path, file.errorString()));
    const QByteArray text = file.read(limit + 1);
    if (text.size() > limit)
        return fail(QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(limit));
    return text;
}

/** One context's meta.json, checked against the folder it is in (the SHA-256 of its name). */
Result<Engine> readContext(const QString &configDir, const QString &folder)
{
    const QString metaPath = configDir + QStringLiteral("/contexts/meta/") + folder + QStringLiteral("/meta.json");
    const Result<QByteArray> read = readBounded(metaPath, kMaxContextFile);
    if (!read)
        return read.error();
    const QByteArray text = *read;
    const QJsonObject meta = QJsonDocument::fromJson(text).object();
    Engine engine;
    engine.source = Engine::Source::DockerContext;
    engine.name = meta.value(QLatin1String("Name")).toString();
    const QByteArray hash = QCryptographicHash::hash(engine.name.toUtf8(), QCryptographicHash::Sha256).toHex();
    if (!validEngineName(engine.name) || engine.name == QLatin1String("local") || hash != folder.toLatin1())
        return fail(QStringLiteral("%1 does not name a context Paddock can use").arg(metaPath));
    const QJsonObject docker =
        meta.value(QLatin1String("Endpoints")).toObject().value(QLatin1String("docker")).toObject();
    engine.host = docker.value(QLatin1String("Host")).toString().trimmed();
    engine.skipTlsVerify = docker.value(QLatin1String("SkipTLSVerify")).toBool();
    engine.description = meta.value(QLatin1String("Metadata"))
                             .toObject()
                             .value(QLatin1String("Description"))
                             .toString()
                             .left(200)
                             .simplified();
    if (engine.host.isEmpty())
        return fail(QStringLiteral("context %1 has no Docker endpoint").arg(engine.name));
    const QString tls = configDir + QStringLiteral("/contexts/tls/") + folder + QStringLiteral("/docker/");
    for (const auto &[file, target] :
         {std::pair{"ca.pem", &engine.caFile}, {"cert.pem", &engine.certFile}, {"key.pem", &engine.keyFile}}) {
        if (QFileInfo(tls + QLatin1String(file)).isFile())
            *target = tls + QLatin1String(file);
    }
    return engine;
}

bool isLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

bool validEngineName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"));
    return pattern.match(name).hasMatch();
}

QString Engine::sourceName(Source source)
{
    switch (source) {
    case Source::Local:
        return QStringLiteral("local");
    case Source::DockerContext:
        return QStringLiteral("docker context");
    case Source::Paddock:
        break;
    }
    return QStringLiteral("paddock");
}

runtime::docker::Result<runtime::docker::Endpoint> Engine::endpoint() const
{
    using runtime::docker::Endpoint;
    if (source == Source::Local)
        return Endpoint::environmentOrDefault();
    const bool tls = !caFile.isEmpty() || !certFile.isEmpty();
    QProcessEnvironment environment;
    if (tls && !skipTlsVerify)
        environment.insert(QStringLiteral("DOCKER_TLS_VERIFY"), QStringLiteral("1"));
    if (tls)
        environment.insert(QStringLiteral("DOCKER_CERT_PATH"), QStringLiteral("/nonexistent"));
    runtime::docker::Result<Endpoint> parsed = Endpoint::parse(host, environment);
    if (!parsed)
        return parsed;
    Endpoint endpoint = parsed.value();
    if (endpoint.kind == Endpoint::Kind::Tcp && tls) {
        endpoint.caFile = caFile;
        endpoint.certFile = certFile;
        endpoint.keyFile = keyFile;
    }
    return endpoint;
}

bool Engine::onThisComputer() const
{
    const runtime::docker::Result<runtime::docker::Endpoint> reached = endpoint();
    if (!reached || remote)
        return false;
    // An engine reached through ssh is another computer's, even through a loopback address.
    using Kind = runtime::docker::Endpoint::Kind;
    return reached.value().kind == Kind::Unix ||
           (reached.value().kind == Kind::Tcp && isLoopback(reached.value().host));
}

QString EngineFile::path()
{
    return paths::configDir() + QStringLiteral("/engines.yaml");
}

std::variant<EngineFile, FileError> EngineFile::load(const QString &path)
{
    EngineFile file;
    if (const std::optional<FileError> problem = loadFile(
            path, &file, [](const QByteArray &text, const QString &at) { return yaml::decodeText(text, at, decode); },
            lcEngines()))
        return *problem;
    return file;
}

Result<void> EngineFile::save(const QString &path) const
{
    const auto quoted = [](const QString &value) { return doubleQuoted(value, ControlEscape::Yaml).toUtf8(); };
    QByteArray text = "# The container engines Paddock runs Docker sandboxes on (paddock engine).\n";
    if (!use.isEmpty())
        text += "use: " + quoted(use) + '\n';
    if (!engines.isEmpty())
        text += "engines:\n";
    for (const Engine &engine : engines) {
        text += "  " + quoted(engine.name) + ":\n    host: " + quoted(engine.host) + '\n';
        for (const auto &[key, value] :
             {std::pair{"tlsCa", &engine.caFile}, {"tlsCert", &engine.certFile}, {"tlsKey", &engine.keyFile}}) {
            if (!value->isEmpty())
                text += "    " + QByteArray(key) + ": " + quoted(*value) + '\n';
        }
        if (engine.remote)
            text += "    remote: true\n";
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return fail(QStringLiteral("%1 cannot be created").arg(QFileInfo(path).absolutePath()));
    QString error;
    if (!writeFileAtomically(path, text, &error, 0600))
        return fail(error);
    return {};
}

QString DockerContexts::configDir(const QProcessEnvironment &environment)
{
    const QString configured = environment.value(QStringLiteral("DOCKER_CONFIG"));
    if (!configured.isEmpty())
        return configured;
    return environment.value(QStringLiteral("HOME"), QDir::homePath()) + QStringLiteral("/.docker");
}

DockerContexts DockerContexts::read(const QString &configDir)
{
    DockerContexts found;
    if (QFileInfo(configDir + QStringLiteral("/config.json")).isFile()) {
        const Result<QByteArray> config = readBounded(configDir + QStringLiteral("/config.json"), kMaxDockerConfig);
        found.current = QJsonDocument::fromJson(config.valueOr(QByteArray()))
                            .object()
                            .value(QLatin1String("currentContext"))
                            .toString();
        if (!config)
            found.problems << config.error().text();
    }
    const QDir meta(configDir + QStringLiteral("/contexts/meta"));
    const QStringList folders = meta.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &folder : folders.mid(0, kMaxContexts)) {
        if (const Result<Engine> context = readContext(configDir, folder))
            found.contexts.append(*context);
        else
            found.problems << context.error().text();
    }
    if (folders.size() > kMaxContexts)
        found.problems << QStringLiteral("only the first %1 docker contexts are listed").arg(kMaxContexts);
    std::sort(found.contexts.begin(), found.contexts.end(),
              [](const Engine &a, const Engine &b) { return a.name < b.name; });
    return found;
}

EngineList EngineList::read(const QProcessEnvironment &environment)
{
    EngineList list;
    Engine local;
    local.name = QStringLiteral("local");
    local.source = Engine::Source::Local;
    local.host = runtime::docker::Endpoint::environmentOrDefault().display();
    local.description = QStringLiteral("this computer's engine");
    list.engines.append(local);

    DockerContexts contexts = DockerContexts::read(DockerContexts::configDir(environment));
    list.dockerCurrent = contexts.current;
    list.problems = contexts.problems;
    list.engines.append(contexts.contexts);

    std::variant<EngineFile, FileError> file = EngineFile::load();
    if (const FileError *problem = std::get_if<FileError>(&file)) {
        list.problems << problem->toString();
        return list;
    }
    const EngineFile &own = std::get<EngineFile>(file);
    for (const Engine &engine : own.engines) {
        if (list.find(engine.name))
            list.problems << QStringLiteral("%1: engine %2 is also a docker context; the context is used")
                                 .arg(EngineFile::path(), engine.name);
        else
            list.engines.append(engine);
    }
    if (!own.use.isEmpty()) {
        if (list.find(own.use))
            list.use = own.use;
        else
            list.problems << QStringLiteral("the engine in use, %1, is gone; local is used").arg(own.use);
    }
    return list;
}

std::optional<Engine> EngineList::find(const QString &name) const
{
    for (const Engine &engine : engines) {
        if (engine.name == name)
            return engine;
    }
    return std::nullopt;
}

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#include "env/EnvFile.h"

#include "common/YamlDecode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <initializer_list>

namespace paddock::env {
namespace {

using yaml::DecodeError;

constexpr int kMaxEntries = 64;
const QStringList kPhases{QStringLiteral("initialize"), QStringLiteral("postCreate"), QStringLiteral("preRemove")};

[[noreturn]] void fail(const YAML::Node &node, const QString &message)
{
    throw DecodeError{node.Mark(), message};
}

/** Every key of map @p node is one of @p known; @p where names the map in the message. */
void checkKeys(const YAML::Node &node, std::initializer_list<const char *> known, const QString &where)
{
    if (!node.IsMap())
        fail(node, QStringLiteral("%1 must be a mapping").arg(where));
    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString key = QString::fromStdString(it->first.as<std::string>());
        bool found = false;
        for (const char *name : known)
            found = found || key == QLatin1String(name);
        if (!found) {
            QStringList names;
            for (const char *name : known)
                names << QLatin1String(name);
            fail(it->first, QStringLiteral("unknown field '%1' in %2 (known: %3)")
                                .arg(key, where, names.join(QStringLiteral(", "))));
        }
    }
}

QString text(const YAML::Node &node, const QString &what, int maxBytes = 4096)
{
    if (!node.IsScalar())
        fail(node, QStringLiteral("%1 must be a string").arg(what));
    const QString value = QString::fromStdString(node.Scalar());
    if (value.toUtf8().size() > maxBytes)
        fail(node, QStringLiteral("%1 is longer than %2 bytes").arg(what).arg(maxBytes));
    return value;
}

int port(const YAML::Node &node, const QString &what)
{
    bool ok = false;
    const int value = text(node, what).toInt(&ok);
    if (!ok || value < 1 || value > 65535)
        fail(node, QStringLiteral("%1 must be a port, a number from 1 to 65535").arg(what));
    return value;
}

void checkCount(const YAML::Node &node, const QString &what)
{
    if (node.size() > std::size_t(kMaxEntries))
        fail(node, QStringLiteral("%1 has more than %2 entries").arg(what).arg(kMaxEntries));
}

QMap<QString, QString> stringMap(const YAML::Node &node, const QString &what)
{
    if (!node.IsMap())
        fail(node, QStringLiteral("%1 must be a mapping of names to strings").arg(what));
    checkCount(node, what);
    QMap<QString, QString> values;
    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString key = text(it->first, what);
        values.insert(key, it->second.IsNull() ? QString() : text(it->second, QStringLiteral("%1.%2").arg(what, key)));
    }
    return values;
}

QStringList stringList(const YAML::Node &node, const QString &what)
{
    if (!node.IsSequence())
        fail(node, QStringLiteral("%1 must be a list of strings").arg(what));
    checkCount(node, what);
    QStringList values;
    for (const YAML::Node &item : node)
        values << text(item, what);
    return values;
}

KitEntry kitEntry(const YAML::Node &node)
{
    if (node.IsScalar())
        return {text(node, QStringLiteral("a kit")), {}};
    checkKeys(node, {"source", "args"}, QStringLiteral("a kit"));
    if (!node["source"])
        fail(node, QStringLiteral("a kit needs its source"));
    KitEntry entry{text(node["source"], QStringLiteral("a kit's source")), {}};
    if (node["args"])
        entry.args = stringMap(node["args"], QStringLiteral("a kit's args"));
    return entry;
}

QList<PortEntry> ports(const YAML::Node &node)
{
    if (!node.IsSequence())
        fail(node, QStringLiteral("ports must be a list"));
    checkCount(node, QStringLiteral("ports"));
    QList<PortEntry> entries;
    for (const YAML::Node &item : node) {
        checkKeys(item, {"sandbox", "host"}, QStringLiteral("a port"));
        if (!item["sandbox"])
            fail(item, QStringLiteral("a port needs its sandbox port"));
        entries.append({port(item["sandbox"], QStringLiteral("sandbox")),
                        item["host"] ? port(item["host"], QStringLiteral("host")) : 0});
    }
    return entries;
}

QList<BindingEntry> bindings(const YAML::Node &node)
{
    if (!node.IsMap())
        fail(node, QStringLiteral("bindings must be a mapping of services"));
    checkCount(node, QStringLiteral("bindings"));
    QList<BindingEntry> entries;
    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString service = text(it->first, QStringLiteral("a service"));
        const QString where = QStringLiteral("bindings.%1").arg(service);
        checkKeys(it->second, {"apiKey", "oauth"}, where);
        for (auto kind = it->second.begin(); kind != it->second.end(); ++kind) {
            const QString kindName = QString::fromStdString(kind->first.Scalar());
            checkKeys(kind->second, {"domains"}, QStringLiteral("%1.%2").arg(where, kindName));
            if (!kind->second["domains"])
                fail(kind->second, QStringLiteral("%1.%2 needs its domains").arg(where, kindName));
            entries.append({service, kindName, stringList(kind->second["domains"], QStringLiteral("domains"))});
        }
    }
    return entries;
}

QList<HostCommand> lifecycle(const YAML::Node &node, const QString &file)
{
    checkKeys(node, {"initialize", "postCreate", "preRemove"}, QStringLiteral("lifecycle"));
    QList<HostCommand> commands;
    for (const QString &phase : kPhases) {
        const YAML::Node list = node[phase.toStdString()];
        if (!list)
            continue;
        if (!list.IsSequence())
            fail(list, QStringLiteral("lifecycle.%1 must be a list of commands").arg(phase));
        checkCount(list, phase);
        for (const YAML::Node &item : list) {
            checkKeys(item, {"name", "command"}, QStringLiteral("a %1 command").arg(phase));
            if (!item["command"])
                fail(item, QStringLiteral("a %1 command needs its command").arg(phase));
            const QString command = text(item["command"], QStringLiteral("command"), kMaxCommandBytes);
            if (command.trimmed().isEmpty() || command.contains(QChar(0)))
                fail(item["command"], QStringLiteral("a command must not be empty"));
            commands.append({phase, item["name"] ? text(item["name"], QStringLiteral("name")) : QString(), command,
                             file, item.Mark().line + 1});
        }
    }
    return commands;
}

ServiceEntry service(const YAML::Node &node)
{
    checkKeys(node, {"name", "image", "ports", "env", "volumes", "command"}, QStringLiteral("a service"));
    if (!node["name"] || !node["image"])
        fail(node, QStringLiteral("a service needs its name and image"));
    ServiceEntry entry;
    entry.name = text(node["name"], QStringLiteral("name"));
    entry.image = text(node["image"], QStringLiteral("image"));
    if (const YAML::Node list = node["ports"]) {
        if (!list.IsSequence())
            fail(list, QStringLiteral("a service's ports must be a list"));
        for (const YAML::Node &item : list)
            entry.ports << port(item, QStringLiteral("a service's port"));
    }
    if (node["env"])
        entry.env = stringMap(node["env"], QStringLiteral("a service's env"));
    if (node["volumes"])
        entry.volumes = stringList(node["volumes"], QStringLiteral("a service's volumes"));
    if (node["command"])
        entry.command = stringList(node["command"], QStringLiteral("a service's command"));
    return entry;
}

void paddockPart(const YAML::Node &node, const QString &baseDir, Environment *env)
{
    if (node.IsMap() && node["upstreamProxy"])
        fail(node["upstreamProxy"],
             QStringLiteral("the upstream proxy is this computer's, not an environment's: set it "
                            "once with 'paddock settings set upstream-proxy URL'"));
    checkKeys(node, {"kit", "backend", "mounts", "services"}, QStringLiteral("x-paddock"));
    for (auto it = node.begin(); it != node.end(); ++it)
        env->given.insert(QStringLiteral("x-paddock.") + QString::fromStdString(it->first.Scalar()));
    if (node["kit"])
        env->kit = text(node["kit"], QStringLiteral("x-paddock.kit"));
    if (node["backend"]) {
        env->backend = text(node["backend"], QStringLiteral("x-paddock.backend"));
        if (env->backend != QLatin1String("bwrap") && env->backend != QLatin1String("docker"))
            fail(node["backend"], QStringLiteral("x-paddock.backend is bwrap or docker"));
    }
    if (node["mounts"]) {
        for (const QString &mount : stringList(node["mounts"], QStringLiteral("x-paddock.mounts"))) {
            QString error;
            const std::optional<kit::SharedFolder> folder = kit::SharedFolder::parse(mount, baseDir, &error);
            if (!folder)
                fail(node["mounts"], QStringLiteral("x-paddock.mounts: %1").arg(error));
            env->mounts << *folder;
        }
    }
    if (const YAML::Node list = node["services"]) {
        if (!list.IsSequence())
            fail(list, QStringLiteral("x-paddock.services must be a list"));
        checkCount(list, QStringLiteral("x-paddock.services"));
        for (const YAML::Node &item : list)
            env->services << service(item);
    }
}

/** The scalar fields and lists of the top level. */
void topLevel(const YAML::Node &root, const QString &baseDir, Environment *env)
{
    if (root["schemaVersion"] && text(root["schemaVersion"], QStringLiteral("schemaVersion")) != QLatin1String("1"))
        fail(root["schemaVersion"], QStringLiteral("schemaVersion must be \"1\""));
    if (root["name"])
        env->name = text(root["name"], QStringLiteral("name"));
    if (root["agent"])
        env->agent = text(root["agent"], QStringLiteral("agent"));
    if (const YAML::Node kits = root["kits"]) {
        if (!kits.IsSequence())
            fail(kits, QStringLiteral("kits must be a list"));
        checkCount(kits, QStringLiteral("kits"));
        for (const YAML::Node &item : kits)
            env->kits << kitEntry(item);
    }
    if (root["workspace"])
        env->workspace = QDir::cleanPath(QDir(baseDir).absoluteFilePath(
            QDir::fromNativeSeparators(text(root["workspace"], QStringLiteral("workspace")))));
    if (root["env"])
        env->env = stringMap(root["env"], QStringLiteral("env"));
    if (root["ports"])
        env->ports = ports(root["ports"]);
    if (root["bindings"])
        env->bindings = bindings(root["bindings"]);
    if (root["sandboxOptions"])
        env->sandboxOptions = stringMap(root["sandboxOptions"], QStringLiteral("sandboxOptions"));
}

/** sbx's fields that Paddock reads as errors, each with what to do instead. */
void refuseUnsupported(const YAML::Node &root)
{
    static const QList<std::pair<const char *, const char *>> unsupported{
        {"additionalWorkspaces", "share further folders with x-paddock.mounts (HOST[:INSIDE][:ro|rw])"},
        {"secrets", "store keys with 'paddock secret set SERVICE'; the file may only approve their bindings"},
        {"registries", "Paddock pulls no images: load them with 'paddock template load'"},
        {"mcp", "Paddock does not register MCP servers"}};
    if (!root.IsMap())
        return;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QString key = QString::fromStdString(it->first.Scalar());
        for (const auto &[name, instead] : unsupported) {
            if (key == QLatin1String(name))
                fail(it->first, QStringLiteral("'%1' is an sbx field Paddock does not support: %2")
                                    .arg(key, QLatin1String(instead)));
        }
    }
}

Environment decode(const YAML::Node &root, const QString &path)
{
    refuseUnsupported(root);
    checkKeys(root,
              {"schemaVersion", "name", "agent", "kits", "workspace", "env", "ports", "bindings", "sandboxOptions",
               "lifecycle", "x-paddock"},
              QStringLiteral("the environment"));
    Environment env;
    env.file = path;
    env.files << path;
    for (auto it = root.begin(); it != root.end(); ++it)
        env.given.insert(QString::fromStdString(it->first.Scalar()));
    const QString baseDir = QFileInfo(path).absolutePath();
    topLevel(root, baseDir, &env);
    if (root["lifecycle"])
        env.hostCommands = lifecycle(root["lifecycle"], path);
    if (root["x-paddock"])
        paddockPart(root["x-paddock"], baseDir, &env);
    return env;
}

template<typename Map>
void mergeInto(Map *lower, const Map &upper)
{
    for (auto it = upper.begin(); it != upper.end(); ++it)
        lower->insert(it.key(), it.value());
}

std::variant<Environment, FileError> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return FileError{path, 0, 0, QStringLiteral("cannot read the file: %1").arg(file.errorString())};
    if (file.size() > kMaxFileBytes)
        return FileError{path, 0, 0, QStringLiteral("the file is larger than %1 bytes").arg(kMaxFileBytes)};
    return parseEnvironment(file.read(kMaxFileBytes + 1), path);
}

} // namespace

QList<HostCommand> Environment::commandsOf(const QString &phase) const
{
    QList<HostCommand> found;
    for (const HostCommand &command : hostCommands) {
        if (command.phase == phase)
            found << command;
    }
    return found;
}

std::variant<Environment, FileError> parseEnvironment(const QByteArray &text, const QString &path)
{
    if (text.size() > kMaxFileBytes)
        return FileError{path, 0, 0, QStringLiteral("the file is larger than %1 bytes").arg(kMaxFileBytes)};
    return yaml::decodeText(text, path, [&](const YAML::Node &root) { return decode(root, path); });
}

Environment mergeEnvironments(const Environment &lower, const Environment &upper)
{
    Environment merged = upper;
    merged.files = lower.files + upper.files;
    merged.given = lower.given + upper.given;
    auto keep = [&](const char *key, auto member) {
        if (!upper.given.contains(QLatin1String(key)))
            merged.*member = lower.*member;
    };
    keep("name", &Environment::name);
    keep("agent", &Environment::agent);
    keep("kits", &Environment::kits);
    keep("workspace", &Environment::workspace);
    keep("ports", &Environment::ports);
    keep("x-paddock.kit", &Environment::kit);
    keep("x-paddock.backend", &Environment::backend);
    keep("x-paddock.mounts", &Environment::mounts);
    keep("x-paddock.services", &Environment::services);
    merged.env = lower.env;
    mergeInto(&merged.env, upper.env);
    merged.sandboxOptions = lower.sandboxOptions;
    mergeInto(&merged.sandboxOptions, upper.sandboxOptions);
    merged.bindings = upper.bindings;
    for (const BindingEntry &binding : lower.bindings) {
        bool replaced = false;
        for (const BindingEntry &mine : upper.bindings)
            replaced = replaced || (mine.service == binding.service && mine.kind == binding.kind);
        if (!replaced)
            merged.bindings << binding;
    }
    merged.hostCommands.clear();
    for (const QString &phase : kPhases)
        merged.hostCommands << (upper.commandsOf(phase).isEmpty() ? lower.commandsOf(phase) : upper.commandsOf(phase));
    return merged;
}

QString userEnvironmentFile()
{
    return QDir::homePath() + QStringLiteral("/.sbxenv.yaml");
}

std::variant<Environment, FileError> loadEnvironment(const QString &projectFile, const QString &userFile)
{
    const QString path = QFileInfo(projectFile).absoluteFilePath();
    std::variant<Environment, FileError> project = readFile(path);
    if (std::holds_alternative<FileError>(project))
        return project;
    Environment env = std::get<Environment>(std::move(project));
    if (!userFile.isEmpty() && QFileInfo::exists(userFile) && QFileInfo(userFile).absoluteFilePath() != path) {
        std::variant<Environment, FileError> user = readFile(userFile);
        if (std::holds_alternative<FileError>(user))
            return user;
        env = mergeEnvironments(std::get<Environment>(user), env);
    }
    auto missing = [&](const QString &message) { return FileError{path, 0, 0, message}; };
    if (!env.given.contains(QStringLiteral("schemaVersion")))
        return missing(QStringLiteral("schemaVersion: \"1\" is missing"));
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"));
    if (!validName.match(env.name).hasMatch())
        return missing(QStringLiteral("name must be a sandbox name (letters, digits, '.', '_', '-'; at most 63)"));
    if (env.agent.isEmpty() && env.kits.isEmpty() && env.kit.isEmpty())
        return missing(QStringLiteral("no kit: give agent, kits or x-paddock.kit"));
    if (env.workspace.isEmpty())
        env.workspace = QFileInfo(path).absolutePath();
    return env;
}

} // namespace paddock::env

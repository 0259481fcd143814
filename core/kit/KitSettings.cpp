// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitSettings.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

#include <yaml-cpp/yaml.h>

#include <functional>

namespace paddock::kit {
namespace {

constexpr qint64 kMaxFileBytes = 1024 * 1024;

// The folder as the key: absolute, without links, so two spellings of one kit agree.
QString keyOf(const QString &kitDirectory)
{
    const QString canonical = QFileInfo(kitDirectory).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QFileInfo(kitDirectory).absoluteFilePath()) : canonical;
}

std::optional<YAML::Node> readFile(QString *error)
{
    QFile file(KitSettings::path());
    if (!file.exists())
        return YAML::Node(YAML::NodeType::Map);
    if (file.size() > kMaxFileBytes || !file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1 cannot be read").arg(file.fileName());
        return std::nullopt;
    }
    try {
        YAML::Node root = YAML::Load(file.readAll().toStdString());
        if (root.IsNull())
            return YAML::Node(YAML::NodeType::Map);
        if (!root.IsMap() || (root["kits"] && !root["kits"].IsMap()))
            throw YAML::Exception(YAML::Mark::null_mark(),
                                  "expected kits: {FOLDER: {isolation: LEVEL, mounts: [...], env: {...}}}");
        return root;
    } catch (const YAML::Exception &problem) {
        // The shape check has no position to give: the line is named only when the parser has one.
        if (error)
            *error = problem.mark.line >= 0
                         ? QStringLiteral("%1, line %2: %3")
                               .arg(file.fileName())
                               .arg(problem.mark.line + 1)
                               .arg(QString::fromStdString(problem.msg))
                         : QStringLiteral("%1: %2").arg(file.fileName(), QString::fromStdString(problem.msg));
        return std::nullopt;
    }
}

/** Writes @p root back, atomically, creating the folder as needed. */
bool writeFile(const YAML::Node &root, QString *error)
{
    YAML::Emitter out;
    out << YAML::Comment("Paddock's own settings of kits, by folder: the least isolation of their sandboxes, "
                         "the folders and variables they share.")
        << YAML::Newline << root;
    if (!QDir().mkpath(paths::configDir())) {
        *error = QStringLiteral("%1 cannot be created").arg(paths::configDir());
        return false;
    }
    return writeFileAtomically(KitSettings::path(), QByteArray(out.c_str()) + '\n', error, 0600);
}

/** Changes the kit's entry with @p edit and writes the file; an entry left empty goes. */
bool editKit(const QString &kitDirectory, const std::function<void(YAML::Node &)> &edit, QString *error)
{
    std::optional<YAML::Node> root = readFile(error);
    if (!root)
        return false;
    YAML::Node kits = (*root)["kits"] ? YAML::Node((*root)["kits"]) : YAML::Node(YAML::NodeType::Map);
    const std::string key = keyOf(kitDirectory).toStdString();
    YAML::Node kit = kits[key] && kits[key].IsMap() ? YAML::Node(kits[key]) : YAML::Node(YAML::NodeType::Map);
    edit(kit);
    if (kit.size() == 0)
        kits.remove(key);
    else
        kits[key] = kit;
    (*root)["kits"] = kits;
    return writeFile(*root, error);
}

QStringList stringsOf(const YAML::Node &node)
{
    QStringList list;
    if (node && node.IsSequence()) {
        for (const YAML::Node &item : node)
            list << QString::fromStdString(item.as<std::string>());
    }
    return list;
}

QJsonObject serviceFromYaml(const YAML::Node &node)
{
    if (!node.IsMap())
        throw YAML::Exception(node.Mark(), "a service is a map of name, image, ports, env, volumes, command");
    QJsonObject service{{QStringLiteral("name"), QString::fromStdString(node["name"].as<std::string>(""))},
                        {QStringLiteral("image"), QString::fromStdString(node["image"].as<std::string>(""))}};
    QJsonArray ports;
    if (const YAML::Node list = node["ports"]; list && list.IsSequence()) {
        for (const YAML::Node &port : list)
            ports.append(port.as<int>());
    }
    QJsonObject env;
    if (const YAML::Node map = node["env"]; map && map.IsMap()) {
        for (const auto &entry : map)
            env.insert(QString::fromStdString(entry.first.as<std::string>()),
                       QString::fromStdString(entry.second.as<std::string>()));
    }
    service.insert(QStringLiteral("ports"), ports);
    service.insert(QStringLiteral("env"), env);
    service.insert(QStringLiteral("volumes"), QJsonArray::fromStringList(stringsOf(node["volumes"])));
    service.insert(QStringLiteral("command"), QJsonArray::fromStringList(stringsOf(node["command"])));
    return service;
}

YAML::Node stringsToYaml(const QJsonArray &array)
{
    YAML::Node list(YAML::NodeType::Sequence);
    for (const QJsonValue &value : array)
        list.push_back(value.toString().toStdString());
    return list;
}

YAML::Node serviceToYaml(const QJsonObject &service)
{
    YAML::Node node(YAML::NodeType::Map);
    node["name"] = service.value(QLatin1String("name")).toString().toStdString();
    node["image"] = service.value(QLatin1String("image")).toString().toStdString();
    YAML::Node ports(YAML::NodeType::Sequence);
    for (const QJsonValue &port : service.value(QLatin1String("ports")).toArray())
        ports.push_back(port.toInt());
    node["ports"] = ports;
    const QJsonObject env = service.value(QLatin1String("env")).toObject();
    if (!env.isEmpty()) {
        YAML::Node map(YAML::NodeType::Map);
        for (auto it = env.begin(); it != env.end(); ++it)
            map[it.key().toStdString()] = it.value().toString().toStdString();
        node["env"] = map;
    }
    if (const QJsonArray volumes = service.value(QLatin1String("volumes")).toArray(); !volumes.isEmpty())
        node["volumes"] = stringsToYaml(volumes);
    if (const QJsonArray command = service.value(QLatin1String("command")).toArray(); !command.isEmpty())
        node["command"] = stringsToYaml(command);
    return node;
}

} // namespace

QString KitSettings::path()
{
    return paths::configDir() + QStringLiteral("/kit-settings.yaml");
}

std::optional<QString> KitSettings::minimumIsolation(const QString &kitDirectory, QString *error)
{
    const std::optional<YAML::Node> root = readFile(error);
    if (!root)
        return std::nullopt;
    try {
        const YAML::Node kits = (*root)["kits"];
        if (!kits || !kits.IsMap())
            return std::nullopt;
        const YAML::Node kit = kits[keyOf(kitDirectory).toStdString()];
        if (!kit || !kit.IsMap() || !kit["isolation"] || !kit["isolation"].IsScalar())
            return std::nullopt;
        const QString level = QString::fromStdString(kit["isolation"].as<std::string>());
        return level == QLatin1String("gvisor") ? std::optional<QString>(level) : std::nullopt;
    } catch (const YAML::Exception &problem) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path(), QString::fromStdString(problem.msg));
        return std::nullopt;
    }
}

bool KitSettings::setMinimumIsolation(const QString &kitDirectory, const QString &isolation, QString *error)
{
    if (isolation != QLatin1String("gvisor") && isolation != QLatin1String("container")) {
        *error = QStringLiteral("the isolation is container or gvisor, not '%1'").arg(isolation);
        return false;
    }
    return editKit(
        kitDirectory,
        [&isolation](YAML::Node &kit) {
            if (isolation == QLatin1String("container"))
                kit.remove("isolation");
            else
                kit["isolation"] = isolation.toStdString();
        },
        error);
}

KitShares KitSettings::shares(const QString &kitDirectory, QString *error)
{
    KitShares shares;
    const std::optional<YAML::Node> root = readFile(error);
    if (!root)
        return shares;
    try {
        const YAML::Node kits = (*root)["kits"];
        const YAML::Node kit = kits && kits.IsMap() ? kits[keyOf(kitDirectory).toStdString()] : YAML::Node();
        if (!kit || !kit.IsMap())
            return shares;
        if (const YAML::Node mounts = kit["mounts"]) {
            for (const YAML::Node &mount : mounts)
                shares.mounts << QString::fromStdString(mount.as<std::string>());
        }
        if (const YAML::Node env = kit["env"]) {
            for (const auto &entry : env)
                shares.variables.insert(QString::fromStdString(entry.first.as<std::string>()),
                                        QString::fromStdString(entry.second.as<std::string>()));
        }
    } catch (const YAML::Exception &problem) {
        if (error)
            *error = QStringLiteral("%1: mounts is a list of HOST:INSIDE:MODE and env a map of NAME: VALUE (%2)")
                         .arg(path(), QString::fromStdString(problem.msg));
        return {};
    }
    return shares;
}

bool KitSettings::setShares(const QString &kitDirectory, const KitShares &shares, QString *error)
{
    return editKit(
        kitDirectory,
        [&shares](YAML::Node &kit) {
            kit.remove("mounts");
            kit.remove("env");
            if (!shares.mounts.isEmpty()) {
                YAML::Node mounts(YAML::NodeType::Sequence);
                for (const QString &mount : shares.mounts)
                    mounts.push_back(mount.toStdString());
                kit["mounts"] = mounts;
            }
            if (!shares.variables.isEmpty()) {
                YAML::Node env(YAML::NodeType::Map);
                for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it)
                    env[it.key().toStdString()] = it.value().toStdString();
                kit["env"] = env;
            }
        },
        error);
}

QJsonArray KitSettings::services(const QString &kitDirectory, QString *error)
{
    QJsonArray services;
    const std::optional<YAML::Node> root = readFile(error);
    if (!root)
        return services;
    try {
        const YAML::Node kits = (*root)["kits"];
        const YAML::Node kit = kits && kits.IsMap() ? kits[keyOf(kitDirectory).toStdString()] : YAML::Node();
        if (!kit || !kit.IsMap() || !kit["services"])
            return services;
        if (!kit["services"].IsSequence())
            throw YAML::Exception(kit["services"].Mark(), "services is a list");
        for (const YAML::Node &service : kit["services"])
            services.append(serviceFromYaml(service));
    } catch (const YAML::Exception &problem) {
        if (error)
            *error = QStringLiteral("%1: services is a list of {name, image, ports: [PORT], env: {NAME: VALUE}} (%2)")
                         .arg(path(), QString::fromStdString(problem.msg));
        return {};
    }
    return services;
}

bool KitSettings::setServices(const QString &kitDirectory, const QJsonArray &services, QString *error)
{
    return editKit(
        kitDirectory,
        [&services](YAML::Node &kit) {
            kit.remove("services");
            if (services.isEmpty())
                return;
            YAML::Node list(YAML::NodeType::Sequence);
            for (const QJsonValue &service : services)
                list.push_back(serviceToYaml(service.toObject()));
            kit["services"] = list;
        },
        error);
}

} // namespace paddock::kit

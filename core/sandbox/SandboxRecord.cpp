// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SandboxRecord.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::sandbox {

QStringList SandboxRecord::kitDirectories() const
{
    QStringList directories;
    for (const QJsonValue &part : composition)
        directories << part[QLatin1String("directory")].toString();
    return directories.isEmpty() ? QStringList{kitDirectory} : directories;
}

QJsonObject SandboxRecord::toJson() const
{
    QJsonArray files;
    for (const kit::SetupFile &file : setupFiles)
        files.append(QJsonObject{{QStringLiteral("path"), file.path},
                                 {QStringLiteral("content"), file.content},
                                 {QStringLiteral("mode"), file.mode},
                                 {QStringLiteral("onlyIfMissing"), file.onlyIfMissing}});
    QJsonArray volumeList;
    for (const runtime::SandboxVolume &volume : volumes)
        volumeList.append(QJsonObject{{QStringLiteral("path"), volume.path},
                                      {QStringLiteral("tmpfs"), volume.tmpfs},
                                      {QStringLiteral("size"), volume.size},
                                      {QStringLiteral("mode"), volume.mode}});
    QJsonObject object{{QStringLiteral("name"), name},
                       {QStringLiteral("createParams"), createParams},
                       {QStringLiteral("volumes"), volumeList},
                       {QStringLiteral("kit"), kitName},
                       {QStringLiteral("kitDirectory"), kitDirectory},
                       {QStringLiteral("backend"), backend},
                       {QStringLiteral("engine"), engine},
                       {QStringLiteral("networkAllow"), QJsonArray::fromStringList(networkAllow)},
                       {QStringLiteral("networkDeny"), QJsonArray::fromStringList(networkDeny)},
                       {QStringLiteral("setupFiles"), files},
                       {QStringLiteral("services"), sandbox::toJson(services)},
                       {QStringLiteral("secretGuard"), secretGuard},
                       {QStringLiteral("workspace"), workspace},
                       {QStringLiteral("allowedValues"), QJsonArray::fromStringList(allowedValues)},
                       {QStringLiteral("skippedCapabilities"), QJsonArray::fromStringList(skippedCapabilities)},
                       {QStringLiteral("agentVerbs"), agentVerbs.toJson()}};
    if (!composition.isEmpty())
        object.insert(QStringLiteral("composition"), composition);
    if (sshAgent)
        object.insert(QStringLiteral("sshAgent"),
                      QJsonObject{{QStringLiteral("unrestricted"), sshAgent->unrestricted},
                                  {QStringLiteral("sign"), QJsonArray::fromStringList(sshAgent->sign)},
                                  {QStringLiteral("authenticate"), QJsonArray::fromStringList(sshAgent->authenticate)},
                                  {QStringLiteral("backing"), sshAgentBacking},
                                  {QStringLiteral("only"), sshAgentOnly},
                                  {QStringLiteral("knownHosts"), sshKnownHosts}});
    return object;
}

std::optional<SandboxRecord> SandboxRecord::fromJson(const QJsonObject &object)
{
    SandboxRecord record;
    record.name = object.value(QLatin1String("name")).toString();
    record.kitName = object.value(QLatin1String("kit")).toString();
    if (record.name.isEmpty())
        return std::nullopt;
    record.kitDirectory = object.value(QLatin1String("kitDirectory")).toString();
    record.backend = object.value(QLatin1String("backend")).toString(QStringLiteral("bwrap"));
    record.engine = object.value(QLatin1String("engine")).toString();
    for (const QJsonValue &value : object.value(QLatin1String("networkAllow")).toArray())
        record.networkAllow << value.toString();
    for (const QJsonValue &value : object.value(QLatin1String("networkDeny")).toArray())
        record.networkDeny << value.toString();
    for (const QJsonValue &value : object.value(QLatin1String("setupFiles")).toArray()) {
        const QJsonObject file = value.toObject();
        kit::SetupFile setup;
        setup.path = file.value(QLatin1String("path")).toString();
        setup.content = file.value(QLatin1String("content")).toString();
        setup.mode = file.value(QLatin1String("mode")).toString();
        setup.onlyIfMissing = file.value(QLatin1String("onlyIfMissing")).toBool();
        record.setupFiles.append(setup);
    }
    record.workspace = object.value(QLatin1String("workspace")).toString();
    record.secretGuard = object.value(QLatin1String("secretGuard")).toString(QStringLiteral("off"));
    for (const QJsonValue &value : object.value(QLatin1String("allowedValues")).toArray())
        record.allowedValues << value.toString();
    record.services = companionsFromJson(object.value(QLatin1String("services")).toArray());
    for (const QJsonValue &value : object.value(QLatin1String("skippedCapabilities")).toArray())
        record.skippedCapabilities << value.toString();
    record.composition = object.value(QLatin1String("composition")).toArray();
    record.agentVerbs = kit::AgentVerbs::fromJson(object.value(QLatin1String("agentVerbs")).toObject());
    record.createParams = object.value(QLatin1String("createParams")).toObject();
    for (const QJsonValue &value : object.value(QLatin1String("volumes")).toArray()) {
        const QJsonObject volume = value.toObject();
        record.volumes.append(
            {volume.value(QLatin1String("path")).toString(), volume.value(QLatin1String("tmpfs")).toBool(),
             volume.value(QLatin1String("size")).toString(), volume.value(QLatin1String("mode")).toString()});
    }
    if (object.value(QLatin1String("sshAgent")).isObject()) {
        const QJsonObject agent = object.value(QLatin1String("sshAgent")).toObject();
        kit::SshAgentGrant grant;
        grant.unrestricted = agent.value(QLatin1String("unrestricted")).toBool();
        for (const QJsonValue &value : agent.value(QLatin1String("sign")).toArray())
            grant.sign << value.toString();
        for (const QJsonValue &value : agent.value(QLatin1String("authenticate")).toArray())
            grant.authenticate << value.toString();
        record.sshAgent = grant;
        record.sshAgentBacking = agent.value(QLatin1String("backing")).toString();
        record.sshAgentOnly = agent.value(QLatin1String("only")).toBool();
        record.sshKnownHosts = agent.value(QLatin1String("knownHosts")).toString();
    }
    return record;
}

QString SandboxRecord::directory()
{
    return paths::dataDir() + QStringLiteral("/sandbox-kits");
}

QString SandboxRecord::pathFor(const QString &name)
{
    return directory() + QLatin1Char('/') + name + QStringLiteral(".json");
}

std::optional<SandboxRecord> SandboxRecord::read(const QString &name)
{
    QFile file(pathFor(name));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return fromJson(QJsonDocument::fromJson(file.readAll()).object());
}

QList<SandboxRecord> SandboxRecord::all()
{
    QList<SandboxRecord> records;
    const QStringList files = QDir(directory()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        if (std::optional<SandboxRecord> record = read(file.chopped(5)))
            records.append(std::move(*record));
    }
    return records;
}

Result<void> SandboxRecord::write() const
{
    QString error;
    if (!paths::ensurePrivateDir(directory(), &error) ||
        !writeFileAtomically(pathFor(name), QJsonDocument(toJson()).toJson(QJsonDocument::Compact), &error, 0600,
                             createParams.value(QLatin1String("disposable")).toBool() ? Durability::Unsynced
                                                                                      : Durability::Synced))
        return fail(error);
    return {};
}

void SandboxRecord::remove(const QString &name)
{
    QFile::remove(pathFor(name));
}

} // namespace paddock::sandbox

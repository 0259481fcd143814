// SPDX-License-Identifier: GPL-3.0-or-later
// The kit's blocks: sandbox, security, agentInstructions, permissions, environment, setup,
// ports and volumes.
#include "kit/KitDecoder.h"

#include "kit/KitRules.h"
#include "policy/HostGrant.h"

#include <QRegularExpression>

namespace paddock::kit::detail {

void KitDecoder::readSecurity(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at, {{"privileged", [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                            m_kit.privileged = boolean(v, k, a);
                        }}});
}

// -----------------------------------------------------------------------------------------
// sandbox

void KitDecoder::readSandboxField(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsNull())
        m_sandboxLoc = locOf(key.Mark());
    else
        readSandbox(value, key, at);
}

void KitDecoder::readSandbox(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_sandboxLoc = locOf(key.Mark());
    if (!expectMap(value, key, at))
        return;
    SandboxBlock sandbox;
    m_imageLoc = locOf(key.Mark());
    fields(
        value, at,
        {
            {"image",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 m_imageLoc = valueLoc(v, k);
                 sandbox.image = str(v, k, a);
             }},
            {"build", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readBuild(sandbox, v, k, a); }},
            {"entrypoint",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readEntrypoint(sandbox, v, k, a); }},
            {"command", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readCommand(sandbox, v, k, a); }},
            {"resources",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readResources(sandbox, v, k, a); }},
        });
    m_kit.sandbox = sandbox;
}

void KitDecoder::readBuild(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_buildLoc = locOf(key.Mark());
    if (!expectMap(value, key, at))
        return;
    BuildConfig build;
    fields(
        value, at,
        {
            {"context", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { build.context = str(v, k, a); }},
            {"dockerfile",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { build.dockerfile = str(v, k, a); }},
            {"args", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { build.args = strMap(v, k, a); }},
            {"target", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { build.target = str(v, k, a); }},
            {"platforms",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { build.platforms = strList(v, k, a); }},
        });
    sandbox.build = build;
}

void KitDecoder::readEntrypoint(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsMap()) {
        // The draft form `entrypoint: {run: [...], args: [...]}`.
        fields(value, at, {});
        return;
    }
    sandbox.entrypoint = strList(value, key, at);
}

void KitDecoder::readCommand(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsSequence()) {
        sandbox.commandDefault = strList(value, key, at);
        return;
    }
    if (!value.IsMap()) {
        if (!value.IsNull())
            error(valueLoc(value, key), QStringLiteral("`%1` must be a list, or a mapping with `default` and "
                                                       "`interactive` lists; found %2")
                                            .arg(at.path, nodeKindName(value)));
        return;
    }
    fields(value, at,
           {
               {"default", [&](const YAML::Node &k, const YAML::Node &v,
                               const At &a) { sandbox.commandDefault = strList(v, k, a); }},
               {"interactive", [&](const YAML::Node &k, const YAML::Node &v,
                                   const At &a) { sandbox.commandInteractive = strList(v, k, a); }},
           });
}

void KitDecoder::readResources(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    Resources resources;
    fields(
        value, at,
        {
            {"cpu",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 resources.cpu = number(v, k, a);
                 if (resources.cpu && *resources.cpu < 0)
                     error(valueLoc(v, k), QStringLiteral("`%1` must not be negative").arg(a.path));
             }},
            {"memory", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readMemory(resources, v, k, a); }},
            {"gpu", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { resources.gpu = str(v, k, a); }},
        });
    sandbox.resources = resources;
}

void KitDecoder::readMemory(Resources &resources, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    resources.memory = str(value, key, at, &unresolved);
    if (resources.memory.isEmpty() || unresolved)
        return;
    resources.memoryBytes = rules::parseByteSize(resources.memory);
    if (!resources.memoryBytes)
        error(valueLoc(value, key), QStringLiteral("`%1` is not a byte size: '%2' (expected e.g. 512m, 4096m, 8g)")
                                        .arg(at.path, resources.memory));
}

// -----------------------------------------------------------------------------------------
// agentInstructions, permissions, environment

void KitDecoder::readAgentInstructions(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    AgentInstructions instructions;
    fields(value, at,
           {
               {"filename",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    instructions.filename = str(v, k, a);
                    if (!instructions.filename.isEmpty())
                        m_filenameLoc = locOf(k.Mark());
                }},
               {"content",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { instructions.content = str(v, k, a); }},
           });
    m_kit.agentInstructions = instructions;
}

void KitDecoder::readPermissions(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at, {{"network", reader(&KitDecoder::readNetwork)}});
}

void KitDecoder::readNetwork(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at,
           {
               {"allow",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    m_kit.networkAllow = strList(v, k, a);
                    warnHostGrants(v);
                }},
               {"deny",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { m_kit.networkDeny = strList(v, k, a); }},
           });
}

void KitDecoder::warnHostGrants(const YAML::Node &allow)
{
    if (!allow.IsSequence())
        return;
    // strList() kept one entry per item, so the positions line up; a placeholder left
    // unresolved is no pattern yet and is checked when the kit runs with its value.
    qsizetype i = 0;
    for (auto it = allow.begin(); it != allow.end() && i < m_kit.networkAllow.size(); ++it, ++i) {
        const std::optional<policy::HostGrant> grant = policy::hostGrantOf(QStringView(m_kit.networkAllow.at(i)));
        if (!grant)
            continue;
        warning(locOf(it->Mark()),
                QStringLiteral("`%1` reaches this computer or its networks (%2): a host grant, which a sandbox of this "
                               "kit gets only once you approve it (`paddock grant approve --kit KIT-FOLDER`, or "
                               "--approve-host-grants)")
                    .arg(m_kit.networkAllow.at(i), grant->reachPhrase()));
    }
}

void KitDecoder::readEnvironment(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at, {{"variables", reader(&KitDecoder::readVariables)}});
}

void KitDecoder::readVariables(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_kit.environment = strMap(value, key, at, [&](const QString &name, Loc loc) {
        if (!rules::isValidEnvironmentName(name))
            error(loc, QStringLiteral("environment variable name '%1' is invalid: it must match "
                                      "^[A-Za-z_][A-Za-z0-9_]*$")
                           .arg(name));
    });
}

// -----------------------------------------------------------------------------------------
// setup

void KitDecoder::readSetup(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at,
           {
               {"install", listReader(&KitDecoder::readInstallEntry)},
               {"startup", listReader(&KitDecoder::readStartupEntry)},
               {"files", listReader(&KitDecoder::readSetupFile)},
           });
}

void KitDecoder::readInstallEntry(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    InstallCommand command;
    bool hasCommand = false;
    fields(value, at,
           {
               {"command",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    hasCommand = true;
                    readInstallCommand(command, v, k, a);
                }},
               {"user", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { command.user = str(v, k, a); }},
               {"description",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { command.description = str(v, k, a); }},
           });
    if (!hasCommand)
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `command`").arg(at.path));
    m_kit.setup.install.append(command);
}

void KitDecoder::readInstallCommand(InstallCommand &command, const YAML::Node &value, const YAML::Node &key,
                                    const At &at)
{
    if (value.IsSequence()) {
        error(valueLoc(value, key), QStringLiteral("`%1` must be a string (it runs with sh -c), found a list; only "
                                                   "startup commands are lists")
                                        .arg(at.path));
        return;
    }
    command.command = str(value, key, at);
    if (command.command.trimmed().isEmpty() && value.IsDefined())
        error(valueLoc(value, key), QStringLiteral("`%1` must not be empty").arg(at.path));
}

void KitDecoder::readStartupEntry(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    StartupCommand command;
    bool hasCommand = false;
    fields(value, at,
           {
               {"command",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    hasCommand = true;
                    readStartupCommand(command, v, k, a);
                }},
               {"user", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { command.user = str(v, k, a); }},
               {"background", [&](const YAML::Node &k, const YAML::Node &v,
                                  const At &a) { command.background = boolean(v, k, a).value_or(false); }},
               {"description",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { command.description = str(v, k, a); }},
           });
    if (!hasCommand)
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `command`").arg(at.path));
    m_kit.setup.startup.append(command);
}

void KitDecoder::readStartupCommand(StartupCommand &command, const YAML::Node &value, const YAML::Node &key,
                                    const At &at)
{
    if (value.IsScalar()) {
        error(valueLoc(value, key), QStringLiteral("`%1` must be a list of strings (exec-style argv), found a string; "
                                                   "for a shell write [\"sh\", \"-c\", \"...\"]")
                                        .arg(at.path));
        return;
    }
    command.command = strList(value, key, at);
    if (command.command.isEmpty() && !value.IsMap())
        error(valueLoc(value, key), QStringLiteral("`%1` must be a non-empty list").arg(at.path));
}

void KitDecoder::readSetupFile(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    SetupFile file;
    PathSpot pathSpot{valueLoc(value, key)};
    fields(value, at,
           {
               pathField(&file.path, &pathSpot),
               {"content",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    file.content = str(v, k, a);
                    checkSetupFileContent(file, v, k, a);
                }},
               {"mode",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { file.mode = octalMode(v, k, a, "0644"); }},
               {"onlyIfMissing", [&](const YAML::Node &k, const YAML::Node &v,
                                     const At &a) { file.onlyIfMissing = boolean(v, k, a).value_or(false); }},
               {"description",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { file.description = str(v, k, a); }},
           });
    checkAbsolutePath(file.path, pathSpot, at);
    m_kit.setup.files.append(file);
}

// A setup file's content may use ${WORKDIR}, which the runtime fills in, and nothing else.
void KitDecoder::checkSetupFileContent(const SetupFile &file, const YAML::Node &value, const YAML::Node &key,
                                       const At &at)
{
    static const QRegularExpression placeholder(QStringLiteral("\\$\\{[^}]+\\}"));
    auto matches = placeholder.globalMatch(file.content);
    while (matches.hasNext()) {
        const QString found = matches.next().captured();
        if (found != QLatin1String("${WORKDIR}")) {
            error(valueLoc(value, key),
                  QStringLiteral("`%1` uses the placeholder %2; only ${WORKDIR} is supported").arg(at.path, found));
            break;
        }
    }
}

// -----------------------------------------------------------------------------------------
// ports and volumes

void KitDecoder::readPortsField(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_portsLoc = locOf(key.Mark());
    readPorts(value, key, at);
}

void KitDecoder::readPublishedPorts(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_publishedPortsLoc = locOf(key.Mark());
    warning(*m_publishedPortsLoc,
            QStringLiteral("`publishedPorts` is deprecated and read as `ports`; rename it to `ports`"));
    readPorts(value, key, at);
}

void KitDecoder::readPorts(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    eachMapping(value, key, at, &KitDecoder::readPort);
}

void KitDecoder::readPort(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    Port port;
    bool hasContainer = false;
    fields(value, at,
           {
               {"container",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    hasContainer = true;
                    const auto n = integer(v, k, a);
                    if (n && (*n < 1 || *n > 65535))
                        error(valueLoc(v, k),
                              QStringLiteral("`%1` must be a port in 1..65535, found %2").arg(a.path).arg(*n));
                    else if (n)
                        port.container = int(*n);
                }},
               {"protocol",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    port.protocol = str(v, k, a);
                    if (!port.protocol.isEmpty() && port.protocol != QLatin1String("tcp") &&
                        port.protocol != QLatin1String("udp"))
                        error(valueLoc(v, k),
                              QStringLiteral("`%1` must be tcp or udp, found '%2'").arg(a.path, port.protocol));
                }},
               {"name", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { port.name = str(v, k, a); }},
           });
    if (!hasContainer)
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `container`").arg(at.path));
    if (port.protocol.isEmpty())
        port.protocol = QStringLiteral("tcp");
    m_kit.ports.append(port);
}

void KitDecoder::readVolume(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    Volume volume;
    PathSpot pathSpot{valueLoc(value, key)};
    fields(value, at,
           {
               pathField(&volume.path, &pathSpot),
               {"type",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    volume.type = str(v, k, a);
                    if (!volume.type.isEmpty() && volume.type != QLatin1String("tmpfs"))
                        error(valueLoc(v, k),
                              QStringLiteral("`%1` must be \"\" (a block-backed volume) or tmpfs, found '%2'")
                                  .arg(a.path, volume.type));
                }},
               {"size",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    bool unresolved = false;
                    volume.size = str(v, k, a, &unresolved);
                    if (!volume.size.isEmpty() && !unresolved && !rules::parseByteSize(volume.size))
                        error(valueLoc(v, k), QStringLiteral("`%1` is not a byte size: '%2' (expected e.g. 512m, 10g)")
                                                  .arg(a.path, volume.size));
                }},
               {"mode", [&](const YAML::Node &k, const YAML::Node &v,
                            const At &a) { volume.mode = octalMode(v, k, a, "0755"); }},
           });
    checkAbsolutePath(volume.path, pathSpot, at);
    m_kit.volumes.append(volume);
}

QString KitDecoder::octalMode(const YAML::Node &value, const YAML::Node &key, const At &at, const char *example)
{
    bool unresolved = false;
    const QString mode = str(value, key, at, &unresolved);
    if (!mode.isEmpty() && !unresolved && !rules::isOctalMode(mode))
        error(valueLoc(value, key), QStringLiteral("`%1` must be an octal mode such as \"%2\", found '%3'")
                                        .arg(at.path, QLatin1String(example), mode));
    return mode;
}

KitDecoder::Field KitDecoder::pathField(QString *path, PathSpot *spot)
{
    return {"path", [this, path, spot](const YAML::Node &k, const YAML::Node &v, const At &a) {
                spot->loc = valueLoc(v, k);
                *path = str(v, k, a, &spot->unresolved);
            }};
}

void KitDecoder::checkAbsolutePath(const QString &path, const PathSpot &spot, const At &at)
{
    if (path.isEmpty())
        error(spot.loc, QStringLiteral("`%1` is missing its required field `path`").arg(at.path));
    else if (!spot.unresolved && !path.startsWith(QLatin1Char('/')))
        error(spot.loc, QStringLiteral("`%1.path` must be an absolute path, found '%2'").arg(at.path, path));
}

} // namespace paddock::kit::detail

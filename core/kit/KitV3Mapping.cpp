// SPDX-License-Identifier: GPL-3.0-or-later
// A schemaVersion "3" descriptor onto Paddock's kit model: each capability request carried out,
// skipped or refused.
#include "kit/KitV3Mapping.h"

#include "common/QuotedString.h"
#include "kit/ArgsSubstitution.h"
#include "kit/KitRules.h"
#include "kit/KitShares.h"
#include "kit/KitV3Decoder.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace paddock::kit {

QString outcomeName(CapabilityOutcome::Status status)
{
    switch (status) {
    case CapabilityOutcome::Status::Applied:
        return QStringLiteral("applied");
    case CapabilityOutcome::Status::Skipped:
        return QStringLiteral("skipped");
    case CapabilityOutcome::Status::Refused:
        break;
    }
    return QStringLiteral("refused");
}

namespace {

const QString kPrefix = QStringLiteral("com.docker.sandbox/");

/** Substitutes argument values into every string of @p value. */
QJsonValue substituted(const QJsonValue &value, const QMap<QString, QString> &values)
{
    if (value.isString())
        return substituteArgs(value.toString(), values).text;
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(substituted(item, values));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            object.insert(it.key(), substituted(it.value(), values));
        return object;
    }
    return value;
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

/** A string-or-list command as argv ("sh -c STRING" for a string). */
QStringList argvOf(const QJsonValue &command)
{
    return command.isString() ? QStringList{QStringLiteral("sh"), QStringLiteral("-c"), command.toString()}
                              : strings(command);
}

/** The numeric field @p name of @p object, also when an argument made it a string. */
double numberOf(const QJsonObject &object, const char *name)
{
    const QJsonValue value = object.value(QLatin1String(name));
    return value.isString() ? value.toString().toDouble() : value.toDouble();
}

Injection injectionOf(const QJsonObject &rule)
{
    Injection inject;
    inject.domain = rule.value(QLatin1String("domain")).toString();
    inject.header = rule.value(QLatin1String("header")).toString();
    inject.format = rule.value(QLatin1String("format")).toString();
    inject.scheme = rule.value(QLatin1String("scheme")).toString();
    inject.username = rule.value(QLatin1String("username")).toString();
    if (inject.scheme == QLatin1String("bearer") || inject.scheme == QLatin1String("basic")) {
        if (inject.header.isEmpty())
            inject.header = QStringLiteral("Authorization");
        inject.format =
            inject.scheme == QLatin1String("bearer") ? QStringLiteral("Bearer %s") : QStringLiteral("Basic %s");
        if (inject.scheme == QLatin1String("basic"))
            inject.encoding = Injection::Encoding::BasicAuth;
    }
    if (inject.header.isEmpty())
        inject.header = QStringLiteral("Authorization");
    if (inject.format.isEmpty())
        inject.format = QStringLiteral("%s");
    return inject;
}

Credential credentialOf(const V3Capability &request, const QJsonObject &config)
{
    Credential credential;
    credential.service = config.value(QLatin1String("service")).toString();
    credential.description = request.description;
    credential.required = !request.optional;
    if (config.contains(QLatin1String("apiKey"))) {
        const QJsonObject key = config.value(QLatin1String("apiKey")).toObject();
        ApiKey apiKey;
        apiKey.name = key.value(QLatin1String("name")).toString();
        apiKey.proxyManaged = key.value(QLatin1String("proxyManaged")).toBool();
        for (const QJsonValue &rule : key.value(QLatin1String("inject")).toArray())
            apiKey.inject << injectionOf(rule.toObject());
        credential.apiKey = apiKey;
    }
    if (config.contains(QLatin1String("oauth"))) {
        const QJsonObject in = config.value(QLatin1String("oauth")).toObject();
        OAuth oauth;
        const QJsonObject endpoint = in.value(QLatin1String("tokenEndpoint")).toObject();
        oauth.tokenHost = endpoint.value(QLatin1String("host")).toString();
        oauth.tokenPath = endpoint.value(QLatin1String("path")).toString();
        oauth.resourceHosts = strings(in.value(QLatin1String("resourceHosts")));
        const QJsonObject sentinels = in.value(QLatin1String("sentinels")).toObject();
        oauth.accessTokenSentinel = sentinels.value(QLatin1String("accessToken")).toString();
        oauth.refreshTokenSentinel = sentinels.value(QLatin1String("refreshToken")).toString();
        const QJsonObject file = in.value(QLatin1String("credentialFile")).toObject();
        oauth.hasCredentialFile = !file.isEmpty();
        oauth.credentialFilePath = file.value(QLatin1String("path")).toString();
        oauth.credentialFileStructure = file.value(QLatin1String("structure")).toObject();
        const QJsonObject fields = in.value(QLatin1String("responseFields")).toObject();
        oauth.responseAccessToken = fields.value(QLatin1String("accessToken")).toString();
        oauth.responseRefreshToken = fields.value(QLatin1String("refreshToken")).toString();
        oauth.responseExpiresIn = fields.value(QLatin1String("expiresIn")).toString();
        oauth.passthrough = in.value(QLatin1String("passthrough")).toBool();
        credential.oauth = oauth;
    }
    return credential;
}

void applyLifecycle(Kit &kit, const QJsonObject &config)
{
    for (const QJsonValue &value : config.value(QLatin1String("install")).toArray()) {
        const QJsonObject hook = value.toObject();
        InstallCommand install;
        const QJsonValue command = hook.value(QLatin1String("command"));
        if (command.isString()) {
            install.command = command.toString();
        } else {
            QStringList words;
            for (const QString &word : strings(command))
                words << shellWord(word);
            install.command = words.join(QLatin1Char(' '));
        }
        install.user = hook.value(QLatin1String("user")).toString();
        install.description = hook.value(QLatin1String("description")).toString();
        install.environment = strings(hook.value(QLatin1String("env"))); // deny by default
        kit.setup.install << install;
    }
    for (const QJsonValue &value : config.value(QLatin1String("startup")).toArray()) {
        const QJsonObject hook = value.toObject();
        kit.setup.startup << StartupCommand{
            argvOf(hook.value(QLatin1String("command"))), hook.value(QLatin1String("user")).toString(),
            hook.value(QLatin1String("background")).toBool(), hook.value(QLatin1String("description")).toString(),
            strings(hook.value(QLatin1String("env")))};
    }
    for (const QJsonValue &value : config.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = value.toObject();
        kit.setup.files << SetupFile{
            file.value(QLatin1String("path")).toString(), file.value(QLatin1String("content")).toString(),
            file.value(QLatin1String("mode")).toString(), !file.value(QLatin1String("overwrite")).toBool(true),
            file.value(QLatin1String("description")).toString()};
    }
    if (config.contains(QLatin1String("interactive")))
        (kit.sandbox ? kit.sandbox->commandInteractive : kit.mixinInteractive) =
            strings(config.value(QLatin1String("interactive")));
}

QString anyPortUnlessStated(const QString &entry)
{
    return v3NetworkPattern(entry);
}

QStringList anyPortUnlessStated(const QStringList &entries)
{
    QStringList patterns;
    for (const QString &entry : entries)
        patterns << anyPortUnlessStated(entry);
    return patterns;
}

/** Why a required capability refuses the kit: for the two Paddock declines on purpose, the reason. */
QString refusalOf(const QString &type)
{
    if (type == kPrefix + QStringLiteral("privileged@1"))
        return QStringLiteral("the kit requires %1: a privileged sandbox holds the host kernel's powers (devices, "
                              "mounts, namespaces), which is the boundary Paddock keeps; neither bubblewrap nor "
                              "Paddock's Docker sandboxes offer it")
            .arg(type);
    if (type == kPrefix + QStringLiteral("usb-device@1"))
        return QStringLiteral("the kit requires %1: Paddock passes no host device into a sandbox (bubblewrap gives "
                              "it a /dev of its own with no USB devices); use the device from the host instead")
            .arg(type);
    return QStringLiteral("the kit requires %1, which Paddock does not implement: it cannot run here").arg(type);
}

/** agent-sessions@1, agent-interactive-sessions@1 and agent-context@1: kept for the sandbox. */
std::optional<QString> applyAgentDeclaration(Kit &kit, const QString &type, const QJsonObject &config)
{
    if (type == QLatin1String("agent-sessions@1") || type == QLatin1String("agent-interactive-sessions@1")) {
        const bool interactive = type == QLatin1String("agent-interactive-sessions@1");
        if (!kit.sandbox)
            return QStringLiteral("a mixin's verbs have nothing to drive: the workload's declaration governs");
        (interactive ? kit.agentInteractiveSessions : kit.agentSessions) = config;
        QStringList verbs;
        for (auto it = config.begin(); it != config.end(); ++it)
            verbs << it.key();
        return QStringLiteral("how to drive the agent %1 (%2); it grants nothing")
            .arg(interactive ? QStringLiteral("in a terminal") : QStringLiteral("without a terminal"),
                 verbs.join(QStringLiteral(", ")));
    }
    // Written at creation (sandbox/AgentContext): the profile with Paddock's guidance and the index.
    if (type == QLatin1String("agent-context@1")) {
        AgentContext context{config.value(QLatin1String("filename")).toString(),
                             config.value(QLatin1String("directory")).toString(),
                             config.value(QLatin1String("contentFile")).toString(),
                             config.value(QLatin1String("content")).toString(),
                             {},
                             {}};
        kit.agentContexts << context;
        if (context.filename.isEmpty())
            return QStringLiteral("instructions for the agent, listed in its profile's Kits section");
        return QStringLiteral("the agent's profile %1, with Paddock's guidance and the Kits section")
            .arg(context.directory.isEmpty() ? QStringLiteral("~/") + context.filename
                                             : context.directory + QLatin1Char('/') + context.filename);
    }
    return std::nullopt;
}

/** Why a volume@1 request cannot be carried out as written, or nullopt: its path, size and mode. */
std::optional<QString> volumeConfigProblem(const QJsonObject &config)
{
    const QString path = config.value(QLatin1String("path")).toString();
    if (const std::optional<QString> problem = volumePathProblem(path))
        return QStringLiteral("%1 (volume@1 path)").arg(*problem);
    const QString size = config.value(QLatin1String("size")).toString();
    if (!size.isEmpty() && !rules::parseByteSize(size))
        return QStringLiteral("the volume %1 has the size '%2', which is not a byte size: write it as 512m, 2g or 1gib")
            .arg(path, size);
    static const QRegularExpression octal(QStringLiteral("^[0-7]{3,4}$"));
    const QString mode = config.value(QLatin1String("mode")).toString();
    if (!mode.isEmpty() && !octal.match(mode).hasMatch())
        return QStringLiteral(
                   "the volume %1 has the mode '%2', which is not octal permissions: write it as 755 or 0755")
            .arg(path, mode);
    return std::nullopt;
}

/** ssh-agent@1 in plain words: what the agent may sign in @p grant's phase. */
QString sshAgentWords(const SshAgentGrant &grant)
{
    const QString phase =
        grant.phase == QLatin1String("install") ? QStringLiteral("while installing") : QStringLiteral("while it runs");
    if (grant.unrestricted)
        return QStringLiteral("an SSH agent %1 that uses your SSH keys for anything").arg(phase);
    QStringList parts;
    if (!grant.sign.isEmpty())
        parts << QStringLiteral("signs %1 signatures").arg(grant.sign.join(QStringLiteral(", ")));
    if (!grant.authenticate.isEmpty())
        parts << QStringLiteral("logs in to %1").arg(grant.authenticate.join(QStringLiteral(", ")));
    return QStringLiteral("an SSH agent %1 that only %2 with your SSH keys")
        .arg(phase, parts.join(QStringLiteral(" and ")));
}

/**
 * ssh-agent@1: one grant per phase; entries for the same phase merge (unrestricted when any
 * is, else the union of their lists; required when any is).
 */
QString applySshAgent(Kit &kit, const V3Capability &request, const QJsonObject &config)
{
    QStringList words;
    for (const QString &phase : detail::sshAgentPhases(config)) {
        auto it = std::find_if(kit.sshAgents.begin(), kit.sshAgents.end(),
                               [&](const SshAgentGrant &grant) { return grant.phase == phase; });
        if (it == kit.sshAgents.end()) {
            SshAgentGrant grant;
            grant.phase = phase;
            grant.required = false;
            grant.unrestricted = false;
            kit.sshAgents << grant;
            it = kit.sshAgents.end() - 1;
        }
        it->required |= !request.optional;
        it->unrestricted |= config.value(QLatin1String("unrestricted")).toBool(true);
        it->sign << strings(config.value(QLatin1String("sign")));
        it->authenticate << strings(config.value(QLatin1String("authenticate")));
        it->sign.removeDuplicates();
        it->authenticate.removeDuplicates();
        if (it->unrestricted) {
            it->sign.clear();
            it->authenticate.clear();
        }
        words << sshAgentWords(*it);
    }
    return words.join(QStringLiteral("; "));
}

/** Carries out @p request on @p kit; what it became, or nothing when Paddock has no such thing. */
std::optional<QString> apply(Kit &kit, const V3Capability &request, const QJsonObject &config)
{
    const QString type = request.type.startsWith(kPrefix) ? request.type.mid(kPrefix.size()) : QString();
    if (type == QLatin1String("network-policy@1")) {
        const QJsonObject runtime = config.value(QLatin1String("runtime")).toObject();
        const QJsonObject install = config.value(QLatin1String("install")).toObject();
        kit.networkAllow << anyPortUnlessStated(strings(runtime.value(QLatin1String("allow"))));
        kit.networkDeny << anyPortUnlessStated(strings(runtime.value(QLatin1String("deny"))));
        kit.networkInstallAllow << anyPortUnlessStated(strings(install.value(QLatin1String("allow"))));
        kit.networkInstallDeny << anyPortUnlessStated(strings(install.value(QLatin1String("deny"))));
        for (QStringList *list :
             {&kit.networkAllow, &kit.networkDeny, &kit.networkInstallAllow, &kit.networkInstallDeny})
            list->removeDuplicates();
        const QString none = QStringLiteral("nothing");
        QString what = QStringLiteral("network rules: allow %1")
                           .arg(kit.networkAllow.isEmpty() ? none : kit.networkAllow.join(QStringLiteral(", ")));
        if (!kit.networkInstallAllow.isEmpty())
            what += QStringLiteral("; while installing only: allow %1")
                        .arg(kit.networkInstallAllow.join(QStringLiteral(", ")));
        return what;
    }
    if (type == QLatin1String("credential@1")) {
        kit.credentials << credentialOf(request, config);
        return QStringLiteral("credential %1 from the keychain, presented by the proxy")
            .arg(kit.credentials.last().service);
    }
    if (type == QLatin1String("port@1")) {
        const int container = int(numberOf(config, "container"));
        const QString transport = config.value(QLatin1String("transport")).toString(QStringLiteral("tcp"));
        kit.ports << Port{container, transport, config.value(QLatin1String("name")).toString()};
        return QStringLiteral("port %1/%2 published on 127.0.0.1").arg(container).arg(transport);
    }
    if (type == QLatin1String("resources@1")) {
        Resources resources;
        if (config.contains(QLatin1String("cpu")))
            resources.cpu = numberOf(config, "cpu");
        resources.memory = config.value(QLatin1String("memory")).toString();
        resources.memoryBytes = rules::parseByteSize(resources.memory);
        resources.gpu = config.value(QLatin1String("gpu")).toString();
        (kit.sandbox ? kit.sandbox->resources : kit.mixinResources) = resources;
        return QStringLiteral("limits: %1 CPU, memory %2 (where the backend has limits)")
            .arg(resources.cpu ? QString::number(*resources.cpu) : QStringLiteral("any"),
                 resources.memory.isEmpty() ? QStringLiteral("any") : resources.memory);
    }
    if (type == QLatin1String("lifecycle@1")) {
        applyLifecycle(kit, config);
        const QStringList tail = strings(config.value(QLatin1String("interactive")));
        return QStringLiteral("%1 install and %2 startup commands, %3 files%4")
            .arg(kit.setup.install.size())
            .arg(kit.setup.startup.size())
            .arg(kit.setup.files.size())
            .arg(tail.isEmpty() ? QString()
                                : QStringLiteral("; on a terminal the agent starts with %1 after its launch")
                                      .arg(tail.join(QLatin1Char(' '))));
    }
    if (type == QLatin1String("volume@1")) {
        kit.volumes << Volume{QDir::cleanPath(config.value(QLatin1String("path")).toString()),
                              config.value(QLatin1String("tmpfs")).toBool() ? QStringLiteral("tmpfs") : QString(),
                              config.value(QLatin1String("size")).toString(),
                              config.value(QLatin1String("mode")).toString()};
        return QStringLiteral("volume %1").arg(kit.volumes.last().path);
    }
    // Backed at creation (sandbox/SshAgent): by the agent of the person who creates the sandbox.
    if (type == QLatin1String("ssh-agent@1"))
        return applySshAgent(kit, request, config);
    if (type == QLatin1String("long-running@1"))
        return QStringLiteral("the sandbox runs on after its sessions end, as Paddock's sandboxes do");
    if (type.startsWith(QLatin1String("agent-")))
        return applyAgentDeclaration(kit, type, config);
    // Carried out at creation (sandbox/GitIdentity): read from the host's git then, not now.
    if (type == QLatin1String("git-identity@1"))
        return QStringLiteral("git inside uses your git user.name and user.email from this computer, and nothing "
                              "else of your git configuration");
    return std::nullopt;
}

/** agent-context@1's directory once arguments filled it in: absolute and canonical, or why not. */
std::optional<QString> contextDirectoryProblem(const V3Capability &request, const QJsonObject &config)
{
    const QString directory = config.value(QLatin1String("directory")).toString();
    if (request.type != kPrefix + QStringLiteral("agent-context@1") || directory.isEmpty() ||
        (directory.startsWith(QLatin1Char('/')) && QDir::cleanPath(directory) == directory))
        return std::nullopt;
    return QStringLiteral("agent-context@1's directory '%1' is not an absolute, canonical path")
        .arg(directory.left(200));
}

/** Why @p request's @p config cannot be carried out as written after substitution, or nullopt. */
std::optional<QString> configProblem(const V3Capability &request, const QJsonObject &config, bool usable)
{
    if (std::optional<QString> wrong = contextDirectoryProblem(request, config))
        return wrong;
    if (usable && request.type == kPrefix + QStringLiteral("volume@1"))
        return volumeConfigProblem(config);
    return std::nullopt;
}

} // namespace

KitLoadResult kitFromV3(const V3Descriptor &d, const QString &name, const QString &fileName,
                        const KitLoadOptions &options)
{
    KitLoadResult result;
    const auto problem = [&](int line, int column, const QString &message) {
        Diagnostic diagnostic;
        diagnostic.file = fileName;
        diagnostic.line = line;
        diagnostic.column = column;
        diagnostic.message = message;
        result.diagnostics << diagnostic;
    };
    Kit kit;
    kit.schemaVersion = QStringLiteral("3");
    kit.name = name;
    kit.kind = d.kind == QLatin1String("mixin") ? KitKind::Mixin : KitKind::Sandbox;
    if (d.kind == QLatin1String("set"))
        problem(1, 1, QStringLiteral("a kind: set descriptor is built into one kit first; load the published kit"));
    kit.version = d.version;
    kit.displayName = d.displayName;
    kit.description = d.description;
    kit.sourceURL = d.sourceUrl;
    kit.licenses = d.licenses;
    if (kit.isSandbox())
        kit.sandbox = SandboxBlock{};

    QMap<QString, QString> values;
    for (const V3Arg &arg : d.args) {
        kit.args << arg.declaration;
        if (options.args.contains(arg.declaration.name))
            values.insert(arg.declaration.name, options.args.value(arg.declaration.name));
        else if (arg.declaration.defaultValue)
            values.insert(arg.declaration.name, *arg.declaration.defaultValue);
        else if (arg.declaration.required && options.requireArgValues)
            problem(1, 1,
                    QStringLiteral("the kit needs a value for its argument '%1': pass --arg %1=VALUE")
                        .arg(arg.declaration.name));
        if (values.contains(arg.declaration.name) && !arg.env.isEmpty())
            kit.environment.append({arg.env, values.value(arg.declaration.name)});
    }
    kit.argValues = values;
    for (const QString &provided : d.provides)
        kit.provides << substituteArgs(provided, values).text;
    kit.requirements = d.requirements;
    kit.integrates = d.integrates;
    kit.conflicts = d.conflicts;

    const QMap<QString, QString> implemented = implementedV3Capabilities();
    // A group is taken whole or not at all.
    QSet<int> incomplete;
    for (const V3Capability &request : d.capabilities)
        if (request.group >= 0 && !implemented.contains(request.type))
            incomplete.insert(request.group);
    for (const V3Capability &request : d.capabilities) {
        CapabilityOutcome outcome{request.type, request.name, CapabilityOutcome::Status::Applied, {}};
        const QJsonObject config = substituted(request.config, values).toObject();
        const bool usable = implemented.contains(request.type) && !incomplete.contains(request.group);
        if (const std::optional<QString> wrong = configProblem(request, config, usable)) {
            problem(request.line, request.column, *wrong);
            continue;
        }
        if (const std::optional<QString> what = usable ? apply(kit, request, config) : std::nullopt) {
            outcome.what = *what;
        } else if (request.optional) {
            outcome.status = CapabilityOutcome::Status::Skipped;
            outcome.what = QStringLiteral("optional; Paddock does not implement %1").arg(request.type);
        } else {
            outcome.status = CapabilityOutcome::Status::Refused;
            outcome.what = QStringLiteral("required; Paddock does not implement %1").arg(request.type);
            result.refusedCapabilities << request.type;
            problem(request.line, request.column, refusalOf(request.type));
        }
        kit.capabilities << outcome;
    }
    if (!hasErrors(result.diagnostics))
        result.kit = std::move(kit);
    return result;
}

} // namespace paddock::kit

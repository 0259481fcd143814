// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

/** @brief `kind:` of a kit: a complete sandbox, or a mixin layered onto one. */
enum class KitKind {
    Sandbox,
    Mixin
};

/** @brief One `args:` declaration: a value whoever installs the kit supplies. */
struct ArgDeclaration
{
    QString name;
    std::optional<QString> defaultValue; ///< set when the kit declares `default:` (even "")
    bool required = false;               ///< `required: true`: the installer must supply a value
    QString description;
    QStringList enumValues; ///< the exact accepted values; empty when unconstrained
    QString pattern;        ///< a regular expression matched against the whole value
};

/** @brief `sandbox.build`: accepted but not built by the runtime (forward-compatible). */
struct BuildConfig
{
    QString context;
    QString dockerfile;
    QList<QPair<QString, QString>> args; ///< Docker build arguments, in file order
    QString target;
    QStringList platforms;
};

/** @brief `sandbox.resources`: container limits; unset fields mean no constraint. */
struct Resources
{
    std::optional<double> cpu;
    QString memory;                    ///< as written ("4096m", "8g")
    std::optional<qint64> memoryBytes; ///< `memory` parsed, when set
    QString gpu;
};

/** @brief The `sandbox:` block: base image and launch configuration. */
struct SandboxBlock
{
    QString image;
    std::optional<BuildConfig> build;
    QStringList entrypoint;                        ///< entrypoint[0] is the binary
    QStringList commandDefault;                    ///< tail for a non-interactive launch
    std::optional<QStringList> commandInteractive; ///< tail for a TTY; falls back to commandDefault
    std::optional<Resources> resources;

    /** The argv of an interactive launch: entrypoint + interactive tail (or the default one). */
    QStringList interactiveArgv() const { return entrypoint + commandInteractive.value_or(commandDefault); }
    /** The argv of a non-interactive launch. */
    QStringList defaultArgv() const { return entrypoint + commandDefault; }
};

/** @brief `agentInstructions`: the AI profile a sandbox owns and the markdown it carries. */
struct AgentInstructions
{
    QString filename; ///< sandbox only (ignored, with a warning, for a mixin)
    QString content;
};

/**
 * @brief One agent-context@1 entry of a schemaVersion "3" kit: a profile the runtime writes
 * (`filename`, in `directory` when given) and/or a body (staged `contentFile` or inline `content`).
 */
struct AgentContext
{
    QString filename;
    QString directory;   ///< absolute and canonical inside the sandbox, or empty
    QString contentFile; ///< the staged path inside the kit's image, or empty
    QString content;     ///< the body inline, or empty
    /** The kit that declared it, when it was composed into another's (its index line names that kit). */
    QString kitName;
    QString kitDisplayName;
};

/** @brief An inbound port published on 127.0.0.1 (top-level `ports`). */
struct Port
{
    int container = 0;
    QString protocol; ///< "tcp" or "udp" (normalised: "" becomes "tcp")
    QString name;
};

/**
 * @brief One rule saying how the proxy presents a credential to a domain.
 *
 * Normalised: the `scheme` sugar is expanded, so consumers read header and format only.
 * `bearer` becomes header Authorization (unless one was written) and format "Bearer %s";
 * `basic` becomes header Authorization with format "Basic %s", where %s is
 * base64(username ":" secret) rather than the secret itself (see encoding).
 */
struct Injection
{
    enum class Encoding {
        Plain,     ///< the secret is substituted for %s as it is
        BasicAuth, ///< %s is base64("username:secret"), HTTP Basic authentication
    };

    QString domain;
    QString header;
    QString format;
    QString username; ///< HTTP Basic user name (scheme basic)
    QString scheme;   ///< the sugar as written ("", "bearer", "basic"), for display only
    Encoding encoding = Encoding::Plain;
};

/** @brief `credentials[].apiKey`. */
struct ApiKey
{
    QString name; ///< variable set to the sentinel in the sandbox; may be empty on purpose
    bool proxyManaged = false;
    QList<Injection> inject;
};

/** @brief `credentials[].oauth`: the token endpoint the proxy intercepts and how. */
struct OAuth
{
    QString tokenHost;
    QString tokenPath;
    QStringList resourceHosts;
    QString accessTokenSentinel;
    QString refreshTokenSentinel;
    bool hasCredentialFile = false;
    QString credentialFilePath;
    QString credentialFileTemplate;      ///< deprecated free-form template
    QJsonObject credentialFileStructure; ///< preferred declarative JSON shape
    QStringList skipIfEnv;               ///< accepted and ignored in schemaVersion "2"
    QString responseAccessToken;         ///< JSON field names; empty means the standard name
    QString responseRefreshToken;
    QString responseExpiresIn;
    QString responseScope;
    bool passthrough = false; ///< the sandbox sees the real token (a downgrade)
};

/** @brief One `credentials[]` entry: what the kit needs and where it is injected. */
struct Credential
{
    QString service;
    QString description;
    bool required = false;
    QString provider; ///< forward-compatible stub with no effect
    std::optional<ApiKey> apiKey;
    std::optional<OAuth> oauth;
};

/** @brief `setup.install[]`: a shell command run once at creation. */
struct InstallCommand
{
    QString command; ///< run with `sh -c`
    QString user;    ///< empty: "0"
    QString description;
    /**
     * A v3 hook's `env`: the only variables of the sandbox it sees, beside the shell's baseline
     * (PATH, HOME, HOSTNAME, TERM). Unset (a v2 kit): the sandbox's whole environment.
     */
    std::optional<QStringList> environment;
};

/** @brief `setup.startup[]`: an exec-style command run at every start. */
struct StartupCommand
{
    QStringList command; ///< argv, never empty
    QString user;        ///< empty: "1000"
    bool background = false;
    QString description;
    std::optional<QStringList> environment; ///< as InstallCommand::environment
};

/** @brief `setup.files[]`: a file written in the sandbox at start. */
struct SetupFile
{
    QString path; ///< absolute
    QString content;
    QString mode; ///< octal, empty: "0644"
    bool onlyIfMissing = false;
    QString description;
};

/** @brief The `setup:` block. */
struct Setup
{
    QList<InstallCommand> install;
    QList<StartupCommand> startup;
    QList<SetupFile> files;
};

/** @brief One `volumes[]` entry. */
struct Volume
{
    QString path; ///< absolute
    QString type; ///< "" (block-backed) or "tmpfs"
    QString size; ///< byte size as written
    QString mode; ///< octal as written
};

/** @brief A file of the kit directory's `files/` tree, copied into the sandbox. */
struct KitFile
{
    QString target;       ///< "home" or "workspace"
    QString relativePath; ///< below files/TARGET/
};

/** @brief What Paddock does with one capability request of a schemaVersion "3" kit. */
struct CapabilityOutcome
{
    enum class Status {
        Applied, ///< carried out, as `what` says
        Skipped, ///< optional and not carried out here; recorded
        Refused, ///< required and not carried out here: the kit is refused
    };
    QString type;  ///< "com.docker.sandbox/port@1"
    QString label; ///< the request's display name, or empty
    Status status = Status::Applied;
    QString what; ///< in plain words: what it became here, or why it was not
};

/** "applied", "skipped" or "refused". */
QString outcomeName(CapabilityOutcome::Status status);

/**
 * @brief ssh-agent@1 of a schemaVersion "3" kit, for one phase: what the sandbox's SSH agent
 * may sign with the person's keys. Entries for the same phase are merged into one.
 */
struct SshAgentGrant
{
    QString phase = QStringLiteral("runtime"); ///< "install" or "runtime"
    bool required = true;                      ///< false: skipped when no agent can back it
    bool unrestricted = true;                  ///< signs whatever the sandbox asks
    QStringList sign;                          ///< SSHSIG namespaces ("git")
    QStringList authenticate;                  ///< servers, "host" or "user@host"
};

/**
 * @brief A decoded, validated and normalised `schemaVersion: "2"` kit.
 *
 * Arguments are already substituted, `scheme` sugar expanded and `ports` normalised
 * (`publishedPorts` is read into `ports`).
 */
struct Kit
{
    QString schemaVersion = QStringLiteral("2");
    KitKind kind = KitKind::Sandbox;
    QString name;
    QString version;
    QString displayName;
    QString description;
    QString sourceURL;
    QStringList licenses;
    QStringList locked;
    std::optional<bool> privileged; ///< `security.privileged`

    QList<ArgDeclaration> args;       ///< declarations, in file order
    QMap<QString, QString> argValues; ///< the value substituted for each resolved argument

    std::optional<SandboxBlock> sandbox; ///< set for kind sandbox
    QString extends;                     ///< sandbox only
    QStringList mixins;                  ///< sandbox only, forward-compatible
    QString requiresAgent;               ///< mixin only

    std::optional<AgentInstructions> agentInstructions;
    QStringList networkAllow; ///< `permissions.network.allow`
    QStringList networkDeny;  ///< `permissions.network.deny`
    /**
     * schemaVersion "3": network-policy@1's `install` lists, in force only while setup.install
     * runs, and then alone (the runtime lists are not; an absent install block grants nothing).
     */
    QStringList networkInstallAllow;
    QStringList networkInstallDeny;
    /** Whether setup.install runs under networkInstallAllow/Deny rather than the kit's lists (v3). */
    bool phasedNetwork() const { return schemaVersion == QLatin1String("3"); }
    QList<Port> ports;
    QList<Credential> credentials;
    QList<SshAgentGrant> sshAgents;             ///< ssh-agent@1, at most one per phase (v3)
    QList<QPair<QString, QString>> environment; ///< `environment.variables`, in file order
    Setup setup;
    QList<Volume> volumes;
    QList<KitFile> files; ///< empty when loaded from text

    QString directory; ///< the kit directory, empty when loaded from text

    // schemaVersion "3" (an OCI kit): where it came from and what became of its requests.
    QString reference;                     ///< the image reference it was loaded from, or empty
    QString digest;                        ///< its manifest digest ("sha256:..."), or empty
    QStringList provides;                  ///< `provides`, arguments substituted
    QStringList requirements;              ///< `requires`, as written (always literal)
    QStringList integrates;                ///< `integrates`, as written
    QStringList conflicts;                 ///< `conflicts`, as written
    QList<CapabilityOutcome> capabilities; ///< one per request, in declaration order
    /** agent-sessions@1 and agent-interactive-sessions@1 `config` as declared (args substituted);
     *  a workload's only. They grant nothing (kit/AgentVerbs.h builds the argv). */
    std::optional<QJsonObject> agentSessions;
    std::optional<QJsonObject> agentInteractiveSessions;
    QList<AgentContext> agentContexts; ///< agent-context@1 entries, in declaration order
    /** A mixin's lifecycle@1 `interactive` tail and resources@1 (a workload keeps them in
     *  `sandbox`). They describe the whole sandbox: a composition gives them to its workload and
     *  refuses a second, different statement (kit/KitComposition.h). */
    std::optional<QStringList> mixinInteractive;
    std::optional<Resources> mixinResources;

    bool isSandbox() const { return kind == KitKind::Sandbox; }
};

/** "sandbox" or "mixin". */
QString kindName(KitKind kind);

} // namespace paddock::kit

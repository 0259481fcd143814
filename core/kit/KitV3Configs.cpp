// SPDX-License-Identifier: GPL-3.0-or-later
// schemaVersion "3" capability configurations: the shapes of the well-known types, their
// values, arity, and the rule that a credential's inject domains are allowed by the network policy.
#include "kit/ArgsSubstitution.h"
#include "kit/KitRules.h"
#include "kit/KitV3Decoder.h"
#include "policy/HostPattern.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace paddock::kit {

namespace detail {

namespace {

using T = V3Type;

const QString kPrefix = QStringLiteral("com.docker.sandbox/");

const std::vector<V3Field> kRules{{"allow", T::StringList}, {"deny", T::StringList}};
const std::vector<V3Field> kNetwork{{"install", T::Object, false, &kRules}, {"runtime", T::Object, false, &kRules}};
const std::vector<V3Field> kInject{{"domain", T::String, true},
                                   {"header", T::String},
                                   {"format", T::String},
                                   {"scheme", T::String},
                                   {"username", T::String}};
const std::vector<V3Field> kApiKey{
    {"name", T::String}, {"proxyManaged", T::Bool}, {"inject", T::ObjectList, false, &kInject}};
const std::vector<V3Field> kTokenEndpoint{{"host", T::String, true}, {"path", T::String}};
const std::vector<V3Field> kSentinels{{"accessToken", T::String}, {"refreshToken", T::String}};
const std::vector<V3Field> kCredentialFile{{"path", T::String, true}, {"structure", T::Any}, {"format", T::String}};
const std::vector<V3Field> kResponseFields{
    {"accessToken", T::String}, {"refreshToken", T::String}, {"expiresIn", T::String}};
const std::vector<V3Field> kOAuth{
    {"tokenEndpoint", T::Object, false, &kTokenEndpoint},   {"resourceHosts", T::StringList},
    {"sentinels", T::Object, false, &kSentinels},           {"credentialFile", T::Object, false, &kCredentialFile},
    {"responseFields", T::Object, false, &kResponseFields}, {"passthrough", T::Bool}};
const std::vector<V3Field> kCredential{{"service", T::String, true},
                                       {"phase", T::String, true},
                                       {"apiKey", T::Object, false, &kApiKey},
                                       {"oauth", T::Object, false, &kOAuth}};
const std::vector<V3Field> kPort{{"name", T::String}, {"container", T::Integer, true}, {"transport", T::String}};
const std::vector<V3Field> kResources{{"cpu", T::Number}, {"memory", T::String}, {"gpu", T::String}};
const std::vector<V3Field> kVolume{
    {"path", T::String, true}, {"size", T::String}, {"tmpfs", T::Bool}, {"mode", T::String}};
const std::vector<V3Field> kInstall{
    {"command", T::Command, true}, {"user", T::String}, {"env", T::StringList}, {"description", T::String}};
const std::vector<V3Field> kStartup{{"command", T::Command, true},
                                    {"user", T::String},
                                    {"background", T::Bool},
                                    {"env", T::StringList},
                                    {"description", T::String}};
const std::vector<V3Field> kFile{{"path", T::String, true},
                                 {"content", T::String},
                                 {"mode", T::String},
                                 {"overwrite", T::Bool},
                                 {"description", T::String}};
const std::vector<V3Field> kLifecycle{{"install", T::ObjectList, false, &kInstall},
                                      {"startup", T::ObjectList, false, &kStartup},
                                      {"files", T::ObjectList, false, &kFile},
                                      {"interactive", T::StringList}};
const std::vector<V3Field> kAgentContext{
    {"filename", T::String}, {"directory", T::String}, {"contentFile", T::String}, {"content", T::String}};
const std::vector<V3Field> kAgentSkills{{"path", T::String, true}, {"mode", T::String}};
const std::vector<V3Field> kSshAgent{
    {"phase", T::Command, true}, {"unrestricted", T::Bool}, {"sign", T::StringList}, {"authenticate", T::StringList}};
const std::vector<V3Field> kUsb{{"vendorId", T::String}, {"productId", T::String}, {"class", T::String}};
const std::vector<V3Field> kSessions{
    {"prompt", T::StringList}, {"resume", T::StringList}, {"continue", T::StringList}, {"list", T::Command}};
const std::vector<V3Field> kInteractiveSessions{{"prompt", T::StringList},        {"resume", T::StringList},
                                                {"continue", T::StringList},      {"newSession", T::StringList},
                                                {"sessionPicker", T::StringList}, {"list", T::Command}};

/** The configuration shape of each well-known type whose shape is checked here. */
const QHash<QString, const std::vector<V3Field> *> &configShapes()
{
    static const QHash<QString, const std::vector<V3Field> *> shapes{
        {kPrefix + QStringLiteral("network-policy@1"), &kNetwork},
        {kPrefix + QStringLiteral("credential@1"), &kCredential},
        {kPrefix + QStringLiteral("port@1"), &kPort},
        {kPrefix + QStringLiteral("resources@1"), &kResources},
        {kPrefix + QStringLiteral("volume@1"), &kVolume},
        {kPrefix + QStringLiteral("lifecycle@1"), &kLifecycle},
        {kPrefix + QStringLiteral("agent-context@1"), &kAgentContext},
        {kPrefix + QStringLiteral("agent-skills@1"), &kAgentSkills},
        {kPrefix + QStringLiteral("ssh-agent@1"), &kSshAgent},
        {kPrefix + QStringLiteral("usb-device@1"), &kUsb},
        {kPrefix + QStringLiteral("agent-sessions@1"), &kSessions},
        {kPrefix + QStringLiteral("agent-interactive-sessions@1"), &kInteractiveSessions},
    };
    return shapes;
}

const QStringList &configLessTypes()
{
    static const QStringList types{kPrefix + QStringLiteral("privileged@1"), kPrefix + QStringLiteral("kit-registry@1"),
                                   kPrefix + QStringLiteral("sbx@1"), kPrefix + QStringLiteral("long-running@1"),
                                   kPrefix + QStringLiteral("git-identity@1")};
    return types;
}

const QStringList &singletonTypes()
{
    static const QStringList types{
        kPrefix + QStringLiteral("network-policy@1"),
        kPrefix + QStringLiteral("network-policy@2"),
        kPrefix + QStringLiteral("resources@1"),
        kPrefix + QStringLiteral("privileged@1"),
        kPrefix + QStringLiteral("kit-registry@1"),
        kPrefix + QStringLiteral("agent-sessions@1"),
        kPrefix + QStringLiteral("agent-interactive-sessions@1"),
        kPrefix + QStringLiteral("lifecycle@1"),
        kPrefix + QStringLiteral("sbx@1"),
        kPrefix + QStringLiteral("long-running@1"),
        kPrefix + QStringLiteral("git-identity@1"),
    };
    return types;
}

QString typeName(V3Type type)
{
    switch (type) {
    case T::String:
        return QStringLiteral("a string");
    case T::Bool:
        return QStringLiteral("true or false");
    case T::Integer:
        return QStringLiteral("an integer");
    case T::Number:
        return QStringLiteral("a number");
    case T::StringList:
        return QStringLiteral("a list of strings");
    case T::Object:
        return QStringLiteral("a mapping");
    case T::ObjectList:
        return QStringLiteral("a list of mappings");
    case T::Command:
        return QStringLiteral("a string or a list of strings");
    case T::Any:
        break;
    }
    return QStringLiteral("a value");
}

bool isPlainScalar(const YAML::Node &node)
{
    return node.IsScalar() && node.Tag() != "!";
}

bool shapeMatches(const YAML::Node &value, V3Type type)
{
    const QString written = value.IsScalar() ? QString::fromStdString(value.Scalar()) : QString();
    bool number = false;
    switch (type) {
    case T::String:
        return value.IsScalar();
    case T::Bool:
        return isPlainScalar(value) && (written == QLatin1String("true") || written == QLatin1String("false"));
    case T::Integer:
        written.toLongLong(&number);
        return (isPlainScalar(value) && number) || opensArgReference(written);
    case T::Number:
        written.toDouble(&number);
        return (isPlainScalar(value) && number) || opensArgReference(written);
    case T::StringList:
    case T::ObjectList:
        return value.IsSequence();
    case T::Object:
        return value.IsMap();
    case T::Command:
        return value.IsScalar() || value.IsSequence();
    case T::Any:
        break;
    }
    return true;
}

/** The string at @p path of @p config ("apiKey.name"), or empty. */
QString textAt(const YAML::Node &config, std::initializer_list<const char *> path)
{
    // Assigning a YAML::Node writes into the tree it refers to; reset() rebinds the handle.
    YAML::Node node;
    node.reset(config);
    for (const char *part : path) {
        if (!node.IsMap() || !node[part])
            return {};
        const YAML::Node child = node[part];
        node.reset(child);
    }
    return node.IsScalar() ? QString::fromStdString(node.Scalar()) : QString();
}

} // namespace

void V3Decoder::checkShape(const YAML::Node &value, const V3Field &field, const QString &path)
{
    if (field.type == T::Any)
        return;
    if (!shapeMatches(value, field.type)) {
        error(value, QStringLiteral("`%1` must be %2, found %3").arg(path, typeName(field.type), nodeKindName(value)));
        return;
    }
    if (field.type == T::StringList || (field.type == T::Command && value.IsSequence()))
        textList(value, path);
    else if (field.type == T::Object)
        checkObject(value, *field.fields, path);
    else if (field.type == T::ObjectList) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            const QString itemPath = QStringLiteral("%1[%2]").arg(path).arg(i);
            if (expectMap(value[i], itemPath))
                checkObject(value[i], *field.fields, itemPath);
        }
    }
}

void V3Decoder::checkObject(const YAML::Node &value, const std::vector<V3Field> &fields, const QString &path)
{
    QStringList known;
    for (const V3Field &field : fields)
        known << QLatin1String(field.name);
    checkFields(value, path, known);
    for (const V3Field &field : fields) {
        const YAML::Node child = value[field.name];
        if (child)
            checkShape(child, field, path + QLatin1Char('.') + QLatin1String(field.name));
        else if (field.required)
            error(value, QStringLiteral("`%1.%2` is required").arg(path, QLatin1String(field.name)));
    }
}

void V3Decoder::checkConfig(const QString &type, const YAML::Node &config, bool stated, const QString &path)
{
    if (configLessTypes().contains(type)) {
        if (stated)
            error(config, QStringLiteral("%1 takes no config").arg(type));
        return;
    }
    const auto *shape = configShapes().value(type);
    if (!shape)
        return; // carried as it is: not a type whose configuration Paddock knows
    const YAML::Node body = config && !config.IsNull() ? config : YAML::Node(YAML::NodeType::Map);
    if (!body.IsMap())
        return; // reported where the config was read
    const qsizetype before = m_diagnostics.size();
    checkObject(body, *shape, path);
    if (!hasErrors(m_diagnostics.mid(before)))
        checkValues(type, body, path);
}

void V3Decoder::checkValues(const QString &type, const YAML::Node &config, const QString &path)
{
    const QString name = type.mid(kPrefix.size());
    const auto phase = [&](const char *field) {
        const QString value = textAt(config, {field});
        if (value != QLatin1String("install") && value != QLatin1String("runtime") && !opensArgReference(value))
            error(config[field], QStringLiteral("`%1.%2` must be install or runtime").arg(path, QLatin1String(field)));
    };
    if (name == QLatin1String("credential@1")) {
        phase("phase");
        if (!config["apiKey"] && !config["oauth"])
            error(config,
                  QStringLiteral("`%1` needs apiKey or oauth: how the proxy presents the credential").arg(path));
        if (config["apiKey"] && textAt(config, {"apiKey", "name"}).isEmpty() &&
            (!config["apiKey"]["inject"] || config["apiKey"]["inject"].size() == 0))
            error(config["apiKey"], QStringLiteral("`%1.apiKey` without a name must have inject rules").arg(path));
    } else if (name == QLatin1String("network-policy@1")) {
        for (const char *stage : {"install", "runtime"}) {
            for (const char *list : {"allow", "deny"}) {
                const YAML::Node entries = config[stage] ? config[stage][list] : YAML::Node();
                for (std::size_t i = 0; entries && entries.IsSequence() && i < entries.size(); ++i) {
                    const QString entry = QString::fromStdString(entries[i].Scalar());
                    if (const std::optional<QString> problem = v3NetworkEntryProblem(entry))
                        error(entries[i], QStringLiteral("`%1.%2.%3[%4]`: %5")
                                              .arg(path, QLatin1String(stage), QLatin1String(list))
                                              .arg(i)
                                              .arg(*problem));
                }
            }
        }
    } else if (name == QLatin1String("ssh-agent@1")) {
        checkSshAgent(config, path);
    } else if (name == QLatin1String("port@1")) {
        const QString container = textAt(config, {"container"});
        const int port = container.toInt();
        if (!opensArgReference(container) && (port < 1 || port > 65535))
            error(config["container"], QStringLiteral("`%1.container` must be a port, 1 to 65535").arg(path));
        const QString transport = textAt(config, {"transport"});
        if (!transport.isEmpty() && transport != QLatin1String("tcp") && transport != QLatin1String("udp"))
            error(config["transport"], QStringLiteral("`%1.transport` must be tcp or udp").arg(path));
    } else if (name == QLatin1String("volume@1") || name == QLatin1String("agent-skills@1")) {
        const QString target = textAt(config, {"path"});
        if (!target.startsWith(QLatin1Char('/')) && !opensArgReference(target) &&
            !target.contains(QLatin1String("kit.env.")))
            error(config["path"], QStringLiteral("`%1.path` must be an absolute path").arg(path));
    } else if (name == QLatin1String("lifecycle@1")) {
        checkLifecycle(config, path);
    } else if (name == QLatin1String("agent-sessions@1")) {
        checkAgentVerbs(config, path, false);
    } else if (name == QLatin1String("agent-interactive-sessions@1")) {
        checkAgentVerbs(config, path, true);
    } else if (name == QLatin1String("agent-context@1")) {
        checkAgentContext(config, path);
    }
}

void V3Decoder::checkLifecycle(const YAML::Node &config, const QString &path)
{
    if (!config["install"] && !config["startup"] && !config["files"] && !config["interactive"])
        error(config, QStringLiteral("`%1` declares no hooks, files or interactive tail; drop the entry").arg(path));
    static const QRegularExpression octal(QStringLiteral("^0?[0-7]{3,4}$"));
    // A hook's `env` names the variables it sees: names, since they become the hook's shell words.
    const auto variable = [](const QString &name) { return name.size() <= 128 && rules::isValidEnvironmentName(name); };
    for (const char *phase : {"install", "startup"}) {
        const YAML::Node hooks = config[phase];
        for (std::size_t i = 0; hooks && hooks.IsSequence() && i < hooks.size(); ++i) {
            const YAML::Node names = hooks[i]["env"];
            for (std::size_t j = 0; names && names.IsSequence() && j < names.size(); ++j) {
                if (!names[j].IsScalar() || !variable(QString::fromStdString(names[j].Scalar())))
                    error(names[j], QStringLiteral("`%1.%2[%3].env[%4]` must be a variable's name (letters, digits "
                                                   "and '_', not starting with a digit)")
                                        .arg(path, QLatin1String(phase))
                                        .arg(i)
                                        .arg(j));
            }
        }
    }
    const YAML::Node files = config["files"];
    for (std::size_t i = 0; files && i < files.size(); ++i) {
        const QString target = textAt(files[i], {"path"});
        if (!target.startsWith(QLatin1Char('/')) && !target.contains(QLatin1String("${{")))
            error(files[i]["path"], QStringLiteral("`%1.files[%2].path` must be absolute").arg(path).arg(i));
        const QString mode = textAt(files[i], {"mode"});
        if (files[i]["mode"] && !octal.match(mode).hasMatch())
            error(files[i]["mode"],
                  QStringLiteral("`%1.files[%2].mode` must be octal (e.g. \"0644\")").arg(path).arg(i));
    }
}

void V3Decoder::checkArity(const V3Descriptor &d)
{
    // Singletons and instance keys count per block: the top-level entries, and each group.
    QHash<QString, int> seen;
    bool v1 = false, v2 = false;
    for (const V3Capability &c : d.capabilities) {
        const QString block = QString::number(c.group) + QLatin1Char('|');
        QString key = c.type;
        if (c.type == kPrefix + QStringLiteral("credential@1"))
            key += c.config.value(QLatin1String("service")).toString() + QLatin1Char('/') +
                   c.config.value(QLatin1String("phase")).toString();
        else if (c.type == kPrefix + QStringLiteral("port@1"))
            key += QString::number(c.config.value(QLatin1String("container")).toInteger()) + QLatin1Char('/') +
                   c.config.value(QLatin1String("transport")).toString(QStringLiteral("tcp"));
        else if (c.type == kPrefix + QStringLiteral("volume@1") || c.type == kPrefix + QStringLiteral("agent-skills@1"))
            key += c.config.value(QLatin1String("path")).toString();
        else if (c.type == kPrefix + QStringLiteral("agent-context@1")) // one entry per profile, one without directory
            key += c.config.value(QLatin1String("directory")).toString() + QLatin1Char('/') +
                   (c.config.contains(QLatin1String("directory")) ? c.config.value(QLatin1String("filename")).toString()
                                                                  : QString());
        else if (!singletonTypes().contains(c.type))
            key += QString::fromUtf8(QJsonDocument(c.config).toJson(QJsonDocument::Compact));
        v1 |= c.type == kPrefix + QStringLiteral("network-policy@1");
        v2 |= c.type == kPrefix + QStringLiteral("network-policy@2");
        Diagnostic d2;
        d2.file = m_file;
        d2.line = c.line;
        d2.column = c.column;
        // ssh-agent@1 is one instance per phase: entries whose phases overlap clash.
        QStringList keys{key};
        if (c.type == kPrefix + QStringLiteral("ssh-agent@1")) {
            keys.clear();
            for (const QString &phase : sshAgentPhases(c.config))
                keys << c.type + phase;
        }
        for (const QString &one : keys) {
            if (seen.contains(block + one)) {
                d2.message = singletonTypes().contains(c.type)
                                 ? QStringLiteral("%1 may appear once; it already did").arg(c.type)
                                 : QStringLiteral("%1 asks for the same thing twice").arg(c.type);
                m_diagnostics << d2;
                break;
            }
            seen.insert(block + one, 1);
        }
        // At most one agent-context@1 entry carries a body per block.
        if (c.type == kPrefix + QStringLiteral("agent-context@1") &&
            (c.config.contains(QLatin1String("content")) || c.config.contains(QLatin1String("contentFile")))) {
            if (seen.contains(block + QStringLiteral("agent-context body"))) {
                d2.message = QStringLiteral("agent-context@1 carries a body (content or contentFile) in one entry "
                                            "of a block; it already did");
                m_diagnostics << d2;
            }
            seen.insert(block + QStringLiteral("agent-context body"), 1);
        }
    }
    if (v1 && v2)
        error(YAML::Node(), QStringLiteral("network-policy@1 and network-policy@2 exclude each other; state one"));
}

void V3Decoder::checkInjectDomains(const V3Descriptor &d)
{
    QHash<QString, QStringList> allowed; // by phase
    for (const V3Capability &c : d.capabilities) {
        if (c.type != kPrefix + QStringLiteral("network-policy@1"))
            continue;
        for (const QString &phase : {QStringLiteral("install"), QStringLiteral("runtime")})
            for (const QJsonValue &entry : c.config.value(phase).toObject().value(QLatin1String("allow")).toArray())
                allowed[phase] << entry.toString();
    }
    for (const V3Capability &c : d.capabilities) {
        if (c.type != kPrefix + QStringLiteral("credential@1"))
            continue;
        const QString phase = c.config.value(QLatin1String("phase")).toString();
        const QStringList &allow = allowed[phase];
        const bool everything = allow.contains(QStringLiteral("*")) || allow.contains(QStringLiteral("**"));
        const QJsonArray inject =
            c.config.value(QLatin1String("apiKey")).toObject().value(QLatin1String("inject")).toArray();
        for (const QJsonValue &rule : inject) {
            const QString domain = rule.toObject().value(QLatin1String("domain")).toString();
            if (everything || allow.contains(domain) || opensArgReference(domain))
                continue;
            Diagnostic problem;
            problem.file = m_file;
            problem.line = c.line;
            problem.column = c.column;
            problem.message = QStringLiteral("credential %1 injects into %2, which the network policy's %3 allow list "
                                             "does not name")
                                  .arg(c.config.value(QLatin1String("service")).toString(), domain, phase);
            m_diagnostics << problem;
        }
    }
}

} // namespace detail

QString v3NetworkPattern(const QString &entry)
{
    if (entry == QLatin1String("*") || entry == QLatin1String("**") || entry.contains(QLatin1String("${{")))
        return entry;
    if (entry.startsWith(QLatin1Char('[')))
        return entry.contains(QLatin1String("]:")) ? entry : entry + QStringLiteral(":*");
    const qsizetype colons = entry.count(QLatin1Char(':'));
    if (colons > 1) // a bare IPv6 address or network
        return QLatin1Char('[') + entry + QStringLiteral("]:*");
    return colons == 1 ? entry : entry + QStringLiteral(":*");
}

std::optional<QString> v3NetworkEntryProblem(const QString &entry)
{
    if (opensArgReference(entry))
        return std::nullopt;
    if (entry.trimmed().isEmpty())
        return QStringLiteral("an empty entry is no host pattern; write a host such as api.example.com");
    // Whether a kit may allow everything is the policy's to say when the kit runs; the
    // specification allows it, so the grammar is checked as a deny list's, where * is one.
    const Result<policy::HostPattern> parsed =
        policy::HostPattern::parse(v3NetworkPattern(entry), policy::PatternContext::Deny);
    if (parsed)
        return std::nullopt;
    return QStringLiteral("'%1' is not a host pattern (host, host:port, *.domain, or *): %2")
        .arg(entry.left(200), parsed.error().message);
}

QMap<QString, QString> implementedV3Capabilities()
{
    return {
        {detail::kPrefix + QStringLiteral("network-policy@1"),
         QStringLiteral("the kit's network rules (allow and deny)")},
        {detail::kPrefix + QStringLiteral("credential@1"),
         QStringLiteral("a credential from the keychain, injected by the proxy")},
        {detail::kPrefix + QStringLiteral("port@1"), QStringLiteral("a port published on 127.0.0.1")},
        {detail::kPrefix + QStringLiteral("resources@1"),
         QStringLiteral("CPU and memory limits where the backend has them")},
        {detail::kPrefix + QStringLiteral("lifecycle@1"),
         QStringLiteral("install and startup commands and files at start")},
        {detail::kPrefix + QStringLiteral("volume@1"), QStringLiteral("a volume of the sandbox")},
        {detail::kPrefix + QStringLiteral("long-running@1"), QStringLiteral("the sandbox runs on without a session")},
        {detail::kPrefix + QStringLiteral("git-identity@1"),
         QStringLiteral("your git user.name and user.email, and nothing else of your git configuration")},
        {detail::kPrefix + QStringLiteral("agent-sessions@1"),
         QStringLiteral("how to run one prompt, resume, continue and list the agent's sessions (paddock agent)")},
        {detail::kPrefix + QStringLiteral("agent-interactive-sessions@1"),
         QStringLiteral("the same in a terminal, and the agent's new session and session picker")},
        {detail::kPrefix + QStringLiteral("agent-context@1"),
         QStringLiteral("the agent's profile file, with Paddock's guidance and an index of the kits' instructions")},
        {detail::kPrefix + QStringLiteral("ssh-agent@1"),
         QStringLiteral("an SSH agent inside that signs with your keys only what the kit names")},
    };
}

} // namespace paddock::kit

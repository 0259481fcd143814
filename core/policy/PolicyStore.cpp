// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/PolicyStore.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "common/YamlDecode.h"

#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSet>

Q_LOGGING_CATEGORY(lcStore, "paddock.policy.store")

namespace paddock::policy {
namespace {

constexpr int kFormatVersion = 1;
// Editors and atomic renames produce several events for one save; read once they settle.
constexpr int kReloadDelayMs = 50;

const char kHeader[] = "# Paddock network policy. Edit it here or with `paddock policy`; changes apply at once.\n"
                       "# preset: deny-all | balanced | allow-all. A rule's scope is global, sandbox:NAME or\n"
                       "# kit:NAME; its pattern is host, host:port, host:80-443, host:*, *.domain, **.domain,\n"
                       "# an address or a CIDR range; method (GET,POST) and path (/gists, /org/**) limit a rule to\n"
                       "# the requests Paddock sees (plain HTTP, TLS it terminates); program: NAME to one program\n"
                       "# inside the sandbox. Deny wins over allow; no match is deny (or, in ask mode, a question:\n"
                       "# ask: {all: false, timeout: 30, unanswered: deny}).\n";

using yaml::DecodeError;

QString text(const YAML::Node &node, const char *what)
{
    if (!node.IsScalar())
        throw DecodeError{node.Mark(), QStringLiteral("%1 must be a single value").arg(QLatin1String(what))};
    return QString::fromStdString(node.Scalar());
}

void expectKeys(const YAML::Node &map, const QSet<QString> &known, const char *where)
{
    for (const auto &entry : map) {
        const QString key = text(entry.first, "a key");
        if (!known.contains(key)) {
            QStringList names(known.begin(), known.end());
            names.sort();
            throw DecodeError{entry.first.Mark(),
                              QStringLiteral("unknown field \"%1\" in %2; expected one of: %3")
                                  .arg(key, QLatin1String(where), names.join(QStringLiteral(", ")))};
        }
    }
}

/** The rule's `method` and `path`, each error marked at its own line. */
RequestMatch decodeRequestMatch(const YAML::Node &node)
{
    const YAML::Node method = node["method"];
    const YAML::Node path = node["path"];
    const QString methodText = method ? text(method, "method") : QString();
    if (const Result<RequestMatch> methodOnly = RequestMatch::parse(methodText, {}); !methodOnly)
        throw DecodeError{method.Mark(), QStringLiteral("method: %1").arg(methodOnly.error().text())};
    const QString pathText = path ? text(path, "path") : QString();
    const Result<RequestMatch> parsed = RequestMatch::parse(methodText, pathText);
    if (!parsed)
        throw DecodeError{path.Mark(), QStringLiteral("path: %1").arg(parsed.error().text())};
    return *parsed;
}

Rule decodeRule(const YAML::Node &node)
{
    if (!node.IsMap())
        throw DecodeError{node.Mark(), QStringLiteral("each rule must be a mapping with decision and pattern")};
    expectKeys(node,
               {QStringLiteral("id"), QStringLiteral("scope"), QStringLiteral("decision"), QStringLiteral("pattern"),
                QStringLiteral("program"), QStringLiteral("origin"), QStringLiteral("created"),
                QStringLiteral("method"), QStringLiteral("path")},
               "a rule");
    Rule rule;
    if (const YAML::Node scope = node["scope"]) {
        const std::optional<Scope> parsed = Scope::fromString(text(scope, "scope"));
        if (!parsed)
            throw DecodeError{scope.Mark(), QStringLiteral("scope must be global, sandbox:NAME or kit:NAME")};
        rule.scope = *parsed;
    }
    const YAML::Node decision = node["decision"];
    if (!decision)
        throw DecodeError{node.Mark(), QStringLiteral("the rule has no decision (allow or deny)")};
    const std::optional<Verdict> verdict = verdictFromName(text(decision, "decision"));
    if (!verdict)
        throw DecodeError{decision.Mark(), QStringLiteral("decision must be allow or deny")};
    rule.verdict = *verdict;
    if (const YAML::Node origin = node["origin"]) {
        const std::optional<Origin> parsed = originFromName(text(origin, "origin"));
        if (!parsed)
            throw DecodeError{origin.Mark(), QStringLiteral("origin must be preset, user, kit or approval")};
        rule.origin = *parsed;
    }
    const YAML::Node pattern = node["pattern"];
    if (!pattern)
        throw DecodeError{node.Mark(), QStringLiteral("the rule has no pattern")};
    const Result<HostPattern> parsed =
        HostPattern::parse(text(pattern, "pattern"), patternContextFor(rule.verdict, rule.origin));
    if (!parsed)
        throw DecodeError{pattern.Mark(), parsed.error().message};
    rule.pattern = parsed.value();
    if (const YAML::Node program = node["program"]) {
        rule.program = text(program, "program");
        if (const Result<void> checked = checkProgramCondition(rule.program); !checked)
            throw DecodeError{program.Mark(), checked.error().text()};
    }
    rule.request = decodeRequestMatch(node);
    if (const YAML::Node created = node["created"]) {
        rule.created = QDateTime::fromString(text(created, "created"), Qt::ISODate);
        if (!rule.created.isValid())
            throw DecodeError{created.Mark(), QStringLiteral("created must be a date and time such as "
                                                             "2025-01-31T12:00:00Z")};
        rule.created = rule.created.toUTC();
    }
    // A rule added by hand needs no id: the derived one is stable across reloads.
    if (const YAML::Node id = node["id"])
        rule.id = text(id, "id");
    if (rule.id.isEmpty())
        rule.id = ruleIdFor(rule.scope, rule.verdict, rule.pattern, rule.request, rule.program);
    return rule;
}

AskSettings decodeAsk(const YAML::Node &node)
{
    if (!node.IsMap())
        throw DecodeError{node.Mark(), QStringLiteral("ask must be a mapping with all, timeout and unanswered")};
    expectKeys(node, {QStringLiteral("all"), QStringLiteral("timeout"), QStringLiteral("unanswered")}, "ask");
    AskSettings ask;
    if (const YAML::Node all = node["all"]) {
        const QString value = text(all, "all");
        if (value != QLatin1String("true") && value != QLatin1String("false"))
            throw DecodeError{all.Mark(), QStringLiteral("all must be true or false")};
        ask.everySandbox = value == QLatin1String("true");
    }
    if (const YAML::Node timeout = node["timeout"]) {
        bool ok = false;
        ask.timeoutSeconds = text(timeout, "timeout").toInt(&ok);
        if (!ok || ask.timeoutSeconds < 1 || ask.timeoutSeconds > AskSettings::kMaxTimeoutSeconds)
            throw DecodeError{timeout.Mark(), QStringLiteral("timeout must be a number of seconds from 1 to %1")
                                                  .arg(AskSettings::kMaxTimeoutSeconds)};
    }
    if (const YAML::Node unanswered = node["unanswered"]) {
        const QString value = text(unanswered, "unanswered");
        if (value != QLatin1String("deny") && value != QLatin1String("allow"))
            throw DecodeError{unanswered.Mark(), QStringLiteral("unanswered must be deny or allow")};
        ask.allowUnanswered = value == QLatin1String("allow");
    }
    return ask;
}

PolicyData decode(const YAML::Node &root)
{
    PolicyData data;
    if (!root || root.IsNull())
        return data;
    if (!root.IsMap())
        throw DecodeError{root.Mark(), QStringLiteral("expected a mapping with preset, rules and resolve")};
    expectKeys(root,
               {QStringLiteral("version"), QStringLiteral("preset"), QStringLiteral("rules"), QStringLiteral("resolve"),
                QStringLiteral("ask")},
               "the policy");
    if (const YAML::Node version = root["version"]) {
        if (text(version, "version") != QString::number(kFormatVersion))
            throw DecodeError{version.Mark(),
                              QStringLiteral("this Paddock reads policy version %1").arg(kFormatVersion)};
    }
    if (const YAML::Node preset = root["preset"]) {
        const std::optional<Preset> parsed = presetFromName(text(preset, "preset"));
        if (!parsed)
            throw DecodeError{preset.Mark(), QStringLiteral("preset must be deny-all, balanced or allow-all")};
        data.preset = *parsed;
    }
    if (const YAML::Node rules = root["rules"]; rules && !rules.IsNull()) {
        if (!rules.IsSequence())
            throw DecodeError{rules.Mark(), QStringLiteral("rules must be a list")};
        QSet<QString> ids;
        for (const YAML::Node &node : rules) {
            Rule rule = decodeRule(node);
            if (ids.contains(rule.id))
                throw DecodeError{node.Mark(), QStringLiteral("the rule id %1 is used twice").arg(rule.id)};
            ids.insert(rule.id);
            data.rules.append(rule);
        }
    }
    if (const YAML::Node resolve = root["resolve"]; resolve && !resolve.IsNull()) {
        if (!resolve.IsMap())
            throw DecodeError{resolve.Mark(), QStringLiteral("resolve must map host names to addresses")};
        for (const auto &entry : resolve) {
            const QString host = text(entry.first, "a host name");
            const std::string name = normaliseHostName(host);
            if (name.empty() || IpAddress::parse(host))
                throw DecodeError{entry.first.Mark(), QStringLiteral("\"%1\" is not a host name").arg(host)};
            const std::optional<IpAddress> address = IpAddress::parse(text(entry.second, "an address"));
            if (!address)
                throw DecodeError{entry.second.Mark(), QStringLiteral("\"%1\" is not an IPv4 or IPv6 address")
                                                           .arg(QString::fromStdString(entry.second.Scalar()))};
            data.resolveOverrides.insert(QString::fromStdString(name), QHostAddress(address->toString()));
        }
    }
    if (const YAML::Node ask = root["ask"]; ask && !ask.IsNull())
        data.ask = decodeAsk(ask);
    return data;
}

} // namespace

PolicyStore::PolicyStore(QObject *parent) : PolicyStore(defaultPath(), parent) {}

PolicyStore::PolicyStore(const QString &path, QObject *parent) : QObject(parent), m_path(path)
{
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(kReloadDelayMs);
    connect(&m_reloadTimer, &QTimer::timeout, this, &PolicyStore::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, &m_reloadTimer, qOverload<>(&QTimer::start));
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, &m_reloadTimer, qOverload<>(&QTimer::start));
}

PolicyStore::~PolicyStore() = default;

QString PolicyStore::defaultPath()
{
    return paths::configDir() + QStringLiteral("/policy.yaml");
}

bool PolicyStore::load()
{
    QString error;
    if (!paths::ensurePrivateDir(QFileInfo(m_path).absolutePath(), &error))
        qCWarning(lcStore) << "cannot create the directory of" << m_path << ":" << error;
    reload();
    watch();
    return !m_lastError;
}

void PolicyStore::reloadNow()
{
    m_reloadTimer.stop();
    reload();
}

void PolicyStore::watch()
{
    // An atomic rename replaces the file's inode, which drops the file from the watcher:
    // the directory is watched too, and the file is re-added whenever it exists again.
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!m_watcher.directories().contains(dir))
        m_watcher.addPath(dir);
    if (QFileInfo::exists(m_path) && !m_watcher.files().contains(m_path))
        m_watcher.addPath(m_path);
}

void PolicyStore::reload()
{
    watch();
    QByteArray contents;
    QFile file(m_path);
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly)) {
            const PolicyError error{m_path, 0, 0, QStringLiteral("cannot read the file: %1").arg(file.errorString())};
            m_lastError = error;
            qCWarning(lcStore).noquote() << error.toString();
            emit loadFailed(error);
            return;
        }
        contents = file.readAll();
    }
    if (m_lastTextSeen && contents == m_lastText)
        return;
    m_lastText = contents;
    m_lastTextSeen = true;

    auto parsed = parse(contents, m_path);
    if (auto *error = std::get_if<PolicyError>(&parsed)) {
        m_lastError = *error;
        qCWarning(lcStore).noquote() << error->toString() << "(the previous policy stays in force)";
        emit loadFailed(*error);
        return;
    }
    m_lastError.reset();
    adopt(std::get<PolicyData>(parsed));
}

void PolicyStore::adopt(const PolicyData &data)
{
    if (data == m_data)
        return;
    m_data = data;
    m_engine.setPolicy(m_data);
    qCInfo(lcStore) << "policy loaded:" << presetName(m_data.preset) << "preset," << m_data.rules.size() << "rules";
    emit policyChanged();
}

StoreResult PolicyStore::change(const std::function<StoreResult(PolicyData &)> &edit)
{
    // Read what is on disk now, so a hand edit made since the last event is kept.
    m_reloadTimer.stop();
    reload();
    if (m_lastError) {
        return fail(QStringLiteral("policy.yaml cannot be read (%1); fix it before changing the policy")
                        .arg(m_lastError->toString()));
    }
    PolicyData next = m_data;
    StoreResult result = edit(next);
    if (!result || next == m_data)
        return result;

    const QByteArray contents = serialise(next);
    QString error;
    if (!paths::ensurePrivateDir(QFileInfo(m_path).absolutePath(), &error) ||
        !writeFileAtomically(m_path, contents, &error, 0600))
        return fail(error);
    m_lastText = contents;
    m_lastTextSeen = true;
    adopt(next);
    watch();
    return result;
}

StoreResult PolicyStore::addRule(const Scope &scope, Verdict verdict, QStringView pattern, Origin origin,
                                 const RequestMatch &request, const QString &program)
{
    const Result<HostPattern> parsed = HostPattern::parse(pattern, patternContextFor(verdict, origin));
    if (!parsed)
        return parsed.error();
    if (const Result<void> checked = checkProgramCondition(program); !program.isEmpty() && !checked)
        return checked.error();
    if (scope.kind != Scope::Kind::Global && scope.name.isEmpty())
        return fail(QStringLiteral("a sandbox or kit scope needs a name"));
    return change([&](PolicyData &data) -> StoreResult {
        Rule rule;
        rule.scope = scope;
        rule.verdict = verdict;
        rule.pattern = parsed.value();
        rule.origin = origin;
        rule.request = request;
        rule.program = program;
        rule.id = ruleIdFor(scope, verdict, rule.pattern, request, program);
        for (const Rule &existing : std::as_const(data.rules)) {
            if (existing.scope == scope && existing.verdict == verdict && existing.pattern == rule.pattern &&
                existing.request == request && existing.program == program)
                return StoreChange{existing};
        }
        // Ids are eight hex digits of a hash; on the rare collision, extend the id.
        const QString base = rule.id;
        for (int n = 2;
             std::any_of(data.rules.cbegin(), data.rules.cend(), [&](const Rule &r) { return r.id == rule.id; }); ++n)
            rule.id = base + QLatin1Char('-') + QString::number(n);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        rule.created = now.addMSecs(-now.time().msec());
        data.rules.append(rule);
        return StoreChange{rule};
    });
}

StoreResult PolicyStore::removeRule(const QString &id)
{
    return change([&](PolicyData &data) -> StoreResult {
        const int removed = int(data.rules.removeIf([&](const Rule &rule) { return rule.id == id; }));
        if (removed == 0)
            return fail(QStringLiteral("no rule has the id %1").arg(id));
        return StoreChange{std::nullopt, removed};
    });
}

StoreResult PolicyStore::removeRule(QStringView pattern, const Scope &scope)
{
    // Deny context accepts every valid pattern, including a bare `**`.
    const Result<HostPattern> parsed = HostPattern::parse(pattern, PatternContext::Deny);
    if (!parsed)
        return parsed.error();
    return change([&](PolicyData &data) -> StoreResult {
        const int removed = int(data.rules.removeIf(
            [&](const Rule &rule) { return rule.scope == scope && rule.pattern == parsed.value(); }));
        if (removed == 0)
            return fail(QStringLiteral("no %1 rule has the pattern %2").arg(scope.toString(), parsed->toString()));
        return StoreChange{std::nullopt, removed};
    });
}

StoreResult PolicyStore::setPreset(Preset preset)
{
    return change([&](PolicyData &data) -> StoreResult {
        data.preset = preset;
        return StoreChange{};
    });
}

StoreResult PolicyStore::setResolveOverride(QStringView host, const QHostAddress &address)
{
    const std::string name = normaliseHostName(host);
    if (name.empty() || IpAddress::parse(host))
        return fail(QStringLiteral("\"%1\" is not a host name").arg(host.toString()));
    if (address.isNull())
        return fail(QStringLiteral("the address is not valid"));
    return change([&](PolicyData &data) -> StoreResult {
        data.resolveOverrides.insert(QString::fromStdString(name),
                                     QHostAddress(IpAddress::fromHostAddress(address).toString()));
        return StoreChange{};
    });
}

StoreResult PolicyStore::removeResolveOverride(QStringView host)
{
    const QString name = QString::fromStdString(normaliseHostName(host));
    return change([&](PolicyData &data) -> StoreResult {
        if (data.resolveOverrides.remove(name) == 0)
            return fail(QStringLiteral("no resolver override for %1").arg(host.toString()));
        return StoreChange{std::nullopt, 1};
    });
}

std::variant<PolicyData, PolicyError> PolicyStore::parse(const QByteArray &contents, const QString &file)
{
    return yaml::decodeText(contents, file, decode);
}

QByteArray PolicyStore::serialise(const PolicyData &data)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "version" << YAML::Value << kFormatVersion;
    out << YAML::Key << "preset" << YAML::Value << presetName(data.preset).toStdString();
    out << YAML::Key << "rules" << YAML::Value << YAML::BeginSeq;
    for (const Rule &rule : data.rules) {
        out << YAML::BeginMap;
        out << YAML::Key << "id" << YAML::Value << rule.id.toStdString();
        out << YAML::Key << "scope" << YAML::Value << rule.scope.toString().toStdString();
        out << YAML::Key << "decision" << YAML::Value << verdictName(rule.verdict).toStdString();
        out << YAML::Key << "pattern" << YAML::Value << rule.pattern.toString().toStdString();
        if (!rule.program.isEmpty())
            out << YAML::Key << "program" << YAML::Value << rule.program.toStdString();
        out << YAML::Key << "origin" << YAML::Value << originName(rule.origin).toStdString();
        if (!rule.request.methods.isEmpty())
            out << YAML::Key << "method" << YAML::Value << rule.request.methods.join(QLatin1Char(',')).toStdString();
        if (!rule.request.path.isEmpty())
            out << YAML::Key << "path" << YAML::Value << rule.request.path.toStdString();
        if (rule.created.isValid())
            out << YAML::Key << "created" << YAML::Value << rule.created.toString(Qt::ISODate).toStdString();
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "resolve" << YAML::Value << YAML::BeginMap;
    for (auto it = data.resolveOverrides.cbegin(); it != data.resolveOverrides.cend(); ++it)
        out << YAML::Key << it.key().toStdString() << YAML::Value << it.value().toString().toStdString();
    out << YAML::EndMap;
    if (!data.ask.isDefault()) {
        out << YAML::Key << "ask" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "all" << YAML::Value << data.ask.everySandbox;
        out << YAML::Key << "timeout" << YAML::Value << data.ask.timeoutSeconds;
        out << YAML::Key << "unanswered" << YAML::Value << (data.ask.allowUnanswered ? "allow" : "deny");
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    return QByteArray(kHeader) + QByteArray(out.c_str()) + '\n';
}

} // namespace paddock::policy

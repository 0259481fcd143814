// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock proxy serve`: the proxy on its own, in front of any program, in the foreground.
#include "ProxyServe.h"

#include "events/EventHub.h"
#include "events/Jsonl.h"
#include "network/PolicyDecider.h"
#include "network/ProxyEvents.h"
#include "network/UpstreamSettings.h"
#include "policy/HostPattern.h"
#include "policy/PolicyStore.h"
#include "policy/Preset.h"
#include "proxy/ProxyEngine.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcessEnvironment>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcServe, "paddock.proxy.serve")

namespace paddock::cli {

namespace {

/** Where `--listen` points: a TCP address and port, or a unix socket path. */
struct ListenAddress
{
    QString unixPath;
    QHostAddress address;
    quint16 port = 0;
};

std::optional<ListenAddress> parseListen(const QString &text)
{
    ListenAddress listen;
    if (text.startsWith(QLatin1Char('/')) || text.startsWith(QLatin1String("./"))) {
        listen.unixPath = text;
        return listen;
    }
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535 || !listen.address.setAddress(host))
        return std::nullopt;
    listen.port = quint16(port);
    return listen;
}

/** One `--resolve HOST:PORT:ADDRESS[,ADDRESS]`: the host and the address the policy trusts for it. */
struct ResolveFlag
{
    QString entry;
    QString host;
    QHostAddress address;
};

std::optional<ResolveFlag> parseResolve(const QString &entry, QString *error)
{
    const QStringList parts = entry.split(QLatin1Char(':'));
    if (parts.size() < 3) {
        *error = QStringLiteral("--resolve takes HOST:PORT:ADDRESS, got '%1'").arg(entry);
        return std::nullopt;
    }
    ResolveFlag flag;
    flag.entry = entry;
    flag.host = QString::fromStdString(policy::normaliseHostName(parts.first()));
    QString first = entry.section(QLatin1Char(':'), 2).section(QLatin1Char(','), 0, 0);
    if (first.startsWith(QLatin1Char('[')) && first.endsWith(QLatin1Char(']')))
        first = first.mid(1, first.size() - 2);
    if (flag.host.isEmpty() || !flag.address.setAddress(first)) {
        *error = QStringLiteral("--resolve takes HOST:PORT:ADDRESS, got '%1'").arg(entry);
        return std::nullopt;
    }
    return flag;
}

// Signals arrive on any thread; the handler only writes a byte that the event loop reads.
int g_signalPipe[2] = {-1, -1};

void onStopSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(g_signalPipe[1], &byte, 1);
}

/** Turns SIGINT and SIGTERM into QCoreApplication::quit(). */
bool installStopSignals(std::unique_ptr<QSocketNotifier> *notifier)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalPipe) != 0)
        return false;
    *notifier = std::make_unique<QSocketNotifier>(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(notifier->get(), &QSocketNotifier::activated, [] {
        char byte = 0;
        [[maybe_unused]] const ssize_t got = ::read(g_signalPipe[0], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(SIGINT, &action, nullptr) == 0 && ::sigaction(SIGTERM, &action, nullptr) == 0;
}

/**
 * Where every proxy event goes in `proxy serve`: refusals to stderr, everything to the
 * JSON-lines file, and to the event log so `paddock policy log` shows it. Runs on the
 * proxy's event thread only.
 */
class ServeEventSink
{
public:
    ServeEventSink(std::FILE *jsonl, events::EventHub *hub) : m_jsonl(jsonl), m_hub(hub) {}

    void operator()(const proxy::ProxyEvent &proxyEvent)
    {
        const std::optional<events::NetworkEvent> event = network::toNetworkEvent(proxyEvent);
        if (!event)
            return;
        if (event->outcome == events::NetworkEvent::Outcome::Denied) {
            const QString line = QStringLiteral("%1  denied  %2:%3  %4  %5\n")
                                     .arg(events::formatEventTime(event->time), event->host,
                                          QString::number(event->port), event->rule, event->reason);
            std::fputs(line.toLocal8Bit().constData(), stderr);
            std::fflush(stderr);
        }
        if (m_jsonl) {
            const QByteArray line = events::toJsonLine(*event);
            std::fwrite(line.constData(), 1, size_t(line.size()), m_jsonl);
            std::fflush(m_jsonl);
        }
        if (m_hub)
            m_hub->publish(*event);
    }

private:
    std::FILE *m_jsonl;
    events::EventHub *m_hub;
};

/** The rules given on the command line, kept apart so a reload of policy.yaml keeps them. */
struct FlagPolicy
{
    std::optional<policy::Preset> preset;
    QList<policy::Rule> rules;
    QList<ResolveFlag> resolves;

    policy::PolicyData mergedWith(const policy::PolicyData &file) const
    {
        policy::PolicyData data = file;
        if (preset)
            data.preset = *preset;
        data.rules += rules;
        // The user named these addresses: trusted like policy.yaml overrides, so an allowed
        // name may lead to a local upstream.
        for (const ResolveFlag &flag : resolves)
            data.resolveOverrides.insert(flag.host, flag.address);
        return data;
    }
};

int parseRules(const Invocation &call, FlagPolicy *flags)
{
    for (const auto &[option, verdict] : {std::pair{QStringLiteral("allow"), policy::Verdict::Allow},
                                          std::pair{QStringLiteral("deny"), policy::Verdict::Deny}}) {
        for (const QString &text : call.parser.values(option)) {
            const Result<policy::HostPattern> parsed =
                policy::HostPattern::parse(text, policy::patternContextFor(verdict, policy::Origin::User));
            if (!parsed)
                return usageError(
                    call.commandPath,
                    QStringLiteral("invalid --%1 pattern '%2': %3").arg(option, text, parsed.error().message));
            policy::Rule rule;
            rule.verdict = verdict;
            rule.pattern = parsed.value();
            rule.origin = policy::Origin::User;
            rule.id = policy::ruleIdFor(rule.scope, verdict, rule.pattern);
            flags->rules.append(rule);
        }
    }
    if (call.parser.isSet(QStringLiteral("preset"))) {
        const QString name = call.parser.value(QStringLiteral("preset"));
        flags->preset = policy::presetFromName(name);
        if (!flags->preset)
            return usageError(
                call.commandPath,
                QStringLiteral("unknown preset '%1': expected deny-all, balanced or allow-all").arg(name));
    }
    for (const QString &entry : call.parser.values(QStringLiteral("resolve"))) {
        QString error;
        const std::optional<ResolveFlag> flag = parseResolve(entry, &error);
        if (!flag)
            return usageError(call.commandPath, error);
        flags->resolves.append(*flag);
    }
    return ExitOk;
}

/** Adds the endpoint @p listen names; returns where it listens, or empty with @p error set. */
QString listenOn(proxy::ProxyEngine &proxy, const ListenAddress &listen, const QString &listenText,
                 const proxy::EndpointIdentity &identity, QString *error)
{
    if (!listen.unixPath.isEmpty()) {
        const QString where = QFileInfo(listen.unixPath).absoluteFilePath();
        const Result<proxy::ProxyEngine::EndpointId> added = proxy.addUnixEndpoint(where, identity);
        if (!added) {
            *error = QStringLiteral("cannot listen on %1: %2").arg(where, added.error().text());
            return {};
        }
        return where;
    }
    quint16 bound = 0;
    const Result<proxy::ProxyEngine::EndpointId> added =
        proxy.addTcpEndpoint(listen.address, listen.port, identity, &bound);
    if (!added) {
        *error = QStringLiteral("cannot listen on %1: %2").arg(listenText, added.error().text());
        return {};
    }
    const QString host = listen.address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + listen.address.toString() + QLatin1Char(']')
                             : listen.address.toString();
    return host + QLatin1Char(':') + QString::number(bound);
}

/** Applies each change of the watched policy file at once; the flags win for the names they map. */
void followPolicyFile(policy::PolicyStore &store, policy::PolicyEngine &engine, proxy::ProxyEngine &proxy,
                      const FlagPolicy &flags, QMap<QString, QHostAddress> &fileOverrides)
{
    // The pointers stay valid: everything here lives until runServe() returns.
    QObject::connect(&store, &policy::PolicyStore::policyChanged,
                     [store = &store, engine = &engine, proxy = &proxy, flags = &flags, files = &fileOverrides] {
                         engine->setPolicy(flags->mergedWith(store->policy()));
                         *files = network::syncResolveOverrides(proxy->resolveOverrides(), *files,
                                                                store->policy().resolveOverrides);
                         // Each flag was read once already, when the command started.
                         for (const ResolveFlag &flag : std::as_const(flags->resolves))
                             (void)proxy->resolveOverrides().addCurlStyle(flag.entry);
                         qCInfo(lcServe) << "policy reloaded";
                     });
    QObject::connect(&store, &policy::PolicyStore::loadFailed, [](const policy::PolicyError &problem) {
        std::fprintf(stderr, "paddock: %s (the previous policy stays in force)\n", qPrintable(problem.toString()));
    });
}

/**
 * The upstream proxy the daemon would use, chosen the same way (network::chooseUpstream from
 * the settings file, this process's environment and the desktop), with its password from the
 * keychain and its name resolved. Nothing: straight out; @p problem says why when a setting
 * could not be used.
 */
std::optional<proxy::UpstreamProxy> chosenUpstream(QString *problem)
{
    auto loaded = network::SettingsFile::load();
    network::SettingsFile file;
    if (const FileError *broken = std::get_if<FileError>(&loaded))
        *problem = broken->toString();
    else
        file = std::get<network::SettingsFile>(loaded);
    network::UpstreamChoice choice =
        network::chooseUpstream(file, QProcessEnvironment::systemEnvironment(), &network::DesktopProxy::read);
    if (!choice.problem.isEmpty())
        *problem = choice.problem;
    if (!choice.proxy)
        return std::nullopt;
    if (!choice.proxy->user.empty() && choice.proxy->password.empty()) {
        secrets::SecretStore store;
        secrets::SecretResult password = secrets::SecretStore::wait([&store](secrets::SecretStore::Callback done) {
            store.getKeyMaterial(QLatin1String(network::kUpstreamPasswordKey), std::move(done));
        });
        if (password.ok())
            choice.proxy->password = password.value.toStdString();
        secrets::wipe(password.value);
    }
    network::resolveUpstream(*choice.proxy);
    return choice.proxy;
}

/** Out through the same upstream (company) proxy the daemon would use, said on stderr. */
void useUpstreamProxy(proxy::ProxyEngine &proxy)
{
    QString problem;
    if (std::optional<proxy::UpstreamProxy> upstream = chosenUpstream(&problem)) {
        err() << "connections out go through " << upstream->display() << " (from " << upstream->source << ")\n";
        proxy.setUpstreamProxy(std::make_shared<const proxy::UpstreamProxy>(std::move(*upstream)));
    }
    if (!problem.isEmpty())
        err() << "note: " << problem << "\n";
}

/**
 * In the foreground only warnings belong beside the refusals, and not the policy store's, which
 * are printed here already (loadFailed). QT_LOGGING_RULES still wins.
 */
void quietLibraryLogs()
{
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(
            QStringLiteral("paddock.*.debug=false\npaddock.*.info=false\npaddock.policy.store.warning=false"));
}

/** The proxy, run until SIGINT or SIGTERM. */
int runServe(const Invocation &call)
{
    quietLibraryLogs();
    const QString listenText = call.parser.value(QStringLiteral("listen"));
    if (listenText.isEmpty())
        return usageError(call.commandPath, QStringLiteral("--listen ADDRESS:PORT or a socket path is required"));
    const std::optional<ListenAddress> listen = parseListen(listenText);
    if (!listen)
        return usageError(call.commandPath,
                          QStringLiteral("--listen takes ADDRESS:PORT or a socket path, got '%1'").arg(listenText));
    FlagPolicy flags;
    if (const int code = parseRules(call, &flags); code != ExitOk)
        return code;
    const QString sandbox = call.parser.value(QStringLiteral("sandbox"));

    // The policy file, watched: `paddock policy allow` in another terminal applies at once.
    std::unique_ptr<policy::PolicyStore> store;
    if (!call.parser.isSet(QStringLiteral("no-policy-file"))) {
        store = std::make_unique<policy::PolicyStore>();
        store->load();
        if (const auto error = store->lastError())
            return failure(QStringLiteral("the policy file cannot be used: %1").arg(error->toString()));
    }
    policy::PolicyEngine engine;
    const auto fileData = [&store] { return store ? store->policy() : policy::PolicyData{}; };
    engine.setPolicy(flags.mergedWith(fileData()));

    std::FILE *jsonl = nullptr;
    if (call.parser.isSet(QStringLiteral("events-jsonl"))) {
        const QString path = call.parser.value(QStringLiteral("events-jsonl"));
        jsonl = std::fopen(QFile::encodeName(path).constData(), "ae");
        if (!jsonl)
            return failure(QStringLiteral("cannot open %1 for writing: %2")
                               .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    std::unique_ptr<events::EventHub> hub;
    if (!call.parser.isSet(QStringLiteral("no-event-log"))) {
        hub = std::make_unique<events::EventHub>();
        QObject::connect(hub.get(), &events::EventHub::storageFailed, [](const QString &message) {
            std::fprintf(stderr, "paddock: the event log is not being written: %s\n", qPrintable(message));
        });
    }

    proxy::ProxyEngine proxy;
    proxy.setDecider(network::policyDecider(engine));
    proxy.setEventSink(ServeEventSink(jsonl, hub.get()));
    for (const ResolveFlag &flag : std::as_const(flags.resolves)) {
        const Result<void> added = proxy.resolveOverrides().addCurlStyle(flag.entry);
        if (!added)
            return usageError(call.commandPath, added.error().text());
    }
    QMap<QString, QHostAddress> fileOverrides =
        network::syncResolveOverrides(proxy.resolveOverrides(), {}, fileData().resolveOverrides);

    std::unique_ptr<QSocketNotifier> stopNotifier;
    if (!installStopSignals(&stopNotifier))
        return failure(QStringLiteral("cannot install the signal handlers"));

    useUpstreamProxy(proxy);
    if (const Result<void> started = proxy.start(); !started)
        return failure(QStringLiteral("the proxy did not start: %1").arg(started.error().text()));
    QString error;
    const QString where = listenOn(proxy, *listen, listenText, {sandbox, {}}, &error);
    if (where.isEmpty())
        return failure(error);
    if (store)
        followPolicyFile(*store, engine, proxy, flags, fileOverrides);

    out() << "listening on " << where << Qt::endl;
    QCoreApplication::exec();

    proxy.stop(); // delivers the queued events before the sink's targets go away
    if (hub)
        hub->flush();
    if (jsonl)
        std::fclose(jsonl);
    return ExitOk;
}

} // namespace

Command serveCommand()
{
    Command serve;
    // Named as it is run: `paddock proxy serve` execs this program with the rest of its line.
    serve.name = QStringLiteral("paddock proxy serve");
    serve.summary = QStringLiteral("Run the proxy in the foreground until interrupted.");
    serve.description =
        QStringLiteral("Listens on ADDRESS:PORT (port 0 picks a free one) or on a unix socket path, and answers\n"
                       "CONNECT, plain HTTP and SOCKS5 requests. Each connection is decided by the rules given\n"
                       "here together with policy.yaml (the rules 'paddock policy' manages), which is watched:\n"
                       "'paddock policy allow network HOST' applies to the next connection without a restart.\n"
                       "Prints 'listening on ADDRESS' once ready, and one line on stderr per refusal (time,\n"
                       "host:port, rule, reason). Every event goes to the event log ('paddock policy log') and,\n"
                       "with --events-jsonl, to a file as JSON lines. SIGINT or SIGTERM stop it (exit 0).\n"
                       "Allowed connections go out through the upstream proxy 'paddock settings' shows, as the\n"
                       "daemon's do (the settings, then HTTPS_PROXY/ALL_PROXY/http_proxy and NO_PROXY, then the\n"
                       "desktop's).");
    serve.maxPositional = 0;
    serve.options = {
        QCommandLineOption(QStringLiteral("listen"), QStringLiteral("ADDRESS:PORT or a unix socket path to listen on."),
                           QStringLiteral("ADDRESS")),
        QCommandLineOption(QStringLiteral("allow"), QStringLiteral("Allow a destination pattern (repeatable)."),
                           QStringLiteral("PATTERN")),
        QCommandLineOption(QStringLiteral("deny"), QStringLiteral("Deny a destination pattern (repeatable)."),
                           QStringLiteral("PATTERN")),
        QCommandLineOption(QStringLiteral("preset"),
                           QStringLiteral("Use this preset instead of policy.yaml's: deny-all, balanced or allow-all."),
                           QStringLiteral("NAME")),
        QCommandLineOption(
            QStringLiteral("resolve"),
            QStringLiteral("Use ADDRESS for HOST:PORT instead of DNS, as curl does (repeatable; PORT may be *)."),
            QStringLiteral("HOST:PORT:ADDRESS")),
        QCommandLineOption(QStringLiteral("events-jsonl"), QStringLiteral("Append every event to FILE as JSON lines."),
                           QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("sandbox"),
                           QStringLiteral("Decide and record connections as coming from sandbox NAME."),
                           QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("no-policy-file"),
                           QStringLiteral("Ignore policy.yaml: only the rules given here.")),
        QCommandLineOption(QStringLiteral("no-event-log"),
                           QStringLiteral("Do not write events to the event log database.")),
    };
    serve.run = runServe;
    return serve;
}

} // namespace paddock::cli

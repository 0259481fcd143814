// SPDX-License-Identifier: GPL-3.0-or-later
#include "Daemon.h"

#include "events/EventHub.h"
#include "sandbox/BundleMethods.h"
#include "sandbox/CaMethods.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/KeyTest.h"
#include "sandbox/KitLibraryMethods.h"
#include "sandbox/KitLoadMethods.h"
#include "sandbox/KitNetworkMethods.h"
#include "sandbox/KitSettingsMethods.h"
#include "sandbox/SecretGuardService.h"

#include "api/DaemonConnection.h"
#include "common/Paths.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSocketNotifier>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcDaemon, "paddock.daemon", QtInfoMsg)

namespace paddock::daemon {
namespace {

// How long a new daemon waits for the lock of one that is on its way out.
constexpr int kLockWaitMs = 2000;
constexpr int kProbeTimeoutMs = 1000;

// Self-pipe: the handler only writes the signal number; the event loop does the rest.
int g_signalPipe[2] = {-1, -1};

void onSignalReceived(int signal)
{
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signal);
    [[maybe_unused]] const ssize_t written = ::write(g_signalPipe[1], &byte, 1);
    errno = savedErrno;
}

} // namespace

Daemon::Daemon(QObject *parent) : QObject(parent)
{
    connect(&m_server, &api::Server::shutdownRequested, this, [] {
        qCInfo(lcDaemon) << "stopping at a client's request";
        QCoreApplication::quit();
    });
}

Daemon::~Daemon()
{
    stop();
}

qint64 Daemon::livePeerPid() const
{
    api::DaemonConnection connection;
    QString ignored;
    if (!connection.open(m_socketPath, kProbeTimeoutMs, &ignored))
        return -1;
    return connection.server().pid;
}

Daemon::StartResult Daemon::start(const QString &socketPath, QString *message)
{
    m_socketPath = socketPath;
    const QString directory = QFileInfo(socketPath).absolutePath();
    QString error;
    if (!paths::ensurePrivateDir(directory, &error)) {
        *message = error;
        return StartResult::Failed;
    }
    if (const StartResult locked = takeLock(directory + QStringLiteral("/paddockd.lock"), message);
        locked != StartResult::Started)
        return locked;
    if (const StartResult cleared = clearStaleSocket(message); cleared != StartResult::Started)
        return cleared;
    if (!startServices(message))
        return StartResult::Failed;

    // The handlers first: a client that sees the socket may stop the daemon at once, and a
    // SIGTERM before them would kill it without removing the socket.
    if (!installSignalHandlers(&error)) {
        *message = error;
        return StartResult::Failed;
    }
    if (!m_server.listen(socketPath, &error)) {
        *message = error;
        return StartResult::Failed;
    }
    return StartResult::Started;
}

Daemon::StartResult Daemon::takeLock(const QString &lockPath, QString *message)
{
    QString error;
    InstanceLock::Result lock = m_lock.tryAcquire(lockPath, &error);
    if (lock == InstanceLock::Result::HeldByOther) {
        qint64 pid = livePeerPid();
        if (pid < 0) {
            // The holder is starting or stopping; a stopping one releases the lock soon.
            const QDeadlineTimer deadline(kLockWaitMs);
            while (lock == InstanceLock::Result::HeldByOther && !deadline.hasExpired()) {
                QThread::msleep(100);
                lock = m_lock.tryAcquire(lockPath, &error);
            }
            if (lock == InstanceLock::Result::HeldByOther) {
                pid = livePeerPid();
                if (pid < 0)
                    pid = m_lock.holderPid();
            }
        }
        if (lock == InstanceLock::Result::HeldByOther) {
            *message = QStringLiteral("paddockd is already running (pid %1)").arg(pid);
            return StartResult::AlreadyRunning;
        }
    }
    if (lock == InstanceLock::Result::Failed) {
        *message = error;
        return StartResult::Failed;
    }
    return StartResult::Started;
}

Daemon::StartResult Daemon::clearStaleSocket(QString *message)
{
    const QByteArray nativeSocket = QFile::encodeName(m_socketPath);
    struct stat st
    {};
    if (::lstat(nativeSocket.constData(), &st) != 0)
        return StartResult::Started;
    // We hold the lock, so this is normally a socket left by a daemon that died; but a
    // daemon that does not know the lock file may still be serving it.
    const qint64 pid = livePeerPid();
    if (pid >= 0) {
        *message = QStringLiteral("paddockd is already running (pid %1)").arg(pid);
        return StartResult::AlreadyRunning;
    }
    if (!S_ISSOCK(st.st_mode)) {
        *message = QStringLiteral("%1 exists and is not a socket; remove it and try again").arg(m_socketPath);
        return StartResult::Failed;
    }
    if (::unlink(nativeSocket.constData()) != 0) {
        *message = QStringLiteral("cannot remove the stale socket %1: %2")
                       .arg(m_socketPath, QString::fromLocal8Bit(std::strerror(errno)));
        return StartResult::Failed;
    }
    qCWarning(lcDaemon).noquote() << "replaced a stale socket at" << m_socketPath << "left by a daemon that is gone";
    return StartResult::Started;
}

bool Daemon::startServices(QString *message)
{
    // Before listening: a client that connects finds every method, and the endpoints of
    // sandboxes that kept running while no daemon was there are open again.
    m_sandboxes = std::make_unique<sandbox::SandboxService>(m_server);
    if (const Result<void> started = m_sandboxes->start(); !started) {
        *message = QStringLiteral("cannot start the proxy: %1").arg(started.error().text());
        return false;
    }
    // Container images built and loaded as jobs, shared by the command line and the desktop.
    m_images = std::make_unique<sandbox::ImageService>(m_server);
    m_images->start();
    // Paddock's own settings of kits: shared folders and variables, least isolation.
    sandbox::registerKitSettingsMethods(m_server);
    // The kit library's added folders: `kit add`, `kit forget`, `kit ls`.
    sandbox::registerKitLibraryMethods(m_server);
    // The rules and the log of refusals, for the Network page and `paddock policy`.
    m_policy = std::make_unique<sandbox::PolicyService>(m_server, *m_sandboxes);
    m_policy->start();
    // `bundle import` and `export`: an imported kit and its policy written here, in force at the answer.
    sandbox::registerBundleMethods(m_server, m_sandboxes->policyStore());
    // `kit allow` and `kit deny`: a kit's spec.yaml edited, in force for its running sandboxes.
    sandbox::registerKitNetworkMethods(m_server, *m_sandboxes);
    // Connections held while the person decides (ask mode), for the prompt and `policy answer`.
    m_asks = std::make_unique<sandbox::AskService>(m_server, *m_sandboxes, *m_policy);
    m_asks->start();
    // Keys and bindings: the keychain and credentials.yaml, for clients that hold neither.
    m_secrets = std::make_unique<sandbox::SecretService>(m_server);
    m_secrets->onCredentialsChanged([sandboxes = m_sandboxes.get()] { sandboxes->applyCredentialsNow(); });
    // A key's command that failed goes into the event log, and so to the window's notification.
    m_sandboxes->credentials().onSourceFailed(
        [hub = m_sandboxes->eventHub()](events::NetworkEvent event) { hub->publish(std::move(event)); });
    m_secrets->start();
    // `paddock ca`: the local authority the proxy signs with, and the upstream authorities it trusts.
    sandbox::registerCaMethods(m_server, m_sandboxes->credentials());
    // `secret test`: one request with a stored key, sent as a sandbox's would be.
    sandbox::registerKeyTest(m_server, *m_sandboxes);
    // `paddock guard`: each sandbox's secret-egress guard, its mode and the values it lets through.
    sandbox::registerSecretGuard(m_server);
    // The upstream (corporate) proxy connections out go through, and the other settings.
    m_settings = std::make_unique<sandbox::SettingsService>(m_server, *m_sandboxes);
    m_settings->start();
    m_images->setBuildArguments([settings = m_settings.get()] { return settings->buildArguments(); });
    m_images->setUpstreamProxy([sandboxes = m_sandboxes.get()] { return sandboxes->proxy().upstreamProxy(); });
    // `kit load` and `kit pull`: the kit library and the image store, written here only.
    sandbox::registerKitLoadMethods(m_server,
                                    [sandboxes = m_sandboxes.get()] { return sandboxes->proxy().upstreamProxy(); });
    // The container engines the Docker backend can use, and the one in use.
    m_engines = std::make_unique<sandbox::EngineService>(m_server, *m_sandboxes);
    m_engines->start();
    // The agent's own guard: pi-permission-system's rules and the refusals in its review log.
    m_agentPerms = std::make_unique<sandbox::AgentPermsService>(m_server, *m_sandboxes);
    m_agentPerms->start();
    // The course's checklist, run inside sandboxes through the runtimes SandboxService owns.
    m_verify = std::make_unique<sandbox::VerifyService>(m_server, *m_sandboxes, m_agentPerms.get());
    m_verify->start();
    return true;
}

void Daemon::stop()
{
    if (m_server.isListening())
        m_server.close();
    // Running sandboxes keep running; their endpoints come back with the next daemon.
    if (m_sandboxes)
        m_sandboxes->stop();
}

bool Daemon::installSignalHandlers(QString *error)
{
    if (g_signalPipe[0] < 0 && ::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        *error = QStringLiteral("cannot create the signal pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    struct sigaction action
    {};
    action.sa_handler = onSignalReceived;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        if (::sigaction(signal, &action, nullptr) != 0) {
            *error =
                QStringLiteral("cannot install a signal handler: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
    }
    m_signalNotifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, this);
    connect(m_signalNotifier, &QSocketNotifier::activated, this, &Daemon::onSignal);
    return true;
}

void Daemon::onSignal()
{
    unsigned char byte = 0;
    while (::read(g_signalPipe[0], &byte, 1) == 1)
        qCInfo(lcDaemon).noquote()
            << QStringLiteral("received SIG%1, stopping").arg(QLatin1String(::sigabbrev_np(byte)));
    QCoreApplication::quit();
}

} // namespace paddock::daemon

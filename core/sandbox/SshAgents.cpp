// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SshAgents.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "runtime/docker/DockerRuntime.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocalSocket>
#include <QLoggingCategory>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace paddock::sandbox {

namespace {

constexpr qint64 kKnownHostsLimit = 1024 * 1024;

bool answers(const QString &socket)
{
    if (socket.isEmpty() || !QDir::isAbsolutePath(socket))
        return false;
    QLocalSocket probe;
    probe.connectToServer(socket);
    const bool connected = probe.waitForConnected(1000);
    probe.abort();
    return connected;
}

/** Marks the kit's ssh-agent@1 requests skipped, saying why. */
void skipAll(kit::Kit &kit, const QString &why)
{
    for (kit::CapabilityOutcome &outcome : kit.capabilities)
        if (outcome.type == QLatin1String(kSshAgentCapability) &&
            outcome.status == kit::CapabilityOutcome::Status::Applied) {
            outcome.status = kit::CapabilityOutcome::Status::Skipped;
            outcome.what = QStringLiteral("optional; %1").arg(why);
        }
}

/** Why a socket of this computer cannot be bound into @p runtime's sandboxes; empty when it can. */
QString hostSocketsUnreachable(const runtime::Runtime &runtime)
{
    const auto *docker = dynamic_cast<const runtime::DockerRuntime *>(&runtime);
    if (!docker || !docker->isRemote())
        return {};
    return QStringLiteral("the engine %1 is on another computer, where no socket of this one can be bound: create the "
                          "sandbox on an engine of this computer (--engine NAME) or with --backend bwrap")
        .arg(docker->engineName());
}

} // namespace

SshAgentPlan planSshAgent(kit::Kit &kit, const CreateRequest &request, const runtime::Runtime &runtime,
                          runtime::SandboxSpec &spec, QStringList *notes)
{
    SshAgentPlan plan;
    if (kit.sshAgents.isEmpty())
        return plan;
    plan.only = request.sshAgentOnly;
    if (!request.sshKnownHosts.isEmpty()) {
        QFile file(request.sshKnownHosts);
        if (!file.open(QIODevice::ReadOnly) || file.size() > kKnownHostsLimit) {
            plan.problem =
                QStringLiteral("the known hosts file %1 cannot be read, or is over 1 MiB").arg(request.sshKnownHosts);
            return plan;
        }
        plan.knownHosts = file.read(kKnownHostsLimit);
        if (plan.knownHosts.isEmpty())
            plan.knownHosts = "\n"; // given, and empty: no server's key is known
    }
    QString unbacked = hostSocketsUnreachable(runtime);
    if (unbacked.isEmpty()) {
        plan.backing = plan.only ? (answers(request.sshAgent) ? request.sshAgent : QString())
                                 : SshAgents::backingAgent(request.sshAgent);
        if (plan.backing.isEmpty() && plan.only)
            unbacked = request.sshAgent.isEmpty()
                           ? QStringLiteral("no SSH agent was given for it (--ssh-agent none): give one with "
                                            "--ssh-agent SOCKET")
                           : QStringLiteral("the SSH agent given (%1) does not answer: start it and ssh-add your "
                                            "key, then create the sandbox again")
                                 .arg(request.sshAgent);
        else if (plan.backing.isEmpty())
            unbacked = QStringLiteral("no SSH agent answers here (SSH_AUTH_SOCK): start ssh-agent and ssh-add your "
                                      "key, then create the sandbox again");
    }
    for (const kit::SshAgentGrant &grant : std::as_const(kit.sshAgents)) {
        if (unbacked.isEmpty()) {
            (grant.phase == QLatin1String("install") ? plan.install : plan.runtime) = grant;
        } else if (grant.required) {
            plan.refusal =
                QStringLiteral("the kit requires %1, and %2").arg(QLatin1String(kSshAgentCapability), unbacked);
            return plan;
        }
    }
    if (!unbacked.isEmpty()) {
        skipAll(kit, unbacked.section(QStringLiteral(": "), 0, 0));
        notes->append(QStringLiteral("kit %1: no SSH agent inside: %2").arg(kit.name, unbacked));
        return plan;
    }
    if (plan.runtime)
        spec.grants.sshAgentSocket = SshAgents::socketPath(spec.name);
    return plan;
}

QJsonObject appliedSshAgentJson(const SandboxRecord &record)
{
    if (!record.sshAgent)
        return {};
    return QJsonObject{{QStringLiteral("capability"), QLatin1String(kSshAgentCapability)},
                       {QStringLiteral("unrestricted"), record.sshAgent->unrestricted},
                       {QStringLiteral("sign"), QJsonArray::fromStringList(record.sshAgent->sign)},
                       {QStringLiteral("authenticate"), QJsonArray::fromStringList(record.sshAgent->authenticate)}};
}

Result<void> recordSshAgent(SandboxRecord &record, const SshAgentPlan &plan)
{
    record.sshAgent = plan.runtime;
    record.sshAgentBacking = plan.backing;
    record.sshAgentOnly = plan.only;
    record.sshKnownHosts.clear();
    if (plan.knownHosts.isEmpty() || (!plan.runtime && !plan.install))
        return {};
    record.sshKnownHosts = SshAgents::knownHostsCopy(record.name);
    if (QString error; !writeFileAtomically(record.sshKnownHosts, plan.knownHosts, &error, 0600))
        return fail(error);
    return {};
}

QString recordedBacking(const SandboxRecord &record)
{
    return record.sshAgentOnly ? record.sshAgentBacking : SshAgents::backingAgent(record.sshAgentBacking);
}

Result<void> adoptCallerAgent(SandboxRecord &record, const QString &caller)
{
    // An agent given for the sandbox alone stays its agent, whoever starts it.
    if (!record.sshAgent || record.sshAgentOnly || caller.isEmpty() || caller == record.sshAgentBacking ||
        !answers(caller))
        return {};
    record.sshAgentBacking = caller;
    return record.write();
}

QString SshAgents::socketPath(const QString &name, const QString &phase)
{
    const QString which = phase == QLatin1String("install") ? QStringLiteral("install") : QStringLiteral("runtime");
    return paths::runtimeDir() + QStringLiteral("/ssh-agents/") + name + QLatin1Char('.') + which +
           QStringLiteral("/agent.sock");
}

QString SshAgents::knownHostsCopy(const QString &name)
{
    return QFileInfo(SandboxRecord::pathFor(name)).absolutePath() + QLatin1Char('/') + name +
           QStringLiteral(".known_hosts");
}

void SshAgents::removeFiles(const QString &name)
{
    QFile::remove(knownHostsCopy(name));
    for (const char *phase : {"runtime", "install"}) {
        const QString path = socketPath(name, QLatin1String(phase));
        QFile::remove(path);
        QDir().rmdir(QFileInfo(path).absolutePath());
    }
}

QString SshAgents::backingAgent(const QString &fromCaller)
{
    if (answers(fromCaller))
        return fromCaller;
    const QString own = qEnvironmentVariable("SSH_AUTH_SOCK");
    return answers(own) ? own : QString();
}

QString SshAgents::knownHostsPath()
{
    // As ssh reads it: the account's home, whatever HOME says.
    const passwd *account = ::getpwuid(::getuid());
    const QString home = account ? QString::fromLocal8Bit(account->pw_dir) : QDir::homePath();
    return home + QStringLiteral("/.ssh/known_hosts");
}

Result<void> SshAgents::open(const QString &name, const QString &kitName, const kit::SshAgentGrant &grant,
                             const QString &backing, const QString &knownHosts)
{
    close(name, grant.phase);
    const QString path = socketPath(name, grant.phase);
    const QString folder = QFileInfo(path).absolutePath();
    // Made once and kept while the sandbox exists: a running sandbox's bind holds this folder.
    // On this computer `ssh-agents` keeps every other user out; inside, the folder and its socket
    // are open to every uid, as setup.install runs as root by default, and a Docker engine's root
    // has no power over the files of the person's uid.
    if (QString error;
        !paths::ensurePrivateDir(QFileInfo(folder).absolutePath(), &error) || !paths::ensurePrivateDir(folder, &error))
        return fail(error);
    if (::chmod(QFile::encodeName(folder).constData(), 0711) != 0)
        return fail(QStringLiteral("cannot open the folder %1 to the sandbox's users").arg(folder));
    auto relay =
        std::make_unique<sshagent::AgentRelay>(sshagent::AgentGrant{grant.unrestricted, grant.sign, grant.authenticate},
                                               backing, knownHosts.isEmpty() ? knownHostsPath() : knownHosts);
    relay->onSign = [publish = m_publish, name, kitName](const sshagent::SignRecord &record) {
        qCInfo(lcSandbox).noquote() << "sandbox" << name << "SSH agent:" << (record.relayed ? "signed" : "refused")
                                    << record.purpose << "with" << record.key
                                    << (record.relayed ? QString() : QStringLiteral("(") + record.reason + u')');
        events::NetworkEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.sandbox = name;
        event.kit = kitName;
        event.host = QStringLiteral("ssh-agent");
        event.protocol = QStringLiteral("ssh-agent");
        event.outcome = record.relayed ? events::NetworkEvent::Outcome::Allowed : events::NetworkEvent::Outcome::Denied;
        event.rule = QStringLiteral("ssh-agent@1");
        event.reason = QStringLiteral("%1 with %2").arg(record.purpose, record.key) +
                       (record.relayed ? QString() : QStringLiteral(": refused, ") + record.reason);
        if (publish)
            publish(event);
    };
    if (const Result<void> listening = relay->listen(path, true); !listening)
        return listening;
    m_relays[name + QLatin1Char('/') + grant.phase] = std::move(relay);
    return {};
}

void SshAgents::close(const QString &name, const QString &phase)
{
    m_relays.erase(name + QLatin1Char('/') + phase);
}

} // namespace paddock::sandbox

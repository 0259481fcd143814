// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SshAgents.h"

#include "common/Paths.h"

#include <QDir>
#include <QFileInfo>
#include <QLocalSocket>
#include <QLoggingCategory>

#include <pwd.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace paddock::sandbox {

namespace {

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

} // namespace

SshAgentPlan planSshAgent(kit::Kit &kit, const QString &fromCaller, const QString &backend, runtime::SandboxSpec &spec,
                          QStringList *notes)
{
    SshAgentPlan plan;
    if (kit.sshAgents.isEmpty())
        return plan;
    // A container's user is not the socket's owner, and an engine may be on another computer.
    QString unbacked;
    if (backend != QLatin1String("bwrap"))
        unbacked = QStringLiteral("Paddock gives an SSH agent to bubblewrap sandboxes only: create it with --backend "
                                  "bwrap");
    else if ((plan.backing = SshAgents::backingAgent(fromCaller)).isEmpty())
        unbacked = QStringLiteral("no SSH agent answers here (SSH_AUTH_SOCK): start ssh-agent and ssh-add your key, "
                                  "then create the sandbox again");
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

Result<void> adoptCallerAgent(SandboxRecord &record, const QString &caller)
{
    if (!record.sshAgent || caller.isEmpty() || caller == record.sshAgentBacking || !answers(caller))
        return {};
    record.sshAgentBacking = caller;
    return record.write();
}

QString SshAgents::socketPath(const QString &name, const QString &phase)
{
    return paths::runtimeDir() + QStringLiteral("/sandboxes/") + name +
           (phase == QLatin1String("install") ? QStringLiteral("/ssh-agent-install.sock")
                                              : QStringLiteral("/ssh-agent.sock"));
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
                             const QString &backing)
{
    close(name, grant.phase);
    const QString path = socketPath(name, grant.phase);
    if (QString error; !paths::ensurePrivateDir(QFileInfo(path).absolutePath(), &error))
        return fail(error);
    auto relay = std::make_unique<sshagent::AgentRelay>(
        sshagent::AgentGrant{grant.unrestricted, grant.sign, grant.authenticate}, backing, knownHostsPath());
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
    if (const Result<void> listening = relay->listen(path); !listening)
        return listening;
    m_relays[name + QLatin1Char('/') + grant.phase] = std::move(relay);
    return {};
}

void SshAgents::close(const QString &name, const QString &phase)
{
    m_relays.erase(name + QLatin1Char('/') + phase);
}

} // namespace paddock::sandbox

// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxFixture.h"

#include "IsolatedHome.h"
#include "TestFiles.h"

#include "policy/PolicyStore.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::test {

bool SandboxFixture::setUp()
{
    if (!m_root.isValid() || !m_upstream.start())
        return false;
    for (const char *sub : {"config/paddock", "workspace", "kit/files/home/.config", "kit/files/workspace"})
        QDir().mkpath(path(QLatin1String(sub)));
    m_env = isolatedEnvironment(m_root.path(), XdgFolders::shortNames());
    m_env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
    m_env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
    m_env.insert(QLatin1String(kMarker), QStringLiteral("must-not-leak"));
    m_env.remove(QStringLiteral("JOURNAL_STREAM"));
    // No container engine: the tests must not depend on one, nor touch the machine's.
    m_env.insert(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix://") + path(QStringLiteral("no-docker.sock")));
    for (const QString &name : m_extraEnvironment.keys())
        m_env.insert(name, m_extraEnvironment.value(name));
    // The test process itself talks to the daemon and writes the policy: same directories.
    useXdgOf(m_env);
    return writeProbeKit() && mapNames() && startDaemon();
}

SandboxFixture::~SandboxFixture()
{
    // Sandboxes outlive the daemon by design; the test's own must not outlive the test.
    paddock({QStringLiteral("rm"), QStringLiteral("--all"), QStringLiteral("--force")});
    stopDaemon();
}

Finished SandboxFixture::run(const QString &program, const QStringList &arguments, int timeoutMs,
                             const QByteArray &input)
{
    ProcessOptions options;
    options.environment = m_env;
    options.workingDirectory = workspace();
    options.input = input;
    options.timeoutMs = timeoutMs;
    return runText(program, arguments, options);
}

Finished SandboxFixture::runScript(const QString &name, const QString &script)
{
    return paddock({QStringLiteral("run"), QStringLiteral("--kit"), kitDir(), QStringLiteral("--name"), name,
                    workspace(), QStringLiteral("--"), script});
}

QHash<QString, QJsonObject> SandboxFixture::listed()
{
    return sandboxesByName(paddock({QStringLiteral("ls"), QStringLiteral("--json")}).out);
}

QString SandboxFixture::daemonLog() const
{
    // What it printed (startup problems) and what it logged (its log file in the state folder).
    return QString::fromUtf8(readFile(path(QStringLiteral("paddockd.out"))) +
                             readFile(path(QStringLiteral("state/paddock/paddockd.log"))));
}

QString SandboxFixture::writeKit(const QString &folder, const QByteArray &spec)
{
    return writeFile(path(folder) + QStringLiteral("/spec.yaml"), spec) ? path(folder) : QString();
}

bool SandboxFixture::writeProbeKit()
{
    const QByteArray spec = QStringLiteral(R"(schemaVersion: "2"
kind: sandbox
name: probe
description: A kit that only looks around.
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command:
    default: ["echo hello from the kit"]
    interactive: ["echo interactive; test -t 0 && echo on a terminal"]
environment:
  variables:
    KIT_GREETING: bonjour
credentials:
  - service: testsvc
    apiKey:
      name: TEST_API_KEY
      proxyManaged: true
permissions:
  network:
    allow:
      - allowed.test:%1
agentInstructions:
  filename: AGENTS.md
  content: "%2"
)")
                                .arg(m_upstream.port())
                                .arg(QString::fromLatin1(kAgentText).trimmed() + QStringLiteral("\\n"))
                                .toUtf8();
    return writeFile(path(QStringLiteral("kit/spec.yaml")), spec) &&
           writeFile(path(QStringLiteral("kit/files/home/.config/x.txt")), kHomeFileText) &&
           writeFile(path(QStringLiteral("kit/files/workspace/README.md")), "the kit's readme\n") &&
           writeFile(path(QStringLiteral("kit/files/workspace/KIT-NOTES.md")), "notes from the kit\n") &&
           writeFile(path(QStringLiteral("workspace/README.md")), "the user's own readme\n");
}

bool SandboxFixture::mapNames()
{
    policy::PolicyStore store(path(QStringLiteral("config/paddock/policy.yaml")));
    store.load();
    const QHostAddress loopback(QStringLiteral("127.0.0.1"));
    return store.setResolveOverride(u"allowed.test", loopback).ok() &&
           store.setResolveOverride(u"other.test", loopback).ok();
}

Finished SandboxFixture::mapToUpstream(const QStringList &hosts)
{
    Finished done;
    done.exitCode = 0;
    for (const QString &host : hosts) {
        const Finished set = paddock({QStringLiteral("policy"), QStringLiteral("resolve"), QStringLiteral("set"), host,
                                      QStringLiteral("127.0.0.1")});
        if (set.exitCode != 0)
            return set;
    }
    return done;
}

Finished SandboxFixture::runDetached(const QString &name)
{
    return paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), kitDir(),
                    QStringLiteral("--name"), name, workspace(), QStringLiteral("--"), QStringLiteral("sleep 600")});
}

QHash<QString, QJsonObject> sandboxesByName(const QString &lsJson)
{
    QHash<QString, QJsonObject> result;
    for (const QJsonValue &value : QJsonDocument::fromJson(lsJson.toUtf8()).array())
        result.insert(value.toObject().value(QLatin1String("name")).toString(), value.toObject());
    return result;
}

std::unique_ptr<SandboxFixture> SandboxFixture::startWithAuthority(QString *why)
{
    auto fixture = std::make_unique<SandboxFixture>();
    if (!fixture->setUp()) {
        *why = QStringLiteral("the fixture could not start");
        return nullptr;
    }
    const Finished authority = fixture->makeAuthority();
    if (authority.exitCode != 0) {
        *why = QStringLiteral("paddock ca show: ") + authority.err;
        return nullptr;
    }
    return fixture;
}

} // namespace paddock::test

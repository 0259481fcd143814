// SPDX-License-Identifier: GPL-3.0-or-later
// What the sandbox tests share: private XDG directories, the real paddockd as a child process,
// the real paddock CLI, a test kit, a local upstream HTTP server and the policy's resolver
// overrides that lead test names to it. The kit names an image, as the kit format requires;
// bubblewrap does not use it (the host's system is the sandbox's).
#pragma once

#include "policy/PolicyStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include <csignal>

namespace paddock::test {

/** @brief python3's http.server on 127.0.0.1, serving hello.txt. */
class LocalUpstream
{
public:
    static constexpr const char *kBody = "hello from the upstream\n";

    bool start()
    {
        QFile file(m_root.filePath(QStringLiteral("hello.txt")));
        if (!m_root.isValid() || !file.open(QIODevice::WriteOnly) || file.write(kBody) < 0)
            return false;
        file.close();
        m_process.setWorkingDirectory(m_root.path());
        m_process.start(QStringLiteral("python3"),
                        {QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                         QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("0")});
        static const QRegularExpression serving(QStringLiteral("port (\\d+)"));
        QByteArray seen;
        while (m_process.waitForReadyRead(20000)) {
            seen += m_process.readAllStandardOutput();
            const QRegularExpressionMatch match = serving.match(QString::fromUtf8(seen));
            if (match.hasMatch()) {
                m_port = match.captured(1).toUShort();
                return true;
            }
        }
        return false;
    }
    ~LocalUpstream()
    {
        m_process.kill();
        m_process.waitForFinished();
    }
    quint16 port() const { return m_port; }

private:
    QTemporaryDir m_root;
    QProcess m_process;
    quint16 m_port = 0;
};

/** @brief What a finished process left. */
struct Finished
{
    int exitCode = -1;
    QString out;
    QString err;
};

/**
 * @brief One isolated Paddock installation: XDG directories in a temporary directory, the
 * daemon running as a child, and a kit named `probe` whose network permissions allow
 * `allowed.test` on the upstream's port.
 */
class SandboxFixture
{
public:
    static constexpr const char *kMarker = "PADDOCK_TEST_MARKER";
    static constexpr const char *kAgentText = "Leave the workspace tidy.\n";
    static constexpr const char *kHomeFileText = "from the kit's files/home\n";

    bool setUp()
    {
        if (!m_root.isValid() || !m_upstream.start())
            return false;
        for (const char *sub :
             {"config/paddock", "state", "data", "run", "workspace", "kit/files/home/.config", "kit/files/workspace"})
            QDir().mkpath(path(QLatin1String(sub)));
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
        m_env.insert(QStringLiteral("XDG_STATE_HOME"), path(QStringLiteral("state")));
        m_env.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("data")));
        m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("run")));
        m_env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
        m_env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
        m_env.insert(QLatin1String(kMarker), QStringLiteral("must-not-leak"));
        m_env.remove(QStringLiteral("JOURNAL_STREAM"));
        // No container engine: the tests must not depend on one, nor touch the machine's.
        m_env.insert(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix://") + path(QStringLiteral("no-docker.sock")));
        for (const QString &name : m_extraEnvironment.keys())
            m_env.insert(name, m_extraEnvironment.value(name));
        // The test process itself talks to the daemon and writes the policy: same directories.
        for (const QString &name : {QStringLiteral("XDG_CONFIG_HOME"), QStringLiteral("XDG_STATE_HOME"),
                                    QStringLiteral("XDG_DATA_HOME"), QStringLiteral("XDG_RUNTIME_DIR")})
            qputenv(name.toLatin1().constData(), m_env.value(name).toLocal8Bit());
        return writeKit() && mapNames() && startDaemon();
    }

    ~SandboxFixture()
    {
        // Sandboxes outlive the daemon by design; the test's own must not outlive the test.
        paddock({QStringLiteral("rm"), QStringLiteral("--all"), QStringLiteral("--force")});
        stopDaemon();
    }

    /** Adds a variable to the environment of the daemon and the CLI; before setUp(). */
    void addEnvironment(const QString &name, const QString &value) { m_extraEnvironment.insert(name, value); }
    const QProcessEnvironment &environment() const { return m_env; }

    QString path(const QString &relative) const { return m_root.path() + QLatin1Char('/') + relative; }
    QString workspace() const { return path(QStringLiteral("workspace")); }
    QString kitDir() const { return path(QStringLiteral("kit")); }
    QString socketPath() const { return path(QStringLiteral("run/paddock/paddockd.sock")); }
    quint16 upstreamPort() const { return m_upstream.port(); }
    QString allowedUrl() const { return QStringLiteral("http://allowed.test:%1/hello.txt").arg(m_upstream.port()); }
    QString otherUrl() const { return QStringLiteral("http://other.test:%1/hello.txt").arg(m_upstream.port()); }
    QProcess *daemon() { return m_daemon.get(); }

    Finished run(const QString &program, const QStringList &arguments, int timeoutMs = 120000,
                 const QByteArray &input = {})
    {
        QProcess process;
        process.setProcessEnvironment(m_env);
        process.setWorkingDirectory(workspace());
        process.start(program, arguments);
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }
    Finished paddock(const QStringList &arguments, const QByteArray &input = {})
    {
        return run(QStringLiteral(PADDOCK_BIN), arguments, 120000, input);
    }

    /** `paddock run --kit KIT --name NAME WORKSPACE -- SCRIPT`: the kit's `sh -c` runs SCRIPT. */
    Finished runScript(const QString &name, const QString &script)
    {
        return paddock({QStringLiteral("run"), QStringLiteral("--kit"), kitDir(), QStringLiteral("--name"), name,
                        workspace(), QStringLiteral("--"), script});
    }

    /** The sandboxes `paddock ls --json` lists, by name. */
    QHash<QString, QJsonObject> listed()
    {
        const Finished ls = paddock({QStringLiteral("ls"), QStringLiteral("--json")});
        QHash<QString, QJsonObject> result;
        for (const QJsonValue &value : QJsonDocument::fromJson(ls.out.toUtf8()).array())
            result.insert(value.toObject().value(QLatin1String("name")).toString(), value.toObject());
        return result;
    }

    bool startDaemon()
    {
        m_daemon = std::make_unique<QProcess>();
        m_daemon->setProcessEnvironment(m_env);
        m_daemon->setStandardOutputFile(path(QStringLiteral("paddockd.out")), QIODevice::Append);
        m_daemon->setStandardErrorFile(path(QStringLiteral("paddockd.out")), QIODevice::Append);
        m_daemon->start(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
        if (!m_daemon->waitForStarted(5000))
            return false;
        return QTest::qWaitFor([this] { return accepts() || m_daemon->state() == QProcess::NotRunning; }, 20000) &&
               m_daemon->state() == QProcess::Running;
    }

    void killDaemon()
    {
        ::kill(pid_t(m_daemon->processId()), SIGKILL);
        m_daemon->waitForFinished(10000);
    }

    void stopDaemon()
    {
        if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
            m_daemon->terminate();
            if (!m_daemon->waitForFinished(10000))
                killDaemon();
        }
    }

    QString daemonLog() const
    {
        QFile file(path(QStringLiteral("paddockd.out")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private:
    bool accepts() const
    {
        QLocalSocket probe;
        probe.connectToServer(socketPath());
        return probe.waitForConnected(100);
    }

    bool writeFile(const QString &relative, const QByteArray &contents)
    {
        QFile file(path(relative));
        return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
    }

    bool writeKit()
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
        return writeFile(QStringLiteral("kit/spec.yaml"), spec) &&
               writeFile(QStringLiteral("kit/files/home/.config/x.txt"), kHomeFileText) &&
               writeFile(QStringLiteral("kit/files/workspace/README.md"), "the kit's readme\n") &&
               writeFile(QStringLiteral("kit/files/workspace/KIT-NOTES.md"), "notes from the kit\n") &&
               writeFile(QStringLiteral("workspace/README.md"), "the user's own readme\n");
    }

    /** The test names lead to the upstream through trusted overrides in policy.yaml. */
    bool mapNames()
    {
        policy::PolicyStore store(path(QStringLiteral("config/paddock/policy.yaml")));
        store.load();
        const QHostAddress loopback(QStringLiteral("127.0.0.1"));
        return store.setResolveOverride(u"allowed.test", loopback).ok &&
               store.setResolveOverride(u"other.test", loopback).ok;
    }

    QTemporaryDir m_root;
    LocalUpstream m_upstream;
    QProcessEnvironment m_env;
    QProcessEnvironment m_extraEnvironment;
    std::unique_ptr<QProcess> m_daemon;
};

} // namespace paddock::test

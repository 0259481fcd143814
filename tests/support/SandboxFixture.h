// SPDX-License-Identifier: GPL-3.0-or-later
// What the sandbox tests share: private XDG directories, the real paddockd as a child process,
// the real paddock CLI, a test kit, a local upstream HTTP server and the policy's resolver
// overrides that lead test names to it. The kit names an image, as the kit format requires;
// bubblewrap does not use it (the host's system is the sandbox's).
#pragma once

#include "DaemonProcess.h"
#include "LocalUpstream.h"
#include "ProcessRun.h"

// What the tests built on the fixture have always had from it.
#include "policy/PolicyStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

namespace paddock::test {

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

    bool setUp();
    ~SandboxFixture();

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
    QProcess *daemon() { return m_daemon.process(); }

    /** Runs @p program in the workspace with the fixture's environment. */
    Finished run(const QString &program, const QStringList &arguments, int timeoutMs = 120000,
                 const QByteArray &input = {});
    Finished paddock(const QStringList &arguments, const QByteArray &input = {})
    {
        return run(QStringLiteral(PADDOCK_BIN), arguments, 120000, input);
    }

    /** Writes @p spec as the spec.yaml of a kit in path(@p folder); that folder, or empty when it failed. */
    QString writeKit(const QString &folder, const QByteArray &spec);

    /** `paddock run --kit KIT --name NAME WORKSPACE -- SCRIPT`: the kit's `sh -c` runs SCRIPT. */
    Finished runScript(const QString &name, const QString &script);

    /**
     * `paddock ca show`: makes the local certificate authority that sandboxes' trust bundles
     * name, as a user's first sandbox does.
     */
    Finished makeAuthority() { return paddock({QStringLiteral("ca"), QStringLiteral("show")}); }
    /** `paddock policy resolve set HOST 127.0.0.1` for each of @p hosts: names that lead to the upstream.
     *  The first that failed, or a success. */
    Finished mapToUpstream(const QStringList &hosts);
    /** `paddock run --detach` of the probe kit as @p name, running `sleep 600`: a sandbox that stays. */
    Finished runDetached(const QString &name);

    /** A fixture set up, with its local certificate authority made; null (and @p why) when either failed. */
    static std::unique_ptr<SandboxFixture> startWithAuthority(QString *why);

    /** The sandboxes `paddock ls --json` lists, by name. */
    QHash<QString, QJsonObject> listed();

    bool startDaemon() { return m_daemon.start(m_env, socketPath(), path(QStringLiteral("paddockd.out"))); }
    void killDaemon() { m_daemon.kill(); }
    void stopDaemon() { m_daemon.stop(); }
    QString daemonLog() const;

private:
    bool writeProbeKit();
    /** The test names lead to the upstream through trusted overrides in policy.yaml. */
    bool mapNames();

    QTemporaryDir m_root;
    LocalUpstream m_upstream;
    QProcessEnvironment m_env;
    QProcessEnvironment m_extraEnvironment;
    DaemonProcess m_daemon;
};

/** The sandboxes a `paddock ls --json` output lists, by name. */
QHash<QString, QJsonObject> sandboxesByName(const QString &lsJson);

} // namespace paddock::test

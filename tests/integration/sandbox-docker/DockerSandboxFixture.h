// SPDX-License-Identifier: GPL-3.0-or-later
// What the tests of Docker sandboxes and images through the daemon share: private XDG
// directories, the real paddockd as a child talking to the machine's Docker engine, the real
// paddock CLI, and a small busybox image built for the test run (FROM scratch, as
// docker-support builds it, with the host's curl when asked), removed again at the end.
#pragma once

#include "DockerTestSupport.h"

#include "DaemonProcess.h"
#include "ProcessRun.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace paddock::test {

using DockerFinished = Finished;

/**
 * Sets @p fixture up in initTestCase(): without an engine the test skips (fails under the test
 * command, Needs.h); anything else that went wrong fails it. What follows the fixture goes to its setUp().
 */
#define PADDOCK_SET_UP_DOCKER_FIXTURE(fixture, ...)                                                                    \
    do {                                                                                                               \
        bool skip_ = false;                                                                                            \
        const QString problem_ = (fixture).setUp(&skip_ __VA_OPT__(, ) __VA_ARGS__);                                   \
        PADDOCK_NEED(!skip_, problem_);                                                                                \
        QVERIFY2(problem_.isEmpty(), qPrintable(problem_));                                                            \
    } while (false)

/**
 * @brief One isolated Paddock installation using the Docker engine: XDG directories in a
 * temporary directory, paddockd running as a child, and the image imageTag() holding busybox.
 */
class DockerSandboxFixture
{
public:
    /**
     * Empty when ready; otherwise why the engine cannot be used (to skip) or what failed. With
     * @p withCurl the image holds the host's curl too (tests::docker::writeCurlTree), and
     * with @p withGit the host's git.
     */
    QString setUp(bool *skip, bool withCurl = false, bool withGit = false)
    {
        *skip = false;
        const QString unavailable = tests::docker::engineUnavailableReason();
        if (!unavailable.isEmpty()) {
            *skip = true;
            return unavailable;
        }
        if (!m_root.isValid())
            return QStringLiteral("no temporary directory");
        QDir().mkpath(workspace());
        m_env = tests::docker::isolatedEnvironment(m_root.path());
        m_env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
        m_env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
        m_env.remove(QStringLiteral("JOURNAL_STREAM"));
        // The test process talks to the daemon too: the same directories.
        useXdgOf(m_env);

        m_image = tests::docker::uniqueName(QStringLiteral("paddock-test/sandbox")) + QStringLiteral(":1");
        QTemporaryDir context;
        const QString rootfs = context.path() + QStringLiteral("/rootfs");
        if (!tests::docker::writeBusyboxContext(context.path(), withCurl || withGit ? "COPY rootfs/ /\n" : "") ||
            (withCurl && !tests::docker::writeCurlTree(rootfs)) ||
            (withGit && !tests::docker::writeProgramTree(rootfs, QStringLiteral("/usr/bin/git"))))
            return QStringLiteral("cannot write the image's build context");
        // An image of its own, not only a name: tests share the engine, and the same build
        // context would otherwise give every test the same image id, which another test's
        // running sandbox then "uses" (the image list matches by id).
        const runtime::docker::Result<QString> built =
            m_client.buildImage(tests::docker::ownImage(context.path(), m_image));
        if (!built)
            return QStringLiteral("the busybox image did not build: ") + built.errorMessage();
        m_images << m_image;
        return startDaemon() ? QString() : QStringLiteral("paddockd did not start: ") + daemonLog();
    }

    ~DockerSandboxFixture()
    {
        if (m_daemon.process()) {
            // Containers outlive the daemon by design; the test's own must not outlive the test.
            paddock({QStringLiteral("rm"), QStringLiteral("--all"), QStringLiteral("--force")});
            stopDaemon();
        }
        for (const QString &image : std::as_const(m_images))
            (void)m_client.removeImage(image, true);
    }

    QString path(const QString &relative) const { return m_root.path() + QLatin1Char('/') + relative; }
    QString workspace() const { return path(QStringLiteral("workspace")); }
    QString imageTag() const { return m_image; }
    QString socketPath() const { return path(QStringLiteral("XDG_RUNTIME_DIR/paddock/paddockd.sock")); }
    const QProcessEnvironment &environment() const { return m_env; }
    /** Sets a variable for the next daemon (stopDaemon(), startDaemon()) and the CLI. */
    void setVariable(const QString &name, const QString &value) { m_env.insert(name, value); }
    runtime::docker::DockerClient &client() { return m_client; }
    /** Removed with the fixture. */
    void removeLater(const QString &image) { m_images << image; }

    /** Writes a kit named @p name in path(DIR) whose `sh -c` runs its command. */
    QString writeKit(const QString &dir, const QString &name, const QString &image, const QString &command,
                     const QString &extra = {})
    {
        QDir().mkpath(path(dir));
        QFile spec(path(dir) + QStringLiteral("/spec.yaml"));
        if (!spec.open(QIODevice::WriteOnly))
            return {};
        spec.write(QStringLiteral("schemaVersion: \"2\"\n"
                                  "kind: sandbox\n"
                                  "name: %1\n"
                                  "sandbox:\n"
                                  "  image: %2\n"
                                  "  entrypoint: [sh, -c]\n"
                                  "  command:\n"
                                  "    default: [\"%3\"]\n")
                       .arg(name, image, command)
                       .toUtf8() +
                   extra.toUtf8());
        return path(dir);
    }

    DockerFinished run(const QString &program, const QStringList &arguments, int timeoutMs = 180000)
    {
        ProcessOptions options;
        options.environment = m_env;
        options.workingDirectory = workspace();
        options.timeoutMs = timeoutMs;
        return runText(program, arguments, options);
    }
    DockerFinished paddock(const QStringList &arguments) { return run(QStringLiteral(PADDOCK_BIN), arguments); }

    /** `paddock` started and left running, for a test that watches or interrupts it. */
    std::unique_ptr<QProcess> startPaddock(const QStringList &arguments)
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(m_env);
        process->setWorkingDirectory(workspace());
        process->start(QStringLiteral(PADDOCK_BIN), arguments);
        process->closeWriteChannel();
        return process;
    }

    /** The sandboxes `paddock ls --json` lists, by name. */
    QHash<QString, QJsonObject> listed()
    {
        return sandboxesByName(paddock({QStringLiteral("ls"), QStringLiteral("--json")}).out);
    }

    bool startDaemon() { return m_daemon.start(m_env, socketPath(), path(QStringLiteral("paddockd.out"))); }
    void stopDaemon() { m_daemon.stop(); }
    QString daemonLog() const { return QString::fromUtf8(readFile(path(QStringLiteral("paddockd.out")))); }

private:
    QTemporaryDir m_root;
    QProcessEnvironment m_env;
    runtime::docker::DockerClient m_client{tests::docker::testEndpoint()};
    QString m_image;
    QStringList m_images;
    DaemonProcess m_daemon;
};

} // namespace paddock::test

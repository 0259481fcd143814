// SPDX-License-Identifier: GPL-3.0-or-later
// What the Docker runtime tests (and the start benchmark) share: a stand-in for the egress
// proxy on a unix socket, a test bed of temporary directories with its busybox image, and a
// way to run a command in a sandbox with its output captured.
#pragma once

#include "DockerTestSupport.h"

#include "../../support/IsolatedHome.h"
#include "../../support/ScriptSpec.h"
#include "../../support/StandInProxy.h"

#include "runtime/SandboxSpec.h"
#include "runtime/docker/DockerRuntime.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <atomic>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

namespace paddock::tests::docker {

using test::StandInProxy;

/** What a command printed and how it ended. */
struct CommandRun
{
    runtime::RuntimeResult result;
    QByteArray out;
    QByteArray err;
};

/**
 * @brief Everything a Docker runtime test changes: XDG directories, a workspace and the proxy
 * socket in one temporary directory, a busybox image built for the run, and the sandboxes it
 * created (all removed at the end, with their volumes).
 */
class DockerTestBed
{
public:
    DockerTestBed()
    {
        QDir().mkpath(workspace());
        test::useXdgOf(test::isolatedEnvironment(m_root.path(), {QStringLiteral("config"), QStringLiteral("state"),
                                                                 QStringLiteral("data"), QStringLiteral("runtime")}));
        // The engine runs as root, the sandbox's user may not: everything it must reach is open.
        ::chmod(QFile::encodeName(m_root.path()).constData(), 0755);
        ::chmod(QFile::encodeName(workspace()).constData(), 0777);
        m_proxy = std::make_unique<StandInProxy>(proxySocket());
    }
    ~DockerTestBed()
    {
        for (const QString &name : std::as_const(m_sandboxes)) {
            (void)m_runtime.stop(name, std::chrono::seconds(0));
            (void)m_runtime.remove(name, true);
        }
        if (!m_image.isEmpty())
            (void)m_runtime.client().removeImage(m_image, true);
    }

    /** Empty when the image is built, else why not. */
    QString prepare()
    {
        QTemporaryDir context;
        if (!writeBusyboxContext(context.path()))
            return QStringLiteral("cannot write the image's build context");
        const QString image = uniqueName(QStringLiteral("paddock-test-runtime")) + QStringLiteral(":1");
        const Result<QString> built = m_runtime.client().buildImage(ownImage(context.path(), image));
        if (!built)
            return QStringLiteral("cannot build the test image: ") + built.errorMessage();
        m_image = image;
        m_runtime.setDefaultOptions(runtime::DockerSandboxOptions{m_image, 0, 0, {}, {}, {}, {}});
        return {};
    }

    runtime::DockerRuntime &runtime() { return m_runtime; }
    QString image() const { return m_image; }
    QString workspace() const { return m_root.filePath(QStringLiteral("workspace")); }
    QString proxySocket() const { return m_root.filePath(QStringLiteral("runtime/proxy.sock")); }
    StandInProxy &proxy() { return *m_proxy; }

    /** A unique name, removed with its container when the test bed goes. */
    QString newName(const QString &prefix = QStringLiteral("sb"))
    {
        static std::atomic_int counter{0};
        const QString name =
            QStringLiteral("%1-%2-%3").arg(prefix).arg(QCoreApplication::applicationPid()).arg(counter++);
        m_sandboxes.append(name);
        return name;
    }

    /** A detached sandbox running `sh -c SCRIPT` in the workspace with the usual environment. */
    runtime::SandboxSpec spec(const QString &name, const QString &script) const
    {
        return test::scriptSpec(name, script, workspace(), proxySocket());
    }

    /** A sandbox that runs until it is stopped, ending with 7 on SIGTERM. */
    runtime::SandboxSpec idleSpec(const QString &name) const
    {
        return spec(name, QStringLiteral("trap 'exit 7' TERM; while true; do sleep 1; done"));
    }

    /** Runs @p argv in the running sandbox @p name, its output captured through files. */
    CommandRun exec(const QString &name, const QStringList &argv, const QMap<QString, QString> &env = {})
    {
        runtime::ExecRequest request;
        request.argv = argv;
        request.environment = env;
        return capture([&](const runtime::ProcessIo &io) { return m_runtime.exec(name, request, io); });
    }

    /** Calls @p run with fds whose output is collected once it returns; @p input is its stdin. */
    template<typename Run>
    CommandRun capture(Run run, const QByteArray &input = {})
    {
        QTemporaryFile out(m_root.filePath(QStringLiteral("out-XXXXXX")));
        QTemporaryFile err(m_root.filePath(QStringLiteral("err-XXXXXX")));
        QTemporaryFile in(m_root.filePath(QStringLiteral("in-XXXXXX")));
        if (!out.open() || !err.open() || !in.open() || in.write(input) != input.size() || !in.flush())
            return {runtime::RuntimeResult::failure(QStringLiteral("cannot open capture files")), {}, {}};
        ::lseek(in.handle(), 0, SEEK_SET);
        CommandRun result{run(runtime::ProcessIo{in.handle(), out.handle(), err.handle()}), {}, {}};
        out.seek(0);
        err.seek(0);
        result.out = out.readAll();
        result.err = err.readAll();
        return result;
    }

private:
    QTemporaryDir m_root;
    runtime::DockerRuntime m_runtime{testEndpoint()};
    std::unique_ptr<StandInProxy> m_proxy;
    QString m_image;
    QStringList m_sandboxes;
};

} // namespace paddock::tests::docker

/**
 * Makes @p bed (a std::unique_ptr<DockerTestBed>) and prepares it in a test function
 * (initTestCase): without an engine the test skips (fails under the test command, Needs.h);
 * an image that does not build fails it.
 */
#define PADDOCK_PREPARE_DOCKER_TEST_BED(bed)                                                                           \
    do {                                                                                                               \
        PADDOCK_NEED_DOCKER();                                                                                         \
        (bed) = std::make_unique<paddock::tests::docker::DockerTestBed>();                                             \
        const QString reason_ = (bed)->prepare();                                                                      \
        QVERIFY2(reason_.isEmpty(), qPrintable(reason_));                                                              \
    } while (false)

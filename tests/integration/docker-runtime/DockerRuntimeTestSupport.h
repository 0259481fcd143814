// SPDX-License-Identifier: GPL-3.0-or-later
// What the Docker runtime tests (and the start benchmark) share: a stand-in for the egress
// proxy on a unix socket, a test bed of temporary directories with its busybox image, and a
// way to run a command in a sandbox with its output captured.
#pragma once

#include "DockerTestSupport.h"

#include "runtime/SandboxSpec.h"
#include "runtime/docker/DockerRuntime.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <atomic>
#include <cstring>
#include <memory>
#include <thread>

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::tests::docker {

/**
 * @brief A unix socket server standing in for the egress proxy: it refuses every request with
 * `403 Forbidden` and `X-Paddock-Reason: test`, as the real proxy refuses a denied one.
 */
class StandInProxy
{
public:
    explicit StandInProxy(const QString &path) : m_path(path)
    {
        m_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        std::memcpy(address.sun_path, native.constData(), size_t(native.size()) + 1);
        ::unlink(native.constData());
        if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_listener, 64) != 0)
            qFatal("cannot listen on %s", native.constData());
        m_thread = std::thread([this] { serve(); });
    }
    ~StandInProxy()
    {
        m_stopping = true;
        ::shutdown(m_listener, SHUT_RDWR);
        m_thread.join();
        ::close(m_listener);
        ::unlink(QFile::encodeName(m_path).constData());
    }
    StandInProxy(const StandInProxy &) = delete;
    StandInProxy &operator=(const StandInProxy &) = delete;

    int requests() const { return m_requests; }

private:
    void serve()
    {
        while (!m_stopping) {
            pollfd fd{m_listener, POLLIN, 0};
            if (::poll(&fd, 1, 100) <= 0)
                continue;
            const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0)
                continue;
            QByteArray request;
            char buffer[4096];
            while (!request.contains("\r\n\r\n")) {
                pollfd in{client, POLLIN, 0};
                if (::poll(&in, 1, 5000) <= 0)
                    break;
                const ssize_t n = ::read(client, buffer, sizeof buffer);
                if (n <= 0)
                    break;
                request.append(buffer, n);
            }
            ++m_requests;
            const QByteArray body = "refused by the stand-in proxy\n";
            const QByteArray response =
                "HTTP/1.1 403 Forbidden\r\nX-Paddock-Reason: test\r\nContent-Type: text/plain\r\n"
                "Content-Length: " +
                QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
            [[maybe_unused]] const ssize_t written = ::write(client, response.constData(), size_t(response.size()));
            ::close(client);
        }
    }

    QString m_path;
    int m_listener = -1;
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_requests{0};
    std::thread m_thread;
};

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
        for (const char *sub : {"config", "state", "data", "runtime", "workspace"})
            QDir().mkpath(m_root.filePath(QLatin1String(sub)));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("config"))));
        qputenv("XDG_STATE_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("state"))));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("data"))));
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_root.filePath(QStringLiteral("runtime"))));
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

    /** Empty when the engine answers and the image is built, else why not (for QSKIP). */
    QString prepare()
    {
        const QString reason = engineUnavailableReason(m_runtime.client());
        if (!reason.isEmpty())
            return reason;
        QTemporaryDir context;
        if (!writeBusyboxContext(context.path()))
            return QStringLiteral("cannot write the image's build context");
        const QString image = uniqueName(QStringLiteral("paddock-test-runtime")) + QStringLiteral(":1");
        BuildOptions options;
        options.contextDir = context.path();
        options.tag = image;
        const Result<QString> built = m_runtime.client().buildImage(options);
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
        runtime::SandboxSpec spec;
        spec.name = name;
        spec.kitName = QStringLiteral("test-kit");
        spec.workspace = workspace();
        spec.proxySocket = proxySocket();
        spec.initPath = QStringLiteral(PADDOCK_INIT_BIN);
        spec.environment = runtime::baseEnvironment(spec);
        spec.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
        return spec;
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
    template <typename Run> CommandRun capture(Run run, const QByteArray &input = {})
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

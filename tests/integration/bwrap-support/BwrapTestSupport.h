// SPDX-License-Identifier: GPL-3.0-or-later
// What every bubblewrap sandbox test needs: an isolated XDG environment and HOME, a stand-in
// proxy on a unix socket, a spec for a sandbox, and a way to run one and read its output.
#pragma once

#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/BwrapRuntime.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::testing {

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

/**
 * @brief Everything a sandbox test changes lives in one temporary directory: the XDG
 * directories, a HOME with a fake ~/.ssh, the workspace and the proxy socket.
 */
class SandboxTestBed
{
public:
    static constexpr const char *kMarker = "PADDOCK_TEST_MARKER";

    SandboxTestBed()
    {
        QVERIFY(m_root.isValid());
        for (const char *sub : {"config", "state", "data", "runtime", "home/.ssh", "workspace"})
            QDir().mkpath(m_root.filePath(QLatin1String(sub)));
        QFile key(m_root.filePath(QStringLiteral("home/.ssh/id_ed25519")));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("not a real key\n");
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("config"))));
        qputenv("XDG_STATE_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("state"))));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("data"))));
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_root.filePath(QStringLiteral("runtime"))));
        qputenv("HOME", QFile::encodeName(hostHome()));
        qputenv(kMarker, "must-not-leak");
        m_proxy = std::make_unique<StandInProxy>(proxySocket());
    }

    QString root() const { return m_root.path(); }
    QString hostHome() const { return m_root.filePath(QStringLiteral("home")); }
    QString workspace() const { return m_root.filePath(QStringLiteral("workspace")); }
    QString proxySocket() const { return m_root.filePath(QStringLiteral("runtime/proxy.sock")); }
    StandInProxy &proxy() { return *m_proxy; }

    /** A foreground sandbox running `sh -c SCRIPT` in the workspace with the usual environment. */
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
        spec.lifetime = runtime::SandboxSpec::Lifetime::Foreground;
        return spec;
    }

    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
        QString error;
    };

    /** Creates and runs @p spec in the foreground, its output captured in files. */
    Run run(runtime::BwrapRuntime &runtime, const runtime::SandboxSpec &spec)
    {
        Run result;
        const auto created = runtime.create(spec);
        if (!created.ok) {
            result.error = created.error;
            return result;
        }
        const QString outPath = m_root.filePath(spec.name + QStringLiteral(".out"));
        const QString errPath = m_root.filePath(spec.name + QStringLiteral(".err"));
        const int out = ::open(QFile::encodeName(outPath).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const int err = ::open(QFile::encodeName(errPath).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        const auto started = runtime.start(spec.name, {in, out, err});
        ::close(in);
        ::close(out);
        ::close(err);
        result.error = started.error;
        result.exitCode = started.exitCode.value_or(-1);
        QFile outFile(outPath), errFile(errPath);
        if (outFile.open(QIODevice::ReadOnly))
            result.out = outFile.readAll();
        if (errFile.open(QIODevice::ReadOnly))
            result.err = errFile.readAll();
        return result;
    }

    /** Runs `sh -c SCRIPT` in a fresh sandbox and returns what it printed. */
    Run runScript(runtime::BwrapRuntime &runtime, const QString &name, const QString &script)
    {
        return run(runtime, spec(name, script));
    }

private:
    QTemporaryDir m_root;
    std::unique_ptr<StandInProxy> m_proxy;
};

} // namespace paddock::testing

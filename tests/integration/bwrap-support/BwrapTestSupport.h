// SPDX-License-Identifier: GPL-3.0-or-later
// What every bubblewrap sandbox test needs: an isolated XDG environment and HOME, a stand-in
// proxy on a unix socket, a spec for a sandbox, and a way to run one and read its output.
#pragma once

#include "IsolatedHome.h"
#include "ScriptSpec.h"
#include "StandInProxy.h"

#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/BwrapRuntime.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include <fcntl.h>
#include <unistd.h>

namespace paddock::testing {

using test::StandInProxy;

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
        for (const char *sub : {"home/.ssh", "workspace"})
            QDir().mkpath(m_root.filePath(QLatin1String(sub)));
        QFile key(m_root.filePath(QStringLiteral("home/.ssh/id_ed25519")));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("not a real key\n");
        test::useXdgOf(test::isolatedEnvironment(m_root.path(), {QStringLiteral("config"), QStringLiteral("state"),
                                                                 QStringLiteral("data"), QStringLiteral("runtime")}));
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
        runtime::SandboxSpec spec = test::scriptSpec(name, script, workspace(), proxySocket());
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

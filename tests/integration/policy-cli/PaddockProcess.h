// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Running the real `paddock` binary, `curl` and a local upstream from a test, all inside a
// private set of XDG directories.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace paddock::test {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

/** @brief A private home: XDG config, state, data and runtime directories for every process. */
class PaddockHome
{
public:
    PaddockHome()
    {
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
            const QString path = m_dir.filePath(QLatin1String(name));
            QDir().mkpath(path);
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            m_env.insert(QLatin1String(name), path);
        }
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // curl must not pick up a proxy from the environment of whoever runs the tests.
        for (const char *name : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy",
                                 "NO_PROXY", "no_proxy"})
            m_env.remove(QLatin1String(name));
    }

    bool isValid() const { return m_dir.isValid(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString policyFile() const { return m_dir.filePath(QStringLiteral("XDG_CONFIG_HOME/paddock/policy.yaml")); }
    QProcessEnvironment environment() const { return m_env; }

    Run run(const QString &program, const QStringList &arguments, int timeoutMs = 60000) const
    {
        QProcess process;
        process.setProcessEnvironment(m_env);
        process.start(program, arguments);
        Run result;
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    Run paddock(const QStringList &arguments) const { return run(QStringLiteral(PADDOCK_BIN), arguments); }

    /** curl through @p proxy (host:port); -i so the status line and headers come first. */
    Run curlVia(const QString &proxy, const QString &url, const QStringList &extra = {}) const
    {
        return run(QStringLiteral("curl"),
                   QStringList{QStringLiteral("-s"), QStringLiteral("-i"), QStringLiteral("--max-time"),
                               QStringLiteral("20"), QStringLiteral("-x"), QStringLiteral("http://") + proxy} +
                       extra + QStringList{url});
    }

    /** Starts `paddock proxy serve ARGS --listen 127.0.0.1:0`; returns its "127.0.0.1:PORT" or empty. */
    QString startServe(QProcess &process, const QStringList &arguments) const
    {
        process.setProcessEnvironment(m_env);
        process.start(QStringLiteral(PADDOCK_BIN),
                      QStringList{QStringLiteral("proxy"), QStringLiteral("serve"), QStringLiteral("--listen"),
                                  QStringLiteral("127.0.0.1:0")} +
                          arguments);
        if (!process.waitForStarted(10000))
            return {};
        static const QRegularExpression listening(QStringLiteral("listening on (\\S+)"));
        QByteArray seen;
        while (process.state() == QProcess::Running && process.waitForReadyRead(30000)) {
            seen += process.readAllStandardOutput();
            const QRegularExpressionMatch match = listening.match(QString::fromUtf8(seen));
            if (match.hasMatch())
                return match.captured(1);
        }
        return {};
    }

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env = QProcessEnvironment::systemEnvironment();
};

/** @brief python3's http.server on 127.0.0.1, serving a directory with hello.txt in it. */
class Upstream
{
public:
    static constexpr const char *kBody = "hello from the upstream\n";

    bool start()
    {
        if (!m_root.isValid())
            return false;
        QFile file(m_root.filePath(QStringLiteral("hello.txt")));
        if (!file.open(QIODevice::WriteOnly) || file.write(kBody) < 0)
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
    ~Upstream()
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

/** Sends SIGTERM and waits; true when the process exited normally with status 0. */
inline bool terminateCleanly(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return false;
    process.terminate();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        return false;
    }
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

} // namespace paddock::test

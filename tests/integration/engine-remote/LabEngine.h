// SPDX-License-Identifier: GPL-3.0-or-later
// A Docker engine that shares nothing with this computer, for the tests and the benchmark of
// sandboxes on another computer's engine: a second dockerd started as root in a mount namespace
// of its own (its own /tmp, /home, /root and /run/user: no folder or socket of the desktop's is
// there to bind), with TLS on 127.0.0.1 and certificates made for it.
#pragma once

#include "TestFiles.h"
#include "runtime/docker/DockerClient.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

namespace paddock::test {

/** @brief The lab engine: started by start(), stopped with the object. */
class LabEngine
{
public:
    ~LabEngine()
    {
        if (m_engine.state() == QProcess::Running) {
            m_engine.terminate();
            if (!m_engine.waitForFinished(30000)) {
                m_engine.kill();
                m_engine.waitForFinished(5000);
            }
        }
    }

    /** Empty once the engine answers over TLS; otherwise what failed (needs root, dockerd, openssl, unshare). */
    QString start()
    {
        if (!m_dir.isValid())
            return QStringLiteral("no temporary folder");
        QProcess openssl;
        openssl.setWorkingDirectory(m_dir.path());
        openssl.start(QStringLiteral("sh"), {QStringLiteral("-c"), QString::fromLatin1(kMakeCertificates)});
        if (!openssl.waitForFinished(60000) || openssl.exitCode() != 0)
            return QStringLiteral("openssl could not make the certificates");
        QTcpServer probe;
        m_port = probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
        probe.close();
        QFile config(file(QStringLiteral("daemon.json")));
        if (m_port == 0 || !config.open(QIODevice::WriteOnly) || config.write("{}\n") <= 0)
            return QStringLiteral("no port or configuration for the engine");
        config.close();
        m_engine.setProcessChannelMode(QProcess::MergedChannels);
        m_engine.setStandardOutputFile(file(QStringLiteral("dockerd.log")));
        m_engine.start(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                   QString::fromLatin1(kStartEngine), QStringLiteral("rr-engine"),
                                                   m_dir.path(), QString::number(m_port)});
        if (!m_engine.waitForStarted())
            return m_engine.errorString();
        const runtime::docker::DockerClient lab(endpoint());
        const QDeadlineTimer deadline(60000);
        while (m_engine.state() == QProcess::Running && !lab.version() && !deadline.hasExpired())
            QThread::msleep(200);
        if (m_engine.state() != QProcess::Running || !lab.version())
            return QStringLiteral("the lab engine did not start: ") +
                   QString::fromUtf8(readFile(file(QStringLiteral("dockerd.log"))).right(3000));
        return {};
    }

    QString file(const QString &name) const { return m_dir.filePath(name); }
    int port() const { return m_port; }

    runtime::docker::Endpoint endpoint() const
    {
        runtime::docker::Endpoint endpoint =
            runtime::docker::Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(m_port)).value();
        endpoint.tls = endpoint.tlsVerify = true;
        endpoint.caFile = file(QStringLiteral("ca.pem"));
        endpoint.certFile = file(QStringLiteral("cert.pem"));
        endpoint.keyFile = file(QStringLiteral("key.pem"));
        return endpoint;
    }

    /** `paddock engine add NAME tcp://... --remote` with the lab's TLS files. */
    QStringList addArguments(const QString &name) const
    {
        return {QStringLiteral("engine"),
                QStringLiteral("add"),
                name,
                QStringLiteral("tcp://127.0.0.1:%1").arg(m_port),
                QStringLiteral("--remote"),
                QStringLiteral("--tls-ca"),
                file(QStringLiteral("ca.pem")),
                QStringLiteral("--tls-cert"),
                file(QStringLiteral("cert.pem")),
                QStringLiteral("--tls-key"),
                file(QStringLiteral("key.pem"))};
    }

private:
    static constexpr const char kMakeCertificates[] =
        "set -e\n"
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=rr-ca -keyout ca-key.pem -out ca.pem 2>/dev/null\n"
        "openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server-key.pem -out server.csr 2>/dev/null\n"
        "printf 'subjectAltName=IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > server.ext\n"
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile server.ext "
        "-out server.pem 2>/dev/null\n"
        "openssl req -newkey rsa:2048 -nodes -subj /CN=client -keyout key.pem -out client.csr 2>/dev/null\n"
        "printf 'extendedKeyUsage=clientAuth\\n' > client.ext\n"
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile client.ext "
        "-out cert.pem 2>/dev/null\n";

    // The engine's own mount namespace: its folder moved to /mnt, then the desktop's private
    // places covered. $1 is the folder, $2 the port.
    static constexpr const char kStartEngine[] =
        "set -e\n"
        "mount --make-rprivate /\n"
        "mount --bind \"$1\" /mnt\n"
        "for covered in /tmp /home /root /run/user; do\n"
        "    if [ -d \"$covered\" ]; then mount -t tmpfs rr-cover \"$covered\"; fi\n"
        "done\n"
        "exec /usr/sbin/dockerd --config-file /mnt/daemon.json --data-root /mnt/data --exec-root /mnt/x --pidfile "
        "/mnt/dockerd.pid --host \"tcp://127.0.0.1:$2\" --tlsverify --tlscacert /mnt/ca.pem --tlscert "
        "/mnt/server.pem --tlskey /mnt/server-key.pem --bridge=none --iptables=false --ip6tables=false\n";

    QTemporaryDir m_dir{QStringLiteral("/tmp/rr-engine-XXXXXX")};
    QProcess m_engine;
    int m_port = 0;
};

} // namespace paddock::test

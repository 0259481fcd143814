// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocalServices.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace paddock::test {

bool runTool(const QString &program, const QStringList &arguments, QString *error)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (process.waitForFinished(120000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0)
        return true;
    *error = QStringLiteral("%1 failed: %2%3")
                 .arg(QFileInfo(program).fileName(), QString::fromUtf8(process.readAll()), process.errorString());
    return false;
}

bool answersOnLoopback(quint16 port, int timeoutMs)
{
    for (int waited = 0; waited < timeoutMs; waited += 100) {
        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (socket.waitForConnected(500))
            return true;
        QThread::msleep(100);
    }
    return false;
}

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

} // namespace

quint16 freeLoopbackPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

void stopServer(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(5000))
        process.kill();
    process.waitForFinished(2000);
}

bool startServer(QProcess &process, const QString &program, const QStringList &arguments, quint16 port,
                 const QString &log, QString *error, int timeoutMs)
{
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardOutputFile(log);
    process.start(program, arguments);
    if (process.waitForStarted(10000) && answersOnLoopback(port, timeoutMs))
        return true;
    QFile output(log);
    output.open(QIODevice::ReadOnly);
    *error = QStringLiteral("%1 did not answer on 127.0.0.1:%2: %3")
                 .arg(QFileInfo(program).fileName())
                 .arg(port)
                 .arg(QString::fromUtf8(output.readAll()));
    return false;
}

SshServer::~SshServer()
{
    stopServer(m_process);
}

bool SshServer::start(const QString &folder, QString *error)
{
    m_folder = folder;
    QDir().mkpath(folder);
    QFile::remove(folder + QStringLiteral("/host"));
    QFile::remove(folder + QStringLiteral("/client"));
    if (!runTool(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-q"),
                  QStringLiteral("-t"),
                  QStringLiteral("ed25519"),
                  QStringLiteral("-N"),
                  {},
                  QStringLiteral("-f"),
                  folder + QStringLiteral("/host")},
                 error) ||
        !runTool(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-q"),
                  QStringLiteral("-t"),
                  QStringLiteral("ed25519"),
                  QStringLiteral("-N"),
                  {},
                  QStringLiteral("-f"),
                  clientKey()},
                 error))
        return false;
    QFile::remove(folder + QStringLiteral("/authorized_keys"));
    QFile::copy(clientKey() + QStringLiteral(".pub"), folder + QStringLiteral("/authorized_keys"));
    m_port = freeLoopbackPort();
    // Run as an ordinary user, sshd lets in only that user, without privilege separation.
    const QByteArray config = QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2/host\n"
                                             "PidFile %2/sshd.pid\nAuthorizedKeysFile %2/authorized_keys\n"
                                             "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                                             "KbdInteractiveAuthentication no\n")
                                  .arg(m_port)
                                  .arg(folder)
                                  .toUtf8();
    if (!writeFile(folder + QStringLiteral("/sshd_config"), config)) {
        *error = QStringLiteral("cannot write sshd_config in ") + folder;
        return false;
    }
    return startServer(
        m_process, QStringLiteral("/usr/sbin/sshd"),
        {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), folder + QStringLiteral("/sshd_config")},
        m_port, folder + QStringLiteral("/sshd.log"), error, 10000);
}

QString PostgresServer::binDir()
{
    const QDir versions(QStringLiteral("/usr/lib/postgresql"));
    const QStringList found = versions.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed);
    for (const QString &version : found) {
        const QString dir = versions.filePath(version + QStringLiteral("/bin"));
        if (QFileInfo(dir + QStringLiteral("/pg_ctl")).isExecutable())
            return dir;
    }
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("pg_ctl"));
    return onPath.isEmpty() ? QString() : QFileInfo(onPath).absolutePath();
}

PostgresServer::~PostgresServer()
{
    if (!m_started)
        return;
    QString ignored;
    runTool(binDir() + QStringLiteral("/pg_ctl"),
            {QStringLiteral("-D"), m_folder + QStringLiteral("/data"), QStringLiteral("-m"),
             QStringLiteral("immediate"), QStringLiteral("-w"), QStringLiteral("stop")},
            &ignored);
}

bool PostgresServer::start(const QString &folder, QString *error)
{
    const QString bin = binDir();
    if (bin.isEmpty()) {
        *error = QStringLiteral("PostgreSQL is not installed (apt-get install postgresql)");
        return false;
    }
    m_folder = folder;
    QDir().mkpath(folder);
    const QString data = folder + QStringLiteral("/data");
    if (!runTool(bin + QStringLiteral("/initdb"),
                 {QStringLiteral("-D"), data, QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("-U"),
                  QStringLiteral("paddock"), QStringLiteral("--no-sync")},
                 error))
        return false;
    m_port = freeLoopbackPort();
    const QString options = QStringLiteral("-k %1 -p %2 -h 127.0.0.1 -c fsync=off").arg(folder).arg(m_port);
    if (!runTool(bin + QStringLiteral("/pg_ctl"),
                 {QStringLiteral("-D"), data, QStringLiteral("-o"), options, QStringLiteral("-l"),
                  folder + QStringLiteral("/postgres.log"), QStringLiteral("-w"), QStringLiteral("start")},
                 error))
        return false;
    m_started = true;
    return answersOnLoopback(m_port, 10000);
}

} // namespace paddock::test

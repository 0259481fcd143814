// SPDX-License-Identifier: GPL-3.0-or-later
// Real servers on loopback for the tests of connections that do not use the proxy: OpenSSH's
// sshd and PostgreSQL, each started as the user running the test, with a folder of its own,
// on a free port, and stopped with the object.
#pragma once

#include <QProcess>
#include <QString>

namespace paddock::test {

/** A free TCP port on 127.0.0.1 at the time of asking. */
quint16 freeLoopbackPort();

/** Runs @p program to its end (at most two minutes); false with its output in @p error when it failed. */
bool runTool(const QString &program, const QStringList &arguments, QString *error);

/**
 * Starts @p program as a server that should answer on 127.0.0.1:@p port, its output in
 * @p log; false with the log in @p error when it does not answer within @p timeoutMs.
 */
bool startServer(QProcess &process, const QString &program, const QStringList &arguments, quint16 port,
                 const QString &log, QString *error, int timeoutMs = 20000);

/** Stops a server startServer() started: SIGTERM, then SIGKILL after five seconds. */
void stopServer(QProcess &process);

/** Whether something accepts connections on 127.0.0.1:@p port within @p timeoutMs. */
bool answersOnLoopback(quint16 port, int timeoutMs);

/**
 * @brief sshd on 127.0.0.1, its own host key and config in @ref folder, letting in the user
 * running it with the key pair `client`/`client.pub` it made there.
 */
class SshServer
{
public:
    ~SshServer();
    /** Starts it in @p folder (made if missing); false with @p error when it does not answer. */
    bool start(const QString &folder, QString *error);
    quint16 port() const { return m_port; }
    /** The private key a client logs in with. */
    QString clientKey() const { return m_folder + QStringLiteral("/client"); }
    QString folder() const { return m_folder; }

private:
    QString m_folder;
    quint16 m_port = 0;
    QProcess m_process;
};

/**
 * @brief A PostgreSQL cluster in @ref folder (initdb), listening on 127.0.0.1 with trust
 * authentication for the superuser `paddock`, started with pg_ctl and stopped at the end.
 */
class PostgresServer
{
public:
    ~PostgresServer();
    bool start(const QString &folder, QString *error);
    quint16 port() const { return m_port; }
    /** The folder of PostgreSQL's programs (initdb, pg_ctl), Debian's or on PATH; empty when missing. */
    static QString binDir();

private:
    QString m_folder;
    quint16 m_port = 0;
    bool m_started = false;
};

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "CorporateProxies.h"

#include "LocalServices.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

namespace paddock::test {

SquidProxy::~SquidProxy()
{
    stopServer(m_process);
}

bool SquidProxy::start(const QString &folder, const QString &user, const QString &password, const QStringList &names,
                       QString *error)
{
    const QString squid = QStandardPaths::findExecutable(QStringLiteral("squid"), {QStringLiteral("/usr/sbin")});
    if (squid.isEmpty()) {
        *error = QStringLiteral("squid is not installed (apt-get install squid)");
        return false;
    }
    m_folder = folder;
    QDir().mkpath(folder);
    QProcess hash;
    hash.start(QStringLiteral("openssl"), {QStringLiteral("passwd"), QStringLiteral("-1"), password});
    if (!hash.waitForFinished(10000) || hash.exitCode() != 0) {
        *error = QStringLiteral("openssl passwd failed");
        return false;
    }
    m_port = freeLoopbackPort();
    // The company's proxy resolves names the desktop cannot; squid reads them from its own file.
    const QByteArray config = QStringLiteral("http_port 127.0.0.1:%1\n"
                                             "pid_filename %2/squid.pid\n"
                                             "access_log stdio:%2/access.log squid\n"
                                             "cache_log %2/cache.log\n"
                                             "coredump_dir %2\n"
                                             "cache deny all\n"
                                             "cache_mem 8 MB\n"
                                             "memory_cache_shared off\n"
                                             "hosts_file %2/hosts\n"
                                             "dns_nameservers 127.0.0.1\n"
                                             "auth_param basic program /usr/lib/squid/basic_ncsa_auth %2/passwd\n"
                                             "auth_param basic realm corp\n"
                                             "acl authed proxy_auth REQUIRED\n"
                                             "http_access allow authed\n"
                                             "http_access deny all\n"
                                             "shutdown_lifetime 1 seconds\n")
                                  .arg(m_port)
                                  .arg(folder)
                                  .toUtf8();
    if (!writeFile(folder + QStringLiteral("/squid.conf"), config) ||
        !writeFile(folder + QStringLiteral("/passwd"),
                   user.toUtf8() + ':' + hash.readAllStandardOutput().trimmed() + '\n') ||
        !writeFile(folder + QStringLiteral("/hosts"), "127.0.0.1 " + names.join(QLatin1Char(' ')).toUtf8() + '\n') ||
        !writeFile(folder + QStringLiteral("/access.log"), {})) {
        *error = QStringLiteral("cannot write squid's files in ") + folder;
        return false;
    }
    // -n: a service name of its own, so that two test runs' squids never share their IPC names.
    const QString service = QStringLiteral("paddock%1").arg(m_port);
    return startServer(m_process, squid,
                       {QStringLiteral("-N"), QStringLiteral("-n"), service, QStringLiteral("-f"),
                        folder + QStringLiteral("/squid.conf")},
                       m_port, folder + QStringLiteral("/squid.out"), error);
}

QString SquidProxy::accessLog() const
{
    return QString::fromUtf8(readFile(m_folder + QStringLiteral("/access.log")));
}

QStringList SquidProxy::linesFor(const QString &host) const
{
    QStringList lines;
    for (const QString &line : accessLog().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (line.contains(host))
            lines << line;
    return lines;
}

InspectingProxy::~InspectingProxy()
{
    stopServer(m_process);
}

bool InspectingProxy::start(const QString &folder, const QString &upstreamUrl, const QString &upstreamAuth,
                            QString *error)
{
    const QString mitmdump = QStandardPaths::findExecutable(QStringLiteral("mitmdump"));
    if (mitmdump.isEmpty()) {
        *error = QStringLiteral("mitmproxy is not installed (apt-get install mitmproxy)");
        return false;
    }
    m_folder = folder;
    QDir().mkpath(folder);
    m_port = freeLoopbackPort();
    // It checks nothing it connects to (the site behind it has a test CA): a company's proxy
    // decides that for itself, and the tests are about what Paddock trusts.
    if (!startServer(m_process, mitmdump,
                     {QStringLiteral("--listen-host"), QStringLiteral("127.0.0.1"), QStringLiteral("--listen-port"),
                      QString::number(m_port), QStringLiteral("--mode"), QStringLiteral("upstream:") + upstreamUrl,
                      QStringLiteral("--upstream-auth"), upstreamAuth, QStringLiteral("--ssl-insecure"),
                      QStringLiteral("--set"), QStringLiteral("confdir=") + folder},
                     m_port, folder + QStringLiteral("/mitmdump.out"), error))
        return false;
    for (int waited = 0; waited < 10000 && !QFileInfo::exists(authorityFile()); waited += 100)
        QThread::msleep(100);
    if (QFileInfo::exists(authorityFile()))
        return true;
    *error = QStringLiteral("mitmproxy made no authority in ") + folder;
    return false;
}

QString InspectingProxy::authorityFile() const
{
    return m_folder + QStringLiteral("/mitmproxy-ca-cert.pem");
}

TlsSite::~TlsSite()
{
    stopServer(m_process);
}

bool TlsSite::start(const QString &folder, const QString &name, QString *error)
{
    m_folder = folder;
    QDir().mkpath(folder);
    const QString at = folder + QLatin1Char('/');
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    if (!writeFile(at + QStringLiteral("leaf.ext"), "subjectAltName=DNS:" + name.toUtf8() + '\n') ||
        !runTool(QStringLiteral("openssl"),
                 QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec +
                     QStringList{QStringLiteral("-keyout"), at + QStringLiteral("site-ca.key"), QStringLiteral("-out"),
                                 authorityFile(), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                                 QStringLiteral("/CN=Paddock test site CA")},
                 error) ||
        !runTool(QStringLiteral("openssl"),
                 QStringList{QStringLiteral("req")} + ec +
                     QStringList{QStringLiteral("-keyout"), at + QStringLiteral("site.key"), QStringLiteral("-out"),
                                 at + QStringLiteral("site.csr"), QStringLiteral("-subj"),
                                 QStringLiteral("/CN=") + name},
                 error) ||
        !runTool(QStringLiteral("openssl"),
                 {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                  at + QStringLiteral("site.csr"), QStringLiteral("-CA"), authorityFile(), QStringLiteral("-CAkey"),
                  at + QStringLiteral("site-ca.key"), QStringLiteral("-CAcreateserial"), QStringLiteral("-days"),
                  QStringLiteral("2"), QStringLiteral("-extfile"), at + QStringLiteral("leaf.ext"),
                  QStringLiteral("-out"), at + QStringLiteral("site.pem")},
                 error))
        return false;
    m_port = freeLoopbackPort();
    return startServer(m_process, QStringLiteral("openssl"),
                       {QStringLiteral("s_server"), QStringLiteral("-accept"),
                        QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("-cert"),
                        at + QStringLiteral("site.pem"), QStringLiteral("-key"), at + QStringLiteral("site.key"),
                        QStringLiteral("-www")},
                       m_port, at + QStringLiteral("s_server.out"), error);
}

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
// A corporate network's proxies on loopback, for the tests of Paddock's upstream proxy: squid
// with basic authentication and its own access log (names it resolves from a hosts file of
// its own, as a company's proxy resolves names the desktop cannot), mitmproxy as a
// TLS-inspecting proxy chained to it, and an HTTPS site behind them (openssl s_server). Each
// runs as the user running the test, in a folder of its own, and stops with the object.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace paddock::test {

/** @brief squid on 127.0.0.1, letting in one user with one password (basic authentication). */
class SquidProxy
{
public:
    ~SquidProxy();
    /**
     * Starts squid in @p folder, resolving each of @p names to 127.0.0.1 itself; false with
     * @p error when squid is missing or does not answer.
     */
    bool start(const QString &folder, const QString &user, const QString &password, const QStringList &names,
               QString *error);
    quint16 port() const { return m_port; }
    /** The access log as it is now (squid's native format: one request a line, with the user). */
    QString accessLog() const;
    /** The access log's lines that name @p host. */
    QStringList linesFor(const QString &host) const;

private:
    QString m_folder;
    quint16 m_port = 0;
    QProcess m_process;
};

/**
 * @brief mitmproxy (mitmdump) on 127.0.0.1 as a TLS-inspecting proxy in front of another
 * (`--mode upstream:`), signing what it presents with its own authority, as a company's
 * inspection proxy does.
 */
class InspectingProxy
{
public:
    ~InspectingProxy();
    /** Starts it in @p folder, passing every connection on to @p upstreamUrl with @p upstreamAuth (user:password). */
    bool start(const QString &folder, const QString &upstreamUrl, const QString &upstreamAuth, QString *error);
    quint16 port() const { return m_port; }
    /** The authority it signs with, PEM: what a user's company hands out to be trusted. */
    QString authorityFile() const;

private:
    QString m_folder;
    quint16 m_port = 0;
    QProcess m_process;
};

/** @brief An HTTPS site on 127.0.0.1 (openssl s_server -www) with a certificate for @p name from its own CA. */
class TlsSite
{
public:
    ~TlsSite();
    bool start(const QString &folder, const QString &name, QString *error);
    quint16 port() const { return m_port; }
    /** The CA that signed the site's certificate. */
    QString authorityFile() const { return m_folder + QStringLiteral("/site-ca.pem"); }

private:
    QString m_folder;
    quint16 m_port = 0;
    QProcess m_process;
};

} // namespace paddock::test

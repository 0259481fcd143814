// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a test needs from the machine (a tool, a service, root, the network of the npm
// registry), and what happens when it is missing.
//
// The README's test command (tests/run-all.sh, through tests/with-services.sh) installs and
// starts everything the suite needs and says so with PADDOCK_TESTS_COMPLETE=1: there a
// missing need is a failure that names it, since a skip would hide the very regression the
// test is for. A developer running one test by hand, outside that command, gets a skip with
// the same sentence.
//
// Whether a need is met is decided without the code under test: a Docker engine is one that
// answers a plain HTTP GET /_ping on its socket, not one Paddock's client can reach.

#include <QByteArray>
#include <QLocalSocket>
#include <QString>
#include <QTcpSocket>
#include <QUrl>
#include <QtTest>

namespace paddock::tests {

inline constexpr char kCompleteVariable[] = "PADDOCK_TESTS_COMPLETE";

/** True under the README's test command: the machine has everything the suite needs. */
inline bool completeMachine()
{
    return qEnvironmentVariable(kCompleteVariable) == QLatin1String("1");
}

/** The reply to GET /_ping on @p socket (connected), or why there is none. */
inline QString pingProblem(QIODevice &socket, const QString &where)
{
    socket.write("GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n");
    QByteArray reply;
    while (socket.waitForReadyRead(5000))
        reply += socket.readAll();
    reply += socket.readAll();
    if (reply.startsWith("HTTP/1.") && reply.contains(" 200 ") && reply.endsWith("OK"))
        return {};
    return QStringLiteral("the Docker engine at %1 did not answer GET /_ping (%2)")
        .arg(where, reply.isEmpty() ? QStringLiteral("no reply") : QString::fromLatin1(reply.left(80)));
}

/**
 * Empty when a Docker engine answers where DOCKER_HOST says (unix:// or tcp://, as the docker
 * CLI reads it) or on /var/run/docker.sock, else why not; in plain HTTP, with no Paddock code.
 */
inline QString dockerEngineProblem()
{
    const QString host = qEnvironmentVariable("DOCKER_HOST");
    const QUrl url(host.isEmpty() ? QStringLiteral("unix:///var/run/docker.sock") : host);
    if (url.scheme() == QLatin1String("tcp")) {
        QTcpSocket socket;
        socket.connectToHost(url.host(), quint16(url.port(2375)));
        if (!socket.waitForConnected(3000))
            return QStringLiteral("no Docker engine answers at %1: %2").arg(host, socket.errorString());
        return pingProblem(socket, host);
    }
    if (url.scheme() != QLatin1String("unix"))
        return QStringLiteral("DOCKER_HOST=%1 is not a socket the tests can reach").arg(host);
    QLocalSocket socket;
    socket.connectToServer(url.path());
    if (!socket.waitForConnected(3000))
        return QStringLiteral("no Docker engine answers on %1: %2").arg(url.path(), socket.errorString());
    return pingProblem(socket, url.path());
}

} // namespace paddock::tests

/**
 * Unless @p condition holds: fails naming @p reason under the README's test command, else
 * skips with it. For a need of the machine only; what Paddock's code does is checked, not
 * needed.
 */
#define PADDOCK_NEED(condition, reason)                                                                                \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            const QByteArray why_ = QString(reason).toUtf8();                                                          \
            if (paddock::tests::completeMachine())                                                                     \
                QFAIL(qPrintable(QStringLiteral("the test command provides this, and it is missing: ") +               \
                                 QString::fromUtf8(why_)));                                                            \
            QSKIP(why_.constData());                                                                                   \
        }                                                                                                              \
    } while (false)

/** PADDOCK_NEED for a Docker engine that answers. */
#define PADDOCK_NEED_DOCKER()                                                                                          \
    do {                                                                                                               \
        const QString dockerProblem_ = paddock::tests::dockerEngineProblem();                                          \
        PADDOCK_NEED(dockerProblem_.isEmpty(), dockerProblem_);                                                        \
    } while (false)

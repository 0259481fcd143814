// SPDX-License-Identifier: GPL-3.0-or-later
// What the tests of captured connections share, whatever the runtime: the policy log's Blocked
// entries read back, and the commands a sandbox runs to reach a service without the proxy.
#pragma once

#include "SandboxFixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

namespace paddock::test {

/**
 * The Blocked entry of `policy log --json` for @p host (and @p port when not 0), once it is there;
 * @p fixture is any with paddock() (SandboxFixture, DockerSandboxFixture).
 */
template<typename Fixture>
QJsonObject blockedEntry(Fixture &fixture, const QString &host, int port = 0, int timeoutMs = 15000)
{
    QJsonObject found;
    [[maybe_unused]] const bool seen = QTest::qWaitFor(
        [&] {
            const auto log =
                fixture.paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
            const QJsonArray blocked =
                QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray();
            for (const QJsonValue &value : blocked) {
                const QJsonObject entry = value.toObject();
                if (entry.value(QLatin1String("host")).toString() == host &&
                    (port == 0 || entry.value(QLatin1String("port")).toInt() == port)) {
                    found = entry;
                    return true;
                }
            }
            return false;
        },
        timeoutMs);
    return found;
}

/** A shell command that fetches @p url without the proxy (the way Node's fetch or a raw client goes). */
inline QString curlDirect(const QString &url)
{
    return QStringLiteral("curl --noproxy '*' -sS --max-time 20 -o - -w '\\n%{http_code}' %1").arg(url);
}

/** ssh without the proxy to @p host:@p port with the key @p key, as @p user, running `echo hello-from-sshd`. */
inline QString sshCommand(const QString &host, quint16 port, const QString &key, const QString &user)
{
    return QStringLiteral("ssh -p %1 -i %2 -l %3 -o BatchMode=yes -o StrictHostKeyChecking=no "
                          "-o UserKnownHostsFile=/dev/null -o ConnectTimeout=20 %4 echo hello-from-sshd")
        .arg(port)
        .arg(key, user, host);
}

/** psql to @p host:@p port as `paddock`, asking for 41 + 1. */
inline QString psqlCommand(const QString &host, quint16 port)
{
    return QStringLiteral("psql -h %1 -p %2 -U paddock -d postgres -tAc 'select 41 + 1'").arg(host).arg(port);
}

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the Network page tests share: the sandbox fixture (real paddockd, a kit, a local
// upstream reached through resolver overrides) with one running sandbox, and a way to make
// that sandbox be refused.

#include "SandboxFixture.h"

#include "api/DaemonConnection.h"

namespace paddock::guitest {

/** @brief The fixture plus a running sandbox named `net` and more names leading to the upstream. */
class NetworkFixture
{
public:
    static constexpr const char *kSandbox = "net";

    /** @p command may name `{PORT}` (the upstream's) and `{WORKSPACE}`. */
    bool setUp(QString command = QStringLiteral("while :; do sleep 1; done"))
    {
        if (!m_fixture.setUp())
            return false;
        policy::PolicyStore store(m_fixture.path(QStringLiteral("config/paddock/policy.yaml")));
        store.load();
        for (const char16_t *name : {u"third.test", u"fourth.test", u"fifth.test"}) {
            if (!store.setResolveOverride(name, QHostAddress(QStringLiteral("127.0.0.1"))).ok())
                return false;
        }
        // Sandboxes trust Paddock's local authority, made on first use: made here first.
        if (m_fixture.paddock({QStringLiteral("ca"), QStringLiteral("show")}).exitCode != 0)
            return false;
        command.replace(QStringLiteral("{PORT}"), QString::number(m_fixture.upstreamPort()));
        command.replace(QStringLiteral("{WORKSPACE}"), m_fixture.workspace());
        const test::Finished create = m_fixture.paddock(
            {QStringLiteral("create"), QStringLiteral("--kit"), m_fixture.kitDir(), QStringLiteral("--name"),
             QLatin1String(kSandbox), m_fixture.workspace(), QStringLiteral("--"), command});
        if (create.exitCode != 0) {
            qWarning().noquote() << create.err;
            return false;
        }
        return true;
    }
    bool startSandbox()
    {
        const test::Finished start = m_fixture.paddock({QStringLiteral("start"), QLatin1String(kSandbox)});
        if (start.exitCode != 0)
            qWarning().noquote() << start.err;
        return start.exitCode == 0;
    }

    test::SandboxFixture &fixture() { return m_fixture; }
    const test::SandboxFixture &fixture() const { return m_fixture; }
    QString socketPath() const { return m_fixture.socketPath(); }
    QString url(const QString &host) const
    {
        return QStringLiteral("http://%1:%2/hello.txt").arg(host).arg(m_fixture.upstreamPort());
    }
    /** The HTTP status `curl` gets for @p host from inside the sandbox. */
    QString fetch(const QString &host)
    {
        return m_fixture
            .paddock({QStringLiteral("exec"), QLatin1String(kSandbox), QStringLiteral("curl"), QStringLiteral("-s"),
                      QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"),
                      QStringLiteral("%{http_code}"), url(host)})
            .out;
    }
    api::Reply call(const QString &method, const QJsonObject &params = {})
    {
        api::DaemonConnection connection;
        QString error;
        if (!connection.open(socketPath(), 5000, &error))
            return api::Reply::failure(QStringLiteral("test"), error);
        return connection.call(method, params, 30000);
    }
    /** "scope pattern" of every rule of policy.yaml. */
    QStringList userRules()
    {
        QStringList rules;
        for (const QJsonValue &value :
             call(QStringLiteral("policy.get")).result().value(QLatin1String("rules")).toArray()) {
            const QJsonObject rule = value.toObject();
            if (!rule.value(QLatin1String("readOnly")).toBool())
                rules << rule.value(QLatin1String("scope")).toString() + QLatin1Char(' ') +
                             rule.value(QLatin1String("pattern")).toString();
        }
        return rules;
    }

private:
    test::SandboxFixture m_fixture;
};

} // namespace paddock::guitest

// SPDX-License-Identifier: GPL-3.0-or-later
// Host facilities appear in a sandbox only when granted, and then only what was granted.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxSpec;
using paddock::testing::SandboxTestBed;
using paddock::testing::StandInProxy;

class TestBwrapGrants : public QObject
{
    Q_OBJECT

private slots:
    void extraReadOnlyBindOnlyWhenGiven()
    {
        SandboxTestBed bed;
        const QString shared = bed.root() + QStringLiteral("/reference");
        QVERIFY(QDir().mkpath(shared));
        QFile doc(shared + QStringLiteral("/doc.txt"));
        QVERIFY(doc.open(QIODevice::WriteOnly));
        doc.write("reference text\n");
        doc.close();
        const QString script = QStringLiteral("cat /opt/reference/doc.txt 2>/dev/null || echo absent; "
                                              "touch /opt/reference/new 2>/dev/null && echo writable; "
                                              "test -e '%1' && echo 'host path visible'; true")
                                   .arg(shared);
        BwrapRuntime runtime;
        QCOMPARE(bed.runScript(runtime, QStringLiteral("without-bind"), script).out, QByteArray("absent\n"));

        SandboxSpec spec = bed.spec(QStringLiteral("with-bind"), script);
        spec.readOnlyBinds.append({shared, QStringLiteral("/opt/reference")});
        const auto run = bed.run(runtime, spec);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("reference text\n"));
        QVERIFY(!QFile::exists(shared + QStringLiteral("/new")));
    }

    void dockerSocketOnlyWhenGranted()
    {
        SandboxTestBed bed;
        // A stand-in engine: any unix socket that answers is enough to tell it is reachable.
        const QString engine = bed.root() + QStringLiteral("/engine.sock");
        StandInProxy standInEngine(engine);
        const QString script =
            QStringLiteral("curl -s -i --unix-socket /var/run/docker.sock http://docker/_ping | head -1; "
                           "echo \"status=$?\"; test -S /var/run/docker.sock && echo present; true");
        BwrapRuntime runtime;
        const auto denied = bed.runScript(runtime, QStringLiteral("no-docker"), script);
        QVERIFY2(!denied.out.contains("present"), denied.out.constData());
        QVERIFY(!denied.out.contains("HTTP/1.1"));

        SandboxSpec spec = bed.spec(QStringLiteral("docker-granted"), script);
        spec.grants.dockerSocket = engine;
        const auto granted = bed.run(runtime, spec);
        QVERIFY2(granted.out.contains("HTTP/1.1 403"), granted.out.constData());
        QVERIFY(granted.out.contains("present"));
    }

    void sshAgentOnlyWhenGranted()
    {
        SandboxTestBed bed;
        // The socket alone in its folder, which is what is bound.
        QVERIFY(QDir().mkpath(bed.root() + QStringLiteral("/agent")));
        const QString agent = bed.root() + QStringLiteral("/agent/agent.sock");
        StandInProxy standInAgent(agent);
        const QString script =
            QStringLiteral("echo \"sock=${SSH_AUTH_SOCK:-unset}\"; test -S \"$SSH_AUTH_SOCK\" && echo "
                           "present; ls -A /run/paddock/ssh-agent 2>/dev/null; true");
        BwrapRuntime runtime;
        QCOMPARE(bed.runScript(runtime, QStringLiteral("no-agent"), script).out, QByteArray("sock=unset\n"));

        SandboxSpec spec = bed.spec(QStringLiteral("agent-granted"), script);
        spec.grants.sshAgentSocket = agent;
        QCOMPARE(bed.run(runtime, spec).out,
                 QByteArray("sock=/run/paddock/ssh-agent/agent.sock\npresent\nagent.sock\n"));
    }
};

QTEST_GUILESS_MAIN(TestBwrapGrants)
#include "tst_bwrap_grants.moc"

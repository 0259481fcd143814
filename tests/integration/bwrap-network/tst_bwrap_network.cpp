// SPDX-License-Identifier: GPL-3.0-or-later
// The sandbox's only way out is its proxy socket: HTTP through 127.0.0.1:3128 reaches the
// (stand-in) proxy; a direct connection, another interface or a DNS answer do not exist.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

using paddock::runtime::BwrapRuntime;
using paddock::testing::SandboxTestBed;

class TestBwrapNetwork : public QObject
{
    Q_OBJECT

private slots:
    void reachesTheProxyThroughTheLoopbackRelay()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const auto run =
            bed.runScript(runtime, QStringLiteral("via-proxy"), QStringLiteral("curl -s -i http://example.test/"));
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("HTTP/1.1 403 Forbidden"), run.out.constData());
        QVERIFY(run.out.contains("X-Paddock-Reason: test"));
        QCOMPARE(bed.proxy().requests(), 1);
    }

    void cannotConnectDirectly()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        // No route exists, so both fail at once rather than by timing out.
        const auto run = bed.runScript(
            runtime, QStringLiteral("no-route"),
            QStringLiteral("curl -s --noproxy '*' --max-time 20 http://1.1.1.1/; echo \"direct=$?\"; "
                           "curl -s --noproxy '*' --max-time 20 http://10.0.0.1:80/; echo \"private=$?\""));
        QCOMPARE(run.exitCode, 0);
        // 7: could not connect (network unreachable); 28 would be a timeout.
        QVERIFY2(run.out.contains("direct=7"), run.out.constData());
        QVERIFY2(run.out.contains("private=7"), run.out.constData());
        QCOMPARE(bed.proxy().requests(), 0);
    }

    void hasOnlyLoopback()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const auto run = bed.runScript(runtime, QStringLiteral("only-lo"),
                                       QStringLiteral("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("lo\n"));
    }

    void resolvesNoNames()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const auto run = bed.runScript(runtime, QStringLiteral("no-dns"),
                                       QStringLiteral("getent hosts example.com; echo \"external=$?\"; "
                                                      "getent hosts localhost >/dev/null; echo \"localhost=$?\""));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("external=2"), run.out.constData());
        // Loopback names still work from the sandbox's own hosts file.
        QVERIFY2(run.out.contains("localhost=0"), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestBwrapNetwork)
#include "tst_bwrap_network.moc"

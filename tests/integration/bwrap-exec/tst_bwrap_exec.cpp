// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock exec`: a command joins a running sandbox with its file system, network, pids,
// host name and environment, and with no more privilege than the sandbox's own program.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

using paddock::runtime::BwrapRuntime;
using paddock::runtime::ExecRequest;
using paddock::runtime::SandboxSpec;
using paddock::testing::SandboxTestBed;

class TestBwrapExec : public QObject
{
    Q_OBJECT

private:
    struct Output
    {
        int exitCode = -1;
        QByteArray out;
        QString error;
    };

    static Output exec(BwrapRuntime &runtime, const SandboxTestBed &bed, const QString &name,
                       const ExecRequest &request)
    {
        const QString path = bed.root() + QStringLiteral("/exec.out");
        const int out = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        const auto result = runtime.exec(name, request, {in, out, out});
        ::close(in);
        ::close(out);
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        return {result.exitCode.value_or(-1), file.readAll(), result.error};
    }

    static ExecRequest script(const QString &text)
    {
        ExecRequest request;
        request.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), text};
        return request;
    }

private slots:
    void joinsTheRunningSandbox()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        SandboxSpec spec =
            bed.spec(QStringLiteral("joined"), QStringLiteral("echo inside > /tmp/only-here; sleep 1000"));
        spec.lifetime = SandboxSpec::Lifetime::Detached;
        spec.environment.insert(QStringLiteral("KIT_VARIABLE"), QStringLiteral("from-spec"));
        QVERIFY(runtime.create(spec).ok);
        QVERIFY(runtime.start(spec.name).ok);
        QTRY_VERIFY_WITH_TIMEOUT(
            exec(runtime, bed, spec.name, script(QStringLiteral("cat /tmp/only-here"))).out == "inside\n", 10000);

        const auto seen = exec(
            runtime, bed, spec.name,
            script(QStringLiteral("hostname; pwd; echo \"$KIT_VARIABLE ${%1:-no-marker}\"; "
                                  "tr '\\0' ' ' < /proc/1/cmdline; echo; "
                                  "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; "
                                  "grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status | grep -c '0000000000000000'; "
                                  "grep NoNewPrivs /proc/self/status | tr -d '\\t'; "
                                  "curl -s -i http://example.test/ | head -1")
                       .arg(QLatin1String(SandboxTestBed::kMarker))));
        QVERIFY2(seen.error.isEmpty(), qPrintable(seen.error));
        QCOMPARE(seen.exitCode, 0);
        const QList<QByteArray> lines = seen.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 8);
        QCOMPARE(lines[0], QByteArray("joined"));
        QCOMPARE(QString::fromUtf8(lines[1]), bed.workspace());
        QCOMPARE(lines[2], QByteArray("from-spec no-marker"));
        QVERIFY2(lines[3].startsWith("/run/paddock/init --relay"), lines[3].constData());
        QCOMPARE(lines[4], QByteArray("lo"));
        // No capability held or inheritable, and no way to gain one (no-new-privs). The bounding
        // set is not checked: the sandbox user (uid 1000 inside) cannot empty it after nsenter,
        // and with no-new-privs it cannot be used, since no exec can raise privileges.
        QCOMPARE(lines[5], QByteArray("4"));
        QCOMPARE(lines[6], QByteArray("NoNewPrivs:1"));
        QCOMPARE(lines[7].trimmed(), QByteArray("HTTP/1.1 403 Forbidden"));
        QVERIFY(runtime.stop(spec.name).ok);
    }

    void reportsStatusWorkingDirAndExtraVariables()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        SandboxSpec spec = bed.spec(QStringLiteral("statuses"), QStringLiteral("sleep 1000"));
        spec.lifetime = SandboxSpec::Lifetime::Detached;
        QVERIFY(runtime.create(spec).ok);
        QVERIFY(runtime.start(spec.name).ok);
        QCOMPARE(exec(runtime, bed, spec.name, script(QStringLiteral("exit 9"))).exitCode, 9);
        ExecRequest request = script(QStringLiteral("pwd; echo $EXTRA"));
        request.workingDir = QStringLiteral("/tmp");
        request.environment.insert(QStringLiteral("EXTRA"), QStringLiteral("added"));
        QCOMPARE(exec(runtime, bed, spec.name, request).out, QByteArray("/tmp\nadded\n"));
        QVERIFY(runtime.stop(spec.name).ok);
    }

    void refusesAStoppedSandbox()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        SandboxSpec spec = bed.spec(QStringLiteral("not-running"), QStringLiteral("true"));
        QVERIFY(runtime.create(spec).ok);
        const auto result = runtime.exec(spec.name, script(QStringLiteral("true")));
        QVERIFY(!result.ok);
        QVERIFY(result.error.contains(QLatin1String("not running")));
    }
};

QTEST_GUILESS_MAIN(TestBwrapExec)
#include "tst_bwrap_exec.moc"

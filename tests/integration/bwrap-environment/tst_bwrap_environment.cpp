// SPDX-License-Identifier: GPL-3.0-or-later
// The environment inside a bubblewrap sandbox is exactly the spec's: nothing of the caller's.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

using paddock::runtime::BwrapRuntime;
using paddock::testing::SandboxTestBed;

class TestBwrapEnvironment : public QObject
{
    Q_OBJECT

private:
    static QMap<QString, QString> parseEnv(const QByteArray &output)
    {
        // `env -0` separates entries with NUL, so values holding newlines stay whole.
        QMap<QString, QString> env;
        for (const QByteArray &entry : output.split('\0')) {
            const qsizetype equals = entry.indexOf('=');
            if (equals > 0)
                env.insert(QString::fromUtf8(entry.left(equals)), QString::fromUtf8(entry.mid(equals + 1)));
        }
        return env;
    }

private slots:
    void holdsExactlyTheSpecVariables()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        auto spec = bed.spec(QStringLiteral("env-exact"), QStringLiteral("exec env -0"));
        spec.environment.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("proxy-managed"));
        spec.environment.insert(QStringLiteral("WITH_NEWLINE"), QStringLiteral("one\ntwo"));
        const auto run = bed.run(runtime, spec);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(run.exitCode, 0);

        QMap<QString, QString> env = parseEnv(run.out);
        // A shell adds PWD and SHLVL, and `_` names the program: none come from the caller.
        env.remove(QStringLiteral("PWD"));
        env.remove(QStringLiteral("SHLVL"));
        env.remove(QStringLiteral("_"));
        QCOMPARE(env, spec.environment);
        QCOMPARE(env.value(QStringLiteral("HOME")), QStringLiteral("/home/agent"));
        QCOMPARE(env.value(QStringLiteral("HTTPS_PROXY")), QStringLiteral("http://127.0.0.1:3128"));
        QCOMPARE(env.value(QStringLiteral("http_proxy")), QStringLiteral("http://127.0.0.1:3128"));
    }

    void leaksNothingFromTheCaller()
    {
        SandboxTestBed bed;
        QVERIFY(qEnvironmentVariableIsSet(SandboxTestBed::kMarker));
        BwrapRuntime runtime;
        const auto run = bed.runScript(
            runtime, QStringLiteral("env-marker"),
            QStringLiteral("env; echo \"marker=${%1:-absent}\"").arg(QLatin1String(SandboxTestBed::kMarker)));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("marker=absent"));
        QVERIFY(!run.out.contains("must-not-leak"));
        QVERIFY(!run.out.contains("XDG_"));
        QVERIFY(!run.out.contains(QFile::encodeName(bed.hostHome())));
    }

    void runsInTheWorkspaceUnderItsOwnName()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        const auto run = bed.runScript(runtime, QStringLiteral("named-box"),
                                       QStringLiteral("pwd; hostname; tr '\\0' ' ' < /proc/1/cmdline"));
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QString::fromUtf8(lines[0]), bed.workspace());
        QCOMPARE(lines[1], QByteArray("named-box"));
        // paddock-init is PID 1, handing the proxy port's connections over, with the program as its child.
        QVERIFY2(lines[2].startsWith("/run/paddock/init --relay 127.0.0.1:3128=/run/paddock/proxy.sock "
                                     "--relay-hand-over -- sh -c"),
                 lines[2].constData());
    }

    void reportsTheProgramsExitStatus()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        QCOMPARE(bed.runScript(runtime, QStringLiteral("exit-seven"), QStringLiteral("exit 7")).exitCode, 7);
        const auto info = runtime.inspect(QStringLiteral("exit-seven"));
        QVERIFY(info);
        QCOMPARE(info->status, paddock::runtime::SandboxStatus::Stopped);
        QCOMPARE(info->exitCode, std::optional<int>(7));
    }
};

QTEST_GUILESS_MAIN(TestBwrapEnvironment)
#include "tst_bwrap_environment.moc"

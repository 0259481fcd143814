// SPDX-License-Identifier: GPL-3.0-or-later
// A kit's setup block: install commands once at creation, startup commands at every start
// (a background one detached), setup files written into the home, refused elsewhere.
#include "SandboxFixture.h"
#include "SetupKits.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;

using namespace paddock::test::kits;

class TestSandboxSetup : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void installRunsOnceAndStartupEveryTime();
    void failedInstallLeavesNoSandbox();

private:
    Finished run(const QString &kit, const QString &name, const QString &script)
    {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), name,
                                   m_fixture->workspace(), QStringLiteral("--"), script});
    }

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSandboxSetup::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxSetup::installRunsOnceAndStartupEveryTime()
{
    const QString kit = m_fixture->writeKit(QStringLiteral("setup-kit"), kSetupKit);
    // The background startup command runs beside the program, which waits for its file.
    const QString script = QStringLiteral("until [ -e \"$HOME/background.txt\" ]; do sleep 0.05; done; "
                                          "cat \"$HOME/installed.txt\" \"$HOME/startups.txt\" \"$HOME/background.txt\" "
                                          "\"$HOME/.config/tool.conf\"; stat -c %a \"$HOME/.config/tool.conf\"");
    const Finished first = run(kit, QStringLiteral("setup"), script);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QCOMPARE(first.out, QStringLiteral("installed\nsecond\nstarted\nbackground\nsetting=1\n600\n"));
    // Only the home and the workspace can be written under bubblewrap: the rest is refused, said.
    QVERIFY2(first.err.contains(QLatin1String("/etc/tool.conf")), qPrintable(first.err));

    // The sandbox kept running: the next agent session does not start it again.
    const Finished second = run(kit, QStringLiteral("setup"), script);
    QVERIFY2(second.exitCode == 0, qPrintable(second.err));
    QCOMPARE(second.out, QStringLiteral("installed\nsecond\nstarted\nbackground\nsetting=1\n600\n"));

    // Each start runs setup.startup once more; setup.install never again.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("setup")}).exitCode, 0);
    const Finished third = run(kit, QStringLiteral("setup"), script);
    QVERIFY2(third.exitCode == 0, qPrintable(third.err));
    QCOMPARE(third.out, QStringLiteral("installed\nsecond\nstarted\nstarted\nbackground\nsetting=1\n600\n"));
}

void TestSandboxSetup::failedInstallLeavesNoSandbox()
{
    const QString kit = m_fixture->writeKit(QStringLiteral("failing-kit"), kFailingKit);
    const Finished create =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                            QStringLiteral("broken"), m_fixture->workspace()});
    QCOMPARE(create.exitCode, 1);
    QVERIFY2(create.err.contains(QLatin1String("setup.install failed with status 4")), qPrintable(create.err));
    QVERIFY2(create.err.contains(QLatin1String("cannot install")), qPrintable(create.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("broken")));
}

QTEST_GUILESS_MAIN(TestSandboxSetup)
#include "tst_sandbox_setup.moc"

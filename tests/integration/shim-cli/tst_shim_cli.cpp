// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock shim`: the launcher it writes, what it refuses to touch, and a shim typed in a project
// folder running its command inside a real bubblewrap sandbox through the real daemon.
#include "../sandbox-support/SandboxFixture.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestShimCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void installWritesAMarkedLauncher();
    void shimRunsTheCommandInASandboxOfTheProjectFolder();
    void refusesToOverwriteAFileItDidNotWrite();
    void reinstallUpdatesItsOwnShim();
    void warnsWhenTheFolderIsNotOnPath();
    void lsListsOnlyShims();
    void rmRemovesOnlyShims();
    void refusesABadCommandName();

private:
    QString bin() const { return m_fixture->path(QStringLiteral("bin")); }
    Finished shim(const QStringList &arguments, const QString &path = {});
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestShimCli::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

Finished TestShimCli::shim(const QStringList &arguments, const QString &path)
{
    // PATH is the fixture's unless a test gives one; the warning depends on it.
    if (path.isEmpty())
        return m_fixture->paddock(QStringList{QStringLiteral("shim")} + arguments);
    return m_fixture->run(QStringLiteral("env"), QStringList{QStringLiteral("PATH=") + path, QStringLiteral(PADDOCK_BIN),
                                                             QStringLiteral("shim")} +
                                                     arguments);
}

void TestShimCli::installWritesAMarkedLauncher()
{
    const Finished installed = shim({QStringLiteral("install"), QStringLiteral("agent-a"), QStringLiteral("--kit"),
                                     m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
    QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
    const QString path = bin() + QStringLiteral("/agent-a");
    QVERIFY(QFileInfo(path).isExecutable());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray script = file.readAll();
    QVERIFY2(script.startsWith("#!/bin/sh\n# paddock-shim"), script.constData());
    QVERIFY2(script.contains("run --kit '" + m_fixture->kitDir().toUtf8() + "' -- 'agent-a' \"$@\""), script.constData());
}

void TestShimCli::shimRunsTheCommandInASandboxOfTheProjectFolder()
{
    // Shims named after `pwd` and `env`: what they print shows where the command ran.
    for (const QString &command : {QStringLiteral("pwd"), QStringLiteral("env")}) {
        const Finished installed = shim({QStringLiteral("install"), command, QStringLiteral("--kit"),
                                         m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
        QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
    }
    // The fixture runs programs in the workspace folder, as a user types a command in a project.
    const Finished where = m_fixture->run(bin() + QStringLiteral("/pwd"), {});
    QVERIFY2(where.exitCode == 0, qPrintable(where.out + where.err));
    QCOMPARE(where.out.trimmed(), m_fixture->workspace());
    const Finished ran = m_fixture->run(bin() + QStringLiteral("/env"), {});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    const QStringList lines = ran.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.contains(QStringLiteral("TEST_API_KEY=proxy-managed")), qPrintable(ran.out));
    QVERIFY2(lines.contains(QStringLiteral("HTTP_PROXY=http://127.0.0.1:3128")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String(SandboxFixture::kMarker)), qPrintable(ran.out));
    // The sandbox is the kit's, named after the project folder.
    QVERIFY2(m_fixture->listed().contains(QStringLiteral("probe-workspace")), "no sandbox probe-workspace");
}

void TestShimCli::refusesToOverwriteAFileItDidNotWrite()
{
    QDir().mkpath(bin());
    const QString path = bin() + QStringLiteral("/mine");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\necho my own script\n");
    file.close();
    const Finished installed = shim({QStringLiteral("install"), QStringLiteral("mine"), QStringLiteral("--kit"),
                                     m_fixture->kitDir(), QStringLiteral("--dir"), bin()});
    QCOMPARE(installed.exitCode, 1);
    QVERIFY2(installed.err.contains(QLatin1String("was not written by 'paddock shim install'")), qPrintable(installed.err));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("#!/bin/sh\necho my own script\n"));
}

void TestShimCli::reinstallUpdatesItsOwnShim()
{
    const QString otherKit = m_fixture->path(QStringLiteral("other-kit"));
    QDir().mkpath(otherKit);
    QFile spec(otherKit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write("schemaVersion: \"2\"\nkind: sandbox\nname: other\nsandbox:\n  image: other:1\n");
    spec.close();
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-b"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-b"), QStringLiteral("--kit"), otherKit,
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    const Finished listed = shim({QStringLiteral("ls"), QStringLiteral("--dir"), bin(), QStringLiteral("--json")});
    bool found = false;
    for (const QJsonValue &value : QJsonDocument::fromJson(listed.out.toUtf8()).array()) {
        if (value.toObject().value(QLatin1String("command")).toString() == QLatin1String("agent-b")) {
            QCOMPARE(value.toObject().value(QLatin1String("kit")).toString(), otherKit);
            found = true;
        }
    }
    QVERIFY2(found, qPrintable(listed.out));
}

void TestShimCli::warnsWhenTheFolderIsNotOnPath()
{
    const QString away = m_fixture->path(QStringLiteral("away-bin"));
    const Finished off = shim({QStringLiteral("install"), QStringLiteral("agent-c"), QStringLiteral("--kit"),
                               m_fixture->kitDir(), QStringLiteral("--dir"), away},
                              QStringLiteral("/usr/bin:/bin"));
    QCOMPARE(off.exitCode, 0);
    QVERIFY2(off.err.contains(away + QStringLiteral(" is not on your PATH")), qPrintable(off.err));
    const Finished on = shim({QStringLiteral("install"), QStringLiteral("agent-c"), QStringLiteral("--kit"),
                              m_fixture->kitDir(), QStringLiteral("--dir"), away},
                             away + QStringLiteral(":/usr/bin:/bin"));
    QCOMPARE(on.exitCode, 0);
    QVERIFY2(!on.err.contains(QLatin1String("not on your PATH")), qPrintable(on.err));
}

void TestShimCli::lsListsOnlyShims()
{
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-d"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    QFile other(bin() + QStringLiteral("/plain-tool"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("#!/bin/sh\n");
    other.close();
    const Finished listed = shim({QStringLiteral("ls"), QStringLiteral("--dir"), bin()});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains(QStringLiteral("agent-d")), qPrintable(listed.out));
    QVERIFY2(listed.out.contains(m_fixture->kitDir()), qPrintable(listed.out));
    QVERIFY2(!listed.out.contains(QLatin1String("plain-tool")), qPrintable(listed.out));
}

void TestShimCli::rmRemovesOnlyShims()
{
    QCOMPARE(shim({QStringLiteral("install"), QStringLiteral("agent-e"), QStringLiteral("--kit"), m_fixture->kitDir(),
                   QStringLiteral("--dir"), bin()})
                 .exitCode,
             0);
    const Finished removed = shim({QStringLiteral("rm"), QStringLiteral("agent-e"), QStringLiteral("--dir"), bin()});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY(!QFileInfo::exists(bin() + QStringLiteral("/agent-e")));

    QFile foreign(bin() + QStringLiteral("/foreign"));
    QVERIFY(foreign.open(QIODevice::WriteOnly));
    foreign.write("#!/bin/sh\necho not a shim\n");
    foreign.close();
    const Finished refused = shim({QStringLiteral("rm"), QStringLiteral("foreign"), QStringLiteral("--dir"), bin()});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("was not written by 'paddock shim install'")), qPrintable(refused.err));
    QVERIFY(QFileInfo::exists(bin() + QStringLiteral("/foreign")));
    QCOMPARE(shim({QStringLiteral("rm"), QStringLiteral("missing"), QStringLiteral("--dir"), bin()}).exitCode, 1);
}

void TestShimCli::refusesABadCommandName()
{
    for (const QString &name : {QStringLiteral("../escape"), QStringLiteral("a/b"), QStringLiteral("paddock")}) {
        const Finished installed = shim({QStringLiteral("install"), name, QStringLiteral("--kit"), m_fixture->kitDir(),
                                         QStringLiteral("--dir"), bin()});
        QCOMPARE(installed.exitCode, 2);
    }
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("escape"))));
}

QTEST_GUILESS_MAIN(TestShimCli)
#include "tst_shim_cli.moc"

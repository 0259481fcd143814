// SPDX-License-Identifier: GPL-3.0-or-later
// Under bubblewrap, setup.install commands run as the uid the kit gives them (0 by default),
// setup.startup commands as theirs (1000 by default) and the program as the sandbox's regular
// user, 1000 — each only a name inside a user namespace that maps the host user alone.
#include "SandboxFixture.h"
#include "UsersKit.h"

#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class BwrapSetupUsersTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SandboxFixture> m_fixture;

    QString home(const QString &name) const
    {
        return m_fixture->path(QStringLiteral("data/paddock/sandboxes/%1/home").arg(name));
    }
    QString recorded(const QString &name, const QString &file) const
    {
        QFile text(home(name) + QLatin1Char('/') + file);
        return text.open(QIODevice::ReadOnly) ? QString::fromUtf8(text.readAll()).trimmed()
                                              : QStringLiteral("<missing>");
    }

private slots:
    void initTestCase()
    {
        QString why;
        m_fixture = SandboxFixture::startWithAuthority(&why);
        QVERIFY2(m_fixture, qPrintable(why));
    }

    void cleanupTestCase() { m_fixture.reset(); }

    void eachCommandRunsAsItsUser()
    {
        const QString kit = m_fixture->writeKit(QStringLiteral("users-kit"), paddock::test::kits::kUsersKit);
        QVERIFY(!kit.isEmpty());
        const QString name = QStringLiteral("users");
        const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit,
                                                 QStringLiteral("--name"), name, m_fixture->workspace()});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err + m_fixture->daemonLog()));

        // The program: the regular user.
        QCOMPARE(run.out.trimmed(), QStringLiteral("1000"));
        // setup.install: "0" by default, or the user each command names, in order.
        QCOMPARE(recorded(name, QStringLiteral("install-default.txt")), QStringLiteral("0"));
        QCOMPARE(recorded(name, QStringLiteral("install-agent.txt")), QStringLiteral("1000"));
        QCOMPARE(recorded(name, QStringLiteral("install-root-again.txt")), QStringLiteral("0"));
        // setup.startup: "1000" by default, or the user each command names.
        QCOMPARE(recorded(name, QStringLiteral("startup-default.txt")), QStringLiteral("1000"));
        QCOMPARE(recorded(name, QStringLiteral("startup-root.txt")), QStringLiteral("0"));
        QCOMPARE(recorded(name, QStringLiteral("startup-other.txt")), QStringLiteral("1234"));

        // Root inside has no power outside: what it wrote into the system is in the sandbox's
        // own root, the host's stayed as it was, and what it wrote in the home belongs to the
        // host user.
        QCOMPARE(recorded(name, QStringLiteral("install-usr.txt")), QStringLiteral("wrote"));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/paddock-root-was-here")));
        struct stat st
        {};
        QCOMPARE(::stat(QFile::encodeName(home(name) + QStringLiteral("/install-default.txt")).constData(), &st), 0);
        QCOMPARE(st.st_uid, ::getuid());

        // A command run in the sandbox later is the regular user too.
        const Finished detached =
            m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), kit,
                                QStringLiteral("--name"), QStringLiteral("users-detached"), m_fixture->workspace(),
                                QStringLiteral("--"), QStringLiteral("sleep 600")});
        QVERIFY2(detached.exitCode == 0, qPrintable(detached.err));
        const Finished exec = m_fixture->paddock(
            {QStringLiteral("exec"), QStringLiteral("users-detached"), QStringLiteral("id"), QStringLiteral("-u")});
        QCOMPARE(exec.out.trimmed(), QStringLiteral("1000"));
    }

    void unknownUserIsRefused()
    {
        const QString kit = m_fixture->writeKit(QStringLiteral("unknown-kit"), paddock::test::kits::kUnknownUserKit);
        const Finished run =
            m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                                QStringLiteral("unknown"), m_fixture->workspace()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QLatin1String("'postgres' is not known")), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(BwrapSetupUsersTest)
#include "tst_bwrap_setup_users.moc"

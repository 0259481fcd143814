// SPDX-License-Identifier: GPL-3.0-or-later
// Companion services, as the person whose wrapper started a PostgreSQL container on a network
// shared with the agent: the real paddock and paddockd, a bubblewrap sandbox, the real Docker
// engine, psql inside reaching `postgres:5432` by name through the sandbox's proxy.
#include "Needs.h"
#include "SandboxFixture.h"

#include "runtime/docker/DockerClient.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

// The Debian image's PostgreSQL, its data in the service's volume, trusting the network it is on.
const QString kPostgres = QStringLiteral(
    "mkdir -p /var/lib/postgresql/data /run/postgresql && chown postgres /var/lib/postgresql/data /run/postgresql && "
    "exec su postgres -s /bin/sh -c '[ -s /var/lib/postgresql/data/PG_VERSION ] || "
    "{ /usr/lib/postgresql/15/bin/initdb -D /var/lib/postgresql/data -A trust -U paddock >/dev/null && "
    "echo host all all 0.0.0.0/0 trust >> /var/lib/postgresql/data/pg_hba.conf; }; "
    "exec /usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/data -c listen_addresses=*'");

/** psql inside, retried while the database starts. */
QString psql(const QString &sql, const QString &host = QStringLiteral("postgres"), int port = 5432)
{
    return QStringLiteral("for i in $(seq 40); do out=$(psql -h %1 -p %2 -U paddock -d postgres -tAc \"%3\" 2>&1) "
                          "&& break; sleep 0.5; done; echo \"$out\"")
        .arg(host)
        .arg(port)
        .arg(sql);
}

} // namespace

class TestSandboxServices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void psqlReachesTheCompanionByName();
    void nothingElseOfItsNetworkIsReachable();
    void itsDataStaysAcrossAStopAndAStart();
    void addingOneToARunningSandboxStartsIt();
    void removingTheSandboxRemovesItsServices();

private:
    Finished inSandbox(const QString &script)
    {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                   QStringLiteral("--name"), QStringLiteral("dev"), m_fixture->workspace(),
                                   QStringLiteral("--"), script});
    }
    QString companionAddress() const;

    std::unique_ptr<SandboxFixture> m_fixture;
    paddock::runtime::docker::DockerClient m_engine;
};

void TestSandboxServices::initTestCase()
{
    PADDOCK_NEED_DOCKER();
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("psql")).isEmpty(), "psql (postgresql-client)");
    m_fixture = std::make_unique<SandboxFixture>();
    // This test's sandboxes reach the engine, as a user's do (the fixture hides it otherwise).
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix:///var/run/docker.sock"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    const Finished created =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QStringLiteral("dev"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.err));
    const Finished added = m_fixture->paddock(
        {QStringLiteral("service"), QStringLiteral("add"), QStringLiteral("dev"), QStringLiteral("postgres"),
         QStringLiteral("--image"), QStringLiteral(PADDOCK_CLIENTS_IMAGE), QStringLiteral("--port"),
         QStringLiteral("5432"), QStringLiteral("--volume"), QStringLiteral("/var/lib/postgresql/data"),
         QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), kPostgres});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    QCOMPARE(added.out, QStringLiteral("Sandbox dev has service postgres, reached inside at postgres:5432.\n"));
    // An image the engine does not have is refused with what to do.
    const Finished missing =
        m_fixture->paddock({QStringLiteral("service"), QStringLiteral("add"), QStringLiteral("dev"),
                            QStringLiteral("cache"), QStringLiteral("--image"), QStringLiteral("paddock-test/none:0")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(QStringLiteral("the image paddock-test/none:0 is not in the Docker engine")),
             qPrintable(missing.err));
}

QString TestSandboxServices::companionAddress() const
{
    const auto info = m_engine.inspectContainer(QStringLiteral("paddock-svc-dev-postgres"));
    if (!info)
        return {};
    return info.value()
        .raw.value(QLatin1String("NetworkSettings"))
        .toObject()
        .value(QLatin1String("Networks"))
        .toObject()
        .value(QLatin1String("paddock-svc-dev"))
        .toObject()
        .value(QLatin1String("IPAddress"))
        .toString();
}

void TestSandboxServices::psqlReachesTheCompanionByName()
{
    const Finished ran = inSandbox(psql(QStringLiteral("select 41 + 1")));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QCOMPARE(ran.out, QStringLiteral("42\n"));
    // Allowed as the sandbox's own service, and logged so.
    const QStringList log{QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json"),
                          QStringLiteral("dev")};
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture->paddock(log).out.contains(QStringLiteral("service:postgres")), 10000);
}

void TestSandboxServices::nothingElseOfItsNetworkIsReachable()
{
    // Another port of the service, and the service's own address: the policy's, refused.
    const Finished otherPort = inSandbox(psql(QStringLiteral("select 1"), QStringLiteral("postgres"), 5433)
                                             .replace(QStringLiteral("seq 40"), QStringLiteral("seq 1")));
    QVERIFY2(!otherPort.out.contains(QStringLiteral("\n1\n")) && otherPort.out.contains(QStringLiteral("refused")),
             qPrintable(otherPort.out));
    const QString address = companionAddress();
    QVERIFY(!address.isEmpty());
    const Finished byAddress = inSandbox(
        psql(QStringLiteral("select 1"), address, 5432).replace(QStringLiteral("seq 40"), QStringLiteral("seq 1")));
    QVERIFY2(!byAddress.out.startsWith(QStringLiteral("1\n")), qPrintable(byAddress.out));
    // The engine keeps the services' network without a route out.
    const Finished network = m_fixture->run(QStringLiteral("docker"),
                                            {QStringLiteral("network"), QStringLiteral("inspect"), QStringLiteral("-f"),
                                             QStringLiteral("{{.Internal}}"), QStringLiteral("paddock-svc-dev")});
    QCOMPARE(network.out, QStringLiteral("true\n"));
}

void TestSandboxServices::itsDataStaysAcrossAStopAndAStart()
{
    const Finished made = inSandbox(psql(QStringLiteral("create table kept (n int); insert into kept values (7)")));
    QVERIFY2(made.out.contains(QStringLiteral("INSERT 0 1")), qPrintable(made.out + made.err));
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("dev")}).exitCode == 0);
    const auto stopped = m_engine.inspectContainer(QStringLiteral("paddock-svc-dev-postgres"));
    QVERIFY(stopped && !stopped.value().running);
    const Finished again = inSandbox(psql(QStringLiteral("select n from kept")));
    QCOMPARE(again.out, QStringLiteral("7\n"));
}

void TestSandboxServices::addingOneToARunningSandboxStartsIt()
{
    QVERIFY(m_fixture->paddock({QStringLiteral("start"), QStringLiteral("dev")}).exitCode == 0 ||
            m_fixture->listed().value(QStringLiteral("dev")).value(QLatin1String("status")).toString() ==
                QLatin1String("running"));
    const Finished added = m_fixture->paddock(
        {QStringLiteral("service"), QStringLiteral("add"), QStringLiteral("dev"), QStringLiteral("web"),
         QStringLiteral("--image"), QStringLiteral(PADDOCK_CLIENTS_IMAGE), QStringLiteral("--port"),
         QStringLiteral("8080"), QStringLiteral("--"), QStringLiteral("python3"), QStringLiteral("-m"),
         QStringLiteral("http.server"), QStringLiteral("8080")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    const Finished reached = inSandbox(QStringLiteral(
        "for i in $(seq 20); do curl -sf -o /dev/null -w '%{http_code}' http://web:8080/ && break; sleep 0.5; done"));
    QVERIFY2(reached.out.endsWith(QStringLiteral("200")), qPrintable(reached.out + reached.err));
    const Finished listed =
        m_fixture->paddock({QStringLiteral("service"), QStringLiteral("ls"), QStringLiteral("dev")});
    QVERIFY2(listed.out.contains(QStringLiteral("postgres")) && listed.out.contains(QStringLiteral("web ")),
             qPrintable(listed.out));
    // Removed: the sandbox no longer reaches it, at once.
    QVERIFY(
        m_fixture
            ->paddock({QStringLiteral("service"), QStringLiteral("rm"), QStringLiteral("dev"), QStringLiteral("web")})
            .exitCode == 0);
    const Finished gone = inSandbox(QStringLiteral("curl -s -o /dev/null -w '%{http_code}' http://web:8080/"));
    QVERIFY2(gone.out != QStringLiteral("200"), qPrintable(gone.out));
    QVERIFY(m_engine.inspectContainer(QStringLiteral("paddock-svc-dev-web"))
                .is(paddock::runtime::docker::Error::Kind::NotFound));
}

void TestSandboxServices::removingTheSandboxRemovesItsServices()
{
    QVERIFY(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("dev")}).exitCode == 0);
    using paddock::runtime::docker::Error;
    QVERIFY(m_engine.inspectContainer(QStringLiteral("paddock-svc-dev-postgres")).is(Error::Kind::NotFound));
    QVERIFY(m_fixture
                ->run(QStringLiteral("docker"),
                      {QStringLiteral("network"), QStringLiteral("inspect"), QStringLiteral("paddock-svc-dev")})
                .exitCode != 0);
    QVERIFY(m_fixture
                ->run(QStringLiteral("docker"), {QStringLiteral("volume"), QStringLiteral("inspect"),
                                                 QStringLiteral("paddock-svc-dev-postgres-0")})
                .exitCode != 0);
}

QTEST_GUILESS_MAIN(TestSandboxServices)
#include "tst_sandbox_services.moc"

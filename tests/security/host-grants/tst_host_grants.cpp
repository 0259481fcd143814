// SPDX-License-Identifier: GPL-3.0-or-later
// Attack: a kit (or a bundle carrying one) whose permissions.network.allow opens this computer
// and its networks: 127.0.0.1:*, the cloud metadata address, 10.0.0.0/8. Such rules used to be
// accepted silently. Each case makes the real attempt through the real CLI and daemon: without
// approval nothing is created and nothing is recorded; once approved, a real sandbox reaches a
// loopback server on this computer through the proxy, and a withdrawn approval stops it again,
// in a sandbox running already too.
#include "SandboxFixture.h"

#include "api/DaemonConnection.h"

#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestHostGrants : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void runInAScriptIsRefusedNamingEachGrant();
    void createInAScriptIsRefused();
    void theDaemonRefusesWhoeverAsks();
    void aNoOnTheTerminalStartsNothing();
    void aYesOnTheTerminalIsRecordedByTheDaemon();
    void approvedGrantsReachTheHostThroughTheProxy();
    void aWithdrawnApprovalStopsTheNextStart();
    void anApprovalIsForOneKitOnly();
    void anApprovedGrantOpensOnlyWhatItNames();
    void aWithdrawnApprovalHoldsForARunningSandboxWhoseKitNoLongerLoads();

private:
    QString kitPath(const QString &name) const { return m_fixture->path(QStringLiteral("kits/") + name); }
    bool writeKit(const QString &name, const QStringList &allow);
    Finished runWith(const QString &kit, const QString &name, const QStringList &extra, const QString &script);
    QString grantsFile() const { return m_fixture->path(QStringLiteral("config/paddock/host-grants.yaml")); }
    /** curl through the sandbox's proxy (NO_PROXY names 127.0.0.1, so it is emptied) to the upstream. */
    QString fetchLoopback() const
    {
        return QStringLiteral("curl -s -f --noproxy '' http://127.0.0.1:%1/hello.txt").arg(m_fixture->upstreamPort());
    }
    void verifyRefusal(const Finished &run, const QString &flag);

    std::unique_ptr<SandboxFixture> m_fixture;
};

bool TestHostGrants::writeKit(const QString &name, const QStringList &allow)
{
    QDir().mkpath(kitPath(name));
    QString spec = QStringLiteral("schemaVersion: \"2\"\nkind: sandbox\nname: %1\ndescription: Reaches home.\n"
                                  "sandbox:\n  image: debian:12\n  entrypoint: [sh, -c]\n"
                                  "  command:\n    default: [\"true\"]\n"
                                  "permissions:\n  network:\n    allow:\n")
                       .arg(name);
    for (const QString &pattern : allow)
        spec += QStringLiteral("      - \"%1\"\n").arg(pattern);
    QFile file(kitPath(name) + QStringLiteral("/spec.yaml"));
    return file.open(QIODevice::WriteOnly) && file.write(spec.toUtf8()) > 0;
}

Finished TestHostGrants::runWith(const QString &kit, const QString &name, const QStringList &extra,
                                 const QString &script)
{
    return m_fixture->paddock(
        QStringList{QStringLiteral("run"), QStringLiteral("--kit"), kitPath(kit), QStringLiteral("--name"), name} +
        extra + QStringList{m_fixture->workspace(), QStringLiteral("--"), script});
}

void TestHostGrants::verifyRefusal(const Finished &run, const QString &flag)
{
    QCOMPARE(run.exitCode, 1);
    for (const char *named : {"127.0.0.1:*", "169.254.169.254:80", "10.0.0.0/8", "paddock grant approve --kit "})
        QVERIFY2(run.err.contains(QLatin1String(named)), qPrintable(run.err));
    QVERIFY2(run.err.contains(flag), qPrintable(run.err));
    QVERIFY2(!QFileInfo::exists(grantsFile()), "a refusal recorded an approval");
}

void TestHostGrants::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(writeKit(QStringLiteral("homebound"), {QStringLiteral("127.0.0.1:*"), QStringLiteral("169.254.169.254:80"),
                                                   QStringLiteral("10.0.0.0/8")}));
    QVERIFY(writeKit(QStringLiteral("copycat"), {QStringLiteral("127.0.0.1:*")}));
    QVERIFY(writeKit(QStringLiteral("narrow"), {QStringLiteral("127.0.0.1:1")}));
}

void TestHostGrants::runInAScriptIsRefusedNamingEachGrant()
{
    const Finished run = runWith(QStringLiteral("homebound"), QStringLiteral("hg-run"), {}, fetchLoopback());
    verifyRefusal(run, QStringLiteral("--approve-host-grants"));
    QVERIFY2(!run.out.contains(QLatin1String(SandboxFixture::kMarker)) &&
                 !run.out.contains(QLatin1String("hello from the upstream")),
             qPrintable(run.out));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("hg-run")));
}

void TestHostGrants::createInAScriptIsRefused()
{
    const Finished create =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), kitPath(QStringLiteral("homebound")),
                            QStringLiteral("--name"), QStringLiteral("hg-create"), m_fixture->workspace()});
    verifyRefusal(create, QStringLiteral("--approve-host-grants"));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("hg-create")));
}

void TestHostGrants::theDaemonRefusesWhoeverAsks()
{
    paddock::api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    const QJsonObject params{{QStringLiteral("kit"), kitPath(QStringLiteral("homebound"))},
                             {QStringLiteral("workspace"), m_fixture->workspace()},
                             {QStringLiteral("name"), QStringLiteral("hg-api")}};
    const paddock::api::Reply refused = connection.call(QStringLiteral("sandbox.create"), params, 60000);
    QVERIFY(refused.isError());
    QCOMPARE(refused.errorCode(), QStringLiteral("host-grants-required"));
    QVERIFY2(refused.errorMessage().contains(QLatin1String("169.254.169.254:80")), qPrintable(refused.errorMessage()));
    const paddock::api::Reply described = connection.call(QStringLiteral("sandbox.hostGrants"), params, 60000);
    QVERIFY2(!described.isError(), qPrintable(described.errorMessage()));
    QCOMPARE(described.result().value(QLatin1String("blocked")).toBool(), true);
    QCOMPARE(described.result().value(QLatin1String("pending")).toArray().size(), 3);
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("hg-api")));
    QVERIFY(!QFileInfo::exists(grantsFile()));
}

void TestHostGrants::aNoOnTheTerminalStartsNothing()
{
    // script(1) gives paddock a terminal; "n" answers the question.
    const QString command =
        QStringLiteral("printf 'n\\n' | script -qec \"%1 run --kit %2 --name hg-tty %3 -- true\" /dev/null")
            .arg(QStringLiteral(PADDOCK_BIN), kitPath(QStringLiteral("homebound")), m_fixture->workspace());
    const Finished run = m_fixture->run(QStringLiteral("sh"), {QStringLiteral("-c"), command});
    QVERIFY2(run.out.contains(QLatin1String("[y/N]")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QLatin1String("169.254.169.254:80")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("nothing was started")), qPrintable(run.out));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("hg-tty")));
    QVERIFY(!QFileInfo::exists(grantsFile()));
}

void TestHostGrants::aYesOnTheTerminalIsRecordedByTheDaemon()
{
    QVERIFY(writeKit(QStringLiteral("asker"), {QStringLiteral("127.0.0.1:*")}));
    const QString command =
        QStringLiteral("printf 'y\\n' | script -qec \"%1 run --rm --kit %2 --name hg-yes %3 -- "
                       "'env NO_PROXY= no_proxy= curl -s -f http://127.0.0.1:%4/hello.txt'\" /dev/null")
            .arg(QStringLiteral(PADDOCK_BIN), kitPath(QStringLiteral("asker")), m_fixture->workspace())
            .arg(m_fixture->upstreamPort());
    const Finished run = m_fixture->run(QStringLiteral("sh"), {QStringLiteral("-c"), command});
    QVERIFY2(run.out.contains(QLatin1String("[y/N]")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QLatin1String("hello from the upstream")),
             qPrintable(run.out + run.err + m_fixture->daemonLog().right(2000)));
    // The approval went through the daemon, the one writer of host-grants.yaml.
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("approved host grants 127.0.0.1:* for kit asker")),
             qPrintable(m_fixture->daemonLog().right(2000)));
    const Finished listed = m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(QLatin1String("asker")), qPrintable(listed.out + listed.err));
    const Finished revoked =
        m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("revoke"), QStringLiteral("asker")});
    QVERIFY2(revoked.exitCode == 0, qPrintable(revoked.err));
}

void TestHostGrants::approvedGrantsReachTheHostThroughTheProxy()
{
    const Finished run = runWith(QStringLiteral("homebound"), QStringLiteral("hg-ok"),
                                 {QStringLiteral("--approve-host-grants"), QStringLiteral("--rm")}, fetchLoopback());
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(run.out.contains(QLatin1String("hello from the upstream")), qPrintable(run.out));
    QFile file(grantsFile());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray recorded = file.readAll();
    QVERIFY2(recorded.contains("homebound") && recorded.contains("169.254.169.254:80") &&
                 recorded.contains("10.0.0.0/8"),
             recorded.constData());

    // Recorded: the next run needs no flag.
    const Finished again =
        runWith(QStringLiteral("homebound"), QStringLiteral("hg-again"), {QStringLiteral("--rm")}, fetchLoopback());
    QVERIFY2(again.exitCode == 0 && again.out.contains(QLatin1String("hello from the upstream")),
             qPrintable(again.out + again.err));
    const Finished listed = m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(QLatin1String("homebound")), qPrintable(listed.out + listed.err));
}

void TestHostGrants::aWithdrawnApprovalStopsTheNextStart()
{
    // Approved first (as the test before does by running with --approve-host-grants), so this one runs alone.
    const Finished approve = m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("approve"),
                                                 QStringLiteral("--kit"), kitPath(QStringLiteral("homebound"))});
    QVERIFY2(approve.exitCode == 0, qPrintable(approve.err));
    const Finished revoked =
        m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("revoke"), QStringLiteral("homebound")});
    QVERIFY2(revoked.exitCode == 0, qPrintable(revoked.err));
    const Finished run = runWith(QStringLiteral("homebound"), QStringLiteral("hg-revoked"), {}, fetchLoopback());
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("127.0.0.1:*")), qPrintable(run.err));
    QVERIFY(!run.out.contains(QLatin1String("hello from the upstream")));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("hg-revoked")));
}

void TestHostGrants::anApprovalIsForOneKitOnly()
{
    const Finished approve = m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("approve"),
                                                 QStringLiteral("--kit"), kitPath(QStringLiteral("homebound"))});
    QVERIFY2(approve.exitCode == 0, qPrintable(approve.err));
    const Finished run = runWith(QStringLiteral("copycat"), QStringLiteral("hg-copycat"), {}, fetchLoopback());
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("copycat")) && run.err.contains(QLatin1String("127.0.0.1:*")),
             qPrintable(run.err));
    QVERIFY(!run.out.contains(QLatin1String("hello from the upstream")));
}

void TestHostGrants::anApprovedGrantOpensOnlyWhatItNames()
{
    // The proxy decides: port 1 is approved, the upstream's port is not, so nothing comes back.
    const Finished run = runWith(QStringLiteral("narrow"), QStringLiteral("hg-narrow"),
                                 {QStringLiteral("--approve-host-grants"), QStringLiteral("--rm")},
                                 fetchLoopback() + QStringLiteral(" || echo refused-by-the-proxy"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QLatin1String("refused-by-the-proxy")), qPrintable(run.out));
    QVERIFY(!run.out.contains(QLatin1String("hello from the upstream")));
}

void TestHostGrants::aWithdrawnApprovalHoldsForARunningSandboxWhoseKitNoLongerLoads()
{
    QVERIFY(writeKit(QStringLiteral("wayward"), {QStringLiteral("127.0.0.1:*")}));
    const Finished started = runWith(QStringLiteral("wayward"), QStringLiteral("hg-wayward"),
                                     {QStringLiteral("--approve-host-grants"), QStringLiteral("--detach")},
                                     QStringLiteral("exec sleep 600"));
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    const auto fetch = [this] {
        return m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("hg-wayward"), QStringLiteral("sh"),
                                   QStringLiteral("-c"),
                                   fetchLoopback() + QStringLiteral(" || echo refused-by-the-proxy")});
    };
    const Finished approved = fetch();
    QVERIFY2(approved.out.contains(QLatin1String("hello from the upstream")), qPrintable(approved.out + approved.err));

    // The kit's spec.yaml stops loading while its sandbox runs; the withdrawal holds all the same.
    QFile spec(kitPath(QStringLiteral("wayward")) + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QVERIFY(spec.write("schemaVersion: [\n") > 0);
    spec.close();
    const Finished revoked =
        m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("revoke"), QStringLiteral("wayward")});
    QVERIFY2(revoked.exitCode == 0, qPrintable(revoked.err));
    const Finished withdrawn = fetch();
    QVERIFY2(withdrawn.out.contains(QLatin1String("refused-by-the-proxy")), qPrintable(withdrawn.out + withdrawn.err));
    QVERIFY(!withdrawn.out.contains(QLatin1String("hello from the upstream")));
}

QTEST_GUILESS_MAIN(TestHostGrants)
#include "tst_host_grants.moc"

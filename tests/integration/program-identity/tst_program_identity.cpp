// SPDX-License-Identifier: GPL-3.0-or-later
// A rule for one program (`--program curl`) lets the sandbox's own curl through and nothing
// that only calls itself curl: wget copied to /tmp/curl, python3 copied into the workspace as
// curl, a link named curl, `exec -a curl`, and /usr/bin/curl rewritten inside the sandbox's
// root (the kernel's overlay over the host's system, the default, where /usr is an overlay of its
// own). Each refusal says why. An interpreter's rule (`--program pip`) holds for the base's pip
// script and not for a copy of it; a digest rule holds for that very file wherever it is. Each
// function uses hosts of its own.
#include "SandboxFixture.h"

#include <QCryptographicHash>
#include <QtTest>

#include <memory>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class ProgramIdentityTest : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "identity";
    std::unique_ptr<SandboxFixture> m_fixture;

    QString port() const { return QString::number(m_fixture->upstreamPort()); }
    QString url(const QString &host) const { return QStringLiteral("http://%1:%2/hello.txt").arg(host, port()); }

    Finished inSandbox(const QString &script, const QString &user = {})
    {
        QStringList arguments{QStringLiteral("exec")};
        if (!user.isEmpty())
            arguments << QStringLiteral("--user") << user;
        arguments << QLatin1String(kName) << QStringLiteral("sh") << QStringLiteral("-c") << script;
        return m_fixture->paddock(arguments);
    }
    /** What curl (or whatever answers to curl's options) gets from @p host: its status, or its error. */
    QString status(const QString &command, const QString &host)
    {
        const Finished ran =
            inSandbox(QStringLiteral("%1 -s -o /dev/null -w '%{http_code}' %2").arg(command, url(host)));
        return ran.out.trimmed() + ran.err.trimmed();
    }
    Finished allowFor(const QString &host, const QStringList &program)
    {
        return m_fixture->paddock(QStringList{QStringLiteral("policy"), QStringLiteral("allow"),
                                              QStringLiteral("network"), host + QLatin1Char(':') + port(),
                                              QStringLiteral("--sandbox"), QLatin1String(kName)} +
                                  program);
    }
    /** The Blocked entry of `policy log --json` for @p host, once it is there. */
    QJsonObject blockedEntry(const QString &host)
    {
        QJsonObject found;
        [[maybe_unused]] const bool seen = QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                const QJsonArray blocked =
                    QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray();
                for (const QJsonValue &value : blocked) {
                    if (value.toObject().value(QLatin1String("host")).toString() == host) {
                        found = value.toObject();
                        return true;
                    }
                }
                return false;
            },
            15000);
        return found;
    }
    /** wget's exit status fetching from @p host: 0 when let through, 8 when the proxy refused. */
    QString wgetStatus(const QString &command, const QString &host)
    {
        const Finished ran = inSandbox(QStringLiteral("%1 -q -O /dev/null %2; echo rc=$?").arg(command, url(host)));
        return ran.out.trimmed();
    }
    /** Whether `policy log --json` lists an allowed connection to @p host, waiting for it. */
    bool wasAllowed(const QString &host)
    {
        return QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                const QJsonArray allowed =
                    QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("allowed")).toArray();
                return std::any_of(allowed.begin(), allowed.end(), [&](const QJsonValue &value) {
                    return value.toObject().value(QLatin1String("host")).toString() == host;
                });
            },
            15000);
    }
    /** Checks that @p host's refusal names @p program, says @p why and marks where it was @p written. */
    void expectRefusal(const QString &host, const QString &program, const QString &why, const QString &written)
    {
        const QJsonObject entry = blockedEntry(host);
        QVERIFY2(!entry.isEmpty(), qPrintable(host + QStringLiteral(" was not refused\n") + m_fixture->daemonLog()));
        QCOMPARE(entry.value(QLatin1String("program")).toString(), program);
        const QString reason = entry.value(QLatin1String("reason")).toString();
        QVERIFY2(reason.contains(why), qPrintable(reason));
        QCOMPARE(entry.value(QLatin1String("written")).toString(), written);
        // A person reading the log sees it too.
        const Finished log = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log")});
        if (!written.isEmpty())
            QVERIFY2(log.out.contains(QStringLiteral("%1 (written inside the sandbox: %2)").arg(program, written)),
                     qPrintable(log.out));
    }

private slots:
    void initTestCase()
    {
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished mapped = m_fixture->mapToUpstream(
            QStringLiteral("genuine.test copy.test workspace.test link.test exec-a.test pip.test pip-copy.test "
                           "rewritten.test digest.test")
                .split(QLatin1Char(' ')));
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
        for (const QString &host :
             {QStringLiteral("genuine.test"), QStringLiteral("copy.test"), QStringLiteral("workspace.test"),
              QStringLiteral("link.test"), QStringLiteral("exec-a.test"), QStringLiteral("rewritten.test")}) {
            const Finished rule = allowFor(host, {QStringLiteral("--program"), QStringLiteral("curl")});
            QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        }
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void theSandboxsOwnCurlPasses()
    {
        QCOMPARE(status(QStringLiteral("curl"), QStringLiteral("genuine.test")), QStringLiteral("200"));
        // Through the proxy as well as captured: one program, whichever way it connects.
        QCOMPARE(status(QStringLiteral("curl --noproxy '*'"), QStringLiteral("genuine.test")), QStringLiteral("200"));
        QCOMPARE(wgetStatus(QStringLiteral("wget"), QStringLiteral("genuine.test")), QStringLiteral("rc=8"));
    }

    void aCopyInTmpIsRefused()
    {
        const Finished ran =
            inSandbox(QStringLiteral("cp \"$(command -v wget)\" /tmp/curl && /tmp/curl -q -O /dev/null %1; echo rc=$?")
                          .arg(url(QStringLiteral("copy.test"))));
        QVERIFY2(ran.out.contains(QStringLiteral("rc=8")), qPrintable(ran.out + ran.err)); // wget: server said 403
        expectRefusal(QStringLiteral("copy.test"), QStringLiteral("curl"),
                      QStringLiteral("/tmp/curl is not the sandbox's curl: it was written inside the sandbox (/tmp)"),
                      QStringLiteral("/tmp"));
    }

    void anInterpreterCopiedIntoTheWorkspaceIsRefused()
    {
        const QString script =
            QStringLiteral("cp \"$(readlink -f \"$(command -v python3)\")\" ./curl && ./curl -c 'import urllib.request "
                           "as r, urllib.error as e\ntry: print(r.urlopen(\"%1\").status)\nexcept e.HTTPError as x: "
                           "print(x.code)'")
                .arg(url(QStringLiteral("workspace.test")));
        const Finished ran = inSandbox(script);
        QCOMPARE(ran.out.trimmed(), QStringLiteral("403"));
        expectRefusal(QStringLiteral("workspace.test"), QStringLiteral("curl"),
                      QStringLiteral("is not the sandbox's curl: it was written inside the sandbox (the workspace)"),
                      QStringLiteral("the workspace"));
    }

    void aLinkNamedCurlIsTheProgramItLeadsTo()
    {
        const Finished ran =
            inSandbox(QStringLiteral(
                          "mkdir -p /tmp/l && ln -sf \"$(command -v wget)\" /tmp/l/curl && /tmp/l/curl -q -O /dev/null "
                          "%1; echo rc=$?")
                          .arg(url(QStringLiteral("link.test"))));
        QVERIFY2(ran.out.contains(QStringLiteral("rc=8")), qPrintable(ran.out + ran.err));
        expectRefusal(QStringLiteral("link.test"), QStringLiteral("wget"),
                      QStringLiteral("the program started as /tmp/l/curl runs /usr/bin/wget"), QString());
    }

    void aProgramStartedUnderAnothersNameIsRefused()
    {
        const Finished ran = inSandbox(QStringLiteral("bash -c 'exec -a curl wget -q -O /dev/null %1'; echo rc=$?")
                                           .arg(url(QStringLiteral("exec-a.test"))));
        QVERIFY2(ran.out.contains(QStringLiteral("rc=8")), qPrintable(ran.out + ran.err));
        expectRefusal(QStringLiteral("exec-a.test"), QStringLiteral("wget"),
                      QStringLiteral("the program started as curl runs /usr/bin/wget"), QString());
    }

    void anInterpreterRuleHoldsForTheBasesScriptOnly()
    {
        QVERIFY(allowFor(QStringLiteral("pip.test"), {QStringLiteral("--program"), QStringLiteral("pip")}).exitCode ==
                0);
        QVERIFY(
            allowFor(QStringLiteral("pip-copy.test"), {QStringLiteral("--program"), QStringLiteral("pip")}).exitCode ==
            0);
        const QString download = QStringLiteral("download --no-deps --retries 0 -d /tmp/dl --trusted-host %1 "
                                                "--index-url http://%1:%2/simple nothing");
        // pip reaches its index (which has nothing by that name): the connection was let through.
        const Finished pip = inSandbox(QStringLiteral("pip ") + download.arg(QStringLiteral("pip.test"), port()));
        QVERIFY2(wasAllowed(QStringLiteral("pip.test")), qPrintable(pip.out + pip.err + m_fixture->daemonLog()));
        const Finished copied = inSandbox(QStringLiteral("cp /usr/bin/pip /tmp/pip && python3 /tmp/pip ") +
                                          download.arg(QStringLiteral("pip-copy.test"), port()));
        QVERIFY2(copied.exitCode != 0, qPrintable(copied.out)); // pip could not reach its index
        expectRefusal(QStringLiteral("pip-copy.test"), QStringLiteral("pip"),
                      QStringLiteral("/tmp/pip is not the sandbox's pip: it was written inside the sandbox (/tmp)"),
                      QStringLiteral("/tmp"));
    }

    // Last: it rewrites the sandbox's own curl.
    void curlRewrittenInTheSandboxsRootIsRefused()
    {
        const Finished rewritten = inSandbox(
            // Replaced as a package manager does (the kernel's overlay, the default root, lets root
            // inside replace a host file but not write into it).
            QStringLiteral("cp /usr/bin/curl /usr/bin/.curl-new && mv /usr/bin/.curl-new /usr/bin/curl && "
                           "sha256sum /usr/bin/curl"),
            QStringLiteral("0"));
        QVERIFY2(rewritten.exitCode == 0, qPrintable(rewritten.out + rewritten.err));
        // The same bytes: what counts is that the sandbox wrote it, not what it holds.
        QCOMPARE(status(QStringLiteral("curl"), QStringLiteral("rewritten.test")), QStringLiteral("403"));
        expectRefusal(QStringLiteral("rewritten.test"), QStringLiteral("curl"),
                      QStringLiteral("/usr/bin/curl is not the sandbox's curl: it was written inside the sandbox (its "
                                     "own root)"),
                      QStringLiteral("its own root"));
        // A rule naming the file by its digest holds for it wherever it is.
        const QString digest = rewritten.out.section(QLatin1Char(' '), 0, 0).trimmed();
        QCOMPARE(digest.size(), 64);
        QCOMPARE(status(QStringLiteral("curl"), QStringLiteral("digest.test")), QStringLiteral("403"));
        // The refusal says how to allow this very file.
        const Finished body = inSandbox(QStringLiteral("curl -s %1").arg(url(QStringLiteral("rewritten.test"))));
        QVERIFY2(body.out.contains(QStringLiteral("--program-sha256 ") + digest), qPrintable(body.out));
        const Finished rule =
            allowFor(QStringLiteral("digest.test"),
                     {QStringLiteral("--program"), QStringLiteral("curl"), QStringLiteral("--program-sha256"), digest});
        QVERIFY2(rule.exitCode == 0, qPrintable(rule.err));
        QCOMPARE(status(QStringLiteral("curl"), QStringLiteral("digest.test")), QStringLiteral("200"));
        QCOMPARE(wgetStatus(QStringLiteral("wget"), QStringLiteral("digest.test")), QStringLiteral("rc=8"));
    }
};

QTEST_GUILESS_MAIN(ProgramIdentityTest)
#include "tst_program_identity.moc"

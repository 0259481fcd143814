// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's methods for keys and bindings, as the desktop application calls them: the real
// paddockd with private XDG directories and its own GNOME Keyring. A key goes in over the
// socket and comes back only masked; it is in no reply, no file and no log line.
#include "DaemonFixture.h"
#include "KeyringSession.h"
#include "TestFiles.h"

#include "api/DaemonConnection.h"

#include "Needs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using paddock::api::DaemonConnection;
using paddock::api::Reply;

namespace {

const QString kKey = QStringLiteral("sk-test-Zq8Wm3Rt6Yp1Ls9Kd4Hf7Gb2");
const QString kSandboxKey = QStringLiteral("ghp_Mn5Bv8Cx2Zl7Kj4Hg1Fd9Sa6Qw3");

using paddock::test::filesContaining;

QString compact(const Reply &reply)
{
    if (reply.isError())
        return reply.errorCode() + QStringLiteral(": ") + reply.errorMessage();
    return QString::fromUtf8(QJsonDocument(reply.result()).toJson(QJsonDocument::Compact));
}

/** The row of secret.list for @p service (and @p sandbox), or an empty object. */
QJsonObject rowOf(const Reply &list, const QString &service, const QString &sandbox = QString())
{
    for (const QJsonValue &value : list.result().value(QLatin1String("secrets")).toArray()) {
        const QJsonObject row = value.toObject();
        if (row.value(QLatin1String("service")).toString() == service &&
            row.value(QLatin1String("sandbox")).toString() == sandbox)
            return row;
    }
    return {};
}

} // namespace

class TestSecretApi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void keychainIsAvailable();
    void setThenListShowsItMasked();
    void keyIsInNoReplyNoFileNoLog();
    void sandboxScopedSecret();
    void removeThenListNoLongerShowsIt();
    void badRequestsAreRefused();
    void approveRecordsTheKitDomains();
    void checkSaysWhatAStartNeeds();
    void revokeRemovesTheBinding();
    void noKeychainSaysWhatToInstall();

private:
    /** binding.approve of the test kit's testsvc, which the binding tests start from (each runs alone). */
    Reply approveTestsvc()
    {
        return call(
            QStringLiteral("binding.approve"),
            {{QStringLiteral("kit"), m_kitDir}, {QStringLiteral("services"), QJsonArray{QStringLiteral("testsvc")}}});
    }
    Reply call(const QString &method, const QJsonObject &params = {})
    {
        return m_connection.call(method, params, 20000);
    }
    QString writeKit();

    std::unique_ptr<DaemonFixture> m_fixture;
    DaemonConnection m_connection;
    QString m_kitDir;
};

void TestSecretApi::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    m_fixture = std::make_unique<DaemonFixture>();
    QVERIFY(m_fixture->startDaemon());
    QString error;
    QVERIFY2(m_connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    m_kitDir = writeKit();
}

void TestSecretApi::cleanupTestCase()
{
    m_connection.close();
    m_fixture.reset();
}

QString TestSecretApi::writeKit()
{
    const QString dir = m_fixture->path(QStringLiteral("kits/keyed"));
    QDir().mkpath(dir);
    QFile spec(dir + QStringLiteral("/spec.yaml"));
    spec.open(QIODevice::WriteOnly);
    spec.write(R"(schemaVersion: "2"
kind: sandbox
name: keyed
description: A kit that sends a key.
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command:
    default: ["sleep 600"]
credentials:
  - service: testsvc
    description: The test service's key
    required: true
    apiKey:
      name: TEST_API_KEY
      proxyManaged: true
      inject:
        - domain: api.keyed.test
          header: Authorization
          format: "Bearer %s"
        - domain: "*.keyed.test"
          header: X-Api-Key
          format: "%s"
  - service: othersvc
    description: An optional second key
    apiKey:
      name: OTHER_KEY
      proxyManaged: true
      inject:
        - domain: other.test
          header: X-Other
          format: "%s"
permissions:
  network:
    allow:
      - api.keyed.test
      - "*.keyed.test"
      - other.test
)");
    return dir;
}

void TestSecretApi::keychainIsAvailable()
{
    const Reply status = call(QStringLiteral("keychain.status"));
    QVERIFY2(!status.isError(), qPrintable(compact(status)));
    QCOMPARE(status.result().value(QLatin1String("available")).toBool(), true);
    QVERIFY(!status.result().contains(QLatin1String("install")));
}

void TestSecretApi::setThenListShowsItMasked()
{
    const Reply set = call(QStringLiteral("secret.set"),
                           {{QStringLiteral("service"), QStringLiteral("anthropic")}, {QStringLiteral("value"), kKey}});
    QVERIFY2(!set.isError(), qPrintable(compact(set)));
    QCOMPARE(set.result().value(QLatin1String("service")).toString(), QStringLiteral("anthropic"));

    const Reply list = call(QStringLiteral("secret.list"));
    QVERIFY2(!list.isError(), qPrintable(compact(list)));
    const QJsonObject row = rowOf(list, QStringLiteral("anthropic"));
    QVERIFY2(!row.isEmpty(), qPrintable(compact(list)));
    QCOMPARE(row.value(QLatin1String("masked")).toString(), kKey.left(4) + QStringLiteral("…") + kKey.right(4));
    QCOMPARE(row.value(QLatin1String("present")).toBool(), true);
    QVERIFY(!row.contains(QLatin1String("sandbox")));
    const QDateTime updated = QDateTime::fromString(row.value(QLatin1String("updated")).toString(), Qt::ISODate);
    QVERIFY(updated.isValid());
    QVERIFY(qAbs(updated.secsTo(QDateTime::currentDateTimeUtc())) < 600);

    // The CLI reads the same keychain: the value is really stored, not only listed.
    const DaemonFixture::Result cli = m_fixture->paddock({QStringLiteral("secret"), QStringLiteral("ls")});
    QCOMPARE(cli.exitCode, 0);
    QVERIFY2(cli.out.contains(kKey.left(4) + QStringLiteral("…") + kKey.right(4)), qPrintable(cli.out));

    // Replacing keeps one row with the new value.
    const QString replacement = QStringLiteral("sk-new-Aa1Bb2Cc3Dd4Ee5Ff6Gg7");
    QVERIFY(!call(QStringLiteral("secret.set"),
                  {{QStringLiteral("service"), QStringLiteral("anthropic")}, {QStringLiteral("value"), replacement}})
                 .isError());
    const Reply again = call(QStringLiteral("secret.list"));
    QCOMPARE(again.result().value(QLatin1String("secrets")).toArray().size(), 1);
    QCOMPARE(rowOf(again, QStringLiteral("anthropic")).value(QLatin1String("masked")).toString(),
             replacement.left(4) + QStringLiteral("…") + replacement.right(4));
    QVERIFY(!call(QStringLiteral("secret.set"),
                  {{QStringLiteral("service"), QStringLiteral("anthropic")}, {QStringLiteral("value"), kKey}})
                 .isError());
}

void TestSecretApi::keyIsInNoReplyNoFileNoLog()
{
    // Every answer the daemon gives about it, raw.
    QStringList replies;
    for (const QString &method : {QStringLiteral("secret.list"), QStringLiteral("keychain.status")})
        replies << compact(call(method));
    replies << compact(call(QStringLiteral("secret.set"), {{QStringLiteral("service"), QStringLiteral("anthropic")},
                                                           {QStringLiteral("value"), kKey}}));
    // A refused one too: the error must not quote it either.
    replies << compact(call(QStringLiteral("secret.set"), {{QStringLiteral("service"), QStringLiteral("bad name!")},
                                                           {QStringLiteral("value"), kKey}}));
    for (const QString &reply : std::as_const(replies)) {
        QVERIFY2(!reply.contains(kKey), qPrintable(reply));
        QVERIFY2(!reply.contains(kKey.mid(4, 8)), qPrintable(reply));
    }
    // The files searched include the daemon's log and every state and config file.
    const QStringList files = filesContaining(m_fixture->path(QString()), kKey.toUtf8());
    QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char('\n'))));
    QVERIFY(!m_fixture->log().contains(kKey));
}

void TestSecretApi::sandboxScopedSecret()
{
    const Reply set = call(QStringLiteral("secret.set"), {{QStringLiteral("service"), QStringLiteral("github")},
                                                          {QStringLiteral("sandbox"), QStringLiteral("web")},
                                                          {QStringLiteral("value"), kSandboxKey}});
    QVERIFY2(!set.isError(), qPrintable(compact(set)));
    QCOMPARE(set.result().value(QLatin1String("sandbox")).toString(), QStringLiteral("web"));
    const Reply list = call(QStringLiteral("secret.list"));
    const QJsonObject row = rowOf(list, QStringLiteral("github"), QStringLiteral("web"));
    QVERIFY2(!row.isEmpty(), qPrintable(compact(list)));
    QCOMPARE(row.value(QLatin1String("masked")).toString(),
             kSandboxKey.left(4) + QStringLiteral("…") + kSandboxKey.right(4));
    // Not the global one of the same service.
    QVERIFY(rowOf(list, QStringLiteral("github")).isEmpty());

    const Reply removed = call(QStringLiteral("secret.remove"), {{QStringLiteral("service"), QStringLiteral("github")},
                                                                 {QStringLiteral("sandbox"), QStringLiteral("web")}});
    QVERIFY2(!removed.isError(), qPrintable(compact(removed)));
    QCOMPARE(removed.result().value(QLatin1String("removed")).toString(), QStringLiteral("web/github"));
}

void TestSecretApi::removeThenListNoLongerShowsIt()
{
    QVERIFY(!call(QStringLiteral("secret.set"),
                  {{QStringLiteral("service"), QStringLiteral("openai")}, {QStringLiteral("value"), kKey}})
                 .isError());
    QVERIFY(!rowOf(call(QStringLiteral("secret.list")), QStringLiteral("openai")).isEmpty());
    const Reply removed =
        call(QStringLiteral("secret.remove"), {{QStringLiteral("service"), QStringLiteral("openai")}});
    QVERIFY2(!removed.isError(), qPrintable(compact(removed)));
    QVERIFY(rowOf(call(QStringLiteral("secret.list")), QStringLiteral("openai")).isEmpty());
    // The CLI agrees: gone from the keychain, not only from the list.
    const DaemonFixture::Result cli = m_fixture->paddock({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(!cli.out.contains(QStringLiteral("openai")), qPrintable(cli.out));

    const Reply again = call(QStringLiteral("secret.remove"), {{QStringLiteral("service"), QStringLiteral("openai")}});
    QVERIFY(again.isError());
    QCOMPARE(again.errorCode(), QStringLiteral("not-found"));
}

void TestSecretApi::badRequestsAreRefused()
{
    Reply reply = call(QStringLiteral("secret.set"), {{QStringLiteral("service"), QStringLiteral("anthropic")},
                                                      {QStringLiteral("value"), QString()}});
    QCOMPARE(reply.errorCode(), QStringLiteral("invalid-params"));
    QVERIFY(reply.errorMessage().contains(QStringLiteral("empty")));
    reply = call(QStringLiteral("secret.set"), {{QStringLiteral("value"), kKey}});
    QCOMPARE(reply.errorCode(), QStringLiteral("invalid-params"));
    reply = call(QStringLiteral("secret.set"),
                 {{QStringLiteral("service"), QStringLiteral("../etc")}, {QStringLiteral("value"), kKey}});
    QCOMPARE(reply.errorCode(), QStringLiteral("invalid-params"));
    reply = call(QStringLiteral("binding.approve"), {{QStringLiteral("kit"), QStringLiteral("relative/kit")}});
    QCOMPARE(reply.errorCode(), QStringLiteral("invalid-params"));
    reply = call(QStringLiteral("binding.approve"),
                 {{QStringLiteral("kit"), m_kitDir}, {QStringLiteral("services"), QJsonArray{QStringLiteral("nope")}}});
    QCOMPARE(reply.errorCode(), QStringLiteral("not-found"));
}

void TestSecretApi::approveRecordsTheKitDomains()
{
    const Reply approved = approveTestsvc();
    QVERIFY2(!approved.isError(), qPrintable(compact(approved)));
    const QJsonArray rows = approved.result().value(QLatin1String("approved")).toArray();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0).toObject().value(QLatin1String("domains")).toArray(),
             (QJsonArray{QStringLiteral("api.keyed.test"), QStringLiteral("*.keyed.test")}));

    // credentials.yaml, in the shape sbx reads, has exactly that.
    QFile file(m_fixture->path(QStringLiteral("config/paddock/credentials.yaml")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("testsvc:")) && text.contains(QStringLiteral("api.keyed.test")),
             qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("othersvc")), qPrintable(text));

    const Reply list = call(QStringLiteral("binding.list"));
    QVERIFY2(!list.isError(), qPrintable(compact(list)));
    const QJsonArray bindings = list.result().value(QLatin1String("bindings")).toArray();
    QCOMPARE(bindings.size(), 1);
    QCOMPARE(bindings.at(0).toObject().value(QLatin1String("service")).toString(), QStringLiteral("testsvc"));
    // The CLI reads the same file.
    const DaemonFixture::Result cli = m_fixture->paddock({QStringLiteral("binding"), QStringLiteral("ls")});
    QVERIFY2(cli.out.contains(QStringLiteral("testsvc")), qPrintable(cli.out));
}

void TestSecretApi::checkSaysWhatAStartNeeds()
{
    const Reply approved = approveTestsvc();
    QVERIFY2(!approved.isError(), qPrintable(compact(approved)));
    Reply check = call(QStringLiteral("binding.check"), {{QStringLiteral("kit"), m_kitDir}});
    QVERIFY2(!check.isError(), qPrintable(compact(check)));
    QCOMPARE(check.result().value(QLatin1String("kit")).toString(), QStringLiteral("keyed"));
    QCOMPARE(check.result().value(QLatin1String("keychain")).toBool(), true);
    QJsonArray credentials = check.result().value(QLatin1String("credentials")).toArray();
    QCOMPARE(credentials.size(), 2);
    QJsonObject test = credentials.at(0).toObject();
    QCOMPARE(test.value(QLatin1String("service")).toString(), QStringLiteral("testsvc"));
    QCOMPARE(test.value(QLatin1String("description")).toString(), QStringLiteral("The test service's key"));
    QCOMPARE(test.value(QLatin1String("required")).toBool(), true);
    QCOMPARE(test.value(QLatin1String("secret")).toBool(), false); // no key stored for testsvc
    QCOMPARE(test.value(QLatin1String("approved")).toBool(), true);
    QCOMPARE(test.value(QLatin1String("wildcard")).toBool(), true);
    QCOMPARE(check.result().value(QLatin1String("ready")).toBool(), false);
    const QJsonObject other = credentials.at(1).toObject();
    QCOMPARE(other.value(QLatin1String("approved")).toBool(), false);
    QCOMPARE(other.value(QLatin1String("newDomains")).toArray(), QJsonArray{QStringLiteral("other.test")});

    // With the key stored the required credential is ready; the optional one does not block.
    QVERIFY(!call(QStringLiteral("secret.set"),
                  {{QStringLiteral("service"), QStringLiteral("testsvc")}, {QStringLiteral("value"), kKey}})
                 .isError());
    check = call(QStringLiteral("binding.check"), {{QStringLiteral("kit"), m_kitDir}});
    test = check.result().value(QLatin1String("credentials")).toArray().at(0).toObject();
    QCOMPARE(test.value(QLatin1String("secret")).toBool(), true);
    QCOMPARE(test.value(QLatin1String("ready")).toBool(), true);
    QCOMPARE(check.result().value(QLatin1String("ready")).toBool(), true);
    QVERIFY(!compact(check).contains(kKey));

    const Reply unknown = call(QStringLiteral("binding.check"), {{QStringLiteral("sandbox"), QStringLiteral("ghost")}});
    QCOMPARE(unknown.errorCode(), QStringLiteral("not-found"));
}

void TestSecretApi::revokeRemovesTheBinding()
{
    const Reply approved = approveTestsvc();
    QVERIFY2(!approved.isError(), qPrintable(compact(approved)));
    const Reply revoked =
        call(QStringLiteral("binding.revoke"), {{QStringLiteral("service"), QStringLiteral("testsvc")}});
    QVERIFY2(!revoked.isError(), qPrintable(compact(revoked)));
    QCOMPARE(call(QStringLiteral("binding.list")).result().value(QLatin1String("bindings")).toArray().size(), 0);
    QCOMPARE(
        call(QStringLiteral("binding.revoke"), {{QStringLiteral("service"), QStringLiteral("testsvc")}}).errorCode(),
        QStringLiteral("not-found"));
}

void TestSecretApi::noKeychainSaysWhatToInstall()
{
    // A second daemon, of its own, on a session bus that does not exist.
    DaemonFixture lonely;
    QTemporaryDir nowhere;
    lonely.environment().insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                                QStringLiteral("unix:path=") + nowhere.filePath(QStringLiteral("no-bus")));
    QVERIFY(lonely.startDaemon());
    DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(lonely.socketPath(), 5000, &error), qPrintable(error));

    const Reply status = connection.call(QStringLiteral("keychain.status"), {}, 20000);
    QVERIFY2(!status.isError(), qPrintable(compact(status)));
    QCOMPARE(status.result().value(QLatin1String("available")).toBool(), false);
    QVERIFY2(status.result().value(QLatin1String("message")).toString().contains(QStringLiteral("no keychain")),
             qPrintable(compact(status)));
    QVERIFY2(status.result().value(QLatin1String("install")).toString().contains(QStringLiteral("gnome-keyring")),
             qPrintable(compact(status)));

    const Reply list = connection.call(QStringLiteral("secret.list"), {}, 20000);
    QCOMPARE(list.errorCode(), QStringLiteral("keychain-unavailable"));
    const Reply set = connection.call(
        QStringLiteral("secret.set"),
        {{QStringLiteral("service"), QStringLiteral("anthropic")}, {QStringLiteral("value"), kKey}}, 20000);
    QCOMPARE(set.errorCode(), QStringLiteral("keychain-unavailable"));
    // No plaintext fallback anywhere.
    QVERIFY(filesContaining(lonely.path(QString()), kKey.toUtf8()).isEmpty());
    connection.close();
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSecretApi, QCoreApplication)

#include "tst_secret_api.moc"

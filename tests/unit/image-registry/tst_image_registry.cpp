// SPDX-License-Identifier: GPL-3.0-or-later
// What a pull reads before it asks anything: the reference, the registry's challenge, the login.
#include "image/RegistryCredentials.h"
#include "image/RegistryReference.h"

#include <QTemporaryDir>
#include <QTest>

using paddock::image::parseAuthenticate;
using paddock::image::RegistryReference;

class TestImageRegistry : public QObject
{
    Q_OBJECT

private slots:
    void references_data();
    void references();
    void badReferences_data();
    void badReferences();
    void challenges();
    void loginsFromConfig();
};

void TestImageRegistry::references_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("registry");
    QTest::addColumn<QString>("repository");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QString>("digest");
    QTest::addColumn<QString>("endpoint");
    const QString digest = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    QTest::newRow("hub short") << "debian"
                               << "docker.io"
                               << "library/debian"
                               << "latest"
                               << ""
                               << "registry-1.docker.io";
    QTest::newRow("hub tag") << "debian:12"
                             << "docker.io"
                             << "library/debian"
                             << "12"
                             << ""
                             << "registry-1.docker.io";
    QTest::newRow("hub user") << "someone/tool:1.2"
                              << "docker.io"
                              << "someone/tool"
                              << "1.2"
                              << ""
                              << "registry-1.docker.io";
    QTest::newRow("hub spelled out") << "docker.io/library/alpine"
                                     << "docker.io"
                                     << "library/alpine"
                                     << "latest"
                                     << ""
                                     << "registry-1.docker.io";
    QTest::newRow("index name") << "index.docker.io/x/y:2"
                                << "docker.io"
                                << "x/y"
                                << "2"
                                << ""
                                << "registry-1.docker.io";
    QTest::newRow("host and port") << "127.0.0.1:5000/course/pi:0.87.1"
                                   << "127.0.0.1:5000"
                                   << "course/pi"
                                   << "0.87.1"
                                   << ""
                                   << "127.0.0.1:5000";
    QTest::newRow("localhost") << "localhost/pi"
                               << "localhost"
                               << "pi"
                               << "latest"
                               << ""
                               << "localhost";
    QTest::newRow("registry") << "registry.example/course/pi:0.87.1"
                              << "registry.example"
                              << "course/pi"
                              << "0.87.1"
                              << ""
                              << "registry.example";
    QTest::newRow("digest") << "registry.example/pi@" + digest << "registry.example"
                            << "pi"
                            << "" << digest << "registry.example";
    QTest::newRow("tag and digest") << "registry.example:443/a/b:1@" + digest << "registry.example:443"
                                    << "a/b"
                                    << "1" << digest << "registry.example:443";
    QTest::newRow("not a host") << "course/pi"
                                << "docker.io"
                                << "course/pi"
                                << "latest"
                                << ""
                                << "registry-1.docker.io";
}

void TestImageRegistry::references()
{
    QFETCH(QString, text);
    QString error;
    const std::optional<RegistryReference> ref = RegistryReference::parse(text, &error);
    QVERIFY2(ref, qPrintable(error));
    QTEST(ref->registry, "registry");
    QTEST(ref->repository, "repository");
    QTEST(ref->tag, "tag");
    QTEST(ref->digest, "digest");
    QTEST(ref->endpointHost(), "endpoint");
}

void TestImageRegistry::badReferences_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("upper case") << "registry.example/Course/pi";
    QTest::newRow("short digest") << "pi@sha256:abc";
    QTest::newRow("other digest") << "pi@md5:" + QString(32, QLatin1Char('a'));
    QTest::newRow("bad tag") << "pi:-x";
    QTest::newRow("climbing") << "registry.example/../etc";
    QTest::newRow("query") << "registry.example/pi?x=1";
    QTest::newRow("space") << "registry.example/p i";
    QTest::newRow("bad host") << "reg_istry.example:5000/pi";
    QTest::newRow("too long") << "a/" + QString(600, QLatin1Char('b'));
}

void TestImageRegistry::badReferences()
{
    QFETCH(QString, text);
    QString error;
    QVERIFY(!RegistryReference::parse(text, &error));
    QVERIFY2(error.contains(QLatin1String("is not an image reference")), qPrintable(error));
}

void TestImageRegistry::challenges()
{
    const auto bearer = parseAuthenticate(
        R"(Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push")");
    QVERIFY(bearer);
    QCOMPARE(bearer->scheme, QStringLiteral("bearer"));
    QCOMPARE(bearer->params.value(QStringLiteral("realm")), QStringLiteral("https://auth.example/token"));
    QCOMPARE(bearer->params.value(QStringLiteral("service")), QStringLiteral("registry.example"));
    QCOMPARE(bearer->params.value(QStringLiteral("scope")), QStringLiteral("repository:a/b:pull,push"));

    const auto basic = parseAuthenticate(R"(Basic realm="rp registry")");
    QVERIFY(basic);
    QCOMPARE(basic->scheme, QStringLiteral("basic"));
    QCOMPARE(basic->params.value(QStringLiteral("realm")), QStringLiteral("rp registry"));

    const auto spaced = parseAuthenticate(R"(BEARER  Realm = "https://a/t" , error="insufficient_scope")");
    QVERIFY(spaced);
    QCOMPARE(spaced->scheme, QStringLiteral("bearer"));
    QCOMPARE(spaced->params.value(QStringLiteral("realm")), QStringLiteral("https://a/t"));
    QCOMPARE(spaced->params.value(QStringLiteral("error")), QStringLiteral("insufficient_scope"));

    const auto escaped = parseAuthenticate(R"(Bearer realm="https://a/t?x=\"y\"",service=plain)");
    QVERIFY(escaped);
    QCOMPARE(escaped->params.value(QStringLiteral("realm")), QStringLiteral("https://a/t?x=\"y\""));
    QCOMPARE(escaped->params.value(QStringLiteral("service")), QStringLiteral("plain"));

    const auto two = parseAuthenticate(R"(Bearer realm="https://a/t", Basic realm="other")");
    QVERIFY(two);
    QCOMPARE(two->params.value(QStringLiteral("realm")), QStringLiteral("https://a/t"));

    QVERIFY(!parseAuthenticate(""));
    QVERIFY(!parseAuthenticate("realm=x"));
    const auto unterminated = parseAuthenticate(R"(Bearer realm="https://a/t)");
    QVERIFY(unterminated);
    QCOMPARE(unterminated->params.value(QStringLiteral("realm")), QStringLiteral("https://a/t"));
}

void TestImageRegistry::loginsFromConfig()
{
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("config.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"auths":{"registry.example:5000":{"auth":")" + QByteArray("me:s3:cret").toBase64() +
                 R"("},"https://index.docker.io/v1/":{"auth":")" + QByteArray("hubber:hubpw").toBase64() +
                 R"("},"other.example":{"identitytoken":"tok"}}})");
    config.close();
    QString error;
    const auto local = paddock::image::registryLogin(QStringLiteral("registry.example:5000"), dir.path(), &error);
    QVERIFY(local);
    QCOMPARE(local->username, QStringLiteral("me"));
    QCOMPARE(local->secret, QByteArray("s3:cret"));
    const auto hub = paddock::image::registryLogin(QStringLiteral("docker.io"), dir.path(), &error);
    QVERIFY(hub);
    QCOMPARE(hub->username, QStringLiteral("hubber"));
    const auto token = paddock::image::registryLogin(QStringLiteral("other.example"), dir.path(), &error);
    QVERIFY(token);
    QCOMPARE(token->secret, QByteArray("tok"));
    QVERIFY(!paddock::image::registryLogin(QStringLiteral("nowhere.example"), dir.path(), &error));
    QVERIFY(error.isEmpty());
    // A helper name that could be a path is refused, not run.
    config.open(QIODevice::WriteOnly | QIODevice::Truncate);
    config.write(R"({"credHelpers":{"x.example":"../../bin/sh"}})");
    config.close();
    QVERIFY(!paddock::image::registryLogin(QStringLiteral("x.example"), dir.path(), &error));
    QVERIFY2(error.contains(QLatin1String("not a helper name")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestImageRegistry)
#include "tst_image_registry.moc"

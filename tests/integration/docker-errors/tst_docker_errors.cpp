// SPDX-License-Identifier: GPL-3.0-or-later
// What a user reads when something is wrong: a missing image, an engine that does not
// answer, an engine too old, and the engine's own refusals.
#include "DockerTestSupport.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

#include <atomic>
#include <optional>
#include <thread>

using namespace paddock::tests::docker;

namespace {

/** An HTTP server on a real loopback socket that plays an engine of a given API version. */
class FakeEngine : public QObject
{
public:
    explicit FakeEngine(const QString &apiVersion) : m_apiVersion(apiVersion)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { answer(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    quint16 port() const { return m_server.serverPort(); }
    QStringList paths;

private:
    void answer(QTcpSocket *socket)
    {
        m_pending[socket] += socket->readAll();
        const QByteArray request = m_pending.value(socket);
        if (!request.contains("\r\n\r\n"))
            return;
        m_pending.remove(socket);
        const QByteArray path = request.split(' ').value(1);
        paths.append(QString::fromUtf8(path));
        QByteArray body;
        int status = 200;
        if (path == "/version")
            body = QStringLiteral(R"({"Version":"fake","ApiVersion":"%1","MinAPIVersion":"1.12"})")
                       .arg(m_apiVersion)
                       .toUtf8();
        else if (path.endsWith("/images/some-image/json"))
            body = R"({"Id":"sha256:feed","RepoTags":["some-image:latest"]})";
        else {
            status = 500;
            body = R"({"message":"the fake engine has no such endpoint"})";
        }
        socket->write("HTTP/1.1 " + QByteArray::number(status) +
                      " X\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                      "\r\n\r\n" + body);
    }

    QString m_apiVersion;
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_pending;
};

/** Runs a blocking client call on a thread while this thread's event loop serves the fake. */
template<typename Call>
auto callAside(Call call)
{
    std::atomic_bool done{false};
    std::optional<decltype(call())> result;
    std::thread thread([&] {
        result.emplace(call());
        done = true;
    });
    while (!done)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    thread.join();
    return std::move(*result);
}

} // namespace

class TestDockerErrors : public QObject
{
    Q_OBJECT

private:
    DockerClient m_client{testEndpoint()};

private slots:
    void missingSocketSaysTheEngineCannotBeReached()
    {
        const Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("unix:///nonexistent.sock"));
        QVERIFY(endpoint.ok());
        const DockerClient client(endpoint.value());
        const QString expected =
            QStringLiteral("cannot reach the Docker engine at unix:///nonexistent.sock: is dockerd running?");

        const Status ping = client.ping();
        QVERIFY(ping.is(Error::Kind::Unreachable));
        QVERIFY2(ping.errorMessage().startsWith(expected), qPrintable(ping.errorMessage()));
        // Every operation says the same, starting with the version negotiation.
        const Result<QString> created = client.createContainer(ContainerSpec{});
        QVERIFY(created.is(Error::Kind::Unreachable));
        QVERIFY2(created.errorMessage().startsWith(expected), qPrintable(created.errorMessage()));
    }

    void dockerHostFromTheEnvironmentIsUsed()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix:///nonexistent.sock"));
        const Result<Endpoint> endpoint = Endpoint::fromEnvironment(env);
        QVERIFY(endpoint.ok());
        const Status ping = DockerClient(endpoint.value()).ping();
        QVERIFY(ping.errorMessage().contains(QStringLiteral("unix:///nonexistent.sock")));
    }

    void closedTcpPortSaysTheEngineCannotBeReached()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        const Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(port));
        QVERIFY(endpoint.ok());
        const Status ping = DockerClient(endpoint.value()).ping();
        QVERIFY(ping.is(Error::Kind::Unreachable));
        QVERIFY2(
            ping.errorMessage().startsWith(
                QStringLiteral("cannot reach the Docker engine at tcp://127.0.0.1:%1: is dockerd running?").arg(port)),
            qPrintable(ping.errorMessage()));
    }

    void negotiatesDownToTheEnginesVersion()
    {
        FakeEngine engine(QStringLiteral("1.40"));
        const DockerClient client(Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(engine.port())).value());
        const Result<ImageInfo> image = callAside([&] { return client.inspectImage(QStringLiteral("some-image")); });
        QVERIFY2(image.ok(), qPrintable(image.errorMessage()));
        QCOMPARE(image.value().id, QStringLiteral("sha256:feed"));
        QCOMPARE(engine.paths,
                 (QStringList{QStringLiteral("/version"), QStringLiteral("/v1.40/images/some-image/json")}));

        // The engine's message comes through as is.
        const Status removed = callAside([&] { return client.removeImage(QStringLiteral("some-image")); });
        QCOMPARE(removed.errorMessage(), QStringLiteral("the fake engine has no such endpoint"));
        QCOMPARE(engine.paths.count(QStringLiteral("/version")), 1); // negotiated once
    }

    void speaksAtMostItsOwnVersion()
    {
        FakeEngine engine(QStringLiteral("1.45"));
        const DockerClient client(Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(engine.port())).value());
        const Result<QString> api = callAside([&] { return client.apiVersion(); });
        QVERIFY(api.ok());
        QCOMPARE(api.value(), QStringLiteral("1.41"));
    }

    void refusesAnEngineOlderThan140()
    {
        FakeEngine engine(QStringLiteral("1.39"));
        const DockerClient client(Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(engine.port())).value());
        const Result<ImageInfo> image = callAside([&] { return client.inspectImage(QStringLiteral("some-image")); });
        QVERIFY(image.is(Error::Kind::Unsupported));
        QVERIFY2(image.errorMessage().contains(QStringLiteral("API 1.39, older than 1.40")),
                 qPrintable(image.errorMessage()));
        QCOMPARE(engine.paths, QStringList{QStringLiteral("/version")});
    }

    void missingImageIsNamed()
    {
        PADDOCK_NEED_DOCKER();
        const QString image = uniqueName(QStringLiteral("paddock-missing-image")) + QStringLiteral(":1");
        ContainerSpec spec;
        spec.image = image;
        const Result<QString> created = m_client.createContainer(spec);
        QVERIFY(!created.ok());
        QVERIFY(created.is(Error::Kind::NotFound));
        QVERIFY2(created.errorMessage().contains(image), qPrintable(created.errorMessage()));

        const Result<bool> exists = m_client.imageExists(image);
        QVERIFY(exists.ok());
        QVERIFY(!exists.value());
        const Result<ImageInfo> inspected = m_client.inspectImage(image);
        QVERIFY(inspected.is(Error::Kind::NotFound));
        QVERIFY2(inspected.errorMessage().contains(image), qPrintable(inspected.errorMessage()));
    }

    void nameInUseIsAConflictWithTheEnginesMessage()
    {
        PADDOCK_NEED_DOCKER();
        QTemporaryDir context;
        QVERIFY(writeBusyboxContext(context.path()));
        const BuildOptions options =
            ownImage(context.path(), uniqueName(QStringLiteral("paddock-test-errors")) + QStringLiteral(":1"));
        QVERIFY(m_client.buildImage(options).ok());
        ContainerSpec spec;
        spec.image = options.tag;
        spec.name = uniqueName(QStringLiteral("paddock-conflict"));
        spec.cmd = {QStringLiteral("true")};
        const Result<QString> first = m_client.createContainer(spec);
        const Result<QString> second = m_client.createContainer(spec);
        if (first)
            (void)m_client.removeContainer(first.value(), true);
        (void)m_client.removeImage(options.tag, true);
        QVERIFY2(first.ok(), qPrintable(first.errorMessage()));
        QVERIFY(second.is(Error::Kind::Conflict));
        QVERIFY2(second.errorMessage().contains(QStringLiteral("is already in use")),
                 qPrintable(second.errorMessage()));
        QVERIFY2(second.errorMessage().contains(spec.name), qPrintable(second.errorMessage()));
    }

    void execInAMissingContainerIsNotFound()
    {
        PADDOCK_NEED_DOCKER();
        ExecSpec spec;
        spec.cmd = {QStringLiteral("true")};
        const Result<ExecResult> result = m_client.exec(QStringLiteral("paddock-no-such-container"), spec);
        QVERIFY(result.is(Error::Kind::NotFound));
        QVERIFY2(result.errorMessage().contains(QStringLiteral("paddock-no-such-container")),
                 qPrintable(result.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestDockerErrors)
#include "tst_docker_errors.moc"

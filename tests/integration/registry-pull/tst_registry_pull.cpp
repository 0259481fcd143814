// SPDX-License-Identifier: GPL-3.0-or-later
// Images from a real registry (Debian's docker-registry over TLS with basic auth, an image pushed
// with skopeo), pulled by the real daemon and CLI as an ordinary user with no Docker engine:
// `paddock image pull`, a v2 kit whose image is pulled when its sandbox is made and runs from it
// under bubblewrap, `paddock kit pull`; a wrong password, a tampered blob, and the password kept
// out of the daemon's log, its files and every command line.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "ProcessRun.h"
#include "TestFiles.h"
#include "image/ImageStore.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

namespace {

const QByteArray kUser = "rp-student";
const QByteArray kPassword = "rp-Pw-4f9c1e";

QString tool(const char *name)
{
    return QStandardPaths::findExecutable(
        QLatin1String(name), {QStringLiteral("/usr/bin"), QStringLiteral("/usr/sbin"), QStringLiteral("/bin")});
}

quint16 freePort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

bool waitForPort(quint16 port)
{
    for (int attempt = 0; attempt < 300; ++attempt) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(200))
            return true;
        QThread::msleep(100);
    }
    return false;
}

bool run(const QString &program, const QStringList &arguments, QByteArray *output = nullptr)
{
    const ProcessOutput done = runProcess(program, arguments);
    if (output)
        *output = done.out + done.err;
    if (done.exitCode != 0)
        qWarning().noquote() << program << arguments.join(QLatin1Char(' ')) << done.out << done.err;
    return done.exitCode == 0;
}

} // namespace

class TestRegistryPull : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void imagePullStoresTheImage();
    void bearerTokenFromTheRealm();
    void anonymousOverPlainHttpOnLoopback();
    void kitNamingAMissingImagePullsIt();
    void kitPullLoadsAV3Kit();
    void wrongPasswordIsNamed();
    void tamperedBlobIsRefused();
    void layerOverTheLimitIsRefused();
    void passwordStaysSecret();

private:
    QString dir(const QString &relative) const { return m_fixture->path(relative); }
    QString registryRef(const QString &repository) const
    {
        return QStringLiteral("127.0.0.1:%1/%2").arg(m_port).arg(repository);
    }
    bool makeCertificates();
    bool startRegistry();
    /** Pushes an OCI archive of @p kit as @p repository with skopeo; its layers' digests in @p layers. */
    bool push(const OciKit &kit, const QString &repository);
    /** Logins and certificate authorities for the registry and the token front, in the home's .docker. */
    void writeDockerConfig(const QByteArray &password);
    bool startTokenFront();
    OciKit imageWith(const QByteArray &osRelease) const;

    std::unique_ptr<SandboxFixture> m_fixture;
    QByteArray m_busybox;
    quint16 m_port = 0;
    QProcess m_registry;
    quint16 m_frontPort = 0; ///< token-front.py: a bearer token first, as Docker Hub asks
    QProcess m_front;
};

bool TestRegistryPull::makeCertificates()
{
    const QString openssl = tool("openssl");
    const QString certs = dir(QStringLiteral("certs"));
    QDir().mkpath(certs);
    writeFile(certs + QStringLiteral("/san.cnf"), "subjectAltName=IP:127.0.0.1\n");
    return run(openssl,
               {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                QStringLiteral("/CN=rp test CA"), QStringLiteral("-keyout"), certs + QStringLiteral("/ca.key"),
                QStringLiteral("-out"), certs + QStringLiteral("/ca.crt")}) &&
           run(openssl, {QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                         QStringLiteral("-nodes"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                         QStringLiteral("-keyout"), certs + QStringLiteral("/server.key"), QStringLiteral("-out"),
                         certs + QStringLiteral("/server.csr")}) &&
           run(openssl,
               {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                certs + QStringLiteral("/server.csr"), QStringLiteral("-CA"), certs + QStringLiteral("/ca.crt"),
                QStringLiteral("-CAkey"), certs + QStringLiteral("/ca.key"), QStringLiteral("-CAcreateserial"),
                QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"),
                certs + QStringLiteral("/san.cnf"), QStringLiteral("-out"), certs + QStringLiteral("/server.crt")});
}

bool TestRegistryPull::startRegistry()
{
    QByteArray htpasswd;
    if (!run(tool("htpasswd"), {QStringLiteral("-Bbn"), QString::fromLatin1(kUser), QString::fromLatin1(kPassword)},
             &htpasswd))
        return false;
    writeFile(dir(QStringLiteral("registry.htpasswd")), htpasswd.trimmed() + '\n');
    m_port = freePort();
    const QByteArray config = QStringLiteral("version: 0.1\n"
                                             "log:\n  level: warn\n"
                                             "storage:\n  filesystem:\n    rootdirectory: %1\n"
                                             "http:\n  addr: 127.0.0.1:%2\n"
                                             "  tls:\n    certificate: %3/server.crt\n    key: %3/server.key\n"
                                             "auth:\n  htpasswd:\n    realm: rp-registry\n    path: %4\n")
                                  .arg(dir(QStringLiteral("registry")))
                                  .arg(m_port)
                                  .arg(dir(QStringLiteral("certs")), dir(QStringLiteral("registry.htpasswd")))
                                  .toUtf8();
    writeFile(dir(QStringLiteral("registry.yml")), config);
    m_registry.setProcessChannelMode(QProcess::MergedChannels);
    m_registry.setStandardOutputFile(dir(QStringLiteral("registry.out")));
    m_registry.start(tool("docker-registry"), {QStringLiteral("serve"), dir(QStringLiteral("registry.yml"))});
    if (!m_registry.waitForStarted())
        return false;
    return waitForPort(m_port);
}

OciKit TestRegistryPull::imageWith(const QByteArray &osRelease) const
{
    OciKit image;
    image.layers = {
        tarOf({folder("bin"), file("bin/busybox", m_busybox, 0755), softLink("bin/sh", "busybox"),
               softLink("bin/cat", "busybox"), folder("etc"), file("etc/os-release", osRelease), folder("srv")})};
    image.config = QJsonObject{{QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/bin")}}};
    return image;
}

bool TestRegistryPull::push(const OciKit &kit, const QString &repository)
{
    const QString archive =
        dir(QStringLiteral("push-%1.tar")
                .arg(QString(repository).replace(QLatin1Char('/'), '-').replace(QLatin1Char(':'), '-')));
    if (!writeFile(archive, ociKitArchive(kit)))
        return false;
    return run(tool("skopeo"),
               {QStringLiteral("copy"), QStringLiteral("--quiet"), QStringLiteral("oci-archive:") + archive,
                QStringLiteral("docker://") + registryRef(repository), QStringLiteral("--dest-creds"),
                QString::fromLatin1(kUser + ':' + kPassword), QStringLiteral("--dest-cert-dir"),
                dir(QStringLiteral("trust"))});
}

void TestRegistryPull::writeDockerConfig(const QByteArray &password)
{
    const QString docker = dir(QStringLiteral("home/.docker"));
    QJsonObject auths;
    for (const quint16 port : {m_port, m_frontPort}) {
        const QString host = QStringLiteral("127.0.0.1:%1").arg(port);
        const QString certsd = docker + QStringLiteral("/certs.d/") + host;
        QDir().mkpath(certsd);
        QFile::remove(certsd + QStringLiteral("/ca.crt"));
        QFile::copy(dir(QStringLiteral("certs/ca.crt")), certsd + QStringLiteral("/ca.crt"));
        auths.insert(host,
                     QJsonObject{{QStringLiteral("auth"), QString::fromLatin1((kUser + ':' + password).toBase64())}});
    }
    writeFile(docker + QStringLiteral("/config.json"),
              QJsonDocument(QJsonObject{{QStringLiteral("auths"), auths}}).toJson());
}

bool TestRegistryPull::startTokenFront()
{
    m_frontPort = freePort();
    m_front.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("RP_PASSWORD"), QString::fromLatin1(kPassword));
    m_front.setProcessEnvironment(environment);
    m_front.setStandardOutputFile(dir(QStringLiteral("front.out")));
    m_front.start(tool("python3"),
                  {QStringLiteral(PADDOCK_SOURCE_DIR "/tests/integration/registry-pull/token-front.py"),
                   QString::number(m_frontPort), QStringLiteral("https://127.0.0.1:%1").arg(m_port),
                   dir(QStringLiteral("certs/server.crt")), dir(QStringLiteral("certs/server.key")),
                   dir(QStringLiteral("certs/ca.crt")), QString::fromLatin1(kUser)});
    return m_front.waitForStarted() && waitForPort(m_frontPort);
}

void TestRegistryPull::initTestCase()
{
    for (const char *name : {"docker-registry", "skopeo", "htpasswd", "openssl", "busybox"})
        PADDOCK_NEED(!tool(name).isEmpty(),
                     "docker-registry, skopeo, apache2-utils (htpasswd), openssl and busybox-static");
    QFile busybox(tool("busybox"));
    QVERIFY(busybox.open(QIODevice::ReadOnly));
    m_busybox = busybox.readAll();
    m_fixture = std::make_unique<SandboxFixture>();
    // The Docker client's folder (logins, certs.d) is the user's: a home of the test's own.
    m_fixture->addEnvironment(QStringLiteral("HOME"), m_fixture->path(QStringLiteral("home")));
    QDir().mkpath(dir(QStringLiteral("home/bin")));
    m_fixture->addEnvironment(QStringLiteral("PATH"), dir(QStringLiteral("home/bin:")) + qEnvironmentVariable("PATH"));
    QVERIFY(makeCertificates());
    // skopeo reads a key in its certificate folder as a client certificate's: the CA alone.
    QDir().mkpath(dir(QStringLiteral("trust")));
    QVERIFY(QFile::copy(dir(QStringLiteral("certs/ca.crt")), dir(QStringLiteral("trust/ca.crt"))));
    QVERIFY2(startRegistry(), qPrintable(readFile(dir(QStringLiteral("registry.out")))));
    QVERIFY(push(imageWith("ID=rp-pulled\n"), QStringLiteral("course/pi:1")));
    QVERIFY(push(imageWith("ID=rp-from-the-kit\n"), QStringLiteral("course/pi:0.87.1")));
    QVERIFY2(startTokenFront(), qPrintable(readFile(dir(QStringLiteral("front.out")))));
    writeDockerConfig(kPassword);
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestRegistryPull::cleanupTestCase()
{
    m_fixture.reset();
    m_front.terminate();
    m_front.waitForFinished(5000);
    m_registry.terminate();
    m_registry.waitForFinished(5000);
}

void TestRegistryPull::imagePullStoresTheImage()
{
    const Finished pulled = m_fixture->paddock(
        {QStringLiteral("image"), QStringLiteral("pull"), registryRef(QStringLiteral("course/pi:1"))});
    QVERIFY2(pulled.exitCode == 0, qPrintable(pulled.out + pulled.err + m_fixture->daemonLog()));
    QVERIFY2(pulled.out.contains(QLatin1String("pulled ") + registryRef(QStringLiteral("course/pi:1"))),
             qPrintable(pulled.out));
    // A line per blob with its bytes: the configuration, then the one layer.
    QVERIFY2(pulled.out.contains(QLatin1String("blob 1/2 ")) && pulled.out.contains(QLatin1String("blob 2/2 ")),
             qPrintable(pulled.out));
    const std::optional<paddock::image::StoredImage> stored =
        paddock::image::ImageStore().find(registryRef(QStringLiteral("course/pi:1")));
    QVERIFY(stored);
    QCOMPARE(stored->layers.size(), 1);
    const Finished listed = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(registryRef(QStringLiteral("course/pi:1"))), qPrintable(listed.out + listed.err));
}

void TestRegistryPull::bearerTokenFromTheRealm()
{
    const QString reference = QStringLiteral("127.0.0.1:%1/course/pi:1").arg(m_frontPort);
    const Finished pulled = m_fixture->paddock({QStringLiteral("image"), QStringLiteral("pull"), reference});
    QVERIFY2(pulled.exitCode == 0, qPrintable(pulled.out + pulled.err + readFile(dir(QStringLiteral("front.out")))));
    QVERIFY2(pulled.out.contains(QLatin1String("pulled ") + reference), qPrintable(pulled.out));
    QVERIFY(paddock::image::ImageStore().find(reference));
}

void TestRegistryPull::anonymousOverPlainHttpOnLoopback()
{
    // A registry without TLS or logins on 127.0.0.1: HTTPS fails, plain HTTP is allowed there.
    const quint16 port = freePort();
    const QByteArray config = QStringLiteral("version: 0.1\nlog:\n  level: warn\n"
                                             "storage:\n  filesystem:\n    rootdirectory: %1\n"
                                             "http:\n  addr: 127.0.0.1:%2\n")
                                  .arg(dir(QStringLiteral("plain-registry")))
                                  .arg(port)
                                  .toUtf8();
    QVERIFY(writeFile(dir(QStringLiteral("plain-registry.yml")), config));
    QProcess plain;
    plain.setProcessChannelMode(QProcess::MergedChannels);
    plain.setStandardOutputFile(dir(QStringLiteral("plain-registry.out")));
    plain.start(tool("docker-registry"), {QStringLiteral("serve"), dir(QStringLiteral("plain-registry.yml"))});
    QVERIFY(plain.waitForStarted() && waitForPort(port));
    const QString reference = QStringLiteral("127.0.0.1:%1/open/pi:1").arg(port);
    QVERIFY(writeFile(dir(QStringLiteral("open.tar")), ociKitArchive(imageWith("ID=rp-open\n"))));
    QVERIFY(run(tool("skopeo"), {QStringLiteral("copy"), QStringLiteral("--quiet"),
                                 QStringLiteral("oci-archive:") + dir(QStringLiteral("open.tar")),
                                 QStringLiteral("docker://") + reference, QStringLiteral("--dest-tls-verify=false")}));
    const Finished pulled = m_fixture->paddock({QStringLiteral("image"), QStringLiteral("pull"), reference});
    plain.terminate();
    plain.waitForFinished(5000);
    QVERIFY2(pulled.exitCode == 0, qPrintable(pulled.out + pulled.err));
    QVERIFY(paddock::image::ImageStore().find(reference));
}

void TestRegistryPull::kitNamingAMissingImagePullsIt()
{
    const QString kit = m_fixture->writeKit(QStringLiteral("pikit"),
                                            QStringLiteral("schemaVersion: \"2\"\nkind: sandbox\nname: pikit\n"
                                                           "sandbox:\n  image: %1\n  entrypoint: [sh, -c]\n"
                                                           "  command:\n    default: [\"cat /etc/os-release\"]\n")
                                                .arg(registryRef(QStringLiteral("course/pi:0.87.1")))
                                                .toUtf8());
    QVERIFY(!kit.isEmpty());
    const Finished ran =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                            QStringLiteral("rp-pi"), m_fixture->workspace()});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    QVERIFY2(ran.out.contains(QLatin1String("ID=rp-from-the-kit")), qPrintable(ran.out + ran.err));
    QVERIFY2(ran.err.contains(QLatin1String("pulled the image ") + registryRef(QStringLiteral("course/pi:0.87.1"))),
             qPrintable(ran.err));
    QCOMPARE(m_fixture->listed()
                 .value(QStringLiteral("rp-pi"))
                 .value(QLatin1String("root"))
                 .toObject()
                 .value(QLatin1String("base"))
                 .toString(),
             QStringLiteral("image"));
}

void TestRegistryPull::kitPullLoadsAV3Kit()
{
    OciKit kit = imageWith("ID=rp-v3\n");
    kit.config.insert(QStringLiteral("Cmd"), QJsonArray{QStringLiteral("/bin/cat"), QStringLiteral("/etc/os-release")});
    kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload","displayName":"Pulled shell"})");
    QVERIFY(push(kit, QStringLiteral("kits/rp-shell:1")));
    const Finished pulled = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("pull"), registryRef(QStringLiteral("kits/rp-shell:1"))});
    QVERIFY2(pulled.exitCode == 0, qPrintable(pulled.out + pulled.err));
    QVERIFY2(pulled.out.contains(QLatin1String("loaded rp-shell (workload) from ") +
                                 registryRef(QStringLiteral("kits/rp-shell:1"))),
             qPrintable(pulled.out));
    const Finished ran =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("rp-shell"),
                            QStringLiteral("--name"), QStringLiteral("rp-v3"), m_fixture->workspace()});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    QCOMPARE(ran.out, QStringLiteral("ID=rp-v3\n"));
}

void TestRegistryPull::wrongPasswordIsNamed()
{
    writeDockerConfig("not-the-password");
    const Finished pulled = m_fixture->paddock(
        {QStringLiteral("image"), QStringLiteral("pull"), registryRef(QStringLiteral("course/pi:1"))});
    writeDockerConfig(kPassword);
    QCOMPARE(pulled.exitCode, 1);
    QVERIFY2(pulled.err.contains(QStringLiteral("the registry 127.0.0.1:%1 refused the login of %2")
                                     .arg(m_port)
                                     .arg(QString::fromLatin1(kUser))),
             qPrintable(pulled.err));
    QVERIFY(!pulled.err.contains(QLatin1String("not-the-password")));

    // Through the token's realm: the login is refused there, and said so.
    writeDockerConfig("not-the-password");
    const Finished front = m_fixture->paddock({QStringLiteral("image"), QStringLiteral("pull"),
                                               QStringLiteral("127.0.0.1:%1/course/pi:0.87.1").arg(m_frontPort)});
    writeDockerConfig(kPassword);
    QCOMPARE(front.exitCode, 1);
    QVERIFY2(front.err.contains(QStringLiteral("the registry 127.0.0.1:%1 refused the login of %2 for a token")
                                    .arg(m_frontPort)
                                    .arg(QString::fromLatin1(kUser))),
             qPrintable(front.err));
}

void TestRegistryPull::tamperedBlobIsRefused()
{
    OciKit image = imageWith("ID=rp-tampered\n");
    QVERIFY(push(image, QStringLiteral("course/tampered:1")));
    // skopeo may compress the layer as it pushes: the layer is the largest blob of the repository.
    const QString blobs = dir(QStringLiteral("registry/docker/registry/v2/blobs/sha256"));
    QString hex;
    qint64 largest = -1;
    const QDir links(dir(QStringLiteral("registry/docker/registry/v2/repositories/course/tampered/_layers/sha256")));
    for (const QString &name : links.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const qint64 size = QFileInfo(QStringLiteral("%1/%2/%3/data").arg(blobs, name.left(2), name)).size();
        if (size > largest) {
            largest = size;
            hex = name;
        }
    }
    QVERIFY(largest > 0);
    const QString data = QStringLiteral("%1/%2/%3/data").arg(blobs, hex.left(2), hex);
    QByteArray bytes = readFile(data);
    bytes[bytes.size() / 2] = char(bytes.at(bytes.size() / 2) ^ 0x5a); // the same size, other bytes
    QVERIFY(writeFile(data, bytes));

    const Finished pulled = m_fixture->paddock(
        {QStringLiteral("image"), QStringLiteral("pull"), registryRef(QStringLiteral("course/tampered:1"))});
    QCOMPARE(pulled.exitCode, 1);
    QVERIFY2(pulled.err.contains(QLatin1String("sha256:") + hex) && pulled.err.contains(QLatin1String("refused")),
             qPrintable(pulled.err));
    QVERIFY(!paddock::image::ImageStore().find(registryRef(QStringLiteral("course/tampered:1"))));
}

void TestRegistryPull::layerOverTheLimitIsRefused()
{
    // The layer holds a static busybox, about 1 MiB even compressed: refused before it is fetched.
    const Finished pulled =
        m_fixture->paddock({QStringLiteral("image"), QStringLiteral("pull"), QStringLiteral("--max-layer-size"),
                            QStringLiteral("512K"), registryRef(QStringLiteral("course/pi:1"))});
    QCOMPARE(pulled.exitCode, 1);
    QVERIFY2(pulled.err.contains(QLatin1String("larger than 524288 bytes")), qPrintable(pulled.err));
}

void TestRegistryPull::passwordStaysSecret()
{
    // A credential helper this time, whose answer is the secret; ps is read while the pull runs.
    const QString bin = dir(QStringLiteral("home/bin"));
    QVERIFY(writeFile(bin + QStringLiteral("/docker-credential-rptest"),
                      "#!/bin/sh\ncat >/dev/null\nprintf '{\"Username\":\"" + kUser + "\",\"Secret\":\"" + kPassword +
                          "\"}'\n"));
    QFile::setPermissions(bin + QStringLiteral("/docker-credential-rptest"),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    // paddockd finds helpers on its PATH, which starts with this bin (initTestCase()).
    QVERIFY(writeFile(dir(QStringLiteral("home/.docker/config.json")),
                      QStringLiteral(R"({"credHelpers":{"127.0.0.1:%1":"rptest"}})").arg(m_port).toUtf8()));

    QProcess pull;
    pull.setProcessEnvironment(m_fixture->environment());
    pull.start(QStringLiteral(PADDOCK_BIN),
               {QStringLiteral("image"), QStringLiteral("pull"), registryRef(QStringLiteral("course/pi:0.87.1"))});
    QVERIFY(pull.waitForStarted());
    QStringList seen;
    while (!pull.waitForFinished(50)) {
        QByteArray table;
        run(tool("ps"), {QStringLiteral("-eo"), QStringLiteral("args")}, &table);
        seen << QString::fromUtf8(table);
    }
    const QByteArray said = pull.readAllStandardOutput() + pull.readAllStandardError();
    QVERIFY2(pull.exitCode() == 0, said.constData());
    const QByteArray basic = (kUser + ':' + kPassword).toBase64();
    for (const QString &table : std::as_const(seen))
        QVERIFY(!table.contains(QLatin1String(kPassword)) && !table.contains(QLatin1String(basic)));
    // Nothing Paddock wrote holds it: the daemon's log, the events, the store, the settings.
    for (const char *root : {"state", "data", "config", "run"}) {
        QDirIterator files(dir(QLatin1String(root)), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            const QByteArray contents = readFile(path);
            QVERIFY2(!contents.contains(kPassword) && !contents.contains(basic), qPrintable(path));
        }
    }
    QVERIFY(!m_fixture->daemonLog().contains(QLatin1String(kPassword)));
}

QTEST_GUILESS_MAIN(TestRegistryPull)
#include "tst_registry_pull.moc"

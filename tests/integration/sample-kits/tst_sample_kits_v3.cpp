// SPDX-License-Identifier: GPL-3.0-or-later
// The Pi kit (resources/kits/pi) as a schemaVersion "3" kit image, as an ordinary user: a
// descriptor mapping its spec.yaml (network-policy@1, credential@1 for the ILaaS key,
// lifecycle@1 for its home files) over the Pi image, whose configuration carries what the
// spec.yaml's sandbox block says (entrypoint, variables). The image stands in for the kit's
// Dockerfile (tests/support/PiImage.h), built by the local engine, saved, and written as an OCI
// layout with the descriptor annotation. Loaded with `paddock kit load`, it runs the course's
// four checks (`paddock verify`) under bubblewrap, from Paddock's image store, and under Docker,
// where Paddock gives the engine the kit's image itself.
#include "PiImage.h"
#include "ProcessRun.h"
#include "SandboxFixture.h"

#include "Needs.h"

#include <QCryptographicHash>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QString kKit = QStringLiteral("pi-v3");
const QString kReference = QStringLiteral("registry.example/kits/pi:0.87.1");
const QString kPiHome = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi/files/home/");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString sha256Of(const QString &path)
{
    QFile file(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    return file.open(QIODevice::ReadOnly) && hash.addData(&file) ? QString::fromLatin1(hash.result().toHex())
                                                                 : QString();
}

QJsonObject descriptorOf(const char *mediaType, const QString &hex, qint64 size)
{
    return {{QStringLiteral("mediaType"), QLatin1String(mediaType)},
            {QStringLiteral("digest"), QStringLiteral("sha256:") + hex},
            {QStringLiteral("size"), size}};
}

/** The spec.yaml of resources/kits/pi in the capabilities of a v3 descriptor. */
QByteArray piDescriptor()
{
    const QJsonArray allow{QStringLiteral("llm.ilaas.fr"),
                           QStringLiteral("github.com"),
                           QStringLiteral("raw.githubusercontent.com"),
                           QStringLiteral("pypi.org"),
                           QStringLiteral("files.pythonhosted.org"),
                           QStringLiteral("pi.dev")};
    const QJsonObject inject{{QStringLiteral("domain"), QStringLiteral("llm.ilaas.fr")},
                             {QStringLiteral("header"), QStringLiteral("Authorization")},
                             {QStringLiteral("format"), QStringLiteral("Bearer %s")}};
    const QJsonObject credential{
        {QStringLiteral("service"), QStringLiteral("ilaas")},
        {QStringLiteral("phase"), QStringLiteral("runtime")},
        {QStringLiteral("apiKey"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ILAAS_API_KEY")},
                                               {QStringLiteral("proxyManaged"), true},
                                               {QStringLiteral("inject"), QJsonArray{inject}}}}};
    QJsonArray files;
    for (const char *file :
         {".pi/agent/settings.json", ".pi/agent/models.json", ".pi/agent/extensions/pi-permission-system/config.json"})
        files.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("/home/agent/") + QLatin1String(file)},
                                 {QStringLiteral("content"), QString::fromUtf8(readAll(kPiHome + QLatin1String(file)))},
                                 {QStringLiteral("overwrite"), false}});
    const auto capability = [](const char *type, const QJsonObject &config) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("com.docker.sandbox/") + QLatin1String(type)},
                           {QStringLiteral("config"), config}};
    };
    QJsonObject credentialRequest = capability("credential@1", credential);
    credentialRequest.insert(QStringLiteral("description"), QStringLiteral("ILaaS API key (llm.ilaas.fr)"));
    const QJsonObject descriptor{
        {QStringLiteral("schemaVersion"), QStringLiteral("3")},
        {QStringLiteral("kind"), QStringLiteral("workload")},
        {QStringLiteral("displayName"), QStringLiteral("Pi")},
        {QStringLiteral("version"), QStringLiteral("0.1.0")},
        {QStringLiteral("provides"), QJsonArray{QStringLiteral("pi@0.87.1")}},
        {QStringLiteral("capabilities"),
         QJsonArray{capability("network-policy@1",
                               {{QStringLiteral("runtime"), QJsonObject{{QStringLiteral("allow"), allow}}}}),
                    credentialRequest, capability("lifecycle@1", {{QStringLiteral("files"), files}})}}};
    return QJsonDocument(descriptor).toJson(QJsonDocument::Compact);
}

} // namespace

class TestSampleKitsV3 : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void piRunsTheFourChecksUnderBubblewrap();
    void piRunsTheFourChecksUnderDocker();
    void cleanupTestCase();

private:
    Finished docker(const QStringList &arguments);
    QString kitArchive(QString *why);
    void runsTheFourChecks(const QString &name, const QString &backend);

    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_docker;
    QString m_tag;     ///< the image the engine built
    QString m_imageId; ///< its id, the kit's image
};

void TestSampleKitsV3::initTestCase()
{
    QProcess install;
    install.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    install.start(QStringLiteral(PADDOCK_SOURCE_DIR "/tests/support/install-pi.sh"),
                  {QStringLiteral(PADDOCK_PI_CACHE)});
    PADDOCK_NEED(install.waitForFinished(480000) && install.exitCode() == 0,
                 "Node 22 and Pi from the npm registry (see above why they could not be installed)");
    PADDOCK_NEED_DOCKER();
    m_docker = QStandardPaths::findExecutable(QStringLiteral("docker"));
    PADDOCK_NEED(!m_docker.isEmpty(), "the docker command, to build the image with");
    m_tag = QStringLiteral("paddock-test/pi-v3-%1:1").arg(QCoreApplication::applicationPid());
    m_fixture = std::make_unique<SandboxFixture>();
    // The machine's engine, for the Docker half (the fixture has none by default).
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"),
                              qEnvironmentVariable("DOCKER_HOST", QStringLiteral("unix:///var/run/docker.sock")));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    QString why;
    const QString archive = kitArchive(&why);
    QVERIFY2(!archive.isEmpty(), qPrintable(why));
    const Finished loaded = m_fixture->run(
        QStringLiteral(PADDOCK_BIN),
        {QStringLiteral("kit"), QStringLiteral("load"), QStringLiteral("--name"), kKit, archive}, 300000);
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(loaded.out.contains(QLatin1String("loaded pi-v3 (workload) from ") + kReference), qPrintable(loaded.out));
    for (const char *type : {"network-policy@1", "credential@1", "lifecycle@1"})
        QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/") + QLatin1String(type)),
                 qPrintable(loaded.out));
    // The key a student stores; the kit is approved to have the proxy present it.
    const Finished stored = m_fixture->paddock(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("ilaas")}, "sk-not-a-real-key\n");
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));
}

void TestSampleKitsV3::cleanupTestCase()
{
    if (m_fixture)
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--all"), QStringLiteral("--force")});
    if (!m_docker.isEmpty() && !m_imageId.isEmpty())
        docker({QStringLiteral("rmi"), QStringLiteral("--force"), QStringLiteral("sha256:") + m_imageId});
}

Finished TestSampleKitsV3::docker(const QStringList &arguments)
{
    paddock::test::ProcessOptions options; // a build or a save of the Pi image takes minutes
    options.timeoutMs = 600000;
    return paddock::test::runText(m_docker, arguments, options);
}

/** The Pi image, built by the engine and saved, as an OCI layout whose manifest carries the descriptor. */
QString TestSampleKitsV3::kitArchive(QString *why)
{
    const QString context = m_fixture->path(QStringLiteral("pi-image"));
    if (!paddock::test::writePiImageContext(QStringLiteral(PADDOCK_PI_CACHE), context,
                                            "ENV PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0 "
                                            "NODE_OPTIONS=--disable-warning=UNDICI-EHPA\n"
                                            "ENTRYPOINT [\"pi\", \"-a\"]\n",
                                            why))
        return {};
    const Finished built = docker({QStringLiteral("build"), QStringLiteral("-q"), QStringLiteral("--network=none"),
                                   QStringLiteral("-t"), m_tag, context});
    QDir(context).removeRecursively();
    if (built.exitCode != 0) {
        *why = QStringLiteral("the Docker engine did not build the image: ") + built.err;
        return {};
    }
    m_imageId = built.out.trimmed().section(QLatin1Char(':'), 1);
    const QString saved = m_fixture->path(QStringLiteral("saved"));
    const QString layout = m_fixture->path(QStringLiteral("layout"));
    QDir().mkpath(saved);
    QDir().mkpath(layout + QStringLiteral("/blobs/sha256"));
    const Finished save = docker({QStringLiteral("save"), QStringLiteral("-o"), saved + QStringLiteral(".tar"), m_tag});
    if (save.exitCode != 0 ||
        QProcess::execute(QStringLiteral("tar"),
                          {QStringLiteral("-xf"), saved + QStringLiteral(".tar"), QStringLiteral("-C"), saved}) != 0) {
        *why = QStringLiteral("docker save failed: ") + save.err;
        return {};
    }
    QFile::remove(saved + QStringLiteral(".tar"));
    // The same configuration and layers, moved into the layout under their digests.
    const QJsonObject image =
        QJsonDocument::fromJson(readAll(saved + QStringLiteral("/manifest.json"))).array().first().toObject();
    const auto blob = [&](const QString &member, const char *mediaType) {
        const QString from = saved + QLatin1Char('/') + member;
        const QString hex = sha256Of(from);
        const qint64 size = QFileInfo(from).size();
        QFile::rename(from, layout + QStringLiteral("/blobs/sha256/") + hex);
        return descriptorOf(mediaType, hex, size);
    };
    const QJsonObject config =
        blob(image.value(QLatin1String("Config")).toString(), "application/vnd.oci.image.config.v1+json");
    QJsonArray layers;
    for (const QJsonValue &layer : image.value(QLatin1String("Layers")).toArray())
        layers.append(blob(layer.toString(), "application/vnd.oci.image.layer.v1.tar"));
    QDir(saved).removeRecursively();
    const QJsonObject manifest{
        {QStringLiteral("schemaVersion"), 2},
        {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
        {QStringLiteral("config"), config},
        {QStringLiteral("layers"), layers},
        {QStringLiteral("annotations"),
         QJsonObject{{QStringLiteral("vnd.docker.sandbox.kit.descriptor"), QString::fromUtf8(piDescriptor())},
                     {QStringLiteral("vnd.docker.sandbox.kit.schema-version"), QStringLiteral("3")}}}};
    const QByteArray manifestBytes = QJsonDocument(manifest).toJson(QJsonDocument::Compact);
    const QString manifestHex =
        QString::fromLatin1(QCryptographicHash::hash(manifestBytes, QCryptographicHash::Sha256).toHex());
    QJsonObject top = descriptorOf("application/vnd.oci.image.manifest.v1+json", manifestHex, manifestBytes.size());
    top.insert(QStringLiteral("annotations"),
               QJsonObject{{QStringLiteral("org.opencontainers.image.ref.name"), kReference}});
    const QList<std::pair<QString, QByteArray>> files{
        {QStringLiteral("/blobs/sha256/") + manifestHex, manifestBytes},
        {QStringLiteral("/oci-layout"), R"({"imageLayoutVersion":"1.0.0"})"},
        {QStringLiteral("/index.json"), QJsonDocument(QJsonObject{{QStringLiteral("schemaVersion"), 2},
                                                                  {QStringLiteral("manifests"), QJsonArray{top}}})
                                            .toJson(QJsonDocument::Compact)}};
    for (const auto &[name, bytes] : files) {
        QFile out(layout + name);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) {
            *why = QStringLiteral("cannot write ") + out.fileName();
            return {};
        }
    }
    const QString archive = m_fixture->path(QStringLiteral("pi-kit.tar"));
    if (QProcess::execute(QStringLiteral("tar"),
                          {QStringLiteral("-cf"), archive, QStringLiteral("-C"), layout, QStringLiteral("oci-layout"),
                           QStringLiteral("index.json"), QStringLiteral("blobs")}) != 0) {
        *why = QStringLiteral("tar could not write the kit's archive");
        return {};
    }
    QDir(layout).removeRecursively();
    return archive;
}

/** Starts sandbox @p name of the kit on @p backend and runs `paddock verify` on it. */
void TestSampleKitsV3::runsTheFourChecks(const QString &name, const QString &backend)
{
    const QString workspace = m_fixture->path(name);
    QDir().mkpath(workspace);
    const Finished started =
        m_fixture->run(QStringLiteral(PADDOCK_BIN),
                       {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--approve-credentials"),
                        QStringLiteral("--backend"), backend, QStringLiteral("--kit"), kKit, QStringLiteral("--name"),
                        name, workspace},
                       600000);
    QVERIFY2(started.exitCode == 0, qPrintable(started.out + started.err + m_fixture->daemonLog().right(3000)));
    const Finished inspected = m_fixture->paddock({QStringLiteral("inspect"), name});
    QCOMPARE(QJsonDocument::fromJson(inspected.out.toUtf8()).object().value(QLatin1String("backend")).toString(),
             backend);

    // The agent is the image's, with the image's variables and the home files of the descriptor.
    const Finished inside =
        m_fixture->paddock({QStringLiteral("exec"), name, QStringLiteral("sh"), QStringLiteral("-c"),
                            QStringLiteral("command -v pi; pi --version; echo \"telemetry=$PI_TELEMETRY\"; "
                                           "cat \"$HOME/.pi/agent/settings.json\"")});
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.out + inside.err));
    QVERIFY2(inside.out.startsWith(QLatin1String("/usr/local/bin/pi\n0.87.1\ntelemetry=0\n")), qPrintable(inside.out));
    QVERIFY2(inside.out.contains(QLatin1String("\"defaultProvider\": \"ilaas\"")), qPrintable(inside.out));

    const Finished verified =
        m_fixture->run(QStringLiteral(PADDOCK_BIN), {QStringLiteral("verify"), name, QStringLiteral("--json")}, 300000);
    QHash<QString, QJsonObject> checks;
    for (const QJsonValue &value :
         QJsonDocument::fromJson(verified.out.toUtf8()).object().value(QLatin1String("checks")).toArray())
        checks.insert(value.toObject().value(QLatin1String("id")).toString(), value.toObject());
    for (const char *id : {"credential", "blocked", "workspace", "log"})
        QVERIFY2(checks.value(QLatin1String(id)).value(QLatin1String("status")).toString() == QLatin1String("ok"),
                 qPrintable(QLatin1String(id) + QStringLiteral(": ") + verified.out + verified.err));
    QVERIFY2(checks.value(QStringLiteral("credential"))
                 .value(QLatin1String("message"))
                 .toString()
                 .contains(QLatin1String("ILAAS_API_KEY is proxy-managed")),
             qPrintable(verified.out));
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), name}).exitCode, 0);
}

void TestSampleKitsV3::piRunsTheFourChecksUnderBubblewrap()
{
    runsTheFourChecks(QStringLiteral("pi-v3-bwrap"), QStringLiteral("bwrap"));
}

void TestSampleKitsV3::piRunsTheFourChecksUnderDocker()
{
    // The engine forgets the image it built: Paddock must give it the kit's own.
    QCOMPARE(docker({QStringLiteral("rmi"), m_tag}).exitCode, 0);
    QVERIFY(
        docker({QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("sha256:") + m_imageId}).exitCode !=
        0);
    // Named for this run: the engine is the machine's, and a container is named after its sandbox.
    runsTheFourChecks(QStringLiteral("pi-v3-docker-%1").arg(QCoreApplication::applicationPid()),
                      QStringLiteral("docker"));
    // The engine holds the kit's image, by the same id, under a name that says whose it is.
    const Finished held = docker({QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                  QStringLiteral("{{join .RepoTags \",\"}}"), QStringLiteral("sha256:") + m_imageId});
    QVERIFY2(held.exitCode == 0, qPrintable(held.err));
    QCOMPARE(held.out.trimmed(), QStringLiteral("paddock/kit-pi-v3:") + m_imageId.left(12));
}

QTEST_GUILESS_MAIN(TestSampleKitsV3)
#include "tst_sample_kits_v3.moc"

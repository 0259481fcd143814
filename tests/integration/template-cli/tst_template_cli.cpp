// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock template build|load|ls` as a user runs them: the daemon builds and loads through
// the real engine, the CLI prints the progress it streams, Ctrl-C cancels.
#include "DockerSandboxFixture.h"

#include "api/DaemonConnection.h"

#include <csignal>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::tests::docker::uniqueName;

class TestTemplateCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void buildPrintsALinePerStepAndMakesTheKitsImage();
    void builtImageRunsAsADockerSandbox();
    void lsListsTheImagesPaddockBuilt();
    void inspectSaysWhetherTheEngineHoldsAnImage();
    void loadTakesAnArchiveMadeByDockerSave();
    void ctrlCCancelsTheBuild();
    void failedBuildNamesTheStep();
    void kitWithoutADockerfileHasNothingToBuild();
    void buildStepsGetTheUpstreamProxyWithoutItsUser();

private:
    /** A kit in path(DIR) whose image is @p image and whose Dockerfile adds @p extraLines. */
    QString writeBuildableKit(const QString &dir, const QString &name, const QString &image,
                              const QByteArray &extraLines = {});
    QJsonArray listedImages();
    /** True when the kit's image is there: built by `paddock template build` unless an earlier test did. */
    bool imageBuilt();

    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
    QString m_tag;
};

QString TestTemplateCli::writeBuildableKit(const QString &dir, const QString &name, const QString &image,
                                           const QByteArray &extraLines)
{
    const QString kit = m_fixture->writeKit(dir, name, image, QStringLiteral("echo ran from the built image"));
    if (kit.isEmpty() || !paddock::tests::docker::writeBusyboxContext(kit, extraLines))
        return {};
    m_fixture->removeLater(image);
    return kit;
}

QJsonArray TestTemplateCli::listedImages()
{
    const DockerFinished ls =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls"), QStringLiteral("--json")});
    return QJsonDocument::fromJson(ls.out.toUtf8()).array();
}

bool TestTemplateCli::imageBuilt()
{
    const auto exists = m_fixture->client().imageExists(m_tag);
    if (exists.ok() && exists.value())
        return true;
    const DockerFinished build =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), m_kit});
    if (build.exitCode != 0)
        qWarning().noquote() << build.out << build.err;
    return build.exitCode == 0;
}

void TestTemplateCli::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    m_tag = uniqueName(QStringLiteral("paddock-test/kit-built")) + QStringLiteral(":1");
    m_kit = writeBuildableKit(QStringLiteral("built-kit"), QStringLiteral("built"), m_tag);
    QVERIFY(!m_kit.isEmpty());
}

void TestTemplateCli::buildPrintsALinePerStepAndMakesTheKitsImage()
{
    // The tag defaults to the kit's sandbox.image, the image `run --backend docker` looks for.
    const DockerFinished build =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), m_kit});
    QVERIFY2(build.exitCode == 0, qPrintable(build.out + build.err));

    // Standard output is not a terminal here: plain lines, one per Dockerfile instruction.
    const QStringList lines = build.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("building %1").arg(m_tag));
    static const QRegularExpression stepLine(QStringLiteral("^step (\\d+)/(\\d+) \\(\\s*(\\d+)%\\): (.+)$"));
    QList<int> steps;
    QStringList instructions;
    int lastPercent = -1;
    for (const QString &line : lines) {
        const QRegularExpressionMatch match = stepLine.match(line);
        if (!match.hasMatch())
            continue;
        steps << match.captured(1).toInt();
        // FROM, COPY, RUN, and the LABEL the engine adds for the label Paddock asks for.
        QCOMPARE(match.captured(2).toInt(), 4);
        QVERIFY(match.captured(3).toInt() > lastPercent);
        lastPercent = match.captured(3).toInt();
        instructions << match.captured(4);
    }
    QCOMPARE(steps, (QList<int>{1, 2, 3, 4}));
    QVERIFY2(instructions.first().startsWith(QLatin1String("FROM scratch")), qPrintable(build.out));
    QVERIFY2(instructions.at(1).startsWith(QLatin1String("COPY busybox")), qPrintable(build.out));
    static const QRegularExpression built(QStringLiteral("^built (\\S+) \\(([0-9a-f]{12})\\)$"));
    const QRegularExpressionMatch done = built.match(lines.last());
    QVERIFY2(done.hasMatch(), qPrintable(lines.last()));
    QCOMPARE(done.captured(1), m_tag);

    const auto image = m_fixture->client().inspectImage(m_tag);
    QVERIFY2(image.ok(), qPrintable(image.errorMessage()));
    QVERIFY(image.value().id.contains(done.captured(2)));
    QCOMPARE(image.value().labels.value(QStringLiteral("paddock.kit")), QStringLiteral("built"));
}

void TestTemplateCli::builtImageRunsAsADockerSandbox()
{
    QVERIFY(imageBuilt());
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("built-probe"), m_fixture->workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QStringLiteral("ran from the built image\n"));
}

void TestTemplateCli::lsListsTheImagesPaddockBuilt()
{
    QVERIFY(imageBuilt());
    bool found = false;
    for (const QJsonValue &value : listedImages()) {
        const QJsonObject image = value.toObject();
        if (image.value(QLatin1String("tag")).toString() != m_tag)
            continue;
        found = true;
        QCOMPARE(image.value(QLatin1String("source")).toString(), QStringLiteral("built"));
        QCOMPARE(image.value(QLatin1String("kit")).toString(), QStringLiteral("built"));
        QVERIFY(image.value(QLatin1String("id")).toString().startsWith(QLatin1String("sha256:")));
        QVERIFY(image.value(QLatin1String("size")).toInteger() > 0);
        QVERIFY(QDateTime::fromString(image.value(QLatin1String("created")).toString(), Qt::ISODate).isValid());
    }
    QVERIFY(found);
    // An image Paddock neither built, loaded nor runs is not its business.
    for (const QJsonValue &value : listedImages())
        QVERIFY(value[QLatin1String("tag")].toString() != m_fixture->imageTag());

    const DockerFinished table = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls")});
    QVERIFY2(table.out.startsWith(QLatin1String("TAG")), qPrintable(table.out));
    static const QRegularExpression row(QStringLiteral("(?m)^(\\S+)\\s+[0-9a-f]{12}\\s+.*built \\(kit built\\)$"));
    QVERIFY2(row.match(table.out).captured(1) == m_tag, qPrintable(table.out));
}

void TestTemplateCli::inspectSaysWhetherTheEngineHoldsAnImage()
{
    QVERIFY(imageBuilt());
    // What the window asks before a Docker sandbox is made: build or load only when missing.
    paddock::api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    const paddock::api::Reply present =
        connection.call(QStringLiteral("image.inspect"), {{QStringLiteral("tag"), m_tag}}, 30000);
    QVERIFY2(!present.isError(), qPrintable(present.errorMessage()));
    QCOMPARE(present.result().value(QLatin1String("present")).toBool(), true);
    QCOMPARE(present.result().value(QLatin1String("tag")).toString(), m_tag);
    QCOMPARE(present.result().value(QLatin1String("id")).toString(),
             m_fixture->client().inspectImage(m_tag).value().id);
    const QString nowhere = uniqueName(QStringLiteral("paddock-test/never-built")) + QStringLiteral(":1");
    const paddock::api::Reply missing =
        connection.call(QStringLiteral("image.inspect"), {{QStringLiteral("tag"), nowhere}}, 30000);
    QVERIFY2(!missing.isError(), qPrintable(missing.errorMessage()));
    QCOMPARE(missing.result().value(QLatin1String("present")).toBool(), false);
    QVERIFY(!missing.result().contains(QLatin1String("id")));
    QCOMPARE(connection.call(QStringLiteral("image.inspect"), {}, 30000).errorCode(), QStringLiteral("invalid-params"));
}

void TestTemplateCli::loadTakesAnArchiveMadeByDockerSave()
{
    // An image made elsewhere, saved with the docker CLI and gone from the engine.
    const QString tag = uniqueName(QStringLiteral("paddock-test/saved")) + QStringLiteral(":1");
    m_fixture->removeLater(tag);
    QTemporaryDir context;
    QVERIFY(paddock::tests::docker::writeBusyboxContext(context.path(), "LABEL org.example.saved=yes\n"));
    paddock::runtime::docker::BuildOptions options;
    options.contextDir = context.path();
    options.tag = tag;
    const auto built = m_fixture->client().buildImage(options);
    QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
    const QString archive = m_fixture->path(QStringLiteral("saved.tar"));
    const DockerFinished saved =
        m_fixture->run(QStringLiteral("docker"), {QStringLiteral("save"), QStringLiteral("-o"), archive, tag});
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
    QVERIFY(m_fixture->client().removeImage(tag, true).ok());
    QVERIFY(!m_fixture->client().imageExists(tag).value());

    const DockerFinished load = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("load"), archive});
    QVERIFY2(load.exitCode == 0, qPrintable(load.out + load.err));
    const QStringList lines = load.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // Unpacked into Paddock's store for bubblewrap, then given to the engine, a line per step.
    QVERIFY2(lines.first().startsWith(QLatin1String("unpacking layer 1 of 2: ")), qPrintable(load.out));
    QVERIFY2(load.out.contains(QLatin1String("\nloading saved.tar into the Docker engine: ")), qPrintable(load.out));
    QCOMPARE(lines.last(),
             QStringLiteral("loaded %1 into Paddock's store (2 layers unpacked) and into the Docker engine").arg(tag));
    const auto image = m_fixture->client().inspectImage(tag);
    QVERIFY2(image.ok(), qPrintable(image.errorMessage()));
    QCOMPARE(image.value().id, built.value());

    bool listed = false;
    bool stored = false;
    for (const QJsonValue &value : listedImages()) {
        const bool same = value[QLatin1String("tag")].toString() == tag;
        listed |= same && value[QLatin1String("source")].toString() == QLatin1String("loaded");
        stored |= same && value[QLatin1String("source")].toString() == QLatin1String("store");
    }
    QVERIFY(listed);
    QVERIFY(stored);
}

void TestTemplateCli::ctrlCCancelsTheBuild()
{
    const QString tag = uniqueName(QStringLiteral("paddock-test/cancelled")) + QStringLiteral(":1");
    const QString kit =
        writeBuildableKit(QStringLiteral("slow-kit"), QStringLiteral("slow"), tag, "RUN [\"/bin/sleep\", \"300\"]\n");
    QVERIFY(!kit.isEmpty());
    const std::unique_ptr<QProcess> build =
        m_fixture->startPaddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), kit,
                                 QStringLiteral("--no-cache")});
    // Interrupted once the slow step has begun, as a user watching it would.
    QByteArray seen;
    while (!seen.contains("sleep") && build->waitForReadyRead(120000))
        seen += build->readAllStandardOutput();
    QVERIFY2(seen.contains("step 4/5"), seen.constData());
    ::kill(pid_t(build->processId()), SIGINT);
    QVERIFY2(build->waitForFinished(120000), "the build went on after Ctrl-C");
    seen += build->readAllStandardOutput();
    const QByteArray err = build->readAllStandardError();
    QCOMPARE(build->exitStatus(), QProcess::NormalExit);
    QCOMPARE(build->exitCode(), 1);
    QVERIFY2(seen.contains("cancelling"), seen.constData());
    QVERIFY2(err.contains("was cancelled"), err.constData());
    QVERIFY(!m_fixture->client().imageExists(tag).value());
}

void TestTemplateCli::failedBuildNamesTheStep()
{
    const QString tag = uniqueName(QStringLiteral("paddock-test/failing")) + QStringLiteral(":1");
    const QString kit = writeBuildableKit(QStringLiteral("failing-kit"), QStringLiteral("failing"), tag,
                                          "RUN [\"/bin/sh\", \"-c\", \"exit 3\"]\n");
    const DockerFinished build =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), kit});
    QCOMPARE(build.exitCode, 1);
    QVERIFY2(build.err.contains(QLatin1String("step 4/5")), qPrintable(build.err));
    QVERIFY2(build.err.contains(QLatin1String("non-zero code: 3")), qPrintable(build.err));
}

void TestTemplateCli::kitWithoutADockerfileHasNothingToBuild()
{
    const QString kit = m_fixture->writeKit(QStringLiteral("plain-kit"), QStringLiteral("plain"),
                                            QStringLiteral("paddock-test/plain:1"), QStringLiteral("true"));
    const DockerFinished build =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), kit});
    QCOMPARE(build.exitCode, 1);
    QVERIFY2(build.err.contains(QLatin1String("has nothing to build")), qPrintable(build.err));
    QVERIFY2(build.err.contains(QLatin1String("no Dockerfile")), qPrintable(build.err));
}

void TestTemplateCli::buildStepsGetTheUpstreamProxyWithoutItsUser()
{
    const auto settings = [this](const QStringList &arguments) {
        const DockerFinished done = m_fixture->paddock(QStringList{QStringLiteral("settings")} + arguments);
        QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    };
    settings({QStringLiteral("set"), QStringLiteral("upstream-proxy"), QStringLiteral("http://alice@10.0.0.5:3128")});
    settings({QStringLiteral("set"), QStringLiteral("no-proxy"), QStringLiteral("intranet.test")});
    // The step fails unless it sees the company's proxy, as Docker's predefined arguments, and
    // never its user (a kit's steps are the kit's code).
    const QString tag = uniqueName(QStringLiteral("paddock-test/proxied")) + QStringLiteral(":1");
    const QString kit = writeBuildableKit(
        QStringLiteral("proxied-kit"), QStringLiteral("proxied"), tag,
        "RUN [\"/bin/sh\", \"-c\", \"test \\\"$HTTPS_PROXY\\\" = http://10.0.0.5:3128 && "
        "test \\\"$http_proxy\\\" = http://10.0.0.5:3128 && test \\\"$NO_PROXY\\\" = intranet.test\"]\n");
    const DockerFinished build =
        m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"), QStringLiteral("--kit"), kit});
    settings({QStringLiteral("unset"), QStringLiteral("upstream-proxy")});
    settings({QStringLiteral("unset"), QStringLiteral("no-proxy")});
    QVERIFY2(build.exitCode == 0, qPrintable(build.out + build.err));
}

QTEST_GUILESS_MAIN(TestTemplateCli)
#include "tst_template_cli.moc"

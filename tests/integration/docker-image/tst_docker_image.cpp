// SPDX-License-Identifier: GPL-3.0-or-later
// Images through the Engine API: a build with progress, a cancelled build, and an image
// saved by the docker CLI loaded back by Paddock.
#include "DockerTestSupport.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace paddock::tests::docker;

class TestDockerImage : public QObject
{
    Q_OBJECT

private:
    DockerClient m_client{testEndpoint()};
    QString m_tag;
    QTemporaryDir m_home;

    /** Builds the test image (busybox with a label) as m_tag from a new context. */
    Result<QString> buildTestImage(decltype(BuildOptions::onProgress) onProgress = {})
    {
        QTemporaryDir context;
        if (!writeBusyboxContext(context.path(), "LABEL org.example.purpose=test\n"))
            qWarning("cannot write the build context");
        BuildOptions options;
        options.contextDir = context.path();
        options.tag = m_tag;
        options.buildArgs = {{QStringLiteral("UNUSED_ARG"), QStringLiteral("a+b c")}};
        options.onProgress = std::move(onProgress);
        return m_client.buildImage(options);
    }

private slots:
    void initTestCase()
    {
        PADDOCK_NEED_DOCKER();
        m_tag = uniqueName(QStringLiteral("paddock-test-image")) + QStringLiteral(":1");
    }

    void cleanupTestCase()
    {
        if (!m_tag.isEmpty())
            (void)m_client.removeImage(m_tag, true);
    }

    void buildReportsStepsUpToOneHundredPercent()
    {
        QList<BuildProgress> reports;
        const Result<QString> id =
            buildTestImage([&reports](const BuildProgress &progress) { reports.append(progress); });
        QVERIFY2(id.ok(), qPrintable(id.errorMessage()));
        QVERIFY(id.value().startsWith(QStringLiteral("sha256:")));

        QVERIFY(!reports.isEmpty());
        int highestStep = 0;
        for (const BuildProgress &report : reports)
            highestStep = std::max(highestStep, report.step);
        QCOMPARE(highestStep, 4);
        QCOMPARE(reports.last().totalSteps, 4);
        QCOMPARE(reports.last().percent, 100);

        const Result<bool> exists = m_client.imageExists(m_tag);
        QVERIFY2(exists.ok(), qPrintable(exists.errorMessage()));
        QVERIFY(exists.value());
        const Result<ImageInfo> info = m_client.inspectImage(m_tag);
        QVERIFY(info.ok());
        QCOMPARE(info.value().id, id.value());
        QVERIFY(info.value().repoTags.contains(m_tag));
        QCOMPARE(info.value().labels.value(QStringLiteral("org.example.purpose")), QStringLiteral("test"));
    }

    void failedBuildNamesTheStep()
    {
        QTemporaryDir context;
        QVERIFY(writeBusyboxContext(context.path(), "RUN [\"/bin/sh\", \"-c\", \"exit 3\"]\n"));
        BuildOptions options;
        options.contextDir = context.path();
        options.tag = uniqueName(QStringLiteral("paddock-test-failing"));
        const Result<QString> id = m_client.buildImage(options);
        QVERIFY(!id.ok());
        QVERIFY2(id.errorMessage().contains(QStringLiteral("step 4/4")), qPrintable(id.errorMessage()));
        QVERIFY2(id.errorMessage().contains(QStringLiteral("non-zero code: 3")), qPrintable(id.errorMessage()));
    }

    void cancellingStopsALongBuild()
    {
        QTemporaryDir context;
        // Far longer than the test's own timeout: only a working cancel lets the test pass.
        QVERIFY(writeBusyboxContext(context.path(), "RUN [\"/bin/sleep\", \"3600\"]\n"));
        const QString tag = uniqueName(QStringLiteral("paddock-test-cancelled"));
        auto sleepContainers = [this] {
            int count = 0;
            const auto containers = m_client.listContainers();
            if (containers)
                for (const ContainerSummary &container : containers.value())
                    count += container.command.contains(QStringLiteral("sleep 3600")) ? 1 : 0;
            return count;
        };

        // Cancel once the long step's container runs, as a user pressing Cancel would.
        std::atomic_bool cancel{false};
        std::atomic_bool finished{false};
        std::thread canceller([&] {
            while (!finished && sleepContainers() == 0)
                QThread::msleep(100);
            cancel = true;
        });
        BuildOptions options;
        options.contextDir = context.path();
        options.tag = tag;
        options.cancel = &cancel; // the earlier steps come from the cache of the first build
        const Result<QString> id = m_client.buildImage(options);
        finished = true;
        canceller.join();

        QVERIFY(!id.ok());
        QVERIFY(id.is(Error::Kind::Cancelled));
        QVERIFY2(id.errorMessage().contains(QStringLiteral("cancelled")), qPrintable(id.errorMessage()));
        // The engine stops the step's container too, not only the upload of the progress.
        QTRY_COMPARE_WITH_TIMEOUT(sleepContainers(), 0, 60000);
        const Result<bool> exists = m_client.imageExists(tag);
        QVERIFY(exists.ok());
        QVERIFY(!exists.value());
    }

    void loadsAnImageTheCliSaved()
    {
        // The image the first test builds; built here when this test runs alone.
        if (!m_client.imageExists(m_tag).value()) {
            const Result<QString> built = buildTestImage();
            QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
        }
        const QString tarPath = m_home.filePath(QStringLiteral("image.tar"));
        QProcess save;
        save.setProcessEnvironment(isolatedEnvironment(m_home.path()));
        save.start(QStringLiteral("docker"), {QStringLiteral("save"), QStringLiteral("-o"), tarPath, m_tag});
        QVERIFY(save.waitForFinished(120000));
        QVERIFY2(save.exitCode() == 0, save.readAllStandardError().constData());

        const Status removed = m_client.removeImage(m_tag, true);
        QVERIFY2(removed.ok(), qPrintable(removed.errorMessage()));
        QVERIFY(!m_client.imageExists(m_tag).value());

        const Result<QStringList> loaded = m_client.loadImage(tarPath);
        QVERIFY2(loaded.ok(), qPrintable(loaded.errorMessage()));
        QCOMPARE(loaded.value(), QStringList{m_tag});
        QVERIFY(m_client.imageExists(m_tag).value());
    }

    void removingAnImageKeepsTheCacheOthersBuildOn()
    {
        // Two builds sharing their first steps, as the test fixtures' images do. Removing one
        // must not take the cached parent the other's next step is about to stand on.
        QTemporaryDir context;
        // A step of its own before the last, so its image has no other child to keep it.
        const QByteArray unique = uniqueName(QStringLiteral("step")).toUtf8();
        QVERIFY(
            writeBusyboxContext(context.path(), "LABEL org.example.step=" + unique + "\nLABEL org.example.last=yes\n"));
        BuildOptions options;
        options.contextDir = context.path();
        options.tag = uniqueName(QStringLiteral("paddock-test-removed")) + QStringLiteral(":1");
        const Result<QString> built = m_client.buildImage(options);
        QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
        const Result<ImageInfo> info = m_client.inspectImage(options.tag);
        QVERIFY(info.ok());
        const QString parent = info.value().raw.value(QStringLiteral("Parent")).toString();
        QVERIFY2(!parent.isEmpty(), "the classic builder names the previous step's image as the parent");

        const Status removed = m_client.removeImage(options.tag, true);
        QVERIFY2(removed.ok(), qPrintable(removed.errorMessage()));
        QVERIFY(!m_client.imageExists(options.tag).value());
        const Result<bool> parentExists = m_client.imageExists(parent);
        QVERIFY(parentExists.ok());
        QVERIFY2(parentExists.value(), "the removal pruned the build cache another build may be using");
        (void)m_client.removeImage(parent, true); // this test's own step; the shared ones stay
    }

    void loadingAMissingFileSaysWhich()
    {
        const Result<QStringList> loaded = m_client.loadImage(m_home.filePath(QStringLiteral("nothing.tar")));
        QVERIFY(!loaded.ok());
        QVERIFY(loaded.errorMessage().contains(QStringLiteral("nothing.tar")));
    }
};

QTEST_GUILESS_MAIN(TestDockerImage)
#include "tst_docker_image.moc"

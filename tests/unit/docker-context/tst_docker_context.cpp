// SPDX-License-Identifier: GPL-3.0-or-later
// The build context sent to the engine: a tar that the real tar(1) reads back, without what
// .dockerignore excludes.
#include "runtime/docker/BuildContext.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock::runtime::docker;

class TestDockerContext : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(data);
    }

    // Lists the tar with tar(1): names with directories ending in '/'.
    static QStringList listTar(const QByteArray &tar)
    {
        QProcess process;
        process.start(QStringLiteral("tar"), {QStringLiteral("-tf"), QStringLiteral("-")});
        process.write(tar);
        process.closeWriteChannel();
        process.waitForFinished(10000);
        if (process.exitCode() != 0)
            return {QStringLiteral("tar failed: ") + QString::fromLocal8Bit(process.readAllStandardError())};
        QStringList names =
            QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        names.sort();
        return names;
    }

private slots:
    void patternsMatchAsTheEngineDoes_data()
    {
        QTest::addColumn<QString>("patterns");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("excluded");
        QTest::newRow("plain name") << "secret.txt"
                                    << "secret.txt" << true;
        QTest::newRow("plain name elsewhere") << "secret.txt"
                                              << "sub/secret.txt" << false;
        QTest::newRow("star in component") << "*.log"
                                           << "build.log" << true;
        QTest::newRow("star stops at slash") << "*.log"
                                             << "logs/build.log" << false;
        QTest::newRow("double star") << "**/*.log"
                                     << "logs/deep/build.log" << true;
        QTest::newRow("double star at top") << "**/*.log"
                                            << "top.log" << true;
        QTest::newRow("directory covers contents") << "node_modules"
                                                   << "node_modules/a/b.js" << true;
        QTest::newRow("leading slash") << "/cache"
                                       << "cache/x" << true;
        QTest::newRow("question mark") << "file?.txt"
                                       << "file1.txt" << true;
        QTest::newRow("class") << "file[0-9].txt"
                               << "filex.txt" << false;
        QTest::newRow("exception") << "*.md\n!README.md"
                                   << "README.md" << false;
        QTest::newRow("exception then rule") << "*.md\n!README.md"
                                             << "NOTES.md" << true;
        QTest::newRow("last line wins") << "!keep\nkeep"
                                        << "keep" << true;
        QTest::newRow("comment") << "# secret.txt\n\n"
                                 << "secret.txt" << false;
        QTest::newRow("dot is literal") << "a.b"
                                        << "axb" << false;
    }

    void patternsMatchAsTheEngineDoes()
    {
        QFETCH(QString, patterns);
        QFETCH(QString, path);
        QFETCH(bool, excluded);
        QCOMPARE(DockerIgnore::parse(patterns).excludes(path), excluded);
    }

    void contextHoldsTheTreeWithoutIgnoredFiles()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("Dockerfile")), "FROM scratch\n");
        write(dir.filePath(QStringLiteral("app/main.sh")), "echo hi\n");
        write(dir.filePath(QStringLiteral("app/debug.log")), "noise\n");
        write(dir.filePath(QStringLiteral("secret.txt")), "token\n");
        write(dir.filePath(QStringLiteral("node_modules/pkg/index.js")), "x\n");
        write(dir.filePath(QStringLiteral(".dockerignore")), "secret.txt\n**/*.log\nnode_modules\nDockerfile\n");
        const QString longName = QStringLiteral("deep/") + QString(120, QLatin1Char('n')) + QStringLiteral(".txt");
        write(dir.filePath(longName), "long\n");
        QVERIFY(QFile::link(QStringLiteral("app/main.sh"), dir.filePath(QStringLiteral("link.sh"))));

        const Result<QByteArray> tar = makeBuildContext(dir.path());
        QVERIFY2(tar.ok(), qPrintable(tar.errorMessage()));
        const QStringList expected{QStringLiteral(".dockerignore"), QStringLiteral("Dockerfile"),
                                   QStringLiteral("app/"),          QStringLiteral("app/main.sh"),
                                   QStringLiteral("deep/"),         longName,
                                   QStringLiteral("link.sh")};
        QCOMPARE(listTar(tar.value()), expected);
    }

    void extractedFilesKeepContentModeAndLinks()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("Dockerfile")), "FROM scratch\n");
        QByteArray binary;
        for (int i = 0; i < 70000; ++i)
            binary.append(char(i % 251));
        write(dir.filePath(QStringLiteral("bin/tool")), binary);
        QFile::setPermissions(dir.filePath(QStringLiteral("bin/tool")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                  QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        QVERIFY(QFile::link(QStringLiteral("bin/tool"), dir.filePath(QStringLiteral("tool-link"))));
        const Result<QByteArray> tar = makeBuildContext(dir.path());
        QVERIFY(tar.ok());

        QTemporaryDir out;
        QProcess process;
        process.setWorkingDirectory(out.path());
        process.start(QStringLiteral("tar"), {QStringLiteral("-xf"), QStringLiteral("-")});
        process.write(tar.value());
        process.closeWriteChannel();
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 0);
        QFile tool(out.filePath(QStringLiteral("bin/tool")));
        QVERIFY(tool.open(QIODevice::ReadOnly));
        QCOMPARE(tool.readAll(), binary);
        QVERIFY(QFileInfo(tool).isExecutable());
        QCOMPARE(QFileInfo(out.filePath(QStringLiteral("tool-link"))).symLinkTarget(),
                 out.filePath(QStringLiteral("bin/tool")));
    }

    void refusesAContextWithoutItsDockerfile()
    {
        QTemporaryDir dir;
        const Result<QByteArray> tar = makeBuildContext(dir.path(), QStringLiteral("Containerfile"));
        QVERIFY(!tar.ok());
        QVERIFY2(tar.errorMessage().contains(QStringLiteral("Containerfile")), qPrintable(tar.errorMessage()));
        QVERIFY(!makeBuildContext(dir.path(), QStringLiteral("../Dockerfile")).ok());
    }

    void confinedContextRefusesLinksLeadingOut_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("refused");
        QTest::newRow("absolute") << "passwd"
                                  << "/etc/passwd" << true;
        QTest::newRow("climbing") << "sub/up"
                                  << "../../secret" << true;
        QTest::newRow("climbing through a folder") << "sub/up"
                                                   << "../sub/../.." << true;
        QTest::newRow("the parent itself") << "parent"
                                           << ".." << true;
        QTest::newRow("beside it") << "sub/near"
                                   << "../Dockerfile" << false;
        QTest::newRow("down") << "down"
                              << "sub/file" << false;
    }

    void confinedContextRefusesLinksLeadingOut()
    {
        QFETCH(QString, link);
        QFETCH(QString, target);
        QFETCH(bool, refused);
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("Dockerfile")), "FROM scratch\n");
        write(dir.filePath(QStringLiteral("sub/file")), "inside\n");
        QVERIFY(QFile::link(target, dir.filePath(link)));
        BuildContextOptions options;
        options.confined = true;
        const Result<QByteArray> tar = makeBuildContext(dir.path(), options);
        QCOMPARE(!tar.ok(), refused);
        if (refused)
            QVERIFY2(tar.errorMessage().contains(link + QStringLiteral(" in the build context")) &&
                         tar.errorMessage().contains(QStringLiteral("outside it")),
                     qPrintable(tar.errorMessage()));
        // Without confinement the engine gets the link as it is, as the docker CLI sends it.
        QVERIFY(makeBuildContext(dir.path()).ok());
    }

    void contextAboveItsBoundIsRefusedBeforeItIsRead()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("Dockerfile")), "FROM scratch\n");
        // Sparse: its size counts, though nothing is on disk, and it is never read.
        QFile big(dir.filePath(QStringLiteral("big.img")));
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(qint64(3) << 30));
        big.close();
        BuildContextOptions options;
        options.maxBytes = qint64(1) << 30;
        const Result<QByteArray> tar = makeBuildContext(dir.path(), options);
        QVERIFY(!tar.ok());
        QVERIFY2(tar.errorMessage().contains(QStringLiteral("holds more than 1024 MiB")),
                 qPrintable(tar.errorMessage()));
        QVERIFY2(tar.errorMessage().contains(QStringLiteral(".dockerignore")), qPrintable(tar.errorMessage()));
        // What .dockerignore leaves out does not count.
        write(dir.filePath(QStringLiteral(".dockerignore")), "*.img\n");
        QVERIFY(makeBuildContext(dir.path(), options).ok());
    }

    void dockerfileGivenAsTextIsTheOneSent()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("payload.txt")), "data\n");
        write(dir.filePath(QStringLiteral(".inline.dockerfile")), "FROM stale\n");
        BuildContextOptions options;
        options.dockerfile = QStringLiteral(".inline.dockerfile");
        options.dockerfileText = "FROM scratch\nCOPY payload.txt /\n";
        const Result<QByteArray> tar = makeBuildContext(dir.path(), options);
        QVERIFY2(tar.ok(), qPrintable(tar.errorMessage()));
        QCOMPARE(listTar(tar.value()),
                 (QStringList{QStringLiteral(".inline.dockerfile"), QStringLiteral("payload.txt")}));
        QTemporaryDir out;
        QProcess process;
        process.setWorkingDirectory(out.path());
        process.start(QStringLiteral("tar"), {QStringLiteral("-xf"), QStringLiteral("-")});
        process.write(tar.value());
        process.closeWriteChannel();
        QVERIFY(process.waitForFinished(10000));
        QFile sent(out.filePath(QStringLiteral(".inline.dockerfile")));
        QVERIFY(sent.open(QIODevice::ReadOnly));
        QCOMPARE(sent.readAll(), options.dockerfileText);
    }
};

QTEST_GUILESS_MAIN(TestDockerContext)
#include "tst_docker_context.moc"

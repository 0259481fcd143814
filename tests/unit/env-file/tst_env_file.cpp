// SPDX-License-Identifier: GPL-3.0-or-later
// sbxenv.yaml as a person who used to start their agent with a `docker run` wrapper writes it:
// the workspace, shared caches, a read-only models file, variables, a PostgreSQL companion.
// And what `paddock review` lists of a shared folder this computer runs programs from.
#include "env/EnvPlan.h"
#include "env/HostCommandApprovals.h"
#include "sandbox/SharedFolders.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock;

namespace {

const QByteArray kSeed = R"(schemaVersion: "1"
name: dotnet-pi
agent: pi
workspace: ./project
env:
  PGHOST: postgres
  NUGET_PACKAGES: /home/agent/.nuget/packages
lifecycle:
  postCreate:
    - name: Note the start
      command: |
        echo "up: $SBX_SANDBOX_NAME" >> started.log
        date >> started.log
x-paddock:
  mounts:
    - ~/.nuget:/home/agent/.nuget
    - ~/.agents/models.json:/home/agent/.pi/agent/models.json:ro
  services:
    - name: postgres
      image: postgres:16
      ports: [5432]
      env:
        POSTGRES_PASSWORD: dev
)";

} // namespace

class TestEnvFile : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        qputenv("HOME", QFile::encodeName(m_root.filePath(QStringLiteral("home"))));
        qputenv("XDG_STATE_HOME", QFile::encodeName(m_root.filePath(QStringLiteral("state"))));
        for (const char *dir : {"home/.nuget", "home/.agents", "home/.ssh", "env/project"})
            QVERIFY(QDir().mkpath(m_root.filePath(QLatin1String(dir))));
        write(QStringLiteral("home/.agents/models.json"), "{}\n");
    }

    void theSeedSetupReadsAndPlans()
    {
        const env::Environment environment = load(write(QStringLiteral("env/sbxenv.yaml"), kSeed));
        QCOMPARE(environment.name, QStringLiteral("dotnet-pi"));
        QCOMPARE(environment.workspace, m_root.filePath(QStringLiteral("env/project")));
        QCOMPARE(environment.env.value(QStringLiteral("PGHOST")), QStringLiteral("postgres"));
        QCOMPARE(environment.mounts.size(), 2);
        QCOMPARE(environment.mounts.at(0).hostPath, m_root.filePath(QStringLiteral("home/.nuget")));
        QVERIFY(environment.mounts.at(0).writable);
        QCOMPARE(environment.mounts.at(1).insidePath, QStringLiteral("/home/agent/.pi/agent/models.json"));
        QVERIFY(!environment.mounts.at(1).writable);
        QCOMPARE(environment.services.size(), 1);
        QCOMPARE(environment.services.first().ports, QList<int>{5432});
        QCOMPARE(environment.commandsOf(QStringLiteral("postCreate")).size(), 1);

        const env::EnvPlan plan = env::planEnvironment(environment, sandbox::checkEnvironmentShares);
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        QCOMPARE(plan.kit.source, QStringLiteral("pi"));
        const QJsonObject params = env::creationParams(plan, QStringLiteral("/kits/pi"));
        QCOMPARE(params.value(QLatin1String("mounts")).toArray().size(), 2);
        QCOMPARE(params.value(QLatin1String("env")).toObject().value(QLatin1String("NUGET_PACKAGES")).toString(),
                 QStringLiteral("/home/agent/.nuget/packages"));
        QCOMPARE(params.value(QLatin1String("name")).toString(), QStringLiteral("dotnet-pi"));
    }

    void thePlanShowsEveryHostCommandVerbatim()
    {
        const env::EnvPlan plan = env::planEnvironment(load(write(QStringLiteral("env/sbxenv.yaml"), kSeed)),
                                                       sandbox::checkEnvironmentShares);
        const QString text = env::planText(plan, {}, {});
        QVERIFY2(text.contains(QStringLiteral("echo \"up: $SBX_SANDBOX_NAME\" >> started.log\n"
                                              "date >> started.log\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("not approved yet")), qPrintable(text));
        for (const char *part :
             {"/home/agent/.nuget (read-write)", "PGHOST=postgres", "postgres: postgres:16, ports 5432"})
            QVERIFY2(text.contains(QLatin1String(part)), qPrintable(text));
    }

    void anUnknownFieldIsAnErrorAtItsLineAndColumn_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("field");
        QTest::newRow("top level") << QByteArray("schemaVersion: \"1\"\nname: x\nagnet: pi\n") << 3 << 1
                                   << QStringLiteral("agnet");
        QTest::newRow("a host command") << QByteArray("schemaVersion: \"1\"\nname: x\nlifecycle:\n  postCreate:\n"
                                                      "    - name: a\n      cmd: touch x\n")
                                        << 6 << 7 << QStringLiteral("cmd");
        QTest::newRow("x-paddock") << QByteArray("schemaVersion: \"1\"\nname: x\nx-paddock:\n  mount: []\n") << 4 << 3
                                   << QStringLiteral("mount");
        QTest::newRow("a binding") << QByteArray("name: x\nbindings:\n  github:\n    apiKey:\n      domain: [a]\n") << 5
                                   << 7 << QStringLiteral("domain");
    }
    void anUnknownFieldIsAnErrorAtItsLineAndColumn()
    {
        QFETCH(QByteArray, text);
        const auto parsed = env::parseEnvironment(text, QStringLiteral("/p/sbxenv.yaml"));
        QVERIFY(std::holds_alternative<FileError>(parsed));
        const FileError error = std::get<FileError>(parsed);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, field);
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        QVERIFY2(error.message.contains(QStringLiteral("unknown field '%1'").arg(field)), qPrintable(error.message));
        QVERIFY2(error.toString().startsWith(QStringLiteral("/p/sbxenv.yaml:%1:%2:").arg(line).arg(column)),
                 qPrintable(error.toString()));
    }

    void sbxFieldsPaddockDoesNotSupportSayWhatToDo()
    {
        const auto parsed = env::parseEnvironment("schemaVersion: \"1\"\nname: x\nsecrets:\n  github: {}\n",
                                                  QStringLiteral("/p/sbxenv.yaml"));
        QVERIFY(std::holds_alternative<FileError>(parsed));
        QCOMPARE(std::get<FileError>(parsed).line, 3);
        QVERIFY2(std::get<FileError>(parsed).message.contains(QStringLiteral("paddock secret set")),
                 qPrintable(std::get<FileError>(parsed).message));
    }

    void theUserFileMergesBeneath()
    {
        const QString user = write(QStringLiteral("home/.sbxenv.yaml"),
                                   "schemaVersion: \"1\"\nagent: claude\nenv:\n  EDITOR: vi\n  PGHOST: localhost\n"
                                   "x-paddock:\n  backend: bwrap\n");
        const QString project = write(QStringLiteral("env/sbxenv.yaml"),
                                      "schemaVersion: \"1\"\nname: p\nworkspace: project\nenv:\n  PGHOST: postgres\n");
        const auto loaded = env::loadEnvironment(project, user);
        QVERIFY2(std::holds_alternative<env::Environment>(loaded), qPrintable(errorText(loaded)));
        const env::Environment merged = std::get<env::Environment>(loaded);
        QCOMPARE(merged.agent, QStringLiteral("claude"));
        QCOMPARE(merged.env.value(QStringLiteral("EDITOR")), QStringLiteral("vi"));
        QCOMPARE(merged.env.value(QStringLiteral("PGHOST")), QStringLiteral("postgres"));
        QCOMPARE(merged.backend, QStringLiteral("bwrap"));
        QCOMPARE(merged.files, (QStringList{user, project}));
        // Without the user file, no agent: the file alone names no kit.
        QVERIFY(std::holds_alternative<FileError>(env::loadEnvironment(project, QString())));
    }

    void paddocksOwnPartIsChecked_data()
    {
        QTest::addColumn<QByteArray>("part");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("backend") << QByteArray("  backend: lxc\n") << QStringLiteral("bwrap or docker") << 5;
        QTest::newRow("upstream proxy") << QByteArray("  upstreamProxy: http://proxy:3128\n")
                                        << QStringLiteral("paddock settings set upstream-proxy") << 5;
        QTest::newRow("mount") << QByteArray("  mounts: [\"~/.nuget:relative\"]\n")
                               << QStringLiteral("x-paddock.mounts") << 5;
        QTest::newRow("service") << QByteArray("  services:\n    - name: db\n") << QStringLiteral("name and image")
                                 << 6;
        QTest::newRow("port") << QByteArray("  services:\n    - {name: db, image: p, ports: [70000]}\n")
                              << QStringLiteral("1 to 65535") << 6;
    }
    void paddocksOwnPartIsChecked()
    {
        QFETCH(QByteArray, part);
        QFETCH(QString, message);
        const auto parsed = env::parseEnvironment("schemaVersion: \"1\"\nname: x\nagent: a\nx-paddock:\n" + part,
                                                  m_root.filePath(QStringLiteral("env/sbxenv.yaml")));
        QVERIFY(std::holds_alternative<FileError>(parsed));
        QVERIFY2(std::get<FileError>(parsed).message.contains(message),
                 qPrintable(std::get<FileError>(parsed).message));
        QFETCH(int, line);
        QCOMPARE(std::get<FileError>(parsed).line, line);
    }

    void aMountTheDaemonRefusesIsRefusedInThePlan()
    {
        const env::EnvPlan plan =
            env::planEnvironment(load(write(QStringLiteral("env/sbxenv.yaml"),
                                            "schemaVersion: \"1\"\nname: x\nagent: a\nworkspace: "
                                            "project\nx-paddock:\n  mounts: [\"~/.ssh:/home/agent/.ssh\"]\n")),
                                 sandbox::checkEnvironmentShares);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.first().startsWith(QStringLiteral("x-paddock.mounts ")),
                 qPrintable(plan.problems.first()));
        QVERIFY2(plan.problems.first().contains(QStringLiteral("never shared")), qPrintable(plan.problems.first()));
        QVERIFY(env::planText(plan, {}, {}).contains(QStringLiteral("Refused: x-paddock.mounts")));
    }

    void aWorkspaceTheDaemonRefusesIsRefusedInThePlan()
    {
        // The home folder as the workspace: every credential in it would be the agent's.
        const env::EnvPlan plan =
            env::planEnvironment(load(write(QStringLiteral("env/sbxenv.yaml"),
                                            "schemaVersion: \"1\"\nname: x\nagent: a\nworkspace: ../home\n")),
                                 sandbox::checkEnvironmentShares);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.first().startsWith(QStringLiteral("workspace: ")), qPrintable(plan.problems.first()));
    }

    void theFileInTheWorkspaceMustBeItsTopSbxenv()
    {
        write(QStringLiteral("env/project/sub/sbxenv.yaml"),
              "schemaVersion: \"1\"\nname: x\nagent: a\nworkspace: ..\n");
        const env::EnvPlan nested = env::planEnvironment(
            load(m_root.filePath(QStringLiteral("env/project/sub/sbxenv.yaml"))), sandbox::checkEnvironmentShares);
        QVERIFY(!nested.ok());
        QVERIFY2(nested.problems.first().contains(QStringLiteral("could change what runs here")),
                 qPrintable(nested.problems.first()));
        const env::EnvPlan top = env::planEnvironment(
            load(write(QStringLiteral("env/project/sbxenv.yaml"), "schemaVersion: \"1\"\nname: x\nagent: a\n")),
            sandbox::checkEnvironmentShares);
        QVERIFY2(top.ok(), qPrintable(top.problems.join(QLatin1Char('\n'))));
        QVERIFY(top.fileInWorkspace);
    }

    void aProgramWrittenAsTheSandboxStartedIsListed()
    {
        // A read-write share of ~/.local/bin, a folder this computer runs programs from. The
        // kernel's file clock runs a tick behind the one the start was read from, so a file the
        // sandbox writes in its first milliseconds can carry a time just before the start.
        const QString bin = m_root.filePath(QStringLiteral("home/.local/bin"));
        QVERIFY(QDir().mkpath(bin));
        write(QStringLiteral("home/.local/bin/tool"), "#!/bin/sh\n");
        const QDateTime stamped = QFileInfo(bin + QStringLiteral("/tool")).metadataChangeTime();
        const QList<kit::SharedFolder> shares{{bin, QStringLiteral("/opt/b"), true}};
        const QList<sandbox::ReviewedChange> changes = sandbox::programFolderChanges(shares, stamped.addMSecs(20));
        QCOMPARE(changes.size(), 1);
        QVERIFY2(changes.first().path.endsWith(QLatin1String(".local/bin/tool")), qPrintable(changes.first().path));
        // One changed well before the start is not the sandbox's doing.
        QVERIFY(sandbox::programFolderChanges(shares, stamped.addSecs(5)).isEmpty());
        // Nor is anything in a folder shared read-only.
        QVERIFY(sandbox::programFolderChanges({{bin, QStringLiteral("/opt/b"), false}}, stamped).isEmpty());
    }

    void anApprovalHoldsForTheExactTextOnly()
    {
        const env::Environment environment = load(write(QStringLiteral("env/sbxenv.yaml"), kSeed));
        const env::HostCommand command = environment.commandsOf(QStringLiteral("postCreate")).first();
        QString error;
        QVERIFY2(env::HostCommandApprovals().approve(command, &error), qPrintable(error));
        QVERIFY(QFile::exists(m_root.filePath(QStringLiteral("state/paddock/env-approvals.json"))));
        const env::HostCommandApprovals approvals; // read back from the file
        QVERIFY(approvals.isApproved(command));
        env::HostCommand changed = command;
        changed.command += QLatin1Char(' ');
        QVERIFY(!approvals.isApproved(changed));
        env::HostCommand moved = command;
        moved.file = m_root.filePath(QStringLiteral("other/sbxenv.yaml"));
        QVERIFY(!approvals.isApproved(moved));
        env::HostCommand otherPhase = command;
        otherPhase.phase = QStringLiteral("preRemove");
        QVERIFY(!approvals.isApproved(otherPhase));
    }

private:
    static QString errorText(const std::variant<env::Environment, FileError> &loaded)
    {
        const auto *error = std::get_if<FileError>(&loaded);
        return error ? error->toString() : QString();
    }
    QString write(const QString &relative, const QByteArray &text)
    {
        const QString path = m_root.filePath(relative);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    env::Environment load(const QString &path)
    {
        const auto loaded = env::loadEnvironment(path, QString());
        if (const auto *error = std::get_if<FileError>(&loaded))
            qFatal("%s", qPrintable(error->toString()));
        return std::get<env::Environment>(loaded);
    }

    QTemporaryDir m_root;
};

QTEST_GUILESS_MAIN(TestEnvFile)
#include "tst_env_file.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/AgentConfig.h"
#include "agentperms/ConfinedFile.h"
#include "agentperms/ReviewLog.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace paddock::agentperms;

namespace {

const QByteArray kBlockedRead =
    R"({"timestamp":"2026-12-01T16:40:56.035Z","extension":"pi-permission-system","stream":"review","event":"permission_request.blocked","source":"tool_call","toolCallId":"call0","toolName":"read","agentName":null,"path":".env","resolution":"policy_denied"})";
const QByteArray kBlockedBash =
    R"({"timestamp":"2026-12-01T16:40:56.059Z","extension":"pi-permission-system","stream":"review","event":"permission_request.blocked","source":"tool_call","toolCallId":"call1","toolName":"bash","message":"Current agent requested bash command 'rm -rf game' (matched 'rm -rf *'). Allow this command?","command":"rm -rf game","origin":"global","agentName":null,"resolution":"policy_denied"})";
const QByteArray kConfigResolved =
    R"({"timestamp":"2026-12-01T16:40:55.919Z","extension":"pi-permission-system","stream":"review","event":"config.resolved","globalConfigExists":true})";

} // namespace

class TestAgentPermsLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(logDir()));
    }

    void readsTheExtensionsLines()
    {
        const std::optional<AgentDecision> read = parseReviewLine(kBlockedRead);
        QVERIFY(read);
        QCOMPARE(read->state, State::Deny);
        QCOMPARE(read->tool, QStringLiteral("read"));
        QCOMPARE(read->value(), QStringLiteral(".env"));
        QCOMPARE(read->time, QDateTime::fromString(QStringLiteral("2026-12-01T16:40:56.035Z"), Qt::ISODateWithMs));
        const std::optional<AgentDecision> bash = parseReviewLine(kBlockedBash);
        QCOMPARE(bash->matched, QStringLiteral("rm -rf *"));
        QCOMPARE(bash->origin, QStringLiteral("global"));
        QCOMPARE(bash->value(), QStringLiteral("rm -rf game"));
        QVERIFY(!parseReviewLine(kConfigResolved));
        QVERIFY(!parseReviewLine("not json"));
        QVERIFY(!parseReviewLine(R"({"event": 12})"));
        QCOMPARE(AgentDecision::fromJson(bash->toJson()).toJson(), bash->toJson());
    }

    void followsAppendedAndPartialLines()
    {
        ReviewLogFollower follower(m_home->path());
        QVERIFY(follower.poll().isEmpty()); // no log yet
        append(kConfigResolved + '\n' + kBlockedRead.left(40));
        QCOMPARE(follower.poll(), QList<QByteArray>{kConfigResolved});
        QVERIFY(follower.poll().isEmpty());
        append(kBlockedRead.mid(40) + '\n' + kBlockedBash + '\n');
        QCOMPARE(follower.poll(), (QList<QByteArray>{kBlockedRead, kBlockedBash}));
    }

    void startsAgainAfterRotationAndTruncation()
    {
        ReviewLogFollower follower(m_home->path());
        append(kBlockedRead + '\n' + kBlockedBash + '\n');
        QCOMPARE(follower.poll().size(), 2);
        // Rotated: renamed away, a new file in its place.
        QVERIFY(QFile::rename(logPath(), logPath() + QStringLiteral(".1")));
        append(kBlockedBash + '\n');
        QCOMPARE(follower.poll(), QList<QByteArray>{kBlockedBash});
        // Truncated in place.
        QFile file(logPath());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(kBlockedRead + '\n');
        file.close();
        QCOMPARE(follower.poll(), QList<QByteArray>{kBlockedRead});
    }

    void dropsOverlongLinesAndBoundsEachRead()
    {
        ReviewLogFollower follower(m_home->path());
        append(QByteArray(kMaxReviewLineBytes + 10, 'x') + '\n' + kBlockedRead + '\n');
        QList<QByteArray> lines;
        for (int i = 0; i < 5; ++i)
            lines += follower.poll();
        QCOMPARE(lines, QList<QByteArray>{kBlockedRead});
        // A file already huge when first seen: only its end is read, from a line boundary.
        ReviewLogFollower late(m_home->path());
        append(QByteArray(ReviewLogFollower::kMaxBacklog, '\n') + kBlockedBash + '\n');
        lines.clear();
        for (int i = 0; i < 10; ++i)
            lines += late.poll();
        QCOMPARE(lines, QList<QByteArray>{kBlockedBash});
    }

    void neverFollowsALink()
    {
        // The log itself a link to a file outside the home.
        QTemporaryDir outside;
        const QString secret = outside.filePath(QStringLiteral("secret.jsonl"));
        QFile file(secret);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kBlockedRead + '\n');
        file.close();
        QVERIFY(QFile::link(secret, logPath()));
        ReviewLogFollower follower(m_home->path());
        QString problem;
        QVERIFY(follower.poll(&problem).isEmpty());
        QVERIFY2(problem.contains(QLatin1String("link")), qPrintable(problem));
        // A folder on the way a link.
        QVERIFY(QFile::remove(logPath()));
        QVERIFY(QDir(logDir()).removeRecursively());
        QVERIFY(QFile::link(outside.path(), logDir()));
        QFile::copy(secret, outside.filePath(QFileInfo(logPath()).fileName()));
        problem.clear();
        QVERIFY(follower.poll(&problem).isEmpty());
        QVERIFY2(problem.contains(QLatin1String("link")), qPrintable(problem));
        // A FIFO in its place does not block.
        QVERIFY(QFile::remove(logDir()));
        QVERIFY(QDir().mkpath(logDir()));
        QCOMPARE(::mkfifo(QFile::encodeName(logPath()).constData(), 0600), 0);
        QVERIFY(follower.poll(&problem).isEmpty());
    }

    void writesConfinedAndAtomically()
    {
        const QString relative = projectConfigRelativePath();
        QString error;
        QVERIFY2(writeConfined(m_home->path(), relative, "{}\n", &error), qPrintable(error));
        bool missing = false;
        QCOMPARE(readConfined(m_home->path(), relative, 1024, &missing, &error).value_or(QByteArray()),
                 QByteArray("{}\n"));
        // A link planted as the file is not written through, nor read.
        QTemporaryDir outside;
        const QString target = outside.filePath(QStringLiteral("bashrc"));
        QFile::remove(m_home->filePath(relative));
        QVERIFY(QFile::link(target, m_home->filePath(relative)));
        QVERIFY(!readConfined(m_home->path(), relative, 1024, &missing, &error));
        QVERIFY(!writeConfined(m_home->path(), relative, "{\"permission\": {}}\n", &error));
        QVERIFY(error.contains(QLatin1String("not a regular file")));
        QVERIFY(!QFile::exists(target)); // nothing written through the link
        // A link as a folder on the way refuses the write.
        QVERIFY(QDir(m_home->filePath(QStringLiteral(".pi"))).removeRecursively());
        QVERIFY(QFile::link(outside.path(), m_home->filePath(QStringLiteral(".pi"))));
        QVERIFY(!writeConfined(m_home->path(), relative, "{}\n", &error));
        QVERIFY(error.contains(QLatin1String("link")));
        QVERIFY(QDir(outside.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
        // Bounded reads.
        QVERIFY(writeConfined(m_home->path(), QStringLiteral("big.json"), QByteArray(4096, ' '), &error));
        QVERIFY(!readConfined(m_home->path(), QStringLiteral("big.json"), 1024, &missing, &error));
        QVERIFY(!missing);
        QVERIFY(!writeConfined(m_home->path(), QStringLiteral("../escape.json"), "{}", &error));
    }

private:
    QString logPath() const { return m_home->filePath(reviewLogRelativePath()); }
    QString logDir() const { return QFileInfo(logPath()).absolutePath(); }
    void append(const QByteArray &data)
    {
        QFile file(logPath());
        QVERIFY(file.open(QIODevice::Append));
        file.write(data);
    }

    std::unique_ptr<QTemporaryDir> m_home;
};

QTEST_GUILESS_MAIN(TestAgentPermsLog)
#include "tst_agentperms_log.moc"

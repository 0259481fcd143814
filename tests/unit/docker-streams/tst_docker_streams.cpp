// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's two stream formats: multiplexed output frames and the build's JSON lines.
#include "runtime/docker/BuildProgress.h"
#include "runtime/docker/StreamDemuxer.h"

#include <QtTest>

using namespace paddock::runtime::docker;

namespace {

QByteArray frame(char stream, const QByteArray &payload)
{
    QByteArray header(8, '\0');
    header[0] = stream;
    const quint32 size = quint32(payload.size());
    header[4] = char(size >> 24);
    header[5] = char(size >> 16);
    header[6] = char(size >> 8);
    header[7] = char(size);
    return header + payload;
}

QByteArray buildLine(const QString &text)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("stream"), text}}).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

class TestDockerStreams : public QObject
{
    Q_OBJECT

private slots:
    void separatesStdoutAndStderr()
    {
        StreamDemuxer demuxer;
        QVERIFY(demuxer.feed(frame(1, "hello ") + frame(2, "oops\n") + frame(1, "world\n")));
        QCOMPARE(demuxer.stdoutData(), QByteArray("hello world\n"));
        QCOMPARE(demuxer.stderrData(), QByteArray("oops\n"));
        QVERIFY(demuxer.atFrameBoundary());
    }

    void reassemblesFramesSplitAnywhere()
    {
        // 300 bytes of payload makes the size use two bytes of the header.
        const QByteArray big(300, 'x');
        const QByteArray stream = frame(1, "a") + frame(2, big) + frame(1, "end");
        for (int chunk : {1, 3, 7, 8, 9, 64}) {
            StreamDemuxer demuxer;
            for (qsizetype i = 0; i < stream.size(); i += chunk)
                QVERIFY(demuxer.feed(stream.mid(i, chunk)));
            QCOMPARE(demuxer.stdoutData(), QByteArray("aend"));
            QCOMPARE(demuxer.stderrData(), big);
            QVERIFY(demuxer.atFrameBoundary());
        }
        StreamDemuxer half;
        half.feed(stream.left(12));
        QVERIFY(!half.atFrameBoundary());
    }

    void refusesRawTtyOutput()
    {
        StreamDemuxer demuxer;
        QVERIFY(!demuxer.feed(QByteArray("plain text from a tty\n")));
        QVERIFY(demuxer.failed());
    }

    void sinkSeesEachStream()
    {
        QList<std::pair<StreamDemuxer::Stream, QByteArray>> seen;
        StreamDemuxer demuxer([&seen](StreamDemuxer::Stream stream, const char *data, size_t size) {
            seen.append({stream, QByteArray(data, qsizetype(size))});
        });
        demuxer.feed(frame(2, "e") + frame(1, "o"));
        QCOMPARE(seen.size(), 2);
        QCOMPARE(seen.at(0).first, StreamDemuxer::Stream::Stderr);
        QCOMPARE(seen.at(1).second, QByteArray("o"));
    }

    void reportsStepsAndPercent()
    {
        // The lines the engine sends for a three-instruction Dockerfile, split mid-line.
        QByteArray stream = buildLine(QStringLiteral("Step 1/3 : FROM scratch")) + buildLine(QStringLiteral("\n")) +
                            buildLine(QStringLiteral(" ---> \n")) +
                            buildLine(QStringLiteral("Step 2/3 : COPY busybox /bin/busybox")) +
                            buildLine(QStringLiteral("\n")) + buildLine(QStringLiteral("Step 3/3 : RUN true")) +
                            buildLine(QStringLiteral("\n")) +
                            R"({"aux":{"ID":"sha256:0123abcd"}})"
                            "\n" +
                            buildLine(QStringLiteral("Successfully built 0123abcd\n"));
        QList<BuildProgress> reports;
        BuildProgressParser parser([&reports](const BuildProgress &progress) { reports.append(progress); });
        for (qsizetype i = 0; i < stream.size(); i += 5)
            parser.feed(stream.mid(i, 5));
        parser.finish();

        QList<int> steps;
        QList<int> percents;
        for (const BuildProgress &report : reports) {
            if (steps.isEmpty() || steps.last() != report.step) {
                steps.append(report.step);
                percents.append(report.percent);
            }
        }
        QCOMPARE(steps, (QList<int>{1, 2, 3}));
        QCOMPARE(percents, (QList<int>{0, 33, 66}));
        QCOMPARE(reports.last().percent, 100);
        QCOMPARE(reports.last().totalSteps, 3);
        QCOMPARE(reports.at(0).instruction, QStringLiteral("FROM scratch"));
        QVERIFY(!parser.failed());
        QCOMPARE(parser.imageId(), QStringLiteral("sha256:0123abcd"));
        QVERIFY(parser.log().contains(QStringLiteral("Successfully built")));
    }

    void reportsTheEnginesError()
    {
        BuildProgressParser parser;
        parser.feed(buildLine(QStringLiteral("Step 1/1 : RUN false\n")));
        parser.feed(QByteArray(
            R"({"errorDetail":{"code":1,"message":"The command '/bin/sh -c false' returned a non-zero code: 1"},"error":"The command '/bin/sh -c false' returned a non-zero code: 1"})"
            "\n"));
        parser.finish();
        QVERIFY(parser.failed());
        QCOMPARE(parser.error(), QStringLiteral("The command '/bin/sh -c false' returned a non-zero code: 1"));
        QCOMPARE(parser.progress().step, 1);
        QVERIFY(parser.progress().percent < 100);
    }
};

QTEST_GUILESS_MAIN(TestDockerStreams)
#include "tst_docker_streams.moc"

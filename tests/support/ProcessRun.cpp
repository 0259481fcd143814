// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProcessRun.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

namespace paddock::test {

ProcessOutput runProcess(const QString &program, const QStringList &arguments, const ProcessOptions &options)
{
    QProcess process;
    process.setProcessEnvironment(options.environment);
    if (!options.workingDirectory.isEmpty())
        process.setWorkingDirectory(options.workingDirectory);
    process.start(program, arguments);
    ProcessOutput result;
    result.started = process.waitForStarted(30000);
    if (!result.started)
        return result;
    process.write(options.input);
    process.closeWriteChannel();
    const bool finished =
        options.serveEvents
            ? QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, options.timeoutMs)
            : process.waitForFinished(options.timeoutMs);
    if (!finished) {
        result.timedOut = true;
        process.kill();
        process.waitForFinished();
    }
    if (process.exitStatus() == QProcess::NormalExit && !result.timedOut)
        result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

Finished runText(const QString &program, const QStringList &arguments, const ProcessOptions &options)
{
    const ProcessOutput output = runProcess(program, arguments, options);
    return {output.exitCode, QString::fromUtf8(output.out), QString::fromUtf8(output.err)};
}

bool waitForOutput(QProcess &process, const QByteArray &text, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        if (process.peek(process.bytesAvailable()).contains(text))
            return true;
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0 || process.state() == QProcess::NotRunning)
            return process.peek(process.bytesAvailable()).contains(text);
        process.waitForReadyRead(int(std::min<qint64>(left, 100)));
    }
}

bool terminateCleanly(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return false;
    process.terminate();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        return false;
    }
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProcessRun.h"

#include <QTest>

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

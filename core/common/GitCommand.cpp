// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/GitCommand.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace paddock::git {

Result<QString> run(const QStringList &arguments, const QString &workingDirectory, int timeoutMs)
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (program.isEmpty())
        return fail(QStringLiteral("git is not installed"), QStringLiteral("install git (apt-get install git)"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &key : environment.keys()) {
        if (key.startsWith(QLatin1String("GIT_")))
            environment.remove(key);
    }
    environment.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(program, arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return fail(QStringLiteral("git %1 did not finish").arg(arguments.join(QLatin1Char(' ')).left(80)));
    }
    const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return fail(error.isEmpty() ? QStringLiteral("git %1 failed").arg(arguments.join(QLatin1Char(' ')).left(80))
                                    : error.left(2000));
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

} // namespace paddock::git

// SPDX-License-Identifier: GPL-3.0-or-later
#include "api/DaemonLauncher.h"

#include "api/DaemonConnection.h"
#include "common/Paths.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

#include <unistd.h>

Q_LOGGING_CATEGORY(lcApiLauncher, "paddock.api.launcher", QtWarningMsg)

namespace paddock::api {
namespace {

const QString kDaemonName = QStringLiteral("paddockd");

bool isExecutableFile(const QString &path)
{
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable();
}

} // namespace

QString findDaemonExecutable(QString *error)
{
    const QString override = qEnvironmentVariable("PADDOCKD");
    if (!override.isEmpty()) {
        const QString path = override.contains(QLatin1Char('/')) ? override : QStandardPaths::findExecutable(override);
        if (!path.isEmpty() && isExecutableFile(path))
            return QFileInfo(path).absoluteFilePath();
        if (error)
            *error = QStringLiteral("PADDOCKD is set to %1, which is not an executable file").arg(override);
        return {};
    }
    QString besideUs;
    if (QCoreApplication::instance()) {
        besideUs = QCoreApplication::applicationDirPath() + QLatin1Char('/') + kDaemonName;
        if (isExecutableFile(besideUs))
            return besideUs;
    }
    const QString onPath = QStandardPaths::findExecutable(kDaemonName);
    if (!onPath.isEmpty())
        return onPath;
    if (error) {
        *error =
            besideUs.isEmpty()
                ? QStringLiteral("paddockd is not on PATH")
                : QStringLiteral("paddockd is neither in %1 nor on PATH").arg(QCoreApplication::applicationDirPath());
    }
    return {};
}

bool startDaemonDetached(QString *error)
{
    const QString program = findDaemonExecutable(error);
    if (program.isEmpty())
        return false;
    QProcess process;
    process.setProgram(program);
    process.setArguments({QStringLiteral("--foreground")});
    process.setWorkingDirectory(QDir::rootPath());
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // Our journal stream, if any, is not the daemon's stderr.
    environment.remove(QStringLiteral("JOURNAL_STREAM"));
    process.setProcessEnvironment(environment);
    // A session of its own: closing the terminal or pressing Ctrl-C in it must not reach it.
    process.setChildProcessModifier([] { ::setsid(); });
    qint64 pid = 0;
    if (!process.startDetached(&pid)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(program, process.errorString());
        return false;
    }
    qCInfo(lcApiLauncher).noquote() << "started" << program << "pid" << pid;
    return true;
}

DaemonStatus ensureDaemonRunning(const QString &socketPath, int timeoutMs, DaemonConnection *kept)
{
    DaemonStatus status;
    DaemonConnection own;
    DaemonConnection &connection = kept ? *kept : own;
    QString error;
    auto answered = [&] {
        status.running = true;
        status.pid = connection.server().pid;
        status.version = connection.server().version;
        return status;
    };
    if (connection.open(socketPath, timeoutMs, &error))
        return answered();
    if (connection.failure() != DaemonConnection::Failure::NotRunning) {
        // Something is there but unusable; a second daemon would only be refused.
        status.error = error;
        return status;
    }

    if (!startDaemonDetached(&error)) {
        status.error = QStringLiteral("cannot start paddockd: %1").arg(error);
        return status;
    }
    status.started = true;
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (connection.open(socketPath, int(std::max<qint64>(deadline.remainingTime(), 1)), &error))
            return answered();
        if (connection.failure() == DaemonConnection::Failure::Refused) {
            status.error = QStringLiteral("cannot start paddockd: %1").arg(error);
            return status;
        }
        QThread::msleep(50);
    }
    status.error = QStringLiteral("cannot start paddockd: it did not answer on %1 within %2 seconds "
                                  "(its log is in %3/paddockd.log or the journal)")
                       .arg(socketPath)
                       .arg(timeoutMs / 1000.0)
                       .arg(paths::stateDir());
    return status;
}

} // namespace paddock::api

// SPDX-License-Identifier: GPL-3.0-or-later
// paddockd: the per-user daemon that owns sandboxes, the proxy, the policy and the denial log.
#include "Daemon.h"
#include "DaemonLog.h"

#include "api/Protocol.h"
#include "common/Paths.h"
#include "paddock/Version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QLoggingCategory>

#include <cstdio>

#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcDaemon)

namespace {

// The daemon will hold provider keys: no core file may carry them to disk, and other
// processes of the user may not ptrace it or read its memory through /proc.
void disableCoreDumps()
{
    const struct rlimit none
    {
        0, 0
    };
    ::setrlimit(RLIMIT_CORE, &none);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

} // namespace

int main(int argc, char *argv[])
{
    disableCoreDumps();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("paddockd"));
    QCoreApplication::setApplicationVersion(QLatin1String(paddock::kVersion));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The Paddock daemon: owns running sandboxes, the egress proxy, the network policy and the "
                       "denial log, and answers the paddock GUI and CLI on %1.\n"
                       "Clients start it on demand; 'paddock daemon stop' stops it.")
            .arg(paddock::paths::daemonSocket()));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption foreground(
        QStringLiteral("foreground"),
        QStringLiteral("Stay attached to the terminal (the default: clients detach it themselves, and systemd "
                       "expects it)."));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Log debug messages too."));
    parser.addOption(foreground);
    parser.addOption(verbose);
    parser.process(app);
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "paddockd: unexpected argument '%s'\nTry 'paddockd --help'.\n",
                     qPrintable(parser.positionalArguments().constFirst()));
        return 2;
    }

    // Never keep a mount busy because of the directory we happened to be started in.
    if (::chdir("/") != 0)
        std::perror("paddockd: chdir /");

    QString logFile;
    const paddock::daemon::LogTarget target =
        paddock::daemon::installLogHandler(parser.isSet(verbose), parser.isSet(foreground), &logFile);

    paddock::daemon::Daemon daemon;
    QString message;
    const QString socketPath = paddock::paths::daemonSocket();
    switch (daemon.start(socketPath, &message)) {
    case paddock::daemon::Daemon::StartResult::Started:
        break;
    case paddock::daemon::Daemon::StartResult::AlreadyRunning:
        qCInfo(lcDaemon).noquote() << "not starting:" << message;
        // Unless the log already goes to stderr, say it where the person who started us looks.
        if (target != paddock::daemon::LogTarget::Stderr)
            std::fprintf(stderr, "%s\n", qPrintable(message));
        return 1;
    case paddock::daemon::Daemon::StartResult::Failed:
        qCCritical(lcDaemon).noquote() << "cannot start:" << message;
        if (target != paddock::daemon::LogTarget::Stderr)
            std::fprintf(stderr, "paddockd: cannot start: %s\n", qPrintable(message));
        return 1;
    }
    qCInfo(lcDaemon).noquote() << "paddockd" << paddock::kVersion << "started, pid"
                               << QCoreApplication::applicationPid() << "protocol" << paddock::api::kProtocolVersion
                               << "socket" << socketPath
                               << (target == paddock::daemon::LogTarget::Journal
                                       ? QStringLiteral("(logging to the journal)")
                                       : QStringLiteral("log %1").arg(logFile));
    const int code = QCoreApplication::exec();
    daemon.stop();
    qCInfo(lcDaemon) << "stopped";
    return code;
}

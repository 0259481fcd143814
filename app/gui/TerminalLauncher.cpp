// SPDX-License-Identifier: GPL-3.0-or-later
#include "TerminalLauncher.h"

#include "kit/AgentVerbs.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

Q_LOGGING_CATEGORY(lcTerminal, "paddock.gui.terminal", QtWarningMsg)

namespace paddock::gui {

TerminalLauncher::TerminalLauncher(QObject *parent) : QObject(parent)
{
    // The window is paddock-gui, installed beside `paddock`, whose commands a terminal runs.
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/paddock");
    m_paddockProgram =
        QFileInfo(beside).isExecutable() ? beside : QStandardPaths::findExecutable(QStringLiteral("paddock"));
    if (m_paddockProgram.isEmpty())
        m_paddockProgram = QStringLiteral("paddock");
    m_terminal = findTerminal();
}

void TerminalLauncher::refresh()
{
    const QString found = findTerminal();
    if (m_terminal == found)
        return;
    m_terminal = found;
    Q_EMIT terminalChanged();
}

void TerminalLauncher::setPaddockProgram(const QString &program)
{
    if (m_paddockProgram == program)
        return;
    m_paddockProgram = program;
    Q_EMIT paddockProgramChanged();
}

void TerminalLauncher::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

QString TerminalLauncher::findTerminal()
{
    const QString chosen = qEnvironmentVariable("TERMINAL").trimmed();
    if (!chosen.isEmpty()) {
        const QString found = QStandardPaths::findExecutable(chosen);
        if (!found.isEmpty())
            return found;
        if (QFileInfo(chosen).isExecutable())
            return chosen;
    }
    for (const char *candidate : {"x-terminal-emulator", "gnome-terminal", "konsole", "xterm"}) {
        const QString found = QStandardPaths::findExecutable(QLatin1String(candidate));
        if (!found.isEmpty())
            return found;
    }
    return {};
}

namespace {

QString paddockName()
{
    return QStringLiteral("paddock");
}

QStringList agentArguments(const QString &name, bool start)
{
    QStringList arguments{QStringLiteral("attach")};
    if (start)
        arguments << QStringLiteral("--start");
    return arguments << name;
}

} // namespace

QStringList TerminalLauncher::agentCommand(const QString &name, bool start) const
{
    return QStringList{m_paddockProgram} + agentArguments(name, start);
}

QStringList TerminalLauncher::shellCommand(const QString &name) const
{
    // The window cannot see inside the sandbox, so the sandbox's own sh picks the shell.
    return QStringList{m_paddockProgram,
                       QStringLiteral("exec"),
                       QStringLiteral("-it"),
                       name,
                       QStringLiteral("sh"),
                       QStringLiteral("-c"),
                       QStringLiteral("command -v bash >/dev/null 2>&1 && exec bash -l; exec sh -l")};
}

QString TerminalLauncher::typedAgentCommand(const QString &name, bool start)
{
    return shellJoin(QStringList{paddockName()} + agentArguments(name, start));
}

QString TerminalLauncher::shellJoin(const QStringList &argv)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList quoted;
    for (const QString &argument : argv) {
        if (plain.match(argument).hasMatch())
            quoted << argument;
        else
            quoted << QLatin1Char('\'') + QString(argument).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                          QLatin1Char('\'');
    }
    return quoted.join(QLatin1Char(' '));
}

QStringList TerminalLauncher::terminalArgv(const QString &terminal, const QStringList &inner, const QString &title)
{
    // gnome-terminal takes the command after "--"; the others (and the Debian alternative,
    // whatever it points at) after "-e" as separate arguments.
    const QString base = QFileInfo(terminal).fileName();
    if (base == QLatin1String("gnome-terminal") || base == QLatin1String("gnome-terminal.wrapper"))
        return QStringList{terminal, QStringLiteral("--")} + inner;
    QStringList argv{terminal};
    // xterm and its wrappers name the window after the program (here "sh") unless told.
    static const QStringList xterms{QStringLiteral("xterm"), QStringLiteral("lxterm"), QStringLiteral("uxterm")};
    const QString target = QFileInfo(QFileInfo(terminal).canonicalFilePath()).fileName();
    if (!title.isEmpty() && (xterms.contains(base) || xterms.contains(target)))
        argv << QStringLiteral("-T") << title;
    return argv << QStringLiteral("-e") << inner;
}

QStringList TerminalLauncher::holdOnFailure(const QStringList &command)
{
    // The message is $0 and the command the rest, so nothing in them is read as shell code;
    // %1 becomes the status, a number.
    static const QString script = QStringLiteral("\"$@\"; status=$?; if [ \"$status\" -ne 0 ]; then "
                                                 "printf '\\n%s ' \"$0\" | sed \"s/%1/$status/\"; read -r _; fi; "
                                                 "exit \"$status\"");
    return QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"), script,
                       tr("[ended with status %1: press Enter to close this window]")} +
           command;
}

bool TerminalLauncher::openAgent(const QString &name, bool start)
{
    return open(agentCommand(name, start), tr("%1: agent").arg(name));
}

bool TerminalLauncher::openShell(const QString &name)
{
    return open(shellCommand(name), tr("%1: shell").arg(name));
}

QStringList TerminalLauncher::agentVerbCommand(const QString &name, const QStringList &arguments) const
{
    return QStringList{m_paddockProgram, QStringLiteral("agent"), name} + arguments;
}

bool TerminalLauncher::openAgentVerb(const QString &name, const QStringList &arguments)
{
    return open(agentVerbCommand(name, arguments), tr("%1: agent").arg(name));
}

void TerminalLauncher::listSessions(const QString &name)
{
    auto *process = new QProcess(this);
    process->setProgram(m_paddockProgram);
    process->setArguments({QStringLiteral("agent"), name, QStringLiteral("--sessions")});
    process->setStandardInputFile(QProcess::nullDevice());
    auto *deadline = new QTimer(process);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, process, [process] { process->kill(); });
    connect(process, &QProcess::finished, this, [this, process, name](int code, QProcess::ExitStatus status) {
        QStringList ids;
        QString error;
        if (status != QProcess::NormalExit)
            error = tr("Listing the sessions of %1 took too long.").arg(name);
        else if (code != 0)
            error = QString::fromUtf8(process->readAllStandardError()).trimmed().section(QLatin1Char('\n'), 0, 0);
        else
            ids = kit::parseSessionIds(process->readAllStandardOutput());
        process->deleteLater();
        Q_EMIT sessionsListed(name, ids, error);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, name](QProcess::ProcessError problem) {
        if (problem != QProcess::FailedToStart)
            return;
        process->deleteLater();
        Q_EMIT sessionsListed(name, {}, tr("%1 could not be started.").arg(m_paddockProgram));
    });
    deadline->start(20000);
    process->start();
}

bool TerminalLauncher::open(const QStringList &command, const QString &title)
{
    refresh();
    if (m_terminal.isEmpty()) {
        QStringList typed = command;
        typed.first() = paddockName();
        setError(tr("No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. "
                    "The command is: %1")
                     .arg(shellJoin(typed)));
        return false;
    }
    QStringList argv = terminalArgv(m_terminal, holdOnFailure(command), title);
    const QString program = argv.takeFirst();
    qCDebug(lcTerminal) << "opening" << program << argv;
    if (!QProcess::startDetached(program, argv)) {
        setError(tr("The terminal %1 could not be started.").arg(program));
        return false;
    }
    setError(QString());
    return true;
}

} // namespace paddock::gui

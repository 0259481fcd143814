// SPDX-License-Identifier: GPL-3.0-or-later
#include "TerminalLauncher.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>

Q_LOGGING_CATEGORY(lcTerminal, "paddock.gui.terminal", QtWarningMsg)

namespace paddock::gui {

TerminalLauncher::TerminalLauncher(QObject *parent) : QObject(parent)
{
    const QString self = QCoreApplication::applicationFilePath();
    m_paddockProgram = QFileInfo(self).fileName() == QLatin1String("paddock")
                           ? self
                           : QStandardPaths::findExecutable(QStringLiteral("paddock"));
    if (m_paddockProgram.isEmpty())
        m_paddockProgram = QStringLiteral("paddock");
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

QStringList TerminalLauncher::sandboxCommand(const QString &name, const QStringList &command) const
{
    return QStringList{m_paddockProgram, QStringLiteral("exec"), QStringLiteral("-it"), name} +
           (command.isEmpty() ? QStringList{QStringLiteral("sh")} : command);
}

QStringList TerminalLauncher::terminalArgv(const QString &terminal, const QStringList &inner)
{
    // gnome-terminal takes the command after "--"; the others (and the Debian alternative,
    // whatever it points at) after "-e" as separate arguments.
    const QString base = QFileInfo(terminal).fileName();
    if (base == QLatin1String("gnome-terminal") || base == QLatin1String("gnome-terminal.wrapper"))
        return QStringList{terminal, QStringLiteral("--")} + inner;
    return QStringList{terminal, QStringLiteral("-e")} + inner;
}

bool TerminalLauncher::open(const QString &name, const QStringList &command)
{
    const QString terminal = findTerminal();
    if (terminal.isEmpty()) {
        setError(tr("No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. "
                    "The command is: %1")
                     .arg(sandboxCommand(name, command).join(QLatin1Char(' '))));
        return false;
    }
    QStringList argv = terminalArgv(terminal, sandboxCommand(name, command));
    const QString program = argv.takeFirst();
    qCDebug(lcTerminal) << "opening" << program << argv;
    if (!QProcess::startDetached(program, argv)) {
        setError(tr("The terminal %1 could not be started.").arg(program));
        return false;
    }
    setError(QString());
    return true;
}

bool TerminalLauncher::attach(const QString &name)
{
    const QStringList inner{m_paddockProgram, QStringLiteral("attach"), name};
    const QString terminal = findTerminal();
    if (terminal.isEmpty()) {
        setError(tr("No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. "
                    "The command is: %1")
                     .arg(inner.join(QLatin1Char(' '))));
        return false;
    }
    QStringList argv = terminalArgv(terminal, inner);
    const QString program = argv.takeFirst();
    if (!QProcess::startDetached(program, argv)) {
        setError(tr("The terminal %1 could not be started.").arg(program));
        return false;
    }
    setError(QString());
    return true;
}

} // namespace paddock::gui

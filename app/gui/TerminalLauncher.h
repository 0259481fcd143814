// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief Opens the desktop's terminal emulator on a sandbox, running the same `paddock`
 * command a user would type: `paddock attach [--start] NAME` for its agent, `paddock exec -it
 * NAME ...` for a shell. The window never reaches a sandbox itself: the CLI in the terminal
 * goes through the daemon.
 *
 * The terminal is `$TERMINAL` when set (the user's own choice wins), else Debian's
 * `x-terminal-emulator`, else the first of gnome-terminal, konsole and xterm found on PATH.
 * `available` says whether there is one; refresh() looks again (after the user installed one).
 *
 * The shell is a login shell, `bash -l` when the sandbox has bash (most images and the host's
 * own root), else `sh -l`: the choice is made inside the sandbox, where the window cannot look.
 *
 * A command that fails (the agent exited with a non-zero status, the sandbox was stopped)
 * keeps its terminal open until Enter, so its last words can be read.
 */
class TerminalLauncher : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    /** The `paddock` program run in the terminal; this program when it is paddock. */
    Q_PROPERTY(QString paddockProgram READ paddockProgram WRITE setPaddockProgram NOTIFY paddockProgramChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    /** True when a terminal emulator was found. */
    Q_PROPERTY(bool available READ available NOTIFY terminalChanged)
    /** The terminal found (a full path or $TERMINAL as given); empty when there is none. */
    Q_PROPERTY(QString terminal READ terminal NOTIFY terminalChanged)

public:
    explicit TerminalLauncher(QObject *parent = nullptr);

    QString paddockProgram() const { return m_paddockProgram; }
    void setPaddockProgram(const QString &program);
    QString error() const { return m_error; }
    bool available() const { return !m_terminal.isEmpty(); }
    QString terminal() const { return m_terminal; }

    /** The terminal found (a full path or $TERMINAL as given); empty when there is none. */
    Q_INVOKABLE static QString findTerminal();
    /** Looks for a terminal again. */
    Q_INVOKABLE void refresh();

    /** `paddock attach [--start] NAME` as run in the terminal. */
    QStringList agentCommand(const QString &name, bool start) const;
    /** `paddock exec -it NAME sh -c ...` (a login shell) as run in the terminal. */
    QStringList shellCommand(const QString &name) const;
    /** The agent's command as a person types it, with `paddock` from PATH. */
    Q_INVOKABLE static QString typedAgentCommand(const QString &name, bool start);
    /** @p argv as one line for a POSIX shell, each argument quoted when it needs it. */
    static QString shellJoin(const QStringList &argv);
    /** The terminal's own argv (program first) that runs @p inner, in a window called @p title where it can. */
    static QStringList terminalArgv(const QString &terminal, const QStringList &inner, const QString &title = {});
    /** @p command in a shell that, when it fails, says its status and waits for Enter. */
    static QStringList holdOnFailure(const QStringList &command);

    /** Opens the agent of @p name; with @p start the sandbox or its agent is started when needed. */
    Q_INVOKABLE bool openAgent(const QString &name, bool start);
    /** Opens a login shell in the running sandbox @p name. */
    Q_INVOKABLE bool openShell(const QString &name);
    /** `paddock agent NAME ARGS` as run in the terminal: one of the verbs the sandbox's kit declares. */
    QStringList agentVerbCommand(const QString &name, const QStringList &arguments) const;
    /** Opens `paddock agent NAME ARGS` (a new session without ARGS, `-t --resume ID`, `-t --continue`). */
    Q_INVOKABLE bool openAgentVerb(const QString &name, const QStringList &arguments);
    /**
     * Asks `paddock agent NAME --sessions` for the resumable session ids, most recent first;
     * sessionsListed() answers (with an error when it failed or took over 20 s).
     */
    Q_INVOKABLE void listSessions(const QString &name);

Q_SIGNALS:
    void paddockProgramChanged();
    void errorChanged();
    void terminalChanged();
    void sessionsListed(const QString &name, const QStringList &ids, const QString &error);

private:
    /** Starts the terminal on @p command detached; false with error set when it cannot. */
    bool open(const QStringList &command, const QString &title);
    void setError(const QString &error);

    QString m_paddockProgram;
    QString m_error;
    QString m_terminal;
};

} // namespace paddock::gui

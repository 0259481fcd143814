// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief Opens the desktop's terminal emulator on a shell inside a running sandbox:
 * `paddock exec -it NAME sh`, the same command a user would type.
 *
 * The terminal is `$TERMINAL` when set (the user's own choice wins), else Debian's
 * `x-terminal-emulator`, else the first of gnome-terminal, konsole and xterm found on PATH.
 */
class TerminalLauncher : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    /** The `paddock` program run in the terminal; this program when it is paddock. */
    Q_PROPERTY(QString paddockProgram READ paddockProgram WRITE setPaddockProgram NOTIFY paddockProgramChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    explicit TerminalLauncher(QObject *parent = nullptr);

    QString paddockProgram() const { return m_paddockProgram; }
    void setPaddockProgram(const QString &program);
    QString error() const { return m_error; }

    /** The terminal found (a full path or $TERMINAL as given); empty when there is none. */
    Q_INVOKABLE static QString findTerminal();
    /** The command run inside the terminal for sandbox @p name, @p command (default: sh) in it. */
    Q_INVOKABLE QStringList sandboxCommand(const QString &name, const QStringList &command = {}) const;
    /** The terminal's own argv (program first) that runs @p inner. */
    static QStringList terminalArgv(const QString &terminal, const QStringList &inner);
    /** Starts the terminal detached; false with error set when there is none or it fails. */
    Q_INVOKABLE bool open(const QString &name, const QStringList &command = {});
    /** Opens the terminal on `paddock attach NAME`: the sandbox's agent, joined. */
    Q_INVOKABLE bool attach(const QString &name);

Q_SIGNALS:
    void paddockProgramChanged();
    void errorChanged();

private:
    void setError(const QString &error);

    QString m_paddockProgram;
    QString m_error;
};

} // namespace paddock::gui

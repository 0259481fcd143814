// SPDX-License-Identifier: GPL-3.0-or-later
// Running the real `paddock` binary from a test, as a user runs it: in a throwaway home of
// private XDG directories, through pipes or on a pseudo-terminal (for the prompts that must
// read from a terminal), and in front of curl for `paddock proxy serve`.
#pragma once

#include "ProcessRun.h"

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace paddock::test {

/** @brief What a `paddock` run left, as bytes. */
struct CliRun
{
    int exitCode = -1; ///< -1 when the process crashed or did not finish
    QByteArray out;
    QByteArray err;
    QString outText() const { return QString::fromUtf8(out); }
    QString errText() const { return QString::fromUtf8(err); }
    QByteArray all() const { return out + err; }
    int signal = 0;                   ///< runOnTerminal(): the signal that ended the process, if one did
    bool terminalEchoesAfter = false; ///< runOnTerminal(): whether echo was on once the process ended
};

/** One exchange on the terminal: wait until @c expect has been printed, then type @c type. */
struct TerminalStep
{
    QByteArray expect;
    QByteArray type;
};

/**
 * @brief A throwaway home (XDG directories, owner-only) and ways to run `paddock` in it. No
 * proxy settings of whoever runs the tests reach what runs here.
 */
class CliHome
{
public:
    CliHome();
    /** Stops the paddockd a command started here on demand, so no daemon outlives its home. */
    ~CliHome();
    CliHome(const CliHome &) = delete;
    CliHome &operator=(const CliHome &) = delete;

    bool isValid() const { return m_dir.isValid(); }
    QString root() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString configDir() const { return m_env.value(QStringLiteral("XDG_CONFIG_HOME")) + QStringLiteral("/paddock"); }
    QString policyFile() const { return configDir() + QStringLiteral("/policy.yaml"); }
    QProcessEnvironment &environment() { return m_env; }
    /** Where run() and paddock() start paddock; by default the test's own working directory. */
    void setWorkingDirectory(const QString &directory) { m_workingDirectory = directory; }

    /** Every byte any `paddock` run here printed, to check that a key never appeared. */
    const QByteArray &transcript() const { return m_transcript; }

    /** `paddock ARGUMENTS` with @p input on its stdin. */
    CliRun run(const QStringList &arguments, const QByteArray &input = QByteArray());
    /** `paddock ARGUMENTS`, its output as text. */
    Finished paddock(const QStringList &arguments);
    /** Another program in this home, its output as text. */
    Finished runProgram(const QString &program, const QStringList &arguments, int timeoutMs = 60000) const;

    /**
     * Runs paddock with a pseudo-terminal as its stdin, stdout and stderr (and controlling
     * terminal), playing @p steps. Everything the terminal showed ends up in CliRun::out,
     * echo included. The waits are bounded only so that a hang fails instead of blocking.
     */
    CliRun runOnTerminal(const QStringList &arguments, const QList<TerminalStep> &steps);

    /** curl through @p proxy (host:port); -i so the status line and headers come first. */
    Finished curlVia(const QString &proxy, const QString &url, const QStringList &extra = {}) const;
    /** Starts `paddock proxy serve ARGS --listen 127.0.0.1:0`; returns its "127.0.0.1:PORT" or empty. */
    QString startServe(QProcess &process, const QStringList &arguments) const;

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    QString m_workingDirectory;
    QByteArray m_transcript;
};

} // namespace paddock::test

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace paddock::cli {

/** Exit codes shared by every subcommand. */
enum Exit : int {
    ExitOk = 0,     ///< the command did what was asked
    ExitFailed = 1, ///< refused or failed (an invalid kit, a denied host, an error)
    ExitUsage = 2,  ///< the command line itself was wrong
    /**
     * Understood and declined by Paddock's rules, not an error: a kit requiring a capability
     * Paddock does not implement, a kit update granted more than was approved.
     */
    ExitRefused = 3,
};

QTextStream &out();
QTextStream &err();

/** What a leaf command receives when it runs. */
struct Invocation
{
    const QCommandLineParser &parser;
    QStringList positional;
    QString commandPath; ///< "paddock kit validate", for messages and help hints
};

/**
 * @brief One node of the command tree: a group (with subcommands) or a leaf (with run).
 *
 * Every node answers --help; a group called without a subcommand prints its help and
 * exits with ExitUsage.
 */
struct Command
{
    QString name;
    QString summary;     ///< one line, shown in the parent's help
    QString description; ///< paragraphs shown in this command's --help
    QList<QCommandLineOption> options;
    QString positionalSyntax;                      ///< e.g. "DIR..." in the usage line
    QList<QPair<QString, QString>> positionalHelp; ///< name and meaning of each argument
    int minPositional = 0;
    int maxPositional = -1; ///< -1: no upper bound
    /// `exec NAME CMD -x`: everything after the first positional belongs to it.
    bool optionsAfterPositionalsArePositional = false;
    std::function<int(const Invocation &)> run;
    QList<Command> subcommands;
};

/** Runs @p args (without the program name) against the tree under @p root. */
int dispatch(const Command &root, const QStringList &args);

/** Prints "paddock: MESSAGE" and a hint to the command's --help; returns ExitUsage. */
int usageError(const QString &commandPath, const QString &message);
/** Prints "paddock: MESSAGE" on stderr; returns ExitFailed. */
int failure(const QString &message);

} // namespace paddock::cli

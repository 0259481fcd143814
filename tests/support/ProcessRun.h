// SPDX-License-Identifier: GPL-3.0-or-later
// Running a program from a test and keeping what it left: its exit code and output.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace paddock::test {

/** How to run a program. */
struct ProcessOptions
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString workingDirectory; ///< empty: the test's own
    QByteArray input;         ///< written to stdin, which is then closed
    int timeoutMs = 120000;   ///< only stops a hung program; nothing depends on speed
    /** Waits with this thread's event loop running, so that the test's own servers answer. */
    bool serveEvents = false;
};

/** @brief What a finished program left, as bytes. */
struct ProcessOutput
{
    int exitCode = -1; ///< -1 when it crashed, did not start or did not finish
    QByteArray out;
    QByteArray err;
    bool started = false;
    bool timedOut = false; ///< it did not finish in time and was killed
};

/** Runs @p program to completion (or its timeout, when it is killed). */
ProcessOutput runProcess(const QString &program, const QStringList &arguments, const ProcessOptions &options = {});

/** @brief What a finished program left, as text. */
struct Finished
{
    int exitCode = -1; ///< -1 when it crashed, did not start or did not finish
    QString out;
    QString err;
};

/** runProcess() with the output read as UTF-8. */
Finished runText(const QString &program, const QStringList &arguments, const ProcessOptions &options = {});

/**
 * Waits until @p process's current read channel holds @p text, without reading it away.
 * Checks what is already buffered first: output that arrived while events were processed
 * elsewhere brings no further readyRead, so waiting for one would miss it.
 */
bool waitForOutput(QProcess &process, const QByteArray &text, int timeoutMs);

/** Sends SIGTERM and waits; true when the process exited normally with status 0. */
bool terminateCleanly(QProcess &process);

} // namespace paddock::test

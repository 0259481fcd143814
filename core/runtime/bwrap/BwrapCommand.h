// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/SandboxSpec.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace paddock::runtime::bwrap {

/** @brief Host paths a launch needs besides the spec: where the runtime keeps this sandbox. */
struct LaunchPaths
{
    QString homeDir;   ///< host directory mounted as $HOME (already created, 0700)
    QString hostsFile; ///< generated /etc/hosts naming only loopback and the sandbox
    int statusFd = -1; ///< fd bwrap reports the sandbox pid and exit code on, or -1
    /** Files bwrap copies into the sandbox from an fd it inherits: (fd, path inside). */
    QList<QPair<int, QString>> copiedFiles;
};

/** Small host files the sandbox gets a copy of (each to the same path): see BwrapCommand.cpp. */
QStringList copiedHostFiles();

/**
 * The bubblewrap arguments (without the program name) that run @p spec under paddock-init.
 * Every mount of the sandbox is decided here and nowhere else.
 */
QStringList bwrapArguments(const SandboxSpec &spec, const LaunchPaths &paths);

/**
 * The host command (program first) that runs @p request inside the running sandbox whose
 * first process is @p initPid: it enters that process's namespaces and root, drops every
 * capability, and starts the command with exactly the sandbox's environment.
 */
QStringList execCommand(const SandboxSpec &spec, qint64 initPid, const ExecRequest &request);

/** Where paddock-init appears inside every sandbox. */
QString initPathInSandbox();

/** The host's `bwrap`, or empty when it is not installed. */
QString bwrapProgram();

} // namespace paddock::runtime::bwrap

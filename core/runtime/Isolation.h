// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

// The isolation levels a sandbox may ask for (SandboxOptions::isolation), named once for every
// place that reads or checks one: a create request, a kit's setting, the command line.
namespace paddock::runtime {

/** Namespaces over the host's kernel: every runtime's, and the default. */
inline const QString kIsolationContainer = QStringLiteral("container");
/** A user-space kernel of the sandbox's own, through the Docker engine's runsc runtime. */
inline const QString kIsolationGvisor = QStringLiteral("gvisor");

/** Every isolation level, weakest first. */
inline QStringList isolationLevels()
{
    return {kIsolationContainer, kIsolationGvisor};
}

/** Whether @p name is one of isolationLevels(). */
inline bool isIsolationLevel(const QString &name)
{
    return isolationLevels().contains(name);
}

/** "container or gvisor": the levels as a message lists them. */
inline QString isolationLevelsText()
{
    return isolationLevels().join(QStringLiteral(" or "));
}

} // namespace paddock::runtime

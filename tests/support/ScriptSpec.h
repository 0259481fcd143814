// SPDX-License-Identifier: GPL-3.0-or-later
// The spec of a sandbox that runs a shell script, for the runtime tests that start sandboxes
// without the daemon. Header-only, so that the benchmarks share it without linking
// paddock_test_support; the including target defines PADDOCK_INIT_BIN.
#pragma once

#include "runtime/SandboxSpec.h"

#include <QString>
#include <QStringList>

namespace paddock::test {

/** A sandbox of kit `test-kit` running `sh -c SCRIPT` in @p workspace with the usual environment. */
inline runtime::SandboxSpec scriptSpec(const QString &name, const QString &script, const QString &workspace,
                                       const QString &proxySocket)
{
    runtime::SandboxSpec spec;
    spec.name = name;
    spec.kitName = QStringLiteral("test-kit");
    spec.workspace = workspace;
    spec.proxySocket = proxySocket;
    spec.initPath = QStringLiteral(PADDOCK_INIT_BIN);
    spec.environment = runtime::baseEnvironment(spec);
    spec.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
    return spec;
}

} // namespace paddock::test

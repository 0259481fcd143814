// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the Docker integration tests: reaching the engine (or skipping with the reason)
// and building the small busybox image every test runs its containers from.

#include "../../support/IsolatedHome.h"
#include "../../support/Needs.h"

#include "runtime/docker/DockerClient.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace paddock::tests::docker {

using namespace paddock::runtime::docker;

/** A name no other test run uses at the same time. */
inline QString uniqueName(const QString &prefix)
{
    return QStringLiteral("%1-%2-%3")
        .arg(prefix)
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->bounded(1u << 30), 0, 16);
}

/** The engine DOCKER_HOST names (as the docker CLI reads it), else the default socket. */
inline Endpoint testEndpoint()
{
    const paddock::runtime::docker::Result<Endpoint> endpoint = Endpoint::fromEnvironment();
    return endpoint ? endpoint.value() : Endpoint();
}

/** Empty when an engine answers, else why not: decided in plain HTTP (Needs.h), not by DockerClient. */
inline QString engineUnavailableReason()
{
    return paddock::tests::dockerEngineProblem();
}

/**
 * Empty when the engine runs gVisor (its runsc runtime registered, as tests/with-services.sh
 * registers it), else why not. Without runsc installed the tests of gVisor skip; with runsc
 * installed but the engine unaware of it they fail, since the test command registers it.
 */
inline QString gvisorUnavailableReason(const DockerClient &client, bool *skip)
{
    *skip = !QFileInfo(QStringLiteral("/usr/bin/runsc")).isExecutable();
    if (*skip)
        return QStringLiteral("gVisor is not installed (apt-get install runsc)");
    const paddock::runtime::docker::Result<QStringList> runtimes = client.runtimes();
    if (!runtimes)
        return QStringLiteral("the engine did not list its runtimes: ") + runtimes.errorMessage();
    if (!runtimes.value().contains(QLatin1String("runsc")))
        return QStringLiteral("the engine has no runsc runtime (it has %1): start it with tests/with-services.sh, "
                              "which registers it")
            .arg(runtimes.value().join(QStringLiteral(", ")));
    return {};
}

/** Writes a context for a FROM-scratch image holding busybox and its applet links. */
inline bool writeBusyboxContext(const QString &dir, const QByteArray &extraDockerfileLines = {})
{
    if (!QFile::copy(QStringLiteral("/bin/busybox"), dir + QStringLiteral("/busybox")))
        return false;
    QFile dockerfile(dir + QStringLiteral("/Dockerfile"));
    if (!dockerfile.open(QIODevice::WriteOnly))
        return false;
    dockerfile.write("FROM scratch\n"
                     "COPY busybox /bin/busybox\n"
                     "RUN [\"/bin/busybox\", \"--install\", \"-s\", \"/bin\"]\n" +
                     extraDockerfileLines);
    return true;
}

/**
 * What a test builds its own image with: @p contextDir tagged @p tag, with a label of its own.
 * The label makes the image's last layer the test's alone, so removing the image (with force)
 * never removes a cached step that another test's build, running at the same moment, has just
 * taken as the parent of its next step ("unknown parent image ID").
 */
inline runtime::docker::BuildOptions ownImage(const QString &contextDir, const QString &tag)
{
    runtime::docker::BuildOptions options;
    options.contextDir = contextDir;
    options.tag = tag;
    options.labels.insert(QStringLiteral("paddock-test.image"), tag);
    return options;
}

/** Copies @p file into @p root at the same absolute path, following links to the real file. */
inline bool copyInto(const QString &root, const QString &file)
{
    const QString target = root + file;
    QDir().mkpath(QFileInfo(target).absolutePath());
    return QFile::exists(target) || QFile::copy(QFileInfo(file).canonicalFilePath(), target);
}

/**
 * The host's @p program and every library it loads, as a tree under @p root to copy into a
 * busybox image (`writeBusyboxContext(dir, "COPY rootfs/ /\n")` with @p root = dir/rootfs).
 * Made from the host's files, it needs no registry or mirror.
 */
inline bool writeProgramTree(const QString &root, const QString &program)
{
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {program});
    if (!ldd.waitForFinished(30000) || ldd.exitCode() != 0)
        return false;
    static const QRegularExpression path(QStringLiteral("(/\\S+)"));
    QStringList files{program};
    for (const QString &line : QString::fromUtf8(ldd.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = path.match(line);
        if (match.hasMatch())
            files << match.captured(1);
    }
    for (const QString &file : std::as_const(files)) {
        if (!copyInto(root, file))
            return false;
    }
    return true;
}

/**
 * The host's curl, as writeProgramTree() copies it: curl talks to the proxy where busybox's
 * static wget cannot (it crashes in a FROM scratch image).
 */
inline bool writeCurlTree(const QString &root)
{
    return writeProgramTree(root, QStringLiteral("/usr/bin/curl"));
}

/** Environment for a CLI the test starts: its own config and XDG directories. */
inline QProcessEnvironment isolatedEnvironment(const QString &home)
{
    QProcessEnvironment env = test::isolatedEnvironment(home);
    env.insert(QStringLiteral("DOCKER_CONFIG"), home + QStringLiteral("/docker-config"));
    return env;
}

} // namespace paddock::tests::docker

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "image/ImageArchive.h"
#include "kit/AgentVerbs.h"
#include "kit/Kit.h"
#include "kit/SandboxName.h"
#include "runtime/SandboxSpec.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::sandbox {

/** @brief What the user chose when asking for a sandbox, besides the kit itself. */
struct SandboxChoices
{
    QString name;                             ///< empty: defaultSandboxName(kit, workspace)
    QString workspace;                        ///< absolute host path, mounted read-write at the same path
    QStringList extraPaths;                   ///< further host paths, visible read-only at the same path
    QStringList commandArgs;                  ///< when not empty, replaces the kit's command (the entrypoint stays)
    QList<runtime::SharedMount> sharedMounts; ///< the person's shared folders, checked (SharedFolders.h)
    QMap<QString, QString> variables;         ///< the person's variables, checked, over the kit's
    bool interactive = false;
    runtime::SandboxSpec::Lifetime lifetime = runtime::SandboxSpec::Lifetime::Detached;
    QString proxySocket; ///< host path of this sandbox's proxy endpoint
    QString initPath;    ///< host path of paddock-init
    QString caBundle;    ///< host path of the certificate bundle the sandbox trusts; empty: the system's
    /**
     * The sandbox runs as the regular user (kRegularUid) in a user namespace of its own, as
     * under bubblewrap: a `setup.startup` command naming another user then runs in a nested
     * user namespace that maps the regular user to that uid (`unshare --map-root-user` for 0).
     */
    bool startupUsersByNamespace = false;
    /**
     * The configuration of the kit's image when the runtime runs it without a container engine
     * (bubblewrap over the image's layers): its Env, WorkingDir and Entrypoint/Cmd then apply as
     * `docker run` applies them (see applyKit()).
     */
    std::optional<image::ImageConfig> image;
};

/** The uid of the sandbox's regular user, who runs the program (and `setup.startup` by default). */
constexpr int kRegularUid = 1000;

/**
 * The uid a kit's `user` field names: a number as written, "root" 0 and "agent" (the user
 * the published kits' images run as) 1000; empty means @p fallback. Nothing for another
 * name: a sandbox that shares the host's system has no other users to look up.
 */
std::optional<int> kitUserId(const QString &user, int fallback);

/** @brief One run of consecutive `setup.install` commands that share a user. */
struct InstallRun
{
    int uid = 0;
    QStringList argv; ///< `sh -c` running the commands, stopping at the first failure
};

/**
 * The kit's `setup.install` commands grouped into runs of consecutive commands with the same
 * user (default "0"), in order; the caller launches each run as its uid. A user that cannot
 * be mapped is an error.
 */
Result<QList<InstallRun>> installRuns(const kit::Kit &kit);

/** Where the certificate bundle appears inside a sandbox (SandboxChoices::caBundle). */
inline const QString kCaBundleInside = QStringLiteral("/run/paddock/ca-bundle.pem");

/**
 * The variables TLS clients read their trust from (OpenSSL, curl, git, Node, Python's requests
 * and pip), all set to kCaBundleInside when the sandbox has a bundle.
 */
QStringList caBundleVariables();

/** The name a sandbox gets when the user gives none (kit/SandboxName.h). */
using kit::defaultSandboxName;

/**
 * Turns a kit and the user's choices into a runtime-neutral SandboxSpec. This is how a kit is
 * applied:
 *
 * - Environment: runtime::baseEnvironment() (HOME, PATH, the proxy variables), then the kit's
 *   `environment.variables` in file order, then, for every credential whose `apiKey` is
 *   proxy-managed, the sentinel `proxy-managed` in the variable `apiKey.name` (an empty name
 *   sets nothing: some kits only want the injection), then the person's own variables
 *   (SandboxChoices::variables). Nothing of the caller's environment is inherited. The kit cannot override the proxy variables or HOME: they are set again last.
 * - Trust: with SandboxChoices::caBundle, the bundle (system roots, the authorities the user
 *   trusts and Paddock's own, whose certificates the proxy presents where it adds a key) is
 *   mounted read-only at kCaBundleInside and every variable of caBundleVariables() points at
 *   it; the kit cannot change those either.
 * - Program: `entrypoint` + `command.default`, or `command.interactive` when the sandbox gets
 *   a terminal; command arguments given by the user replace the command (not the entrypoint).
 *   With SandboxChoices::image, as `docker run`: a kit without an entrypoint takes the image's
 *   Entrypoint, followed by the command (the user's, else the kit's, else the image's Cmd).
 * - With SandboxChoices::image, its Env comes under the kit's variables (its PATH replacing the
 *   default one), and its WorkingDir is the working directory when there is no workspace.
 * - `setup.startup` runs on every start before the program: the program is wrapped in
 *   `sh -c` that runs each startup command (background ones detached, their output in the
 *   sandbox's output) and then `exec`s the program, so its exit status stays the program's.
 * - Users: the program runs as the sandbox's regular user (kRegularUid). With
 *   choices.startupUsersByNamespace a startup command's `user` (default "1000") is honoured
 *   through a nested user namespace mapping the same host user to that uid, so root there is
 *   as powerless as anywhere in the sandbox; `setup.install` runs come from installRuns().
 * - The home is the runtime's private home (`dataDir()/sandboxes/NAME/home`), filled by
 *   prepareHome(); the workspace is mounted read-write at its own path.
 */
Result<runtime::SandboxSpec> applyKit(const kit::Kit &kit, const SandboxChoices &choices);

/**
 * What a sandbox of @p kit keeps to drive its agent (`paddock agent`): the workload's launch
 * argv, as a headless launch makes it (the kit's entrypoint and command or, with @p image, the
 * image's Entrypoint and Cmd as `docker run` takes them; never the person's `-- ARGS`), the
 * lifecycle@1 interactive tail and the kit's agent-sessions@1 / agent-interactive-sessions@1.
 */
kit::AgentVerbs agentVerbsOf(const kit::Kit &kit, const std::optional<image::ImageConfig> &image);

/** The argv that runs the kit's `setup.install` commands, each with `sh -c`, stopping at the first failure. */
QStringList installArgv(const kit::Kit &kit);

/**
 * Fills the sandbox's home and workspace from the kit, once, when the sandbox is created:
 *
 * - `files/home` is copied into @p homeDir (existing files are replaced: the home is the
 *   sandbox's own).
 * - `files/workspace` is copied into the workspace only where a file is missing: the user's
 *   files are never overwritten.
 * - `agentInstructions.content` is written to `$HOME/<filename>` inside the sandbox, that is
 *   @p homeDir/<filename>. Not into the workspace: that is the user's repository, and a sandbox
 *   must not leave files in it that the user did not write (agents read their profile from
 *   the home directory as well).
 *
 * Stops at the first failure, with its error; @p notes collects what was skipped.
 */
Result<void> prepareHome(const kit::Kit &kit, const runtime::SandboxSpec &spec, const QString &homeDir,
                         QStringList *notes);

/**
 * Writes the kit's `setup.files` (@p files) before a start. A path inside the sandbox is translated to
 * the host: under the sandbox home into @p homeDir, under the workspace into the workspace.
 * Bubblewrap sandboxes share the host's read-only system, so any other path cannot be
 * written; such a file is refused with a note saying so, and the sandbox starts without it.
 * `onlyIfMissing` files are left alone when present. An error only when writing failed.
 */
Result<void> writeSetupFiles(const QList<kit::SetupFile> &files, const runtime::SandboxSpec &spec,
                             const QString &homeDir, QStringList *notes);

/** @p text quoted for a POSIX shell. */
QString shellQuote(const QString &text);

} // namespace paddock::sandbox

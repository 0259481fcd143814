// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace paddock::runtime {

/** @brief A host path made visible, read-only, at a path inside the sandbox. */
struct ReadOnlyBind
{
    QString hostPath;
    QString sandboxPath; ///< empty: the same absolute path as on the host

    bool operator==(const ReadOnlyBind &) const = default;
};

/** @brief A folder the person shares with the sandbox (`--mount`), read-only or read-write. */
struct SharedMount
{
    QString hostPath;    ///< canonical, checked by the caller
    QString sandboxPath; ///< absolute
    bool writable = false;

    bool operator==(const SharedMount &) const = default;
};

/**
 * @brief Host facilities a sandbox reaches only when the user granted them.
 *
 * Each one is off when empty. A granted socket is bind-mounted into the sandbox and the
 * variable that programs look for (SSH_AUTH_SOCK, DISPLAY, ...) is set to the path inside,
 * because the caller cannot know where the runtime places it.
 */
struct SandboxGrants
{
    QString dockerSocket;      ///< host path of the Docker socket, appears at /var/run/docker.sock
    QString sshAgentSocket;    ///< host path of the ssh-agent socket, alone in its folder: the folder is bound
    QString x11Display;        ///< e.g. ":0"; its socket in /tmp/.X11-unix is bound
    QString xauthorityFile;    ///< host path of the X authority file, with x11Display
    QString waylandSocket;     ///< host path of the Wayland compositor socket
    QString dbusSessionSocket; ///< host path of the D-Bus session bus socket

    bool operator==(const SandboxGrants &) const = default;
};

/**
 * @brief What one sandbox may use, whatever runs it. A sandbox that forks without end or eats
 * memory stops at these instead of freezing the desktop.
 */
struct SandboxLimits
{
    static constexpr int kDefaultMaxProcesses = 2048;
    int maxProcesses = kDefaultMaxProcesses; ///< processes and threads, all users inside together
    qint64 memoryBytes = 0;                  ///< 0: no limit (a kit's `resources.memory`)
    double cpus = 0;                         ///< 0: no limit (a kit's `resources.cpu`)

    bool operator==(const SandboxLimits &) const = default;
};

/**
 * @brief Everything a runtime needs to start one sandbox, independent of how it is run.
 *
 * Filled from a kit and the user's choices by the caller; a runtime adds nothing of its own
 * to the environment or the file system beyond what this describes (and the grants).
 */
struct SandboxSpec
{
    /** The lifetime of the sandbox relative to the process that starts it. */
    enum class Lifetime {
        Foreground, ///< attached to the caller's terminal, dies with the caller
        Detached,   ///< runs on its own, output goes to its log
    };

    QString name;    ///< sandbox name, also its host name; `[a-z0-9][a-z0-9-]*`
    QString kitName; ///< informative: shown by list and inspect

    QString workspace; ///< host path, mounted read-write at the same absolute path
    /** Host directory mounted as $HOME; empty means the runtime's private home for @ref name. */
    QString homeDir;
    QString sandboxHome = QStringLiteral("/home/agent"); ///< where homeDir appears inside

    /** The complete environment of the sandbox: nothing is inherited from the caller. */
    QMap<QString, QString> environment;
    QStringList argv; ///< the program and its arguments, resolved with the sandbox's PATH
    /** A shell script run once at each start, before the program (a kit's setup.startup), as the
     *  sandbox's user; for runtimes that give each command its own user, @ref startupSteps. */
    QString startup;
    /** @brief One command of a kit's setup.startup, as the uid inside it names. */
    struct StartupStep
    {
        int uid = 1000;
        QString script;
        bool operator==(const StartupStep &) const = default;
    };
    /** setup.startup, one step per command, in order, each as its own user. */
    QList<StartupStep> startupSteps;
    QString workingDir; ///< inside the sandbox; empty means the workspace

    QString proxySocket; ///< host path of this sandbox's proxy endpoint (a unix socket)
    QString sandboxProxySocket = QStringLiteral("/run/paddock/proxy.sock"); ///< where it appears inside
    int proxyPort = 3128; ///< loopback port inside that leads to the proxy socket
    QString initPath;     ///< host path of paddock-init

    QList<ReadOnlyBind> readOnlyBinds;
    QList<SharedMount> sharedMounts; ///< the person's shared folders, after the binds above
    /** Names of the variables in @ref environment the person set (`--env`): shown, not special. */
    QStringList personVariables;
    SandboxGrants grants;
    SandboxLimits limits;

    bool interactive = false; ///< give the program a terminal of its own
    /**
     * A workspace used in place keeps the files the host runs or trusts later read-only inside
     * (runtime/TrustedFiles.h): git hooks and config, .envrc, .vscode/. Off only when the
     * person chose so, with a warning.
     */
    bool protectHostFiles = true;
    /**
     * Made for one command and removed after it (`run --rm`): its writable root need not
     * survive a crash of the computer, so the kernel's overlay of it skips the sync of its
     * upper layer's file system when it goes (overlayfs' `volatile`).
     */
    bool disposable = false;
    Lifetime lifetime = Lifetime::Detached;

    bool operator==(const SandboxSpec &) const = default;
};

/**
 * The variables every sandbox needs, for callers to start from: HOME, PATH, TERM, LANG,
 * and the proxy variables in both cases pointing at the loopback relay.
 */
inline QMap<QString, QString> baseEnvironment(const SandboxSpec &spec)
{
    const QString proxy = QStringLiteral("http://127.0.0.1:%1").arg(spec.proxyPort);
    QMap<QString, QString> env{
        {QStringLiteral("HOME"), spec.sandboxHome},
        {QStringLiteral("PATH"), QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")},
        {QStringLiteral("TERM"), QStringLiteral("xterm-256color")},
        {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
        {QStringLiteral("NO_PROXY"), QStringLiteral("localhost,127.0.0.1")},
        {QStringLiteral("no_proxy"), QStringLiteral("localhost,127.0.0.1")},
    };
    for (const char *name : {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"}) {
        env.insert(QLatin1String(name), proxy);
        env.insert(QLatin1String(name).toString().toLower(), proxy);
    }
    return env;
}

} // namespace paddock::runtime

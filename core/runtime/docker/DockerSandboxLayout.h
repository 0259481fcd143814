// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

// Where Paddock's own pieces sit in a sandbox's container, and the labels that describe the
// sandbox to a later DockerRuntime (a restarted daemon, the CLI). Shared by the files of the
// Docker runtime; nothing outside core/runtime/docker needs them.
namespace paddock::runtime::docker::layout {

// Where Paddock's own pieces appear inside, as in the bubblewrap runtime.
inline const QString kInitInside = QStringLiteral("/run/paddock/init");
/** The folder of the SSH agent's socket (SandboxGrants::sshAgentSocket). */
inline const QString kSshAgentDirInside = QStringLiteral("/run/paddock/ssh-agent");
inline const QString kXauthorityInside = QStringLiteral("/run/paddock/Xauthority");
inline const QString kWaylandInside = QStringLiteral("/run/paddock/wayland-0");
inline const QString kDbusInside = QStringLiteral("/run/paddock/dbus-session.sock");
inline const QString kDockerInside = QStringLiteral("/var/run/docker.sock");
/** paddock-init's variable for published ports (app/init/Publish.h), given as options here. */
inline const QString kPublishVariable = QStringLiteral("PADDOCK_PUBLISH");
/**
 * The abstract unix socket paddock-init's session server listens on. Abstract sockets belong
 * to a network namespace, and each container has its own (NetworkMode none), so the name needs
 * to be unique only inside one container; paddock-init binds it before anything else runs.
 */
inline const QString kSessionSocket = QStringLiteral("paddock-session");

inline const QString kLabelSandbox = QStringLiteral("paddock.sandbox");
inline const QString kLabelKit = QStringLiteral("paddock.kit");
inline const QString kLabelWorkspace = QStringLiteral("paddock.workspace");
inline const QString kLabelRuntime = QStringLiteral("paddock.runtime");
inline const QString kLabelSpec = QStringLiteral("paddock.spec");
/** Whose container it is: DockerRuntime::owner(). */
inline const QString kLabelOwner = QStringLiteral("paddock.owner");
/**
 * On an image private to one sandbox (docker::InstalledImage): the sandbox whose `setup.install`
 * wrote it, and the kit's image it was made from.
 */
inline const QString kLabelInstalledFor = QStringLiteral("paddock.installed-for");
inline const QString kLabelInstalledFrom = QStringLiteral("paddock.installed-from");
/** "gvisor" when the container runs under the engine's gVisor runtime; absent otherwise. */
inline const QString kLabelIsolation = QStringLiteral("paddock.isolation");
/**
 * The token every client of the session server presents. Labels are read through the Engine
 * API, which is root-equivalent already; the container's environment would not do, as every
 * process an exec starts inherits it.
 */
inline const QString kLabelSessionToken = QStringLiteral("paddock.session-token");
/**
 * The agent's user ("UID:GID") of a container that starts as root so that paddock-init can
 * capture its connections (app/init/Capture.h) and then becomes this user (--become). Its
 * Config.User is "0:0"; every exec names its user, and one as root gives up its capabilities
 * first (kDropCapabilities). Absent: the container runs as Config.User from the start.
 */
inline const QString kLabelAgentUser = QStringLiteral("paddock.user");
/** The capabilities such a container starts with, for paddock-init alone: each is gone before the sandbox runs. */
inline const QStringList kCaptureCapabilities{QStringLiteral("NET_ADMIN"), QStringLiteral("NET_BIND_SERVICE"),
                                              QStringLiteral("SETUID"), QStringLiteral("SETGID"),
                                              QStringLiteral("SETPCAP")};
/** paddock-init's option that gives up every capability, then runs the rest of its command line. */
inline const QString kDropCapabilities = QStringLiteral("--drop-capabilities");

} // namespace paddock::runtime::docker::layout

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Where Paddock's own pieces sit in a sandbox's container, and the labels that describe the
// sandbox to a later DockerRuntime (a restarted daemon, the CLI). Shared by the files of the
// Docker runtime; nothing outside core/runtime/docker needs them.
namespace paddock::runtime::docker::layout {

// Where Paddock's own pieces appear inside, as in the bubblewrap runtime.
inline const QString kInitInside = QStringLiteral("/run/paddock/init");
inline const QString kSshAgentInside = QStringLiteral("/run/paddock/ssh-agent.sock");
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
/** "gvisor" when the container runs under the engine's gVisor runtime; absent otherwise. */
inline const QString kLabelIsolation = QStringLiteral("paddock.isolation");
/**
 * The token every client of the session server presents. Labels are read through the Engine
 * API, which is root-equivalent already; the container's environment would not do, as every
 * process an exec starts inherits it.
 */
inline const QString kLabelSessionToken = QStringLiteral("paddock.session-token");

} // namespace paddock::runtime::docker::layout

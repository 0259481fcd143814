// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"
#include "runtime/Runtime.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/** What a sandbox's volumes are to a recreation (SandboxRecreation.cpp), and what it keeps. */
namespace paddock::sandbox {

/**
 * @p kit's volumes as a runtime takes them (runtime::SandboxOptions::volumes): each path
 * cleaned, the size in bytes, the mode in plain octal, so that equal requests compare equal.
 */
QList<runtime::SandboxVolume> volumeRequests(const kit::Kit &kit);

/**
 * Why volumes @p requested cannot be mounted where @p retained are kept (a recreation), or
 * nullopt: at one path, a different size, mode or kind (block or tmpfs) is refused, naming each.
 */
std::optional<QString> volumeChangeProblem(const QList<runtime::SandboxVolume> &retained,
                                           const QList<runtime::SandboxVolume> &requested);

/** The choices of `sandbox.create` @p params kept for a recreation: all but the one-time approvals. */
QJsonObject creationChoices(const QJsonObject &params);

} // namespace paddock::sandbox

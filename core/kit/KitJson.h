// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"
#include "kit/KitLibrary.h"

#include <QJsonObject>
#include <QString>

namespace paddock::kit {

/**
 * The normalised kit as JSON (`paddock kit show --json`): the field names of spec.yaml,
 * arguments substituted, `scheme` sugar expanded, `publishedPorts` read as `ports`.
 * Empty optional fields are left out.
 */
QJsonObject toJson(const Kit &kit);

/**
 * A kit of the library as `paddock kit ls --json` and the daemon's kit.list give it: {name, kind,
 * displayName, version, description, directory, source, reference, digest, valid, errors,
 * warnings, diagnostics: [{severity, file, line, column, message}]}.
 */
QJsonObject toJson(const KitEntry &entry);

/** The normalised kit as indented text for people (`paddock kit show`). */
QString toText(const Kit &kit);

} // namespace paddock::kit

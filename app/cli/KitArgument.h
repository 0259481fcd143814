// SPDX-License-Identifier: GPL-3.0-or-later
// How every command names a kit: by its name in the library, or by its folder.
#pragma once

#include "Command.h"

#include <QCommandLineOption>
#include <QJsonObject>
#include <QMap>
#include <QString>

#include <optional>

namespace paddock::cli {

/** The value name a kit argument shows in --help. */
inline constexpr const char *kKitValueName = "KIT";

/** `--kit KIT`, described by @p description followed by how a kit is named. */
QCommandLineOption kitOption(const QString &description = QStringLiteral("The kit."));
/** --kit for run and create: repeatable, a workload and the mixins composed onto it. */
QCommandLineOption composedKitOption();

/** The sentence --help adds about a KIT argument. */
QString kitArgumentHelp();

/**
 * The kit folder @p argument names (kit::KitLibrary::resolve(): a library name first; an
 * argument with a slash, or an existing folder, is a path), absolute. Prints why and returns
 * nothing when it names neither.
 */
std::optional<QString> resolveKit(const QString &argument);

/**
 * The values of the kit's arguments given as `--arg NAME=VALUE`, by name. Nullopt, with the
 * usage error's exit code in @p code, when one has no NAME or no `=`.
 */
std::optional<QMap<QString, QString>> kitArgValues(const Invocation &call, int *code);
/** kitArgValues() as the daemon's calls take them (`kitArgs`). */
std::optional<QJsonObject> kitArgsJson(const Invocation &call, int *code);

} // namespace paddock::cli

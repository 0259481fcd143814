// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Rule.h"

#include <QList>
#include <QString>

#include <optional>

namespace paddock::policy {

/** @brief The global starting points a user chooses from; rules are added on top. */
enum class Preset {
    DenyAll,  ///< the default: no rules
    Balanced, ///< package registries, code hosts, AI provider APIs, OS mirrors
    AllowAll, ///< `**`: every public host
};

/** `deny-all`, `balanced`, `allow-all`. */
QString presetName(Preset preset);
std::optional<Preset> presetFromName(QStringView name);
QList<Preset> allPresets();

/** One line for listings, from the preset file. */
QString presetDescription(Preset preset);
/**
 * The preset's rules (global scope, origin preset), read once from the file embedded in the
 * library (resources/policy/NAME.yaml).
 */
const QList<Rule> &presetRules(Preset preset);

} // namespace paddock::policy

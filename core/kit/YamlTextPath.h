// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to paddock_kit: the elements of a YamlTextEdit path and what the writer needs to
// follow them through a parsed document. A path element is a mapping key ("capabilities"), or
// a selector of one sequence item: "[type=com.docker.sandbox/network-policy@1]" (the first item
// that is a mapping whose key `type` is that scalar) or "[2]" (the item at that index).

#include "kit/YamlTextEdit.h"

#include <QString>
#include <QStringList>

#include <yaml-cpp/yaml.h>

#include <optional>

namespace paddock::kit::yamlpath {

/** True when @p element selects a sequence item rather than naming a mapping key. */
bool isSelector(const QString &element);

/** The item of @p sequence that @p selector names; nullopt when there is none (or it is no sequence). */
std::optional<YAML::Node> selectItem(const YAML::Node &sequence, const QString &selector);

/** The index of the item of @p sequence that @p selector names. */
std::optional<int> indexOfItem(const YAML::Node &sequence, const QString &selector);

/** The node at the first @p count elements of @p path, which must all exist (keys may be added). */
YAML::Node descend(const YAML::Node &root, const QStringList &path, qsizetype count);

/** True when @p actual reads as @p expected; a scalar without a tag in @p expected matches either style. */
bool sameTree(const YAML::Node &expected, const YAML::Node &actual);

/** The first @p count elements for messages: "capabilities[type=x].config". */
QString dotted(const QStringList &path, qsizetype count);

/**
 * Appends @p value to the list at @p path whose item selected by @p path[@p selector] is
 * missing: the item is added to its sequence (created with its key when missing) holding the
 * selector's key, the keys after it and the list, in the sequence's own style (block lines
 * indented as their siblings, or one flow mapping inside a flow sequence).
 */
YamlEditOutcome appendCreatingItem(const QByteArray &text, const QStringList &path, qsizetype selector,
                                   const QString &value);

} // namespace paddock::kit::yamlpath

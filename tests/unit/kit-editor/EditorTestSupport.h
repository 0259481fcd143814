// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the kit editor tests: the real kits, and line-level diffs (the support
// library's, with a count of changed lines).

#include "TestFiles.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include <yaml-cpp/yaml.h>

#include <optional>

namespace paddock::kit::test {

/** spec.yaml of every fixture kit in @p sets (e.g. "published", "args"). */
inline QStringList fixtureSpecs(const QStringList &sets)
{
    QStringList specs;
    for (const QString &set : sets) {
        const QDir dir(QStringLiteral(PADDOCK_FIXTURES "/kits/") + set);
        for (const QString &kit : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            specs << dir.filePath(kit + QStringLiteral("/spec.yaml"));
    }
    return specs;
}

using ::paddock::test::addedLines;
using ::paddock::test::linesOf;
using ::paddock::test::readFile;

/** Number of lines that differ between two texts with the same line count (-1 otherwise). */
inline int changedLineCount(const QByteArray &before, const QByteArray &after)
{
    const QList<QByteArray> a = linesOf(before);
    const QList<QByteArray> b = linesOf(after);
    if (a.size() != b.size())
        return -1;
    int changed = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        changed += a.at(i) != b.at(i) ? 1 : 0;
    return changed;
}

/** The strings of the sequence at @p path as yaml-cpp reads @p text. */
inline QStringList yamlList(const QByteArray &text, const QStringList &path)
{
    YAML::Node node = YAML::Load(text.toStdString());
    for (const QString &key : path) {
        if (!node.IsMap())
            return {};
        YAML::Node next = node[key.toStdString()];
        node.reset(next);
    }
    QStringList items;
    if (node.IsSequence()) {
        for (const YAML::Node &item : node)
            items << QString::fromStdString(item.as<std::string>());
    }
    return items;
}

/** The scalar at @p path as yaml-cpp reads @p text, or nullopt. */
inline std::optional<QString> yamlScalar(const QByteArray &text, const QStringList &path)
{
    YAML::Node node = YAML::Load(text.toStdString());
    for (const QString &key : path) {
        if (!node.IsMap())
            return std::nullopt;
        YAML::Node next = node[key.toStdString()];
        node.reset(next);
    }
    if (!node.IsScalar())
        return std::nullopt;
    return QString::fromStdString(node.Scalar());
}

} // namespace paddock::kit::test

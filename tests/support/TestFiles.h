// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a test's files, searching what the programs under test wrote, and comparing texts
// line by line.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::test {

/** Writes @p contents to @p path, making its folder first. */
bool writeFile(const QString &path, const QByteArray &contents);

/** What @p path holds, or nothing when it cannot be read. */
QByteArray readFile(const QString &path);

/**
 * A kit's spec.yaml: kit @p name on debian:12 whose command is `sh -c true`, followed by
 * @p rest (YAML at the top level, such as `environment:` or `permissions:`).
 */
QByteArray shellKitSpec(const QString &name, const QString &rest = {});

/** Every file under @p root (hidden ones too) whose bytes contain @p needle. */
QStringList filesContaining(const QString &root, const QByteArray &needle);

/** Copies the files of the folder @p source (not its subfolders) into @p target. */
bool copyFiles(const QString &source, const QString &target);

/** Lines split on "\n", each keeping any "\r", so a CRLF change shows as a changed line. */
QList<QByteArray> linesOf(const QByteArray &text);

/**
 * The lines of @p after that are not in @p before, when @p before is @p after minus them in
 * order; nullopt when something of @p before changed or went away.
 */
std::optional<QList<QByteArray>> addedLines(const QByteArray &before, const QByteArray &after);

} // namespace paddock::test

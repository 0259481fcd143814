// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a test's files and searching what the programs under test wrote.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace paddock::test {

/** Writes @p contents to @p path, making its folder first. */
bool writeFile(const QString &path, const QByteArray &contents);

/** What @p path holds, or nothing when it cannot be read. */
QByteArray readFile(const QString &path);

/** Every file under @p root (hidden ones too) whose bytes contain @p needle. */
QStringList filesContaining(const QString &root, const QByteArray &needle);

/** Copies the files of the folder @p source (not its subfolders) into @p target. */
bool copyFiles(const QString &source, const QString &target);

} // namespace paddock::test

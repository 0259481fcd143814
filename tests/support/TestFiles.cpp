// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestFiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace paddock::test {

bool writeFile(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList filesContaining(const QString &root, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found << path;
    }
    return found;
}

bool copyFiles(const QString &source, const QString &target)
{
    if (!QDir().mkpath(target))
        return false;
    const QDir from(source);
    for (const QString &name : from.entryList(QDir::Files)) {
        if (!QFile::copy(from.filePath(name), target + QLatin1Char('/') + name))
            return false;
    }
    return true;
}

QList<QByteArray> linesOf(const QByteArray &text)
{
    QList<QByteArray> lines = text.split('\n');
    if (text.endsWith('\n'))
        lines.removeLast();
    return lines;
}

std::optional<QList<QByteArray>> addedLines(const QByteArray &before, const QByteArray &after)
{
    const QList<QByteArray> a = linesOf(before);
    const QList<QByteArray> b = linesOf(after);
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.at(prefix) == b.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a.at(a.size() - 1 - suffix) == b.at(b.size() - 1 - suffix))
        ++suffix;
    if (prefix + suffix != a.size())
        return std::nullopt;
    return b.mid(prefix, b.size() - prefix - suffix);
}

QByteArray shellKitSpec(const QString &name, const QString &rest)
{
    return QStringLiteral(R"(schemaVersion: "2"
kind: sandbox
name: %1
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["true"]
)")
               .arg(name)
               .toUtf8() +
           rest.toUtf8();
}

} // namespace paddock::test

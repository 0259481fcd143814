// SPDX-License-Identifier: GPL-3.0-or-later
// What the package tests share: running a tool and keeping its output, building the Debian
// package from this build tree with CPack, and reading the package's fields and file list.
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace paddock::testing {

/** @brief A finished tool: exit code (-1 when it crashed or could not start) and output. */
struct ToolRun
{
    int exitCode = -1;
    QString out;
    QString err;

    bool ok() const { return exitCode == 0; }
    /** One message for a failed assertion: the command's status and what it said. */
    QByteArray describe(const QString &what) const
    {
        return QStringLiteral("%1 exited with %2\n--- stdout (end)\n%3\n--- stderr (end)\n%4")
            .arg(what)
            .arg(exitCode)
            .arg(out.right(4000), err.right(4000))
            .toUtf8();
    }
};

/** Runs @p program to completion. The limit only stops a hung tool; nothing depends on speed. */
inline ToolRun runTool(const QString &program, const QStringList &arguments, const QString &workingDirectory = {},
                       const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    constexpr int kHungToolMs = 20 * 60 * 1000;
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(program, arguments);
    ToolRun run;
    if (!process.waitForStarted()) {
        run.err = QStringLiteral("cannot start %1: %2").arg(program, process.errorString());
        return run;
    }
    if (!process.waitForFinished(kHungToolMs)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("%1 did not finish and was killed").arg(program);
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err += QString::fromUtf8(process.readAllStandardError());
    if (process.exitStatus() == QProcess::NormalExit)
        run.exitCode = process.exitCode();
    return run;
}

/** @brief One line of `dpkg-deb --contents`: permissions, owner and the path without "./". */
struct PackageEntry
{
    QString mode;
    QString owner;
    QString path;
    bool isDirectory() const { return mode.startsWith(QLatin1Char('d')); }
    bool isExecutable() const { return mode.size() > 3 && mode.at(3) == QLatin1Char('x'); }
};

/**
 * @brief The Debian package of this build tree, made by `cpack -G DEB` into a temporary
 * directory, as a packager makes it.
 */
class BuiltPackage
{
public:
    /** Runs CPack; on failure returns false and says why in @p error. */
    bool build(QString *error)
    {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary directory");
            return false;
        }
        // apt hands local packages to its unprivileged download user: let it read them.
        QFile::setPermissions(m_dir.path(), QFile::permissions(m_dir.path()) | QFile::ReadOther | QFile::ExeOther);
        const ToolRun cpack =
            runTool(QStringLiteral(PADDOCK_CPACK),
                    {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
                     QStringLiteral(PADDOCK_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"), m_dir.path()});
        if (!cpack.ok()) {
            *error = QString::fromUtf8(cpack.describe(QStringLiteral("cpack -G DEB")));
            return false;
        }
        const QStringList debs = QDir(m_dir.path()).entryList({QStringLiteral("*.deb")}, QDir::Files);
        if (debs.size() != 1) {
            *error = QStringLiteral("cpack made %1 .deb files instead of one: %2\n%3")
                         .arg(debs.size())
                         .arg(debs.join(QLatin1Char(' ')), cpack.out);
            return false;
        }
        m_deb = m_dir.filePath(debs.constFirst());
        return true;
    }

    QString path() const { return m_deb; }
    QString fileName() const { return QFileInfo(m_deb).fileName(); }
    QString directory() const { return m_dir.path(); }

    /** The control fields (Package, Version, Depends, ...); continuation lines joined. */
    QMap<QString, QString> fields() const
    {
        QMap<QString, QString> fields;
        const ToolRun info = runTool(QStringLiteral("dpkg-deb"), {QStringLiteral("--field"), m_deb});
        QString current;
        for (const QString &line : info.out.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1Char(' ')) && !current.isEmpty()) {
                fields[current] += QLatin1Char('\n') + line.mid(1);
                continue;
            }
            const qsizetype colon = line.indexOf(QLatin1Char(':'));
            if (colon <= 0)
                continue;
            current = line.left(colon);
            fields.insert(current, line.mid(colon + 1).trimmed());
        }
        return fields;
    }

    /** Every file and directory the package installs. */
    QList<PackageEntry> entries() const
    {
        QList<PackageEntry> entries;
        const ToolRun contents = runTool(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), m_deb});
        // drwxr-xr-x root/root         0 2026-11-30 02:00 ./usr/bin/
        static const QRegularExpression line(QStringLiteral(R"(^(\S+)\s+(\S+)\s+\d+\s+\S+\s+\S+\s+\./(.*?)/?$)"));
        for (const QString &text : contents.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QRegularExpressionMatch match = line.match(text);
            if (match.hasMatch() && !match.captured(3).isEmpty())
                entries.append({match.captured(1), match.captured(2), match.captured(3)});
        }
        return entries;
    }

    /** The names in a comma-separated relation field, without versions or alternatives. */
    static QStringList packageNames(const QString &relations)
    {
        QStringList names;
        for (const QString &relation : relations.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            for (const QString &alternative : relation.split(QLatin1Char('|')))
                names << alternative.trimmed().section(QLatin1Char(' '), 0, 0).section(QLatin1Char(':'), 0, 0);
        }
        return names;
    }

private:
    QTemporaryDir m_dir;
    QString m_deb;
};

} // namespace paddock::testing

// SPDX-License-Identifier: GPL-3.0-or-later
// A fresh Debian 12 system in a directory, to install a package into as a user would: made
// once with mmdebstrap from the mirror this machine's apt uses, kept as a tarball in the
// build tree, and unpacked anew for every run.
#pragma once

#include "PackageTestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <memory>

namespace paddock::testing {

/** @brief The apt sources of a Debian 12 tree: one line per suite, as in sources.list. */
struct DebianSources
{
    QString mirror; // the main archive, e.g. http://deb.debian.org/debian
    QStringList lines;
};

/**
 * Finds the Debian 12 (bookworm) archives this machine's apt reads, in sources.list form;
 * `$PADDOCK_DEBIAN_MIRROR` replaces the main archive.
 */
inline DebianSources debianSourcesOfThisMachine()
{
    // suite -> URI, from one-line (.list) and deb822 (.sources) files alike.
    QMap<QString, QString> uris;
    auto note = [&uris](const QString &uri, const QString &suite) {
        if (!uris.contains(suite) && uri.startsWith(QLatin1String("http")))
            uris.insert(suite, uri.endsWith(QLatin1Char('/')) ? uri.chopped(1) : uri);
    };
    QStringList files{QStringLiteral("/etc/apt/sources.list")};
    const QDir parts(QStringLiteral("/etc/apt/sources.list.d"));
    for (const QString &name :
         parts.entryList({QStringLiteral("*.list"), QStringLiteral("*.sources")}, QDir::Files, QDir::Name))
        files << parts.filePath(name);
    for (const QString &path : std::as_const(files)) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
            continue;
        const QString text = QString::fromUtf8(file.readAll());
        if (path.endsWith(QLatin1String(".sources"))) {
            for (const QString &stanza : text.split(QRegularExpression(QStringLiteral("\\n\\s*\\n")))) {
                QMap<QString, QString> field;
                for (const QString &line : stanza.split(QLatin1Char('\n'))) {
                    if (line.startsWith(QLatin1Char('#')) || !line.contains(QLatin1Char(':')))
                        continue;
                    field.insert(line.section(QLatin1Char(':'), 0, 0).trimmed().toLower(),
                                 line.section(QLatin1Char(':'), 1).trimmed());
                }
                if (!field.value(QStringLiteral("types")).split(QLatin1Char(' ')).contains(QStringLiteral("deb")) ||
                    field.value(QStringLiteral("enabled")) == QLatin1String("no"))
                    continue;
                for (const QString &uri :
                     field.value(QStringLiteral("uris")).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    for (const QString &suite :
                         field.value(QStringLiteral("suites")).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                        note(uri, suite);
            }
        } else {
            static const QRegularExpression deb(QStringLiteral(R"(^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+))"));
            for (const QString &line : text.split(QLatin1Char('\n'))) {
                const QRegularExpressionMatch match = deb.match(line);
                if (match.hasMatch())
                    note(match.captured(1), match.captured(2));
            }
        }
    }

    DebianSources sources;
    sources.mirror =
        qEnvironmentVariable("PADDOCK_DEBIAN_MIRROR",
                             uris.value(QStringLiteral("bookworm"), QStringLiteral("http://deb.debian.org/debian")));
    sources.lines << QStringLiteral("deb %1 bookworm main").arg(sources.mirror);
    if (uris.contains(QStringLiteral("bookworm-updates")) || qEnvironmentVariableIsSet("PADDOCK_DEBIAN_MIRROR"))
        sources.lines << QStringLiteral("deb %1 bookworm-updates main").arg(sources.mirror);
    if (uris.contains(QStringLiteral("bookworm-security")))
        sources.lines
            << QStringLiteral("deb %1 bookworm-security main").arg(uris.value(QStringLiteral("bookworm-security")));
    return sources;
}

/**
 * @brief A Debian 12 root file system unpacked in a temporary directory, and a way to run
 * commands in it as root (run-in-tree.sh: chroot, own mount and PID namespaces).
 */
class DebianTree
{
public:
    explicit DebianTree(const DebianSources &sources) : m_sources(sources) {}

    /** The cached tarball for these sources, made first if there is none. */
    QString baseTarball(QString *error) const
    {
        const QString cacheDir = QStringLiteral(PADDOCK_BUILD_DIR "/package-test");
        QDir().mkpath(cacheDir);
        const QByteArray key =
            QCryptographicHash::hash(m_sources.lines.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha256)
                .toHex()
                .left(12);
        const QString tarball = QStringLiteral("%1/debian-12-%2.tar").arg(cacheDir, QString::fromLatin1(key));
        if (QFileInfo::exists(tarball))
            return tarball;
        // variant apt: the Essential packages and apt, the least a Debian system has.
        // Unsafe I/O only skips fsync in a throwaway tree; the partial file is renamed into
        // place only once complete, so an interrupted run leaves no broken cache.
        const QString partial = tarball + QStringLiteral(".partial.tar");
        QFile::remove(partial); // what an interrupted run left
        QStringList arguments{QStringLiteral("--variant=apt"),
                              QStringLiteral("--mode=root"),
                              QStringLiteral("--format=tar"),
                              QStringLiteral("--dpkgopt=force-unsafe-io"),
                              QStringLiteral("--quiet"),
                              QStringLiteral("bookworm"),
                              partial};
        arguments << m_sources.lines;
        const ToolRun make = runTool(QStringLiteral("mmdebstrap"), arguments);
        if (!make.ok()) {
            QFile::remove(partial);
            *error = QString::fromUtf8(make.describe(QStringLiteral("mmdebstrap")));
            return {};
        }
        if (!QFile::rename(partial, tarball)) {
            *error = QStringLiteral("cannot rename %1 to %2").arg(partial, tarball);
            return {};
        }
        return tarball;
    }

    /** Unpacks a fresh copy of the base tree; @p packageDir appears as /mnt/package. */
    bool prepare(const QString &packageDir, QString *error)
    {
        const QString tarball = baseTarball(error);
        if (tarball.isEmpty())
            return false;
        m_packageDir = packageDir;
        m_archives = QStringLiteral(PADDOCK_BUILD_DIR "/package-test/apt-archives");
        QDir().mkpath(m_archives + QStringLiteral("/partial"));
        m_root = std::make_unique<QTemporaryDir>(QStringLiteral(PADDOCK_BUILD_DIR "/package-test/tree-XXXXXX"));
        if (!m_root->isValid()) {
            *error = QStringLiteral("no temporary directory for the tree");
            return false;
        }
        // The tree's "/": its unprivileged users (apt's download user) must traverse it.
        QFile::setPermissions(m_root->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                  QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                  QFile::ExeOther);
        const ToolRun unpack = runTool(
            QStringLiteral("tar"), {QStringLiteral("--extract"), QStringLiteral("--numeric-owner"),
                                    QStringLiteral("--file"), tarball, QStringLiteral("--directory"), m_root->path()});
        if (!unpack.ok()) {
            *error = QString::fromUtf8(unpack.describe(QStringLiteral("tar --extract")));
            return false;
        }
        return true;
    }

    /** Runs @p command in the tree with @p environment (NAME=VALUE) added to a clean one. */
    ToolRun run(const QStringList &command, const QStringList &environment = {}) const
    {
        QStringList arguments{m_root->path(), m_packageDir, m_archives};
        arguments << environment << command;
        return runTool(QStringLiteral(PADDOCK_SOURCE_DIR "/tests/integration/package-install/run-in-tree.sh"),
                       arguments);
    }
    /** Runs a shell script in the tree. */
    ToolRun shell(const QString &script, const QStringList &environment = {}) const
    {
        return run({QStringLiteral("/bin/sh"), QStringLiteral("-ec"), script}, environment);
    }

    /** A path inside the tree, as seen from the host. */
    QString hostPath(const QString &path) const { return m_root->path() + path; }

private:
    DebianSources m_sources;
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_packageDir;
    QString m_archives;
};

} // namespace paddock::testing

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerResult.h"

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

namespace paddock::runtime::docker {

/**
 * @brief The patterns of a build context's `.dockerignore`, with the engine's usual meaning:
 * `*` and `?` within one path component, `**` across any number, `[...]` classes, `!` to
 * re-include, the last matching line wins, and a pattern that names a directory also
 * excludes everything under it. Comments (`#`) and blank lines are skipped.
 */
class DockerIgnore
{
public:
    static DockerIgnore parse(const QString &text);
    /** Reads `contextDir/.dockerignore`; no file means no pattern. */
    static DockerIgnore load(const QString &contextDir);

    /** @p relativePath is '/'-separated and relative to the context directory. */
    bool excludes(const QString &relativePath) const;
    bool hasExceptions() const { return m_hasExceptions; }
    bool isEmpty() const { return m_patterns.isEmpty(); }

private:
    struct Pattern
    {
        QRegularExpression regex;
        int components = 0;
        bool exception = false;
    };
    QList<Pattern> m_patterns;
    bool m_hasExceptions = false;
};

/** @brief How a build context is made beyond the engine's usual rules. */
struct BuildContextOptions
{
    QString dockerfile = QStringLiteral("Dockerfile"); ///< relative to the context
    /** The Dockerfile's text, added to the context as @c dockerfile in place of a file read there. */
    QByteArray dockerfileText;
    /** Refuse the context when its files add up to more bytes than this; 0: no bound. */
    qint64 maxBytes = 0;
    /**
     * Refuse a symbolic link whose target is absolute or climbs out of the context: a folder
     * from outside (an authored kit) has no business naming the builder's files.
     */
    bool confined = false;
};

/**
 * Makes the uncompressed tar POST /build expects: every file, directory and symlink under
 * @p contextDir that `.dockerignore` keeps, owned by root, plus @p dockerfile (a path
 * relative to the context) and `.dockerignore` even when ignored, as the docker CLI does.
 */
Result<QByteArray> makeBuildContext(const QString &contextDir,
                                    const QString &dockerfile = QStringLiteral("Dockerfile"));
/** The same, with @p options: a Dockerfile given as text, a bound on the size, links kept inside. */
Result<QByteArray> makeBuildContext(const QString &contextDir, const BuildContextOptions &options);

} // namespace paddock::runtime::docker

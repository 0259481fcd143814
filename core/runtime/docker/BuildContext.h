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

/**
 * Makes the uncompressed tar POST /build expects: every file, directory and symlink under
 * @p contextDir that `.dockerignore` keeps, owned by root, plus @p dockerfile (a path
 * relative to the context) and `.dockerignore` even when ignored, as the docker CLI does.
 */
Result<QByteArray> makeBuildContext(const QString &contextDir,
                                    const QString &dockerfile = QStringLiteral("Dockerfile"));

} // namespace paddock::runtime::docker

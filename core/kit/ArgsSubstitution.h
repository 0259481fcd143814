// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>

namespace paddock::kit {

/** @brief One `${{ kit.args.NAME }}` found in a text. */
struct ArgReference
{
    QString name;
    QString written;      ///< the reference exactly as written, e.g. "${{ kit.args.token }}"
    qsizetype offset = 0; ///< where it starts in the scanned text
};

/** @brief The outcome of substituting arguments into one scalar. */
struct ArgSubstitution
{
    QString text;                   ///< the text with every resolvable reference replaced
    QList<ArgReference> references; ///< every kit.args reference, resolved or not
    bool unresolved = false;        ///< a reference had no value and was left as written
    QString error;                  ///< a malformed reference; empty when none
    qsizetype errorOffset = 0;
};

/**
 * Replaces each `${{ kit.args.NAME }}` in @p text by its value in @p values.
 *
 * `$${{` stands for a literal `${{` and opens nothing. A `${{` that does not open the
 * `kit.args.` namespace is left as written (something else may resolve it). A value
 * is inserted as it is and never rescanned. A reference without a value is left in
 * place and reported through `unresolved`.
 */
ArgSubstitution substituteArgs(const QString &text, const QMap<QString, QString> &values);

/** True when @p text opens a `${{ kit.args.` reference (escapes are not honoured). */
bool opensArgReference(const QString &text);

/** An argument name: `^[A-Za-z_][A-Za-z0-9_-]*$` (no dot, so it cannot look like a path). */
bool isValidArgName(const QString &name);

} // namespace paddock::kit

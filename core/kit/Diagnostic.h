// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

namespace paddock::kit {

/** @brief One problem found in a kit: where it is and what was expected. */
struct Diagnostic
{
    enum class Severity {
        Error,
        Warning
    };

    Severity severity = Severity::Error;
    QString file;    ///< the file as the user named it (spec.yaml path)
    int line = 0;    ///< 1-based; 0 when the problem has no position (a missing file)
    int column = 0;  ///< 1-based; 0 when unknown
    QString message; ///< one sentence: what is wrong and what was expected

    bool isError() const { return severity == Severity::Error; }
    /** "FILE:LINE:COLUMN: error: MESSAGE", the shape compilers use. */
    QString toString() const;
};

bool hasErrors(const QList<Diagnostic> &diagnostics);

} // namespace paddock::kit

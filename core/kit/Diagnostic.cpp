// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/Diagnostic.h"

#include <algorithm>

namespace paddock::kit {

QString Diagnostic::toString() const
{
    QString where = file;
    if (line > 0) {
        where += QLatin1Char(':') + QString::number(line);
        if (column > 0)
            where += QLatin1Char(':') + QString::number(column);
    }
    return where + (isError() ? QStringLiteral(": error: ") : QStringLiteral(": warning: ")) + message;
}

bool hasErrors(const QList<Diagnostic> &diagnostics)
{
    return std::any_of(diagnostics.cbegin(), diagnostics.cend(), [](const Diagnostic &d) { return d.isError(); });
}

} // namespace paddock::kit

// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/FileError.h"

namespace paddock {

FileError FileError::atZeroBased(const QString &file, int line, int column, const QString &message)
{
    return FileError{file, line >= 0 ? line + 1 : 0, column >= 0 ? column + 1 : 0, message};
}

QString FileError::toString() const
{
    if (line <= 0)
        return QStringLiteral("%1: error: %2").arg(file, message);
    return QStringLiteral("%1:%2:%3: error: %4").arg(file).arg(line).arg(column).arg(message);
}

} // namespace paddock

// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/QuotedString.h"

namespace paddock {

QString doubleQuoted(const QString &value, ControlEscape control)
{
    QString out = QStringLiteral("\"");
    out.reserve(value.size() + 2);
    for (const QChar c : value) {
        switch (c.unicode()) {
        case '"':
            out += QLatin1String("\\\"");
            break;
        case '\\':
            out += QLatin1String("\\\\");
            break;
        case '\n':
            out += QLatin1String("\\n");
            break;
        case '\r':
            out += QLatin1String("\\r");
            break;
        case '\t':
            out += QLatin1String("\\t");
            break;
        default:
            if (control == ControlEscape::Json && c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else if (control == ControlEscape::Yaml && (c.unicode() < 0x20 || c.unicode() == 0x7f))
                out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out + QLatin1Char('"');
}

} // namespace paddock

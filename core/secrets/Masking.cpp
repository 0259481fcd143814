// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/Masking.h"

#include <QList>

#include <sys/prctl.h>
#include <sys/resource.h>

namespace paddock::secrets {

QString mask(const QString &value)
{
    // Counted in code points so a non-ASCII value is never cut inside a surrogate pair.
    const QList<uint> points = value.toUcs4();
    if (points.size() < kMinimumPartlyShown)
        return QStringLiteral("••••");
    const QString head = QString::fromUcs4(reinterpret_cast<const char32_t *>(points.constData()), 4);
    const QString tail =
        QString::fromUcs4(reinterpret_cast<const char32_t *>(points.constData() + points.size() - 4), 4);
    return head + QStringLiteral("…") + tail;
}

void wipe(QByteArray &buffer)
{
    buffer.fill('\0');
    buffer.clear();
}

void wipe(QString &buffer)
{
    buffer.fill(QChar(0));
    buffer.clear();
}

bool disableCoreDumps()
{
    const struct rlimit none
    {
        0, 0
    };
    const bool limited = ::setrlimit(RLIMIT_CORE, &none) == 0;
    const bool undumpable = ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0;
    return limited && undumpable;
}

} // namespace paddock::secrets

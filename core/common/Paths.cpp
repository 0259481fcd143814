// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/Paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

namespace paddock::paths {
namespace {

QString xdgDir(const char *variable, const char *fallbackUnderHome)
{
    const QString value = qEnvironmentVariable(variable);
    // The specification says relative paths are invalid and must be ignored.
    if (!value.isEmpty() && QDir::isAbsolutePath(value))
        return value;
    return QDir::homePath() + QLatin1Char('/') + QLatin1String(fallbackUnderHome);
}

} // namespace

QString configDir()
{
    return xdgDir("XDG_CONFIG_HOME", ".config") + QStringLiteral("/paddock");
}
QString stateDir()
{
    return xdgDir("XDG_STATE_HOME", ".local/state") + QStringLiteral("/paddock");
}
QString dataDir()
{
    return xdgDir("XDG_DATA_HOME", ".local/share") + QStringLiteral("/paddock");
}

QString runtimeDir()
{
    const QString value = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!value.isEmpty() && QDir::isAbsolutePath(value))
        return value + QStringLiteral("/paddock");
    return QStringLiteral("/tmp/paddock-%1").arg(::getuid());
}

QString daemonSocket()
{
    return runtimeDir() + QStringLiteral("/paddockd.sock");
}

bool ensurePrivateDir(const QString &dir, QString *error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("cannot create the directory %1").arg(dir);
        return false;
    }
    const QByteArray native = QFile::encodeName(dir);
    struct stat st
    {};
    if (::lstat(native.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) {
        if (error)
            *error = QStringLiteral("%1 is not a directory owned by this user").arg(dir);
        return false;
    }
    if ((st.st_mode & 0777) != 0700 && ::chmod(native.constData(), 0700) != 0) {
        if (error)
            *error = QStringLiteral("cannot make %1 private (mode 0700)").arg(dir);
        return false;
    }
    return true;
}

QString tildePath(const QString &path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) && home != QLatin1String("/")
               ? QStringLiteral("~") + path.mid(home.size())
               : path;
}

} // namespace paddock::paths

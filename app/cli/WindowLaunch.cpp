// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowLaunch.h"
#include "Cli.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <string>

#include <unistd.h>

namespace paddock::cli {

namespace {

/** The same test as the window's (app/gui/Application.cpp): where Qt has a platform to open on. */
bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

} // namespace

std::optional<QString> windowRequest(const QStringList &arguments)
{
    if (arguments.isEmpty())
        return QString(); // without a display the window's program says what to do instead
    const std::optional<QString> bundle = bundleToOpen(arguments);
    if (bundle && hasDisplay())
        return bundle;
    return std::nullopt;
}

void execWindow(const QString &bundle, QString *error)
{
    // This program's own file, not argv[0], which a shell may have found on PATH or a caller made up.
    const QString self = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath();
    const QString program = QFileInfo(self).absolutePath() + QLatin1Char('/') + QLatin1String(kWindowProgram);
    const std::string path = program.toStdString();
    std::string file = QFile::encodeName(bundle).toStdString();
    char *argv[] = {const_cast<char *>(path.c_str()), bundle.isEmpty() ? nullptr : file.data(), nullptr};
    ::execv(path.c_str(), argv);
    *error = QStringLiteral("paddock: cannot start the window's program %1: %2")
                 .arg(program, QString::fromLocal8Bit(std::strerror(errno)));
}

} // namespace paddock::cli

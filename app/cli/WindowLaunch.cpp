// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowLaunch.h"
#include "Cli.h"
#include "SiblingProgram.h"

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
    execSibling(QLatin1String(kWindowProgram), bundle.isEmpty() ? QStringList() : QStringList{bundle}, error);
}

} // namespace paddock::cli

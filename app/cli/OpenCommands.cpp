// SPDX-License-Identifier: GPL-3.0-or-later
// paddock open FILE, and paddock FILE.paddock: the window's Classroom page with the bundle's preview
#include "Cli.h"
#include "CliSupport.h"

#include <QFileInfo>

namespace paddock::cli {

namespace {

const QString kOpen = QStringLiteral("open");
const QString kBundleSuffix = QStringLiteral("paddock");

/** Reached only where no window can open: the build has none, or there is no display. */
int runOpen(const Invocation &call)
{
    const QString why = QStringLiteral("there is no window to open (no display, or a build without the desktop "
                                       "application)");
    if (call.positional.isEmpty())
        return failure(why + QStringLiteral("; see 'paddock --help'"));
    return failure(why + QStringLiteral("; preview the bundle here with 'paddock bundle import %1 --dry-run'")
                             .arg(call.positional.first()));
}

} // namespace

std::optional<QString> bundleToOpen(const QStringList &arguments)
{
    // `paddock open` alone is the desktop entry's Exec without a file: the window as it is.
    if (arguments.size() == 1 && arguments.first() == kOpen)
        return QString();
    if (arguments.size() == 2 && arguments.first() == kOpen && !arguments.at(1).startsWith(QLatin1Char('-')))
        return QFileInfo(arguments.at(1)).absoluteFilePath();
    // A file manager or a user passing the file alone: only an existing *.paddock file, so a
    // mistyped command still reads as one.
    if (arguments.size() == 1) {
        const QFileInfo file(arguments.first());
        if (file.suffix() == kBundleSuffix && file.isFile())
            return file.absoluteFilePath();
    }
    return std::nullopt;
}

Command openCommand()
{
    Command open;
    open.name = kOpen;
    open.summary = QStringLiteral("Open the window, on the Classroom page with a bundle's preview.");
    open.description =
        QStringLiteral("Opens the window on its Classroom page with the preview of bundle FILE: the kit, the\n"
                       "network rules and the keys it brings. Nothing is imported before Import is pressed.\n"
                       "This is what opening a .paddock file from the file manager runs; 'paddock FILE.paddock'\n"
                       "does the same. A file that is not a bundle is refused with the reason on the page.\n"
                       "Without a display, use 'paddock bundle import FILE --dry-run'.");
    open.positionalSyntax = QStringLiteral("[FILE]");
    open.positionalHelp = {{QStringLiteral("FILE"), QStringLiteral("A .paddock bundle; without it, the window.")}};
    open.minPositional = 0;
    open.maxPositional = 1;
    open.run = runOpen;
    return open;
}

} // namespace paddock::cli

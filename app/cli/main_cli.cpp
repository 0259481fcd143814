// SPDX-License-Identifier: GPL-3.0-or-later
#include "Cli.h"
#ifdef PADDOCK_WINDOW
#include "WindowLaunch.h"
#endif

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
#ifdef PADDOCK_WINDOW
    // No arguments, `open [FILE]` or a bundle's file: the window, which is a program of its own.
    if (const std::optional<QString> bundle = paddock::cli::windowRequest(arguments)) {
        QString error;
        paddock::cli::execWindow(*bundle, &error);
        std::fprintf(stderr, "%s\n", qUtf8Printable(error));
        return 1;
    }
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("paddock"));
    return paddock::cli::run(arguments);
}

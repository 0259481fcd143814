// SPDX-License-Identifier: GPL-3.0-or-later
#include "Cli.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    if (argc > 1) {
        QCoreApplication app(argc, argv);
        QStringList arguments = QCoreApplication::arguments();
        arguments.removeFirst();
        return paddock::cli::run(arguments);
    }
    return 0;
}

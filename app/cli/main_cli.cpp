// SPDX-License-Identifier: GPL-3.0-or-later
#include "Cli.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("paddock"));
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    return paddock::cli::run(arguments);
}

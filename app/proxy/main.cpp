// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProxyServe.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("paddock-proxy"));
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    return paddock::cli::dispatch(paddock::cli::serveCommand(), arguments);
}

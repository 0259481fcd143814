// SPDX-License-Identifier: GPL-3.0-or-later
// The floor of a command's start: a program with Qt Core and Qt Network (what a client of
// paddockd needs) that makes its application object and a local socket, prints a line and ends.
// sandbox-start-bench times `paddock --version` beside it.
#include <QCoreApplication>
#include <QLocalSocket>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLocalSocket socket;
    std::puts("qt-start-reference");
    return socket.state() == QLocalSocket::UnconnectedState ? 0 : 1;
}

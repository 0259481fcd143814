// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark's reference: a Qt Quick window with one Rectangle and nothing of Paddock's,
// linked only to Qt. Prints the same lines as the window's probe (see bench_gui_startup.cpp).
#include "ProbeReport.h"

#include <QGuiApplication>
#include <QQmlApplicationEngine>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QQmlApplicationEngine engine;
    benchprobe::reportWhenSettled(app, engine);
    engine.loadData("import QtQuick\n"
                    "Window { width: 1100; height: 720; visible: true; title: \"reference\"\n"
                    "  Rectangle { anchors.fill: parent; anchors.margins: 40; color: \"steelblue\" } }\n");
    return app.exec();
}

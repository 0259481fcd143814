// SPDX-License-Identifier: GPL-3.0-or-later
#include "Application.h"
#include "Cli.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QtQml/qqmlextensionplugin.h>

#include <cstdio>

// The Paddock QML module is a static plugin linked into this executable.
Q_IMPORT_QML_PLUGIN(PaddockPlugin)

int main(int argc, char *argv[])
{
    if (argc > 1) {
        QCoreApplication app(argc, argv);
        QStringList arguments = QCoreApplication::arguments();
        arguments.removeFirst();
        return paddock::cli::run(arguments);
    }

    // Without a display Qt would abort with a message about platform plugins; say what to do.
    if (!paddock::gui::hasDisplay()) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(paddock::gui::noDisplayMessage()));
        return 1;
    }

    QGuiApplication app(argc, argv);
    paddock::gui::setUpApplication(app);
    paddock::gui::installTranslations(app);

    QQmlApplicationEngine engine;
    paddock::gui::prepareEngine(engine);
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreated, &app,
        [](QObject *window, const QUrl &) {
            if (!window)
                QCoreApplication::exit(1);
        },
        Qt::QueuedConnection);
    engine.load(paddock::gui::mainQmlUrl());
    return app.exec();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "Application.h"
#include "Cli.h"
#include "WindowInstance.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QtQml/qqmlextensionplugin.h>

#include <cstdio>
#include <optional>

// The Paddock QML module is a static plugin linked into this executable.
Q_IMPORT_QML_PLUGIN(PaddockPlugin)

int main(int argc, char *argv[])
{
    // `paddock open FILE` and `paddock FILE.paddock` open the window; other arguments are commands.
    std::optional<QString> bundle;
    if (argc > 1) {
        QStringList arguments;
        for (int i = 1; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
        bundle = paddock::cli::bundleToOpen(arguments);
        if (!bundle || !paddock::gui::hasDisplay()) {
            QCoreApplication app(argc, argv);
            return paddock::cli::run(arguments);
        }
    }

    // Without a display Qt would abort with a message about platform plugins; say what to do.
    if (!paddock::gui::hasDisplay()) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(paddock::gui::noDisplayMessage()));
        return 1;
    }

    QGuiApplication app(argc, argv);
    // One window per session: a second `paddock` hands its request to the running one.
    if (paddock::gui::WindowInstance::forward(bundle.value_or(QString())))
        return 0;
    paddock::gui::WindowInstance instance;
    instance.listen();
    paddock::gui::setUpApplication(app);
    paddock::gui::installTranslations(app);

    QQmlApplicationEngine engine;
    paddock::gui::prepareEngine(engine);
    if (bundle && !bundle->isEmpty())
        paddock::gui::openBundleAtStart(engine, *bundle);
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreated, &app,
        [](QObject *window, const QUrl &) {
            if (!window)
                QCoreApplication::exit(1);
        },
        Qt::QueuedConnection);
    engine.load(paddock::gui::mainQmlUrl());
    paddock::gui::releaseStartupMemory(engine);
    paddock::gui::raiseOnRequests(engine, instance);
    return app.exec();
}

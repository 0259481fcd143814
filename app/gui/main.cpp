// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock-gui [FILE]`: the window, on the Classroom page with bundle FILE's preview when given.
// `paddock` runs it (app/cli/WindowLaunch.h) with no arguments, for `open [FILE]` and for a
// lone *.paddock file; the command line's code and libraries stay out of this process.
#include "Application.h"
#include "WindowInstance.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QtQml/qqmlextensionplugin.h>

#include <cstdio>

// The Paddock QML module is a static plugin linked into this executable.
Q_IMPORT_QML_PLUGIN(PaddockPlugin)

int main(int argc, char *argv[])
{
    // Without a display Qt would abort with a message about platform plugins; say what to do.
    if (!paddock::gui::hasDisplay()) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(paddock::gui::noDisplayMessage()));
        return 1;
    }

    QGuiApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    const QString bundle = arguments.size() > 1 ? QFileInfo(arguments.at(1)).absoluteFilePath() : QString();
    // One window per session: a second `paddock` hands its request to the running one.
    if (paddock::gui::WindowInstance::forward(bundle))
        return 0;
    paddock::gui::WindowInstance instance;
    instance.listen();
    paddock::gui::setUpApplication(app);
    paddock::gui::installTranslations(app);

    QQmlApplicationEngine engine;
    paddock::gui::prepareEngine(engine);
    if (!bundle.isEmpty())
        paddock::gui::openBundleAtStart(engine, bundle);
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitImporter.h"

#include "KitListModel.h"
#include "common/QuotedString.h"
#include "kit/KitArchive.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPointer>
#include <QThread>

namespace paddock::gui {

namespace {

struct Outcome
{
    QString result;
    QString error;
    QString directory;
    QStringList widenings;
};

/** What loading @p file did, in the words the dialog shows. */
Outcome load(const QString &file, const QString &name, bool approveWidening)
{
    kit::KitArchiveOptions options;
    options.name = name;
    options.approveWidening = approveWidening;
    const kit::KitArchiveResult loaded = kit::loadKitArchive(file, options);
    Outcome outcome;
    if (!loaded.widenings.isEmpty() && !approveWidening) {
        outcome.widenings = loaded.widenings;
        outcome.error = KitImporter::tr("This update is granted more than the kit loaded before. Nothing was "
                                        "loaded; tick the box below to accept it.");
        return outcome;
    }
    if (!loaded.ok()) {
        QStringList errors;
        for (const kit::Diagnostic &d : loaded.diagnostics)
            if (d.isError())
                errors << d.toString();
        outcome.error = KitImporter::tr("%1 was not loaded:\n%2").arg(file, errors.join(QLatin1Char('\n')));
        return outcome;
    }
    const kit::Kit &kit = *loaded.kit;
    outcome.directory = kit.directory;
    outcome.result = KitImporter::tr("Loaded %1 (%2) from %3.")
                         .arg(kit.name, kit.isSandbox() ? KitImporter::tr("workload") : KitImporter::tr("mixin"),
                              kit.reference.isEmpty() ? QFileInfo(file).fileName() : kit.reference);
    int skipped = 0;
    for (const kit::CapabilityOutcome &c : kit.capabilities)
        skipped += c.status == kit::CapabilityOutcome::Status::Skipped ? 1 : 0;
    if (skipped > 0)
        outcome.result +=
            QLatin1Char(' ') +
            KitImporter::tr("%n optional capability(s) skipped: Paddock does not implement them.", "", skipped);
    for (const QString &note : loaded.notes)
        outcome.result += QLatin1Char('\n') + note;
    return outcome;
}

} // namespace

KitImporter::KitImporter(QObject *parent) : QObject(parent) {}

QString KitImporter::localPath(const QString &pathOrUrl) const
{
    return KitListModel::localPath(pathOrUrl);
}

QString KitImporter::command(const QString &file, const QString &name) const
{
    const QString path = KitListModel::localPath(file);
    QString line = QStringLiteral("paddock kit load ") + shellWord(path.isEmpty() ? QStringLiteral("FILE") : path);
    if (!name.trimmed().isEmpty())
        line += QStringLiteral(" --name ") + shellWord(name.trimmed());
    return line;
}

void KitImporter::reset()
{
    if (m_busy)
        return;
    m_error.clear();
    m_result.clear();
    m_widenings.clear();
    Q_EMIT resultChanged();
}

void KitImporter::finish(const QString &result, const QString &error, const QString &directory,
                         const QStringList &widenings)
{
    m_result = result;
    m_error = error;
    m_widenings = widenings;
    m_busy = false;
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    if (error.isEmpty())
        Q_EMIT imported(directory);
}

void KitImporter::importArchive(const QString &file, const QString &name, bool approveWidening)
{
    if (m_busy)
        return;
    const QString path = KitListModel::localPath(file);
    if (path.isEmpty())
        return finish({}, tr("Choose the archive to import first (an OCI layout or docker save .tar)."), {});
    if (!QFileInfo(path).isFile())
        return finish({}, tr("%1 is not a file.").arg(path), {});
    m_busy = true;
    m_result.clear();
    m_error.clear();
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    QPointer<KitImporter> self(this);
    QThread *thread = QThread::create([self, path, name = name.trimmed(), approveWidening] {
        const Outcome outcome = load(path, name, approveWidening);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, outcome] {
                if (self)
                    self->finish(outcome.result, outcome.error, outcome.directory, outcome.widenings);
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

} // namespace paddock::gui

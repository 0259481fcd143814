// SPDX-License-Identifier: GPL-3.0-or-later
#include "BundleExporter.h"

#include "bundle/Bundle.h"
#include "common/AtomicFile.h"
#include "kit/KitLibrary.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QThread>

#include <algorithm>

namespace paddock::gui {
namespace {

/** One byte past the 64 KiB exportBundle() takes, so a longer file is refused, not cut. */
constexpr qint64 kNotesReadBytes = 64 * 1024 + 1;

QString quoted(const QString &text)
{
    static const QString plain =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@");
    if (!text.isEmpty() && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return plain.contains(c); }))
        return text;
    return QLatin1Char('\'') + QString(text).replace(QLatin1String("'"), QLatin1String("'\\''")) + QLatin1Char('\'');
}

QString humanSize(qint64 bytes)
{
    if (bytes < 1024)
        return BundleExporter::tr("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return BundleExporter::tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return BundleExporter::tr("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

} // namespace

BundleExporter::BundleExporter(QObject *parent) : QObject(parent) {}

void BundleExporter::setIncludePolicy(bool include)
{
    if (m_includePolicy == include)
        return;
    m_includePolicy = include;
    Q_EMIT optionsChanged();
}

void BundleExporter::setNotesFile(const QString &file)
{
    if (m_notesFile == file.trimmed())
        return;
    m_notesFile = file.trimmed();
    Q_EMIT optionsChanged();
}

void BundleExporter::setOutputFile(const QString &file)
{
    if (m_outputFile == file.trimmed())
        return;
    m_outputFile = file.trimmed();
    Q_EMIT optionsChanged();
}

QString BundleExporter::localPath(const QUrl &url)
{
    return url.isLocalFile() ? url.toLocalFile() : url.toString();
}

QString BundleExporter::command() const
{
    QString line = QStringLiteral("paddock bundle export --kit %1").arg(quoted(m_kitArgument));
    if (m_includePolicy)
        line += QStringLiteral(" --policy");
    if (!m_notesFile.isEmpty())
        line += QStringLiteral(" --notes ") + quoted(m_notesFile);
    if (!m_outputFile.isEmpty())
        line += QStringLiteral(" -o ") + quoted(m_outputFile);
    return line;
}

void BundleExporter::reset(const QString &directory, const QString &name)
{
    m_kitDirectory = directory;
    m_kitName = name;
    const std::optional<QString> byName = kit::KitLibrary().resolve(name, nullptr);
    m_kitArgument = byName && *byName == QFileInfo(directory).canonicalFilePath() ? name : directory;
    m_includePolicy = false;
    m_notesFile.clear();
    m_outputFile = QDir::home().filePath(name + QStringLiteral(".paddock"));
    m_result.clear();
    m_error.clear();
    Q_EMIT optionsChanged();
    Q_EMIT resultChanged();
}

void BundleExporter::finish(const QString &result, const QString &error)
{
    m_result = result;
    m_error = error;
    m_busy = false;
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    if (error.isEmpty())
        Q_EMIT exported(m_outputFile);
}

void BundleExporter::exportBundle()
{
    if (m_busy)
        return;
    if (m_outputFile.isEmpty() || !QDir::isAbsolutePath(m_outputFile))
        return finish({}, tr("Choose where to write the bundle (a full path)."));
    bundle::ExportRequest request;
    request.kitDir = m_kitDirectory;
    request.includePolicy = m_includePolicy;
    const QString notesFile = m_notesFile;
    const QString output = m_outputFile;
    m_busy = true;
    m_result.clear();
    m_error.clear();
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    QPointer<BundleExporter> self(this);
    QThread *thread = QThread::create([self, request, notesFile, output]() mutable {
        QString result;
        QString error;
        QFile notes(notesFile);
        if (!notesFile.isEmpty() && !notes.open(QIODevice::ReadOnly))
            error = tr("Cannot read %1: %2").arg(notesFile, notes.errorString());
        if (error.isEmpty() && !notesFile.isEmpty())
            request.notes = QString::fromUtf8(notes.read(kNotesReadBytes));
        const bundle::ExportResult exported = error.isEmpty() ? bundle::exportBundle(request) : bundle::ExportResult{};
        if (error.isEmpty() && !exported.ok())
            error = exported.error;
        if (error.isEmpty() && !writeFileAtomically(output, exported.archive, &error))
            error = tr("Cannot write %1: %2").arg(output, error);
        if (error.isEmpty()) {
            QStringList services;
            for (const bundle::BundleSecret &secret : exported.manifest.secrets)
                services << secret.service;
            result = tr("Wrote %1: kit %2, %3 files (%4).")
                         .arg(output, exported.manifest.kitName)
                         .arg(exported.fileCount)
                         .arg(humanSize(exported.bytes));
            if (exported.manifest.policy)
                result += QLatin1Char('\n') +
                          tr("Policy: preset %1, %n rule(s).", "", int(exported.manifest.policy->rules.size()))
                              .arg(policy::presetName(exported.manifest.policy->preset));
            result += QLatin1Char('\n') +
                      (services.isEmpty() ? tr("Students provide no key.")
                                          : tr("Students provide their own keys for: %1 (the bundle holds no value).")
                                                .arg(services.join(QStringLiteral(", "))));
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, result, error] {
                if (self)
                    self->finish(result, error);
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

} // namespace paddock::gui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitImporter.h"

#include "KitListModel.h"
#include "api/Protocol.h"
#include "common/QuotedString.h"
#include "kit/Kit.h"

#include <QFileInfo>
#include <QJsonArray>

namespace paddock::gui {

KitImporter::KitImporter(QObject *parent) : DaemonBound(parent) {}

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
    setError(QString());
    m_result.clear();
    m_widenings.clear();
    Q_EMIT resultChanged();
}

void KitImporter::finish(const QString &result, const QString &error, const QString &directory,
                         const QStringList &widenings)
{
    m_result = result;
    m_widenings = widenings;
    m_busy = false;
    setError(error);
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    if (error.isEmpty())
        Q_EMIT imported(directory);
}

void KitImporter::finishLoad(const QString &file, const QJsonObject &answer)
{
    QStringList widenings;
    for (const QJsonValue &line : answer.value(QLatin1String("widenings")).toArray())
        widenings << line.toString();
    if (answer.value(QLatin1String("needsApproval")).toBool())
        return finish({},
                      tr("This update is granted more than the kit loaded before. Nothing was loaded; tick the box "
                         "below to accept it."),
                      {}, widenings);
    if (!answer.value(QLatin1String("loaded")).toBool()) {
        QStringList errors;
        for (const QJsonValue &value : answer.value(QLatin1String("diagnostics")).toArray())
            if (value[QLatin1String("error")].toBool())
                errors << value[QLatin1String("text")].toString();
        return finish({}, tr("%1 was not loaded:\n%2").arg(file, errors.join(QLatin1Char('\n'))), {});
    }
    const QJsonObject kit = answer.value(QLatin1String("kit")).toObject();
    const QString reference = kit.value(QLatin1String("reference")).toString();
    QString result = tr("Loaded %1 (%2) from %3.")
                         .arg(kit.value(QLatin1String("name")).toString(),
                              kit.value(QLatin1String("kind")).toString() == QLatin1String("workload") ? tr("workload")
                                                                                                       : tr("mixin"),
                              reference.isEmpty() ? QFileInfo(file).fileName() : reference);
    int skipped = 0;
    for (const QJsonValue &value : kit.value(QLatin1String("capabilities")).toArray())
        skipped +=
            value[QLatin1String("status")].toString() == kit::outcomeName(kit::CapabilityOutcome::Status::Skipped) ? 1
                                                                                                                   : 0;
    if (skipped > 0)
        result +=
            QLatin1Char(' ') + tr("%n optional capability(s) skipped: Paddock does not implement them.", "", skipped);
    for (const QJsonValue &note : answer.value(QLatin1String("notes")).toArray())
        result += QLatin1Char('\n') + note.toString();
    finish(result, {}, kit.value(QLatin1String("directory")).toString());
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
    setError(QString());
    Q_EMIT busyChanged();
    Q_EMIT resultChanged();
    const QJsonObject params{{QStringLiteral("file"), QFileInfo(path).absoluteFilePath()},
                             {QStringLiteral("name"), name.trimmed()},
                             {QStringLiteral("approve"), approveWidening}};
    act(QStringLiteral("kit.load"), params, [this, path](const api::Reply &reply) {
        if (reply.isError())
            return finish({}, reply.errorMessage(), {});
        finishLoad(path, reply.result());
    });
}

} // namespace paddock::gui

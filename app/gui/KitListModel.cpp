// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitListModel.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QUrl>
#include <QVariantMap>

Q_LOGGING_CATEGORY(lcKitList, "paddock.gui.kitlist", QtWarningMsg)

namespace paddock::gui {

namespace {

QString firstProblem(const kit::KitEntry &entry)
{
    for (const kit::Diagnostic &d : entry.diagnostics) {
        if (d.isError())
            return d.line > 0 ? KitListModel::tr("line %1: %2").arg(d.line).arg(d.message) : d.message;
    }
    return {};
}

/** A v3 kit's capability requests as the page lists them: what each became, in plain words. */
QVariantList capabilityRows(const kit::KitEntry &entry)
{
    QVariantList rows;
    for (const kit::CapabilityOutcome &c : entry.capabilities) {
        rows << QVariantMap{{QStringLiteral("type"), c.type},
                            {QStringLiteral("label"), c.label},
                            {QStringLiteral("status"), kit::outcomeName(c.status)},
                            {QStringLiteral("what"), c.what}};
    }
    return rows;
}

} // namespace

KitListModel::KitListModel(QObject *parent) : RowListModel(parent)
{
    using R = const kit::KitEntry &;
    m_rows.setRoles({{NameRole, "name", [](R entry) { return entry.name; }},
                     {DisplayNameRole, "displayName", [](R entry) { return entry.displayName; }},
                     {VersionRole, "version", [](R entry) { return entry.version; }},
                     {KindRole, "kind", [](R entry) { return entry.kind; }},
                     {DescriptionRole, "description", [](R entry) { return entry.description; }},
                     {DirectoryRole, "directory", [](R entry) { return entry.directory; }},
                     {SourceRole, "source", [](R entry) { return kit::sourceName(entry.source); }},
                     {ReadOnlyRole, "readOnly", [](R entry) { return entry.readOnly(); }},
                     {ValidRole, "valid", [](R entry) { return entry.valid(); }},
                     {ErrorCountRole, "errorCount", [](R entry) { return entry.errorCount; }},
                     {WarningCountRole, "warningCount", [](R entry) { return entry.warningCount; }},
                     {FirstProblemRole, "firstProblem", [](R entry) { return firstProblem(entry); }},
                     {SchemaVersionRole, "schemaVersion", [](R entry) { return entry.schemaVersion; }},
                     {ReferenceRole, "reference", [](R entry) { return entry.reference; }},
                     {DigestRole, "digest", [](R entry) { return entry.digest; }},
                     {ProvidesRole, "provides", [](R entry) { return entry.provides.join(QStringLiteral(", ")); }},
                     {CapabilitiesRole, "capabilities", [](R entry) { return capabilityRows(entry); }},
                     {AuthoredRole, "authored", [](R entry) { return entry.authored; }}},
                    NameRole);
    reload();
}

QVariantList KitListModel::templates() const
{
    QVariantList list;
    for (const QString &name : kit::KitLibrary::templateNames()) {
        list << QVariantMap{{QStringLiteral("name"), name},
                            {QStringLiteral("description"), kit::KitLibrary::templateDescription(name)}};
    }
    return list;
}

void KitListModel::reload()
{
    m_library.reload();
    m_rows.reset(m_library.entries());
}

QString KitListModel::localPath(const QString &pathOrUrl)
{
    QString path = pathOrUrl.trimmed();
    if (path.startsWith(QLatin1String("file:")))
        path = QUrl(path).toLocalFile();
    if (path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    return path.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

bool KitListModel::fail(const QString &message)
{
    qCDebug(lcKitList).noquote() << message;
    setError(message);
    return false;
}

void KitListModel::succeed()
{
    setError(QString());
    reload();
}

bool KitListModel::add(const QString &folder)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a kit folder first."));
    QString error;
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::forget(const QString &directory)
{
    QString error;
    if (!m_library.forget(directory, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::createFromTemplate(const QString &templateName, const QString &folder, const QString &name)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a folder for the new kit first."));
    QString error;
    if (!kit::KitLibrary::createFromTemplate(templateName, path, name.trimmed(), &error))
        return fail(error);
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::copyTo(const QString &directory, const QString &folder)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a folder for the copy first."));
    QString error;
    if (!kit::KitLibrary::copyKit(directory, path, &error))
        return fail(error);
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

int KitListModel::indexOfDirectory(const QString &directory) const
{
    const QString wanted = QFileInfo(directory).canonicalFilePath();
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).directory == directory || m_rows.at(i).directory == wanted)
            return int(i);
    }
    return -1;
}

} // namespace paddock::gui

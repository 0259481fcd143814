// SPDX-License-Identifier: GPL-3.0-or-later
#include "WizardShares.h"

#include "common/Paths.h"
#include "kit/KitSettings.h"

#include <QDir>

namespace paddock::gui {
namespace {

QString shown(const QString &path)
{
    return paths::tildePath(path);
}

} // namespace

WizardShares::WizardShares(QObject *parent) : DaemonBound(parent) {}

void WizardShares::setContext(const QString &kitDirectory, const QString &workspace)
{
    const bool newKit = kitDirectory != m_kitDirectory;
    m_kitDirectory = kitDirectory;
    m_workspace = workspace;
    if (newKit) {
        // Start from what the kit shares on this computer, and keep editing it by default.
        m_folders.clear();
        m_variables.clear();
        const kit::KitShares shares =
            kitDirectory.isEmpty() ? kit::KitShares() : kit::KitSettings::shares(kitDirectory);
        for (const QString &text : shares.mounts) {
            QString ignored;
            if (const auto folder = kit::SharedFolder::parse(text, QDir::homePath(), &ignored))
                m_folders.append({*folder, {}, {}});
        }
        for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it)
            m_variables.append({it.key(), it.value(), {}});
        m_rememberForKit = !shares.isEmpty();
        m_entryError.clear();
    }
    check();
}

QVariantList WizardShares::folders() const
{
    QVariantList list;
    for (const Folder &entry : m_folders) {
        const kit::SharedFolder &f = entry.folder;
        list.append(QVariantMap{
            {QStringLiteral("host"), f.hostPath},
            {QStringLiteral("inside"), f.insidePath},
            {QStringLiteral("writable"), f.writable},
            {QStringLiteral("text"),
             tr("%1 → %2 (%3)").arg(shown(f.hostPath), f.insidePath, f.writable ? tr("read-write") : tr("read-only"))},
            {QStringLiteral("problem"), entry.problem},
            {QStringLiteral("warning"), entry.warning}});
    }
    return list;
}

QVariantList WizardShares::variables() const
{
    QVariantList list;
    for (const Variable &entry : m_variables)
        list.append(QVariantMap{{QStringLiteral("name"), entry.name},
                                {QStringLiteral("value"), entry.value},
                                {QStringLiteral("problem"), entry.problem}});
    return list;
}

void WizardShares::setRememberForKit(bool remember)
{
    if (m_rememberForKit == remember)
        return;
    m_rememberForKit = remember;
    Q_EMIT changed();
}

bool WizardShares::ready() const
{
    if (m_checking)
        return false;
    return std::none_of(m_folders.cbegin(), m_folders.cend(), [](const Folder &f) { return !f.problem.isEmpty(); }) &&
           std::none_of(m_variables.cbegin(), m_variables.cend(),
                        [](const Variable &v) { return !v.problem.isEmpty(); });
}

QString WizardShares::summary() const
{
    QStringList parts;
    for (const Folder &entry : m_folders)
        parts << tr("%1 → %2 (%3)")
                     .arg(shown(entry.folder.hostPath), entry.folder.insidePath,
                          entry.folder.writable ? tr("read-write") : tr("read-only"));
    for (const Variable &entry : m_variables)
        parts << entry.name;
    return parts.isEmpty() ? QString() : tr("Shares: %1").arg(parts.join(QStringLiteral("; ")));
}

void WizardShares::addFolder(const QString &host, const QString &inside, bool readOnly)
{
    QString text = host.trimmed();
    if (!inside.trimmed().isEmpty())
        text += QLatin1Char(':') + inside.trimmed();
    text += readOnly ? QStringLiteral(":ro") : QStringLiteral(":rw");
    QString error;
    const std::optional<kit::SharedFolder> folder = kit::SharedFolder::parse(text, QDir::homePath(), &error);
    m_entryError = folder ? QString() : error;
    if (folder) {
        // One folder per inside path, as on the command line: the newer one replaces it.
        m_folders.erase(std::remove_if(m_folders.begin(), m_folders.end(),
                                       [&](const Folder &f) { return f.folder.insidePath == folder->insidePath; }),
                        m_folders.end());
        m_folders.append({*folder, {}, {}});
    }
    Q_EMIT changed();
    check();
}

QString WizardShares::pathOfUrl(const QUrl &url) const
{
    return shown(url.isLocalFile() ? url.toLocalFile() : url.toString());
}

QUrl WizardShares::homeUrl() const
{
    return QUrl::fromLocalFile(QDir::homePath());
}

void WizardShares::removeFolder(int index)
{
    if (index < 0 || index >= m_folders.size())
        return;
    m_folders.removeAt(index);
    Q_EMIT changed();
}

void WizardShares::addVariable(const QString &text)
{
    QString error;
    const std::optional<kit::VariableArgument> variable = kit::parseVariable(text.trimmed(), &error);
    if (variable && !variable->value)
        error = tr("give a value: NAME=VALUE");
    m_entryError = error;
    if (error.isEmpty()) {
        m_variables.erase(std::remove_if(m_variables.begin(), m_variables.end(),
                                         [&](const Variable &v) { return v.name == variable->name; }),
                          m_variables.end());
        m_variables.append({variable->name, *variable->value, {}});
    }
    Q_EMIT changed();
    check();
}

void WizardShares::removeVariable(int index)
{
    if (index < 0 || index >= m_variables.size())
        return;
    m_variables.removeAt(index);
    Q_EMIT changed();
}

void WizardShares::clear()
{
    m_kitDirectory.clear();
    m_folders.clear();
    m_variables.clear();
    m_rememberForKit = false;
    m_entryError.clear();
    ++m_generation;
    m_checking = false;
    Q_EMIT changed();
}

QJsonArray WizardShares::mountsJson() const
{
    QJsonArray mounts;
    for (const Folder &entry : m_folders)
        mounts.append(entry.folder.toJson());
    return mounts;
}

QJsonObject WizardShares::envJson() const
{
    QJsonObject env;
    for (const Variable &entry : m_variables)
        env.insert(entry.name, entry.value);
    return env;
}

std::optional<QJsonObject> WizardShares::kitSharesParams() const
{
    if (!m_rememberForKit || m_kitDirectory.isEmpty())
        return std::nullopt;
    QJsonArray mounts;
    for (const Folder &entry : m_folders)
        mounts << entry.folder.toString();
    return QJsonObject{{QStringLiteral("kit"), m_kitDirectory},
                       {QStringLiteral("mounts"), mounts},
                       {QStringLiteral("env"), envJson()}};
}

void WizardShares::check()
{
    const quint64 generation = ++m_generation;
    const QJsonObject params{{QStringLiteral("kit"), m_kitDirectory},
                             {QStringLiteral("workspace"), m_workspace},
                             {QStringLiteral("mounts"), mountsJson()},
                             {QStringLiteral("env"), envJson()}};
    m_checking = false;
    if (!m_folders.isEmpty() || !m_variables.isEmpty())
        m_checking = request(QStringLiteral("sandbox.checkShares"), params, [this, generation](const api::Reply &r) {
            if (generation == m_generation)
                applyCheck(r);
        });
    Q_EMIT changed();
}

void WizardShares::applyCheck(const api::Reply &reply)
{
    m_checking = false;
    const QJsonArray mounts = reply.result().value(QLatin1String("mounts")).toArray();
    for (qsizetype i = 0; i < m_folders.size() && i < mounts.size(); ++i) {
        const QJsonObject checked = mounts.at(i).toObject();
        m_folders[i].problem = checked.value(QLatin1String("problem")).toString();
        m_folders[i].warning = checked.value(QLatin1String("warning")).toString();
    }
    for (const QJsonValue &value : reply.result().value(QLatin1String("env")).toArray()) {
        for (Variable &variable : m_variables) {
            if (variable.name == value[QLatin1String("name")].toString())
                variable.problem = value[QLatin1String("problem")].toString();
        }
    }
    if (reply.isError() && !m_folders.isEmpty())
        m_folders.first().problem = reply.errorMessage();
    Q_EMIT changed();
}

} // namespace paddock::gui

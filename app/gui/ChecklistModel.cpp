// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChecklistModel.h"

#include <QJsonArray>

#include <algorithm>

namespace paddock::gui {

ChecklistModel::ChecklistModel(QObject *parent) : RowListModel(parent)
{
    using R = const VerifyCheck &;
    m_rows.setRoles({{CheckIdRole, "checkId", [](R check) { return check.id; }},
                     {TitleRole, "title", [](R check) { return check.title; }},
                     {StatusRole, "status", [](R check) { return check.status; }},
                     {MessageRole, "message", [](R check) { return check.message; }},
                     {DetailsRole, "details", [](R check) { return check.details; }}},
                    TitleRole);
}

int ChecklistModel::failedCount() const
{
    return int(std::count_if(m_rows.all().cbegin(), m_rows.all().cend(),
                             [](const VerifyCheck &check) { return check.status == QLatin1String("failed"); }));
}

QString ChecklistModel::titleOf(const QString &id, const QString &sent)
{
    // The daemon's titles are English; the window says the ones it knows in the user's language.
    if (id == QLatin1String("credential"))
        return tr("The credential variable inside is the sentinel");
    if (id == QLatin1String("blocked"))
        return tr("A domain on no list is refused and logged");
    if (id == QLatin1String("workspace"))
        return tr("A file edited inside appears on the host");
    if (id == QLatin1String("log"))
        return tr("The policy log shows no refusal the policy did not choose");
    if (id == QLatin1String("key"))
        return tr("The key reaches its provider");
    return sent;
}

std::optional<VerifyCheck> VerifyCheck::fromJson(const QJsonObject &check)
{
    QStringList details;
    for (const QJsonValue &detail : check.value(QLatin1String("details")).toArray())
        details << detail.toString();
    const QString id = check.value(QLatin1String("id")).toString();
    if (id.isEmpty())
        return std::nullopt;
    return VerifyCheck{id, ChecklistModel::titleOf(id, check.value(QLatin1String("title")).toString()),
                       check.value(QLatin1String("status")).toString(),
                       check.value(QLatin1String("message")).toString(), details.join(QLatin1Char('\n'))};
}

void ChecklistModel::clear()
{
    if (!m_rows.all().isEmpty())
        m_rows.reset({});
}

void ChecklistModel::applyCheck(const QJsonObject &check)
{
    const std::optional<VerifyCheck> row = VerifyCheck::fromJson(check);
    if (!row)
        return;
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id != row->id)
            continue;
        m_rows.replaceAt(i, *row);
        Q_EMIT countChanged(); // failedCount may change
        return;
    }
    m_rows.insertAt(int(m_rows.size()), *row);
}

void ChecklistModel::applyResult(const QJsonObject &result)
{
    m_rows.reset(Rows<VerifyCheck>::fromJson(result.value(QLatin1String("checks")).toArray()));
}

} // namespace paddock::gui
